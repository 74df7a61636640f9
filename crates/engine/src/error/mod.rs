//! The engine's errors: [`ConfigError`] (the run cannot start) and [`SimError`] (a run
//! that had to stop), each with a `code()` and a `help()` like the netlist's errors.
//!
//! Messages start lowercase, carry no trailing period and use netlist names; the help line
//! says what to do. `Display` renders the message and then `help: ...` on its own line.

mod bytes;
mod config;
mod sim;
mod trace_file;

#[cfg(test)]
pub(crate) use bytes::bytes_text;
pub use config::ConfigError;
pub use sim::{SimError, WaitingVc, EJECTION_BUFFER};
pub use trace_file::TraceFileError;
