//! flitsim-engine: a network of IQ routers and terminals assembled from a netlist and
//! simulated cycle by cycle, with its traffic, statistics and run-time checks.
//!
//! ```text
//!  Terminal t_i --injection channel (Lt)--> [router r_i] --channel (L)--> [router r_j] ...
//!      ^  source queue, Bernoulli(rate)          |  ^                       |
//!      |                                         v  | credits (L)           v
//!      +<------------- ejection channel (Lt) ----+  +-----------------------+
//! ```
//!
//! The phase contract: components talk only through channels of latency >= 1, so a
//! cycle is phase 1 (every component reads what arrives and computes) then phase 2
//! (every partition writes what it sent). No component sees another's writes of the same
//! cycle, so the stepping order and the thread count never change a result.
//!
//! The crate's map:
//! - the runtime: `network` (the partitions of wired routers and terminals, and
//!   `assemble`, which builds them from a netlist), [`channel`] (delay lines), `cycle`
//!   (the two phases), `parallel` (the cycle loops and windows), `sim` ([`Simulation`]),
//!   `calendar` (idle terminals by the cycle they wake in), `switching` (the checks and
//!   counters of the switching techniques);
//! - `setup`: the memory estimate that refuses a network too large, and the zero-load
//!   latency ([`zero_load`], [`zero_load_mean`]), which report their progress to a
//!   [`SetupProgress`] (`setup_progress`);
//! - `checks`: conservation after every cycle (debug builds) and the deadlock watchdog;
//! - the leaves: [`terminal`], [`injection`], [`traffic`], [`length`], [`latency`],
//!   [`rng`], [`stats`], [`trace`], and [`error`] ([`ConfigError`], [`SimError`]).
//!
//! ```no_run
//! use flitsim_engine::{SimConfig, Simulation};
//! # fn demo(netlist: &flitsim_netlist::Netlist) -> Result<(), flitsim_engine::ConfigError> {
//! let config = SimConfig { rate: 0.01, length: 4, ..SimConfig::default() };
//! let report = Simulation::new(netlist, &config)?.run();
//! println!("mean latency {:?} cycles", report.latency.mean);
//! # Ok(()) }
//! ```
#![warn(missing_docs)]

mod calendar;
pub mod channel;
mod checks;
mod cycle;
pub mod error;
pub mod injection;
pub mod latency;
pub mod length;
mod network;
mod parallel;
pub mod rng;
mod setup;
mod setup_progress;
mod sim;
pub mod stats;
mod switching;
pub mod terminal;
pub mod trace;
pub mod traffic;

pub use channel::{Channel, DelayLine, DelayLines};
pub use error::{ConfigError, SimError, WaitingVc, EJECTION_BUFFER};
pub use injection::InjectionProcess;
pub use latency::{LatencyDef, LatencyFrom, LatencyTo};
pub use length::LengthDist;
pub use parallel::WINDOW_CYCLES;
pub use setup::zero_load;
pub use setup::zero_load::mean as zero_load_mean;
pub use setup_progress::SetupProgress;
pub use sim::channel_times::ChannelTimes;
pub use sim::{
    auto_threads, run, useful_workers, Perf, SimConfig, Simulation, SwitchingStats,
    ROUTERS_PER_THREAD,
};
pub use stats::{RunReport, TerminalStats, Window};
pub use terminal::Delivery;
pub use traffic::TrafficKind;
pub use zero_load::{zero_load_latency_pair, zero_load_latency_uniform, zero_load_route};
