//! Statistics: integer counters per terminal during the run (`counters`), a sampled
//! output series (`series`), turned into means, rates and intervals only at report time
//! (`report`).
//!
//! Methodology (docs/measurement.md): the terminals' counters are merged every
//! `batch_cycles` cycles into a [`series::Sample`]. In automatic mode the warm-up ends when
//! MSER-5 ([`warmup`]) finds the end of the transient in the latency series; packets
//! generated from then on are measured until the batch-means 95% interval of the mean
//! latency ([`batch_means`]) is narrower than the target, or the cycle budget runs out.
//! With `--warmup`/`--cycles` the window `[warmup, warmup + cycles)` is fixed instead. After
//! the window the network keeps running with the same traffic (so measured packets see the
//! same load) until every measured packet is delivered or the drain bound is reached. The
//! saturation verdict ([`series::saturation`]) stops a run whose source queues grow
//! without bound.

pub mod batch_means;
pub mod buffer;
pub mod channel;
mod counters;
pub mod distribution;
pub mod histogram;
pub mod measurement;
pub(crate) mod report;
pub mod series;
pub mod warmup;

pub use counters::{TerminalStats, Window};
pub use distribution::{Distribution, Distributions, DistributionsReport, Percentile};
pub use measurement::{AutoConfig, MeasureOutcome, Measurement};
pub use report::{
    Accepted, CycleCounts, DeadlockReport, Latency, Little, Mean, Offered, Packets, RunReport,
};
