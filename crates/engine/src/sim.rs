//! The simulation: an assembled network, the clock, the measurement window, the watchdog.

use crate::assemble::{self, Network};
use crate::conservation;
use crate::cycle;
use crate::error::{ConfigError, SimError};
use crate::length::LengthDist;
use crate::stats::report::ReportInputs;
use crate::stats::{AutoConfig, MeasureOutcome, RunReport, TerminalStats, Window};
use crate::terminal::{Delivery, TerminalConfig};
use crate::trace::{TraceEvent, TraceNames, Tracer};
use crate::traffic::{self, TrafficKind};
use crate::watchdog::{self, Watchdog};
use crate::zero_load;
use flitsim_netlist::{Cycle, Netlist, TerminalId};
use serde::Serialize;

mod measure;
mod occupancy;

/// How to run: traffic, phases, seed, watchdog. Router and channel parameters come from
/// the netlist (apply overrides with `Netlist::set` first).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SimConfig {
    /// Packets generated per terminal per cycle (Bernoulli probability), in `[0, 1]`.
    /// Default 0.01.
    pub rate: f64,
    /// Flits per packet (>= 1) when `length_dist` is `None`. Default 1.
    pub length: u32,
    /// Packet length distribution (`--length M|exp:MEAN|mix:M1,M2,P1`); `None` means the
    /// fixed `length`. Default `None`.
    pub length_dist: Option<LengthDist>,
    /// Destination pattern. Default uniform.
    pub traffic: TrafficKind,
    /// Warm-up cycles before the measurement window. Default 1000.
    pub warmup: u64,
    /// Measurement window length in cycles. Default 10000.
    pub cycles: u64,
    /// At most this many cycles after the window to deliver the measured packets (or,
    /// with `drain_all`, every packet). Default 10000.
    pub drain: u64,
    /// `--drain`: after the window stop generating and run until every generated packet
    /// has been delivered, at most `drain` cycles (the report says whether the limit was
    /// hit). Default off: traffic continues during the drain of the measured packets.
    pub drain_all: bool,
    /// Run seed: every component's random stream derives from it. Default 1.
    pub seed: u64,
    /// Cycles without any flit moving (while flits are in the network) before the run
    /// stops with a deadlock report; 0 disables the watchdog. Default 2000.
    pub watchdog: u64,
    /// Keep a record of every delivered packet (`Simulation::take_deliveries`). Default off.
    pub record_deliveries: bool,
    /// Cycles a packet dropped by a timeout reset waits at its source before it may be
    /// sent again (`--backoff`; paper 003's constant retransmission delay). Default 0.
    pub backoff: u64,
    /// `Some`: detect the warm-up and measure to a confidence target (then `warmup` and
    /// `cycles` are ignored); `None`: the fixed window of `warmup` and `cycles`. Default `None`.
    pub auto: Option<AutoConfig>,
    /// End the run as soon as the saturation verdict is reached (the CLI does). Default off.
    pub stop_on_saturation: bool,
}

impl Default for SimConfig {
    fn default() -> Self {
        SimConfig {
            rate: 0.01,
            length: 1,
            length_dist: None,
            traffic: TrafficKind::Uniform,
            warmup: 1000,
            cycles: 10_000,
            drain: 10_000,
            drain_all: false,
            seed: 1,
            watchdog: 2000,
            record_deliveries: false,
            backoff: 0,
            auto: None,
            stop_on_saturation: false,
        }
    }
}

impl SimConfig {
    /// Checks the values that are not the netlist's business.
    ///
    /// # Errors
    /// `RateOutOfRange` or `ZeroLength`.
    pub fn validate(&self) -> Result<(), ConfigError> {
        if !(0.0..=1.0).contains(&self.rate) {
            return Err(ConfigError::RateOutOfRange { rate: self.rate });
        }
        if self.length == 0 {
            return Err(ConfigError::ZeroLength);
        }
        self.lengths().validate()
    }

    /// The packet length distribution: `length_dist`, or the fixed `length`.
    pub fn lengths(&self) -> LengthDist {
        self.length_dist.unwrap_or(LengthDist::Fixed(self.length))
    }

    /// The measurement window `[warmup, warmup + cycles)`.
    pub fn window(&self) -> Window {
        Window {
            start: Cycle(self.warmup),
            end: Cycle(self.warmup + self.cycles),
        }
    }
}

/// A network being simulated.
pub struct Simulation {
    net: Network,
    config: SimConfig,
    window: Window,
    now: Cycle,
    watchdog: Watchdog,
    flits_injected: u64,
    flits_consumed: u64,
    flits_discarded: u64,
    router_steps: u64,
    zero_load_latency: f64,
    error: Option<SimError>,
    drain_limit_hit: bool,
    /// Trace collector and names (`None`: tracing off).
    trace: Option<(Tracer, TraceNames)>,
    outcome: MeasureOutcome,
    /// Cycle the router counters were last reset (the window opened).
    stats_start: Cycle,
}

impl Simulation {
    /// Assembles `netlist` for a run configured by `config`.
    ///
    /// # Errors
    /// A bad configuration or a routing function that does not fit the netlist.
    pub fn new(netlist: &Netlist, config: &SimConfig) -> Result<Simulation, ConfigError> {
        config.validate()?;
        let lengths = config.lengths();
        crate::switching::check_depth(netlist, &lengths)?;
        let pattern = traffic::build(&config.traffic, netlist, config.seed)?;
        let trace = match config.traffic.trace_file() {
            Some(path) => Some(traffic::trace::load(path, netlist.num_terminals())?),
            None => None,
        };
        let tc = TerminalConfig {
            rate: config.rate,
            length: lengths,
            window: config.window(),
            stop_generating: config.drain_all.then(|| config.window().end),
            record_deliveries: config.record_deliveries,
            backoff: config.backoff,
        };
        let mut net = assemble::assemble(netlist, &tc, &pattern, config.seed)?;
        if let Some(events) = trace {
            let mut per: Vec<Vec<traffic::TraceEvent>> = vec![Vec::new(); net.terminals.len()];
            for e in events {
                per[e.source.index()].push(e);
            }
            for (t, ev) in net.terminals.iter_mut().zip(per) {
                t.terminal.set_schedule(ev);
            }
        }
        let zero_load_latency = net.routing.as_ref().map_or(0.0, |f| {
            // T0 is affine in the length: evaluate at 1 and 2 flits, extend to the mean.
            let t1 = zero_load::zero_load_latency_uniform(netlist, f.as_ref(), 1);
            let t2 = zero_load::zero_load_latency_uniform(netlist, f.as_ref(), 2);
            t1 + (t2 - t1) * (lengths.mean() - 1.0)
        });
        Ok(Simulation {
            net,
            config: config.clone(),
            window: config.window(),
            now: Cycle(0),
            watchdog: Watchdog::new(config.watchdog),
            flits_injected: 0,
            flits_consumed: 0,
            flits_discarded: 0,
            router_steps: 0,
            zero_load_latency,
            error: None,
            drain_limit_hit: false,
            trace: None,
            outcome: MeasureOutcome::default(),
            stats_start: Cycle(0),
        })
    }

    /// The next cycle to be simulated.
    pub fn now(&self) -> Cycle {
        self.now
    }

    /// The configuration.
    pub fn config(&self) -> &SimConfig {
        &self.config
    }

    /// Simulates one cycle.
    ///
    /// # Errors
    /// `SimError::Deadlock`/`Stalled` when the watchdog fires (then every later call
    /// returns the same error without simulating).
    pub fn step(&mut self) -> Result<(), SimError> {
        if let Some(e) = &self.error {
            return Err(e.clone());
        }
        let now = self.now;
        let all = 0..self.net.routers.len();
        let act = cycle::compute(now, all.clone(), &mut self.net);
        cycle::write(now, all, &mut self.net);
        self.flits_injected += act.injected;
        self.flits_consumed += act.consumed;
        self.flits_discarded += act.discarded;
        self.router_steps += act.stepped;
        if let Some((t, _)) = &mut self.trace {
            t.collect(now, &mut self.net);
        }
        self.now = now.plus(1);
        if cfg!(debug_assertions) {
            conservation::check(
                now,
                &self.net,
                self.flits_injected,
                self.flits_consumed + self.flits_discarded,
            );
        }
        if self
            .watchdog
            .observe(now, act.moved(), self.flits_in_network())
        {
            let e = watchdog::diagnose(now, self.watchdog.idle(now), &self.net);
            if let Some((t, names)) = &mut self.trace {
                t.verdict(now, names, &e);
            }
            self.error = Some(e.clone());
            return Err(e);
        }
        Ok(())
    }

    /// Simulates `cycles` cycles.
    ///
    /// # Errors
    /// As [`Simulation::step`].
    pub fn run_for(&mut self, cycles: u64) -> Result<(), SimError> {
        for _ in 0..cycles {
            self.step()?;
        }
        Ok(())
    }

    /// Simulates until no packet is queued or in the network, at most `max` cycles.
    /// Returns whether the network became idle.
    ///
    /// # Errors
    /// As [`Simulation::step`].
    pub fn run_until_idle(&mut self, max: u64) -> Result<bool, SimError> {
        for _ in 0..max {
            if self.is_idle() {
                return Ok(true);
            }
            self.step()?;
        }
        Ok(self.is_idle())
    }

    /// Warm-up, measurement window, then drain of the measured packets (bounded by
    /// `config.drain`). A watchdog stop ends the run early; the report then carries it in
    /// `deadlock`.
    pub fn run(&mut self) -> RunReport {
        let _ = self.run_phases();
        self.report()
    }

    fn run_phases(&mut self) -> Result<(), SimError> {
        if self.config.auto.is_some() {
            self.measure_auto()?;
        } else {
            self.measure_fixed()?;
        }
        if self.outcome.saturated.is_some() && self.config.stop_on_saturation {
            return Ok(());
        }
        let limit = self.window.end.0 + self.config.drain;
        if self.config.drain_all {
            while self.now.0 < limit && !self.is_idle() {
                self.step()?;
            }
            self.drain_limit_hit = !self.is_idle();
            return Ok(());
        }
        while self.now.0 < limit && !self.measured_drained() {
            self.step()?;
        }
        Ok(())
    }

    /// With `drain_all`: did the drain stop at its cycle limit with packets still
    /// undelivered?
    pub fn drain_limit_hit(&self) -> bool {
        self.drain_limit_hit
    }

    fn measured_drained(&self) -> bool {
        let s = self.stats();
        s.measured_generated == s.measured_delivered
    }

    /// Puts a packet from `src` to `dest` of `len` flits into `src`'s source queue, as
    /// generated at the current cycle (scripted traffic, tests).
    pub fn enqueue(&mut self, src: TerminalId, dest: TerminalId, len: u32) {
        self.net.terminals[src.index()]
            .terminal
            .enqueue(self.now, dest, len);
    }

    /// Turns cycle tracing on from the next cycle (see [`crate::trace`]); the events
    /// accumulate until [`Simulation::take_trace`]. Calling it again changes nothing.
    pub fn enable_trace(&mut self) {
        if self.trace.is_none() {
            let names = TraceNames::of_network(&self.net);
            self.trace = Some((Tracer::start(&mut self.net), names));
        }
    }

    /// The trace events since the last call, sorted by (cycle, component, sequence);
    /// empty when tracing is off.
    pub fn take_trace(&mut self) -> Vec<TraceEvent> {
        self.trace
            .as_mut()
            .map(|(t, _)| t.take())
            .unwrap_or_default()
    }

    /// The names that render this network's trace events (`None` when tracing is off).
    pub fn trace_names(&self) -> Option<&TraceNames> {
        self.trace.as_ref().map(|(_, n)| n)
    }

    /// Flits injected but not yet consumed or discarded (in channels and routers).
    pub fn flits_in_network(&self) -> u64 {
        self.flits_injected - self.flits_consumed - self.flits_discarded
    }

    /// Timeout-reset counters of the whole run so far (see [`SwitchingStats`]).
    pub fn switching_stats(&self) -> SwitchingStats {
        let mut s = SwitchingStats::default();
        for r in &self.net.routers {
            let c = r.router.reset_counters();
            s.timeouts += c.timeouts;
            s.flits_discarded += c.flits_discarded;
        }
        for t in &self.net.terminals {
            s.retransmissions += t.terminal.retransmissions();
            s.requeued += t.terminal.resets();
        }
        s
    }

    /// Every credit home, every buffer and channel empty (no flit, credit or reset
    /// anywhere): what a fully drained network must look like.
    pub fn network_is_empty(&self) -> bool {
        self.net
            .routers
            .iter()
            .all(|r| r.router.is_quiescent() && r.router.all_credits_home())
            && self.net.channels.iter().all(|c| {
                c.flits_in_flight() == 0 && c.credits_in_flight() == 0 && c.resets_in_flight() == 0
            })
            && self.net.terminals.iter().all(|t| {
                (0..t.terminal.vcs())
                    .all(|v| t.terminal.outstanding(flitsim_netlist::VcId(v as u8)) == 0)
            })
    }

    /// No flit in the network and no packet waiting in any source queue.
    pub fn is_idle(&self) -> bool {
        self.flits_in_network() == 0
            && self
                .net
                .terminals
                .iter()
                .all(|t| t.terminal.source_queue_len() == 0 && t.terminal.scheduled() == 0)
    }

    /// Idle (see [`Simulation::is_idle`]) and also no credit on any channel and nothing
    /// left inside any router: further cycles without new packets change nothing.
    pub fn is_settled(&self) -> bool {
        self.is_idle()
            && self.net.routers.iter().all(|r| r.router.is_quiescent())
            && self.net.channels.iter().all(|c| c.credits_in_flight() == 0)
    }

    /// Terminal counters merged in id order.
    pub fn stats(&self) -> TerminalStats {
        let mut s = TerminalStats::default();
        for t in &self.net.terminals {
            s.merge(t.terminal.stats());
        }
        s
    }

    /// Delivered packets recorded since the last call (needs `record_deliveries`), in
    /// terminal id order, then consumption order.
    pub fn take_deliveries(&mut self) -> Vec<Delivery> {
        self.net
            .terminals
            .iter_mut()
            .flat_map(|t| t.terminal.take_deliveries())
            .collect()
    }

    /// Router steps actually executed (quiescent routers are skipped).
    pub fn router_steps(&self) -> u64 {
        self.router_steps
    }

    /// Router `id`, read-only: for observers that sample router state between cycles
    /// (`flitsim check` samples busy VCs per output port).
    pub fn router(&self, id: flitsim_netlist::RouterId) -> &flitsim_router::Router {
        &self.net.routers[id.index()].router
    }

    /// Number of routers.
    pub fn num_routers(&self) -> usize {
        self.net.routers.len()
    }

    /// The watchdog's error, if it fired.
    pub fn error(&self) -> Option<&SimError> {
        self.error.as_ref()
    }

    /// Mean zero-load latency of this netlist, routing and length under the traffic pattern.
    pub fn zero_load_latency(&self) -> f64 {
        self.zero_load_latency
    }

    /// The measurement procedure's outcome so far (warm-up, intervals, saturation).
    pub fn outcome(&self) -> &MeasureOutcome {
        &self.outcome
    }

    /// Moves the measurement window of every terminal.
    fn set_window(&mut self, window: Window) {
        self.window = window;
        for t in &mut self.net.terminals {
            t.terminal.set_window(window);
        }
    }

    /// The report of the run so far.
    pub fn report(&self) -> RunReport {
        let drain = self.now.0.saturating_sub(self.window.end.0);
        RunReport::new(
            &self.stats(),
            &ReportInputs {
                rate: self.config.rate,
                length: self.config.lengths().mean(),
                terminals: self.net.terminals.len(),
                window: self.window,
                drain,
                total: self.now.0,
                zero_load_latency: self.zero_load_latency,
                error: self.error.as_ref(),
                outcome: &self.outcome,
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

/// Assembles `netlist` and runs warm-up, window and drain.
///
/// # Errors
/// A bad configuration (nothing simulated). A deadlock is not an error here: it is in the
/// report's `deadlock` field.
pub fn run(netlist: &Netlist, config: &SimConfig) -> Result<RunReport, ConfigError> {
    Ok(Simulation::new(netlist, config)?.run())
}
