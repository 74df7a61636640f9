//! Looking at a simulation between cycles: its clock, its speed, whether the network is
//! empty, idle or settled, and one router.

use super::{SimConfig, Simulation};
use crate::cycle::View;
use crate::error::SimError;
use crate::network::PHASE_BUG;
use flitsim_netlist::Cycle;
use serde::Serialize;

/// Speed of a simulation (wall-clock; never part of the deterministic report).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Perf {
    /// Wall-clock seconds spent simulating cycles (assembly excluded).
    pub wall_seconds: f64,
    /// Cycles simulated per second.
    pub cycles_per_second: f64,
    /// Routers x cycles per second (every router counts, stepped or skipped).
    pub router_cycles_per_second: f64,
    /// Flit-router traversals (flits written by routers, ejection included) per second.
    pub flit_hops_per_second: f64,
    /// Worker threads (partitions) used.
    pub threads: usize,
    /// Fraction of the simulated cycles run in serial windows (one thread stepping every
    /// partition; see [`SimConfig::min_parallel_work`]); 1 with one worker.
    pub serial_cycles_fraction: f64,
    /// Workers stepping partitions, averaged over the simulated cycles (each window runs
    /// on as many as its work keeps busy; see [`SimConfig::min_parallel_work`]); 1 with
    /// one worker.
    pub mean_active_workers: f64,
    /// Times the workers met (barriers among several workers): two per cycle in two
    /// phases, one per lookahead window (see [`Perf::lookahead`]); 0 with one worker.
    pub barriers: u64,
    /// Cycles the workers may run between two meetings: the smallest latency of a
    /// channel crossing a partition boundary (1 with one worker, with tracing or with
    /// checks after every cycle).
    pub lookahead: u64,
}

impl Simulation {
    /// The next cycle to be simulated.
    pub fn now(&self) -> Cycle {
        self.now
    }

    /// The configuration.
    pub fn config(&self) -> &SimConfig {
        &self.config
    }

    /// Speed so far.
    pub fn perf(&self) -> Perf {
        let secs = self.wall.as_secs_f64();
        let per_s = |x: f64| if secs > 0.0 { x / secs } else { 0.0 };
        let cycles = self.timed_cycles as f64;
        Perf {
            wall_seconds: secs,
            cycles_per_second: per_s(cycles),
            router_cycles_per_second: per_s(cycles * self.net.len() as f64),
            flit_hops_per_second: per_s(self.totals().router_flits as f64),
            threads: self.net.parts.len(),
            serial_cycles_fraction: match self.net.parts.len() {
                1 => 1.0,
                _ if self.timed_cycles == 0 => 0.0,
                _ => self.windows.serial_cycles as f64 / self.timed_cycles as f64,
            },
            mean_active_workers: match self.net.parts.len() {
                1 => 1.0,
                _ if self.timed_cycles == 0 => 0.0,
                _ => self.windows.worker_cycles as f64 / self.timed_cycles as f64,
            },
            barriers: self.windows.barriers,
            lookahead: match self.trace.is_none() && self.lookahead && !self.config.cycle_checks {
                true => self.cuts.lookahead,
                false => 1,
            },
        }
    }

    /// Every credit home, every buffer and channel empty (no flit, credit or reset
    /// anywhere): what a fully drained network must look like.
    pub fn network_is_empty(&self) -> bool {
        let view = View::new(&self.net);
        view.routers()
            .all(|r| r.router.is_quiescent() && r.router.all_credits_home())
            && (0..self.net.ends.len()).all(|ch| {
                view.flits_on(ch, self.now).next().is_none()
                    && view.credits_on(ch, self.now).next().is_none()
                    && view.resets_on(ch, self.now) == 0
            })
            && view.terminals().all(|t| {
                (0..t.terminal.vcs())
                    .all(|v| t.terminal.outstanding(flitsim_netlist::VcId(v as u8)) == 0)
            })
    }

    /// Flits injected but not yet consumed or discarded (in channels and routers).
    pub fn flits_in_network(&self) -> u64 {
        self.totals().in_network()
    }

    /// No flit in the network or in a terminal's ejection buffer, and no packet waiting in
    /// any source queue.
    pub fn is_idle(&self) -> bool {
        self.flits_in_network() == 0
            && View::new(&self.net).terminals().all(|t| {
                t.terminal.source_queue_len() == 0
                    && t.terminal.scheduled() == 0
                    && t.terminal.ejection_held_total() == 0
            })
    }

    /// Idle (see [`Simulation::is_idle`]) and also no credit on any channel and nothing
    /// left inside any router: further cycles without new packets change nothing.
    pub fn is_settled(&self) -> bool {
        if !self.is_idle() {
            return false;
        }
        let view = View::new(&self.net);
        view.routers().all(|r| r.router.is_quiescent())
            && (0..self.net.ends.len()).all(|ch| view.credits_on(ch, self.now).next().is_none())
    }

    /// Router steps actually executed (quiescent routers are skipped).
    pub fn router_steps(&self) -> u64 {
        self.totals().stepped
    }

    /// Router `id`, read-only: for observers that sample router state between cycles
    /// (`flitsim check` samples busy VCs per output port).
    /// (`&mut self` only to reach the partition without locking; nothing changes.)
    pub fn router(&mut self, id: flitsim_netlist::RouterId) -> &flitsim_router::Router {
        let p = self.net.part_of(id.index());
        let members = self.net.parts[p].members.get_mut().expect(PHASE_BUG);
        &members.routers[id.index() - members.lo].router
    }

    /// Number of routers.
    pub fn num_routers(&self) -> usize {
        self.net.len()
    }

    /// The watchdog's error, if it fired.
    pub fn error(&self) -> Option<&SimError> {
        self.error.as_ref()
    }
}
