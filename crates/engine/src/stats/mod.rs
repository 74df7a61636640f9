//! Statistics: integer counters per terminal during the run (`counters`), turned into
//! means and rates only at report time (`report`).
//!
//! Methodology (for now: fixed warm-up and window set by flags): packets generated during
//! the measurement window `[warmup, warmup + cycles)` are measured. After the window the
//! network keeps running with the same traffic (so measured packets see the same load)
//! until every measured packet is delivered or the drain bound is reached.

mod counters;
pub(crate) mod report;

pub use counters::{TerminalStats, Window};
pub use report::{
    Accepted, CycleCounts, DeadlockReport, Latency, Little, Mean, Offered, Packets, RunReport,
};
