//! Per-channel and per-buffer statistics read from the routers' lazily accumulated
//! counters at report time (merged in id order).

use super::Simulation;
use crate::cycle::View;
use crate::network::PHASE_BUG;
use crate::stats::buffer::BufferStats;
use crate::stats::channel::{self, ChannelClassStats, ChannelStats};
use crate::stats::report::ReportInputs;
use crate::stats::{
    Distributions, DistributionsReport, MeasureOutcome, RunReport, TerminalStats, Window,
};
use crate::terminal::Delivery;
use flitsim_netlist::{Dir, InPort, Netlist, VcId};
use serde::Serialize;

impl Simulation {
    /// Restarts every router's counters at the current cycle (the window opens).
    pub(super) fn reset_router_stats(&mut self) {
        let now = self.now;
        for part in &mut self.net.parts {
            for r in &mut part
                .members
                .get_mut()
                .expect(crate::network::PHASE_BUG)
                .routers
            {
                r.router.reset_stats(now);
            }
        }
        self.stats_start = now;
    }

    /// Cycles the router counters (and so [`Simulation::channel_stats`]) cover: from the
    /// window's opening to now.
    pub fn stats_cycles(&self) -> u64 {
        self.now.0.saturating_sub(self.stats_start.0)
    }

    /// (adaptive hops, hops with a dimension-order reference) of every router since the
    /// window opened (`adaptive_hops_fraction`).
    pub(super) fn adaptive_hops(&self) -> (u64, u64) {
        crate::cycle::View::new(&self.net)
            .routers()
            .fold((0, 0), |(a, h), r| {
                let s = r.router.stats();
                (a + s.adaptive_hops, h + s.reference_hops)
            })
    }

    /// Statistics of every router-to-router channel, in id order, and their averages by
    /// class. `netlist` must be the simulated one (it names ports and directions).
    pub fn channel_stats(&self, netlist: &Netlist) -> (Vec<ChannelStats>, Vec<ChannelClassStats>) {
        let view = crate::cycle::View::new(&self.net);
        let t = self.stats_cycles().max(1) as f64;
        let mut out = Vec::new();
        let mut held = Vec::new();
        for c in netlist.channels() {
            let r = &view.router(c.from.index()).router;
            let from = netlist.router(c.from);
            let to = netlist.router(c.to);
            let port = &from.ports[c.from_port.index()];
            let hist = r.busy_vc_histogram(c.from_port, self.now);
            let total: u64 = hist.iter().sum();
            let p_busy: Vec<f64> = hist
                .iter()
                .map(|&h| {
                    if total > 0 {
                        h as f64 / total as f64
                    } else {
                        0.0
                    }
                })
                .collect();
            let h = r.vc_holding(c.from_port);
            let s = r.stats();
            out.push(ChannelStats {
                id: c.id.0,
                from: format!("{}.{}", from.name, port.name),
                to: format!("{}.{}", to.name, to.ports[c.to_port.index()].name),
                class: port.direction.map_or_else(
                    || "other".to_string(),
                    |(d, dir)| format!("dim{d}{}", if dir == Dir::Plus { '+' } else { '-' }),
                ),
                vcs: to.ports[c.to_port.index()].vcs,
                packets_per_cycle: s.packets_sent[c.from_port.index()] as f64 / t,
                utilization: s.flits_sent[c.from_port.index()] as f64 / t,
                busy_vcs_mean: r.busy_vc_cycles(c.from_port, self.now) as f64 / t,
                p_busy,
                head_arrival_rate: h.allocations as f64 / t,
                holding_time_mean: (h.allocations > 0)
                    .then(|| h.held_cycles as f64 / h.allocations as f64),
                held_fraction: h.held_cycles as f64 / t,
            });
            held.push((h.allocations, h.held_cycles));
        }
        let classes = channel::by_class(&out, &held);
        (out, classes)
    }

    /// Occupancy of every input VC FIFO (routers in id order, then ports, then VCs).
    pub fn buffer_stats(&self, netlist: &Netlist) -> Vec<BufferStats> {
        let view = crate::cycle::View::new(&self.net);
        let t = self.stats_cycles().max(1) as f64;
        let mut out = Vec::new();
        for spec in netlist.routers() {
            let r = &view.router(spec.id.index()).router;
            for (p, port) in spec.ports.iter().enumerate() {
                for v in 0..port.vcs {
                    let o = r.buffer_occupancy(InPort(p as u8), VcId(v), self.now);
                    let cycles = o.cycles();
                    out.push(BufferStats {
                        router: spec.name.clone(),
                        port: port.name.clone(),
                        port_index: p as u8,
                        vc: v,
                        depth: port.buffer_depth.flits(),
                        mean: o.mean(),
                        p99: o.quantile(0.99),
                        max: o.max,
                        histogram: o
                            .histogram
                            .iter()
                            .map(|&c| c as f64 / cycles.max(1) as f64)
                            .collect(),
                        arrival_rate: o.arrivals as f64 / t,
                        residence_mean: (o.departures > 0)
                            .then(|| o.residence_cycles as f64 / o.departures as f64),
                    });
                }
            }
        }
        out
    }

    /// Moves the terminals' histograms of measured packets into the current batch and
    /// closes a sample of the percentile batches.
    pub(super) fn drain_distributions(&mut self) {
        let into = self.dist_batches.current();
        for part in &mut self.net.parts {
            for t in &mut part.members.get_mut().expect(PHASE_BUG).terminals {
                t.terminal.drain_distributions(into);
            }
        }
        self.dist_batches.end_sample();
    }

    /// Percentiles (`SimConfig::percentiles`) and histograms of the measured packets so
    /// far, with batch-means intervals.
    pub fn distributions(&self) -> DistributionsReport {
        let mut pending = Distributions::default();
        for d in View::new(&self.net)
            .terminals()
            .filter_map(|t| t.terminal.distributions())
        {
            pending.merge(d);
        }
        self.dist_batches.report(&pending, &self.config.percentiles)
    }

    /// Terminal counters merged in id order.
    pub fn stats(&self) -> TerminalStats {
        let mut s = TerminalStats::default();
        for t in View::new(&self.net).terminals() {
            s.merge(t.terminal.stats());
        }
        s
    }

    /// Delivered packets recorded since the last call (needs `record_deliveries`), in
    /// terminal id order, then consumption order.
    pub fn take_deliveries(&mut self) -> Vec<Delivery> {
        if let Some(r) = &mut self.replay {
            return r.take_kept();
        }
        let mut out = Vec::new();
        for part in &mut self.net.parts {
            for t in &mut part.members.get_mut().expect(PHASE_BUG).terminals {
                out.extend(t.terminal.take_deliveries());
            }
        }
        out
    }

    /// Mean zero-load latency of this netlist, routing and length under the traffic pattern.
    pub fn zero_load_latency(&self) -> f64 {
        self.zero_load_latency
    }

    /// Half-width (cycles) of the 95% confidence interval of a sampled
    /// [`Simulation::zero_load_latency`]; `None` when it is exact.
    pub fn zero_load_latency_ci(&self) -> Option<f64> {
        self.zero_load_latency_ci
    }

    /// The measurement procedure's outcome so far (warm-up, intervals, saturation).
    pub fn outcome(&self) -> &MeasureOutcome {
        &self.outcome
    }

    /// With `drain_all`: did the drain stop at its cycle limit with packets still
    /// undelivered?
    pub fn drain_limit_hit(&self) -> bool {
        self.drain_limit_hit
    }

    /// Timeout-reset counters of the whole run so far (see [`SwitchingStats`]).
    pub fn switching_stats(&self) -> SwitchingStats {
        let mut s = SwitchingStats::default();
        let view = View::new(&self.net);
        for r in view.routers() {
            let c = r.router.reset_counters();
            s.timeouts += c.timeouts;
            s.flits_discarded += c.flits_discarded;
        }
        for t in view.terminals() {
            s.retransmissions += t.terminal.retransmissions();
            s.requeued += t.terminal.resets();
        }
        s
    }

    /// The report of the run so far.
    pub fn report(&self) -> RunReport {
        // A run stopped early (a deadlock in the warm-up) reports the cycles it reached,
        // not the window it had planned.
        let window = Window {
            start: self.window.start.min(self.now),
            end: self.window.end.min(self.now),
        };
        let drain = self.now.0.saturating_sub(window.end.0);
        RunReport::new(
            &self.stats(),
            &ReportInputs {
                rate: (!self.config.traffic.replays()).then_some(self.config.rate),
                length: self.config.lengths().mean(),
                terminals: self.net.num_terminals(),
                window,
                drain,
                total: self.now.0,
                zero_load_latency: self.zero_load_latency,
                zero_load_latency_ci: self.zero_load_latency_ci,
                error: self.error.as_ref(),
                outcome: &self.outcome,
                adaptive_hops: self.adaptive_hops(),
                distributions: self.distributions(),
            },
        )
    }
}

/// Timeout-reset counters of a run, since cycle 0.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SwitchingStats {
    /// Heads dropped by a router's timer.
    pub timeouts: u64,
    /// Packets their source re-queued after a reset (equals `timeouts` once resets land).
    pub requeued: u64,
    /// Retransmissions started (re-queued packets sent again).
    pub retransmissions: u64,
    /// Flits discarded by routers (dropped packets' flits).
    pub flits_discarded: u64,
}
