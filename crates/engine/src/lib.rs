//! flitsim-engine: network assembly, channels, terminals, traffic, the cycle loop,
//! statistics and the deadlock watchdog.
//!
//! ```text
//!  Terminal t_i --injection channel (Lt)--> [router r_i] --channel (L)--> [router r_j] ...
//!      ^  source queue, Bernoulli(rate)          |  ^                       |
//!      |                                         v  | credits (L)           v
//!      +<------------- ejection channel (Lt) ----+  +-----------------------+
//! ```
//!
//! Every component talks to others only through [`Channel`]s of latency >= 1, so one
//! cycle is two phases (compute, then write; see `cycle.rs`) and the stepping order never
//! matters. Key types: [`Simulation`] (assemble + step + report), [`SimConfig`],
//! [`RunReport`] (what `flitsim run --json` prints), [`SimError`] (watchdog stops),
//! [`ConfigError`].
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
mod conservation;
mod cycle;
pub mod error;
pub mod latency;
pub mod length;
mod memory;
mod network;
mod parallel;
pub mod rng;
mod sim;
pub mod stats;
mod switching;
pub mod terminal;
pub mod trace;
pub mod traffic;
mod watchdog;
pub mod zero_load;
pub mod zero_load_mean;

pub use channel::{Channel, DelayLine, DelayLines};
pub use error::{ConfigError, SimError, WaitingVc};
pub use latency::{LatencyDef, LatencyFrom, LatencyTo};
pub use length::LengthDist;
pub use parallel::WINDOW_CYCLES;
pub use sim::{
    auto_threads, run, useful_workers, Perf, SimConfig, Simulation, SwitchingStats,
    ROUTERS_PER_THREAD,
};
pub use stats::{RunReport, TerminalStats, Window};
pub use terminal::Delivery;
pub use traffic::TrafficKind;
pub use zero_load::{zero_load_latency_pair, zero_load_latency_uniform, zero_load_route};
