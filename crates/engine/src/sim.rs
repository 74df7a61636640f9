//! The simulation: an assembled network, the clock, the measurement window, the watchdog.

use crate::checks::watchdog::{self, Watchdog};
use crate::cycle::View;
use crate::error::{ConfigError, SimError};
use crate::length::LengthDist;
use crate::network::{self, Network, RoutingFunctions, Status, PHASE_BUG};
use crate::parallel::{self, Stop, WindowState};
use crate::setup::memory::{self, MemoryLimit};
use crate::setup::progress::SetupProgress;
use crate::setup::zero_load::mean as zero_load_mean;
use crate::stats::report::ReportInputs;
use crate::stats::{MeasureOutcome, RunReport, TerminalStats, Window};
use crate::terminal::{Delivery, TerminalConfig};
use crate::trace::{TraceEvent, TraceNames, Tracer};
use crate::traffic::{self, TrafficPattern};
use flitsim_netlist::{Cycle, Netlist, TerminalId};
use flitsim_router::routing::RoutingFunction;
use flitsim_router::Stamp;
use serde::Serialize;
use std::sync::Arc;

mod config;
pub(crate) mod link_times;
mod measure;
mod occupancy;
mod packets;
mod replay;

pub use config::{auto_threads, useful_workers, SimConfig, ROUTERS_PER_THREAD};

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

/// A network being simulated.
pub struct Simulation {
    net: Network,
    config: SimConfig,
    window: Window,
    now: Cycle,
    watchdog: Watchdog,
    /// The serial/parallel windows (see [`crate::parallel`]).
    windows: WindowState,
    /// The channel sides crossing partition boundaries.
    cuts: parallel::Cuts,
    /// Lookahead windows allowed (off in tests comparing them with cycles in two phases).
    lookahead: bool,
    zero_load_latency: f64,
    /// Half-width of the 95% interval of a sampled zero-load latency.
    zero_load_latency_ci: Option<f64>,
    error: Option<SimError>,
    drain_limit_hit: bool,
    /// Trace collector and names (`None`: tracing off).
    trace: Option<(Tracer, TraceNames)>,
    outcome: MeasureOutcome,
    /// Cycle the router counters were last reset (the window opened).
    stats_start: Cycle,
    /// Wall-clock time spent in cycles, and the cycles it covers.
    wall: std::time::Duration,
    timed_cycles: u64,
    /// The last cycle the simulation may reach: [`Stamp::LAST`] (lower in unit tests).
    last: Cycle,
    /// A netrace replay's dependencies (`--traffic netrace:FILE`).
    replay: Option<replay::Replay>,
}

impl Simulation {
    /// Assembles `netlist` for a run configured by `config`.
    ///
    /// # Errors
    /// A bad configuration, a routing function that does not fit the netlist, a network
    /// too large for the machine's memory (`ConfigError::NetworkTooLarge`, checked once
    /// the routing functions are built, before the network and the zero-load latency
    /// walk are allocated), or a run that may pass [`Stamp::LAST`] (`RunTooLong`; with
    /// the automatic measurement, counting the batch by which it may overrun
    /// `max_cycles`).
    pub fn new(netlist: &Netlist, config: &SimConfig) -> Result<Simulation, ConfigError> {
        Simulation::with_progress(netlist, config, &())
    }

    /// [`Simulation::new`], telling `progress` each set-up step and the routers assembled.
    ///
    /// # Errors
    /// As [`Simulation::new`].
    pub fn with_progress(
        netlist: &Netlist,
        config: &SimConfig,
        progress: &dyn SetupProgress,
    ) -> Result<Simulation, ConfigError> {
        config.validate()?;
        let lengths = config.lengths();
        crate::switching::check_depth(netlist, &lengths)?;
        crate::switching::check_replies(netlist, config.watchdog)?;
        let pattern = traffic::build(&config.traffic, netlist, config.seed)?;
        let replay = replay::Replay::load(netlist, &config.traffic)?;
        let trace = match &replay {
            Some(r) => Some(checked_depth(netlist, r.packets().to_vec())?),
            None => load_trace(netlist, config)?,
        };
        let mut tc = terminal_config(netlist, config);
        // A replay releases packets as their dependencies are delivered.
        tc.record_deliveries |= replay.is_some();
        let (asked, threads) = worker_counts(netlist, config);
        progress.start("checking the routing functions", 0);
        memory::check_routing(netlist, MemoryLimit::of_machine())?;
        let routings = RoutingFunctions::build(netlist)?;
        let walk = walk_of(&routings, asked);
        memory::check(netlist, threads, walk, MemoryLimit::of_machine())?;
        progress.start("building the network", netlist.num_routers() as u64);
        let assembly = network::Assembly {
            seed: config.seed,
            parts: threads,
            progress,
        };
        let mut net = network::assemble(netlist, &routings, &tc, &pattern, &assembly);
        progress.start("computing the zero-load latency", 0);
        let zero_load = routings.first().map(|f| {
            let walk = ZeroLoadWalk {
                netlist,
                routing: f.as_ref(),
                threads: asked,
                progress,
            };
            walk.mean(config, &pattern, trace.as_deref())
        });
        let zero_load_latency = zero_load.map_or(0.0, |z| z.mean) - terminal_offset(config, &tc);
        match (&replay, trace) {
            (Some(r), _) => schedule_trace(&mut net, r.roots(), true),
            (None, Some(events)) => schedule_trace(&mut net, events, false),
            (None, None) => {}
        }
        let windows = WindowState::new(net.len(), net.parts.len(), config.min_parallel_work);
        let cuts = parallel::Cuts::of(&mut net);
        let sim = Simulation {
            net,
            config: config.clone(),
            window: config.window(),
            now: Cycle(0),
            watchdog: Watchdog::new(config.watchdog),
            windows,
            cuts,
            lookahead: true,
            zero_load_latency,
            zero_load_latency_ci: zero_load.and_then(|z| z.ci95),
            error: None,
            drain_limit_hit: false,
            trace: None,
            outcome: MeasureOutcome::default(),
            stats_start: Cycle(0),
            wall: std::time::Duration::ZERO,
            timed_cycles: 0,
            last: Stamp::LAST,
            replay,
        };
        sim.check_run_length()?;
        Ok(sim)
    }

    /// The bytes [`Simulation::new`] would allocate for `netlist` under `config`: the
    /// memory estimate it checks against the machine's limit (see `setup::memory`).
    ///
    /// # Errors
    /// A routing function that does not fit the netlist.
    pub fn memory_estimate(netlist: &Netlist, config: &SimConfig) -> Result<u64, ConfigError> {
        let (asked, threads) = worker_counts(netlist, config);
        let routings = RoutingFunctions::build(netlist)?;
        let walk = walk_of(&routings, asked);
        Ok(memory::check(netlist, threads, walk, None)?.total())
    }

    /// Refuses a run that may pass [`Stamp::LAST`]. The automatic measurement stops at
    /// the first sample at or past its budget: up to one batch later than
    /// [`SimConfig::validate`] counts.
    fn check_run_length(&self) -> Result<(), ConfigError> {
        let slack = if self.config.auto.is_some() {
            self.batch_cycles()
        } else {
            0
        };
        let cycles = self.config.longest_run() + u128::from(slack);
        if cycles > u128::from(Stamp::LAST.0) {
            return Err(ConfigError::RunTooLong {
                cycles,
                last: Stamp::LAST.0,
            });
        }
        Ok(())
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
    /// `SimError::Deadlock`/`Stalled` when the watchdog fires, `SimError::CycleLimit` when
    /// the simulation reaches [`Stamp::LAST`] (then every later call returns the same error
    /// without simulating).
    pub fn step(&mut self) -> Result<(), SimError> {
        self.advance_until(Stop::At(self.now.plus(1)))
    }

    /// Simulates `cycles` cycles.
    ///
    /// # Errors
    /// As [`Simulation::step`].
    pub fn run_for(&mut self, cycles: u64) -> Result<(), SimError> {
        self.advance_until(Stop::At(Cycle(self.now.0.saturating_add(cycles))))
    }

    /// Simulates until no packet is queued or in the network, at most `max` cycles.
    /// Returns whether the network became idle.
    ///
    /// # Errors
    /// As [`Simulation::step`].
    pub fn run_until_idle(&mut self, max: u64) -> Result<bool, SimError> {
        self.advance_until(Stop::Idle(Cycle(self.now.0.saturating_add(max))))?;
        Ok(self.is_idle())
    }

    /// Warm-up, measurement window, then drain of the measured packets (bounded by
    /// `config.drain`). A watchdog stop ends the run early; the report then carries it in
    /// `deadlock`.
    pub fn run(&mut self) -> RunReport {
        let _ = self.run_phases();
        self.check_last_cycle();
        self.report()
    }

    /// With cycle checks on, checks conservation after the last cycle run: the checks
    /// between cycles may skip it when they are spaced out
    /// ([`crate::checks::conservation::check_every`]).
    fn check_last_cycle(&self) {
        if self.config.cycle_checks && self.now.0 > 0 {
            crate::checks::conservation::check(Cycle(self.now.0 - 1), &View::new(&self.net));
        }
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
        let limit = Cycle(self.window.end.0 + self.config.drain);
        if self.config.drain_all {
            self.advance_until(Stop::Idle(limit))?;
            self.drain_limit_hit = !self.is_idle();
            return Ok(());
        }
        self.advance_until(Stop::Drained(limit))
    }

    /// Runs cycles until `stop` (a netrace replay: see [`replay`]).
    fn advance_until(&mut self, stop: Stop) -> Result<(), SimError> {
        if self.replay.is_some() {
            self.advance_replay(stop)
        } else {
            self.advance_plain(stop)
        }
    }

    /// Runs cycles until `stop` on every partition's worker (see [`crate::parallel`]).
    fn advance_plain(&mut self, stop: Stop) -> Result<(), SimError> {
        if let Some(e) = &self.error {
            return Err(e.clone());
        }
        // No cycle past the flits' 32-bit stamps: a stop beyond the last is brought back
        // to it, and reaching it is an error.
        let (stop, capped) = match stop.capped(self.last) {
            Some(s) => (s, true),
            None => (stop, false),
        };
        // Trials drawn ahead past this run are used by the next one: only those past the
        // drain of the measurement window are likely never to be. Saturating: before an
        // automatic measurement has placed its window, the window ends at `u64::MAX`.
        let drained = Cycle(self.window.end.0.saturating_add(self.config.drain));
        self.publish(stop.end().max(drained));
        let fired = loop {
            let fired = self.advance_once(stop);
            let Some(at) = fired else { break None };
            // Something scheduled (a flit on a long channel, a pipeline delay) is
            // progress: the watchdog counts again from there.
            match View::new(&self.net).busy_until(self.now) {
                Some(until) => self.watchdog.progress_until(until),
                None => break Some(at),
            }
        };
        if let Some(at) = fired {
            let e = watchdog::diagnose(at, self.watchdog.idle(at), &View::new(&self.net));
            if let Some((t, names)) = &mut self.trace {
                t.verdict(at, names, &e);
            }
            self.error = Some(e.clone());
            return Err(e);
        }
        if capped && self.now >= self.last {
            let e = SimError::CycleLimit { cycle: self.now };
            self.error = Some(e.clone());
            return Err(e);
        }
        Ok(())
    }

    /// Runs cycles until `stop` or the watchdog fires (returning the cycle it fired at).
    fn advance_once(&mut self, stop: Stop) -> Option<Cycle> {
        let t0 = std::time::Instant::now();
        let start = self.now;
        let out = parallel::run(
            &self.net,
            start,
            stop,
            &self.watchdog,
            self.windows,
            parallel::Options {
                min_work: self.config.min_parallel_work,
                checks: self.config.cycle_checks,
                cuts: &self.cuts,
                lookahead: self.trace.is_none() && self.lookahead,
            },
        );
        self.wall += t0.elapsed();
        self.timed_cycles += out.now.0 - start.0;
        self.now = out.now;
        // Idle terminals skipped cycles: bring their window areas up to now.
        for part in &mut self.net.parts {
            for t in &mut part.nodes.get_mut().expect(PHASE_BUG).terminals {
                t.terminal.settle(self.now);
            }
        }
        self.watchdog = out.watchdog;
        self.windows = out.windows;
        out.fired
    }

    /// With `drain_all`: did the drain stop at its cycle limit with packets still
    /// undelivered?
    pub fn drain_limit_hit(&self) -> bool {
        self.drain_limit_hit
    }

    /// Prepares every partition for a run ending before `end` at the latest and
    /// republishes its terminal-derived counters (a packet may have been enqueued, or a
    /// router looked at, since the last cycle).
    fn publish(&mut self, end: Cycle) {
        for part in &mut self.net.parts {
            let nodes = part.nodes.get_mut().expect(PHASE_BUG);
            crate::cycle::start(nodes, end);
            let status = nodes.status;
            part.lines.get_mut().expect(PHASE_BUG).status = status;
        }
    }

    /// Every partition's counters, summed in id order.
    fn totals(&self) -> Status {
        let mut s = Status::default();
        for part in &self.net.parts {
            s.merge(&part.lines.try_read().expect(PHASE_BUG).status);
        }
        s
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

    /// Puts a packet from `src` to `dest` of `len` flits into `src`'s source queue, as
    /// generated at the current cycle (scripted traffic, tests).
    pub fn enqueue(&mut self, src: TerminalId, dest: TerminalId, len: u32) {
        let p = self.net.part_of_terminal(src.index());
        let nodes = self.net.parts[p].nodes.get_mut().expect(PHASE_BUG);
        let lo = nodes.terminal_lo;
        nodes.terminals[src.index() - lo]
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
            .map(|(t, _)| t.take(&mut self.net))
            .unwrap_or_default()
    }

    /// The names that render this network's trace events (`None` when tracing is off).
    pub fn trace_names(&self) -> Option<&TraceNames> {
        self.trace.as_ref().map(|(_, n)| n)
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
            for t in &mut part.nodes.get_mut().expect(PHASE_BUG).terminals {
                out.extend(t.terminal.take_deliveries());
            }
        }
        out
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
        let nodes = self.net.parts[p].nodes.get_mut().expect(PHASE_BUG);
        &nodes.routers[id.index() - nodes.lo].router
    }

    /// Number of routers.
    pub fn num_routers(&self) -> usize {
        self.net.len()
    }

    /// The watchdog's error, if it fired.
    pub fn error(&self) -> Option<&SimError> {
        self.error.as_ref()
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

    /// Moves the measurement window of every terminal.
    fn set_window(&mut self, window: Window) {
        self.window = window;
        for part in &mut self.net.parts {
            for t in &mut part.nodes.get_mut().expect(PHASE_BUG).terminals {
                t.terminal.set_window(window);
            }
        }
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
            },
        )
    }
}

/// The trace file's packets, if the traffic is a trace; they meet the same switching
/// limits as `--length`.
fn load_trace(
    netlist: &Netlist,
    config: &SimConfig,
) -> Result<Option<Vec<traffic::TracePacket>>, ConfigError> {
    let Some(path) = config.traffic.trace_file() else {
        return Ok(None);
    };
    let trace = traffic::trace::load(path, netlist.num_terminals())?;
    Ok(Some(checked_depth(netlist, trace)?))
}

/// `trace`, once its longest packet is known to fit the switching's buffers.
fn checked_depth(
    netlist: &Netlist,
    trace: Vec<traffic::TracePacket>,
) -> Result<Vec<traffic::TracePacket>, ConfigError> {
    if let Some(longest) = trace.iter().map(|e| e.len).max() {
        crate::switching::check_depth(netlist, &LengthDist::Fixed(longest))?;
    }
    Ok(trace)
}

/// What every terminal of `netlist` is configured with for a run of `config`.
fn terminal_config(netlist: &Netlist, config: &SimConfig) -> TerminalConfig {
    TerminalConfig {
        rate: config.rate,
        injection: config.injection,
        length: config.lengths(),
        window: config.window(),
        stop_generating: config.drain_all.then(|| config.window().end),
        record_deliveries: config.record_deliveries,
        backoff: config.backoff,
        latency: config.latency,
        terminal_latency: netlist.routers().map(|r| r.terminal_latency).collect(),
    }
}

/// Hands each terminal of `net` its packets of the trace `events`; with `tags`, each
/// terminal keeps the tags of the packets it generates.
fn schedule_trace(net: &mut Network, events: Vec<traffic::TracePacket>, tags: bool) {
    let mut per: Vec<Vec<traffic::TracePacket>> = vec![Vec::new(); net.num_terminals()];
    for e in events {
        per[e.source.index()].push(e);
    }
    let mut per = per.into_iter();
    for part in &mut net.parts {
        let nodes = part.nodes.get_mut().expect(PHASE_BUG);
        for (t, ev) in nodes.terminals.iter_mut().zip(per.by_ref()) {
            t.terminal.set_schedule(ev);
            if tags {
                t.terminal.keep_tags();
            }
        }
    }
}

/// The zero-load latency walk of a netlist on one routing function, split over `threads`.
struct ZeroLoadWalk<'a> {
    netlist: &'a Netlist,
    routing: &'a dyn RoutingFunction,
    threads: usize,
    progress: &'a dyn SetupProgress,
}

impl ZeroLoadWalk<'_> {
    /// The mean zero-load latency over the pattern's own destinations (or the trace's
    /// packets), terminal channels included. The walk splits the destinations over the
    /// threads asked (integer sums: the same for any count), also where the run itself
    /// keeps fewer workers.
    fn mean(
        &self,
        config: &SimConfig,
        pattern: &Arc<dyn TrafficPattern>,
        trace: Option<&[traffic::TracePacket]>,
    ) -> zero_load_mean::ZeroLoadMean {
        match trace {
            Some(events) => zero_load_mean::ZeroLoadMean {
                mean: zero_load_mean::mean_over_events(self.netlist, self.routing, events),
                ci95: None,
            },
            None => zero_load_mean::mean_over_mix(
                self.netlist,
                self.routing,
                &pattern.mix(),
                self.threads,
                config.lengths().mean(),
                self.progress,
            ),
        }
    }
}

/// What `config`'s latency definition leaves out of the zero-load latency at either end.
/// Every terminal is a source and a destination equally often: the mean terminal latency.
fn terminal_offset(config: &SimConfig, tc: &TerminalConfig) -> f64 {
    let lt = tc
        .terminal_latency
        .iter()
        .map(|&l| f64::from(l))
        .sum::<f64>()
        / tc.terminal_latency.len().max(1) as f64;
    config.latency.zero_load_offset(lt, lt)
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

#[cfg(test)]
mod cycle_limit_tests;
#[cfg(test)]
mod lookahead_tests;
#[cfg(test)]
mod stall_tests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod window_policy_tests;

/// The threads asked for (`--threads`, or the default for the network's size) and the
/// workers that will run.
fn worker_counts(netlist: &Netlist, config: &SimConfig) -> (usize, usize) {
    let asked = match config.threads {
        0 => auto_threads(netlist.num_routers()),
        n => n,
    };
    let threads = useful_workers(asked, netlist.num_routers(), config.min_parallel_work);
    (asked, threads)
}

/// What sizes the zero-load latency walk `Simulation::new` runs after assembly: router
/// 0's function over the threads `asked` (its memos add to the network's).
fn walk_of(routings: &RoutingFunctions, asked: usize) -> memory::Walk {
    memory::Walk {
        dimension_order: routings.first().is_some_and(|f| f.is_dimension_order()),
        threads: asked,
    }
}
