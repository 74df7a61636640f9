//! Building a simulation: the configuration checked, the memory estimate, the network
//! assembled, the zero-load latency computed, and a trace's packets scheduled.

use super::{auto_threads, useful_workers, SimConfig, Simulation};
use crate::checks::watchdog::Watchdog;
use crate::error::ConfigError;
use crate::length::LengthDist;
use crate::network::{self, Network, RoutingFunctions, PHASE_BUG};
use crate::parallel::{self, WindowState};
use crate::setup::memory::{self, MemoryLimit};
use crate::setup::zero_load::mean as zero_load_mean;
use crate::setup_progress::SetupProgress;
use crate::stats::MeasureOutcome;
use crate::terminal::TerminalConfig;
use crate::traffic::{self, TrafficPattern};
use flitsim_netlist::{Cycle, Netlist};
use flitsim_router::Stamp;
use flitsim_routing::RoutingFunction;
use std::sync::Arc;

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
        let replay = super::replay::Replay::load(netlist, &config.traffic)?;
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
            dist_batches: Default::default(),
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
        let members = part.members.get_mut().expect(PHASE_BUG);
        for (t, ev) in members.terminals.iter_mut().zip(per.by_ref()) {
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
