//! The simulation: an assembled network, the clock, the measurement window, the watchdog.
//!
//! Its methods, one file per concern:
//! - `build.rs`: [`Simulation::new`], [`Simulation::with_progress`],
//!   [`Simulation::memory_estimate`];
//! - `running.rs`: [`Simulation::step`], [`Simulation::run_for`],
//!   [`Simulation::run_until_idle`], [`Simulation::run`], [`Simulation::enqueue`];
//! - `procedure.rs`: the measurement procedure [`Simulation::run`] follows (warm-up,
//!   window, confidence target, saturation);
//! - `inspect.rs`: the state between cycles ([`Simulation::now`], [`Simulation::is_idle`],
//!   [`Simulation::perf`], [`Simulation::router`], ...);
//! - `results.rs`: what the run measured ([`Simulation::report`], [`Simulation::stats`],
//!   [`Simulation::channel_stats`], [`Simulation::buffer_stats`], ...);
//! - `tracing.rs`: [`Simulation::enable_trace`], [`Simulation::take_trace`]; `tracer.rs` the
//!   tracer it keeps;
//! - `channel_times.rs`: [`Simulation::enable_channel_times`],
//!   [`Simulation::channel_times`];
//! - `replay.rs`: a netrace replay's dependencies, released between cycles;
//! - `config.rs`: [`SimConfig`].

use crate::checks::watchdog::Watchdog;
use crate::error::{ConfigError, SimError};
use crate::network::Network;
use crate::parallel::{self, WindowState};
use crate::stats::distribution::PercentileBatches;
use crate::stats::{MeasureOutcome, RunReport, Window};
use crate::trace::TraceNames;
use flitsim_netlist::{Cycle, Netlist};
use tracer::Tracer;

mod activity;
mod build;
pub(crate) mod channel_times;
mod config;
mod inspect;
mod packets;
mod procedure;
mod replay;
mod results;
mod running;
mod tracer;
mod tracing;

pub use config::{auto_threads, useful_workers, SimConfig, ROUTERS_PER_THREAD};
pub use inspect::Perf;
pub use results::SwitchingStats;

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
    /// The measured packets' histograms drained from the terminals, by batch.
    dist_batches: PercentileBatches,
    /// Cycle the router counters were last reset (the window opened).
    stats_start: Cycle,
    /// Wall-clock time spent in cycles, and the cycles it covers.
    wall: std::time::Duration,
    timed_cycles: u64,
    /// The last cycle the simulation may reach: [`flitsim_router::Stamp::LAST`] (lower in
    /// unit tests).
    last: Cycle,
    /// A netrace replay's dependencies (`--traffic netrace:FILE`).
    replay: Option<replay::Replay>,
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
