//! Cycle traces.
//!
//! With tracing on ([`crate::Simulation::enable_trace`]), every router appends what it
//! does in a step to its own buffer (`flitsim_router::probe`), and every terminal to its
//! own; after each cycle (in phase 2) each partition's worker collects its components'
//! buffers (`cycle/trace.rs`) in component id order into the partition's event list,
//! stamped with the cycle; [`crate::Simulation::take_trace`] merges the partitions' lists and the watchdog's
//! verdicts by (cycle, component) with a stable sort, so the trace is sorted by (cycle,
//! component, sequence) and is the same for any thread count and stepping order. Off, a router
//! step pays one `Option` check per stage and a terminal step one.
//!
//! - [`event`]: [`TraceEvent`] and the netlist names ([`TraceNames`]) to render it;
//! - [`filter`]: [`TraceFilter`] (cycle range, routers, packets);
//! - [`text`]: the documented, stable text form (one event per line);
//! - [`vcd`]: value change dump for waveform viewers.

pub mod event;
pub mod filter;
mod part;
pub mod text;
pub mod vcd;

pub use event::{Component, EventKind, Peer, TerminalEvent, TraceEvent, TraceNames, Verdict};
pub use filter::TraceFilter;
pub(crate) use part::PartTrace;
