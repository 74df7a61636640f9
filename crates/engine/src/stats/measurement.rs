//! What the measurement procedure decided (warm-up, convergence, saturation) and how it
//! is reported (`measurement` in `--json`). The procedure itself is in `sim/procedure.rs`.

use super::batch_means::{Interval, BATCHES};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;

/// Automatic measurement: warm-up detected by MSER-5, measurement until the 95%
/// confidence half-width of the mean latency is below `ci_target` x mean, or `max_cycles`.
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AutoConfig {
    /// Target relative half-width of the 95% interval of the mean latency. Default 0.02.
    pub ci_target: f64,
    /// Cycle budget for warm-up plus measurement (the drain comes on top). Warm-up may
    /// use at most half of it. Default 200 000.
    pub max_cycles: u64,
    /// Cycles per sample of the output series; 0 = automatic (at least 100, four
    /// zero-load latencies, and ten expected packets). Default 0.
    pub batch_cycles: u64,
}

impl Default for AutoConfig {
    fn default() -> Self {
        AutoConfig {
            ci_target: 0.02,
            max_cycles: 200_000,
            batch_cycles: 0,
        }
    }
}

/// The outcome of the measurement procedure (fixed or automatic).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MeasureOutcome {
    /// `auto` or `fixed`.
    pub auto: bool,
    /// Cycles per sample.
    pub batch_cycles: u64,
    /// The MSER-5 truncation point (cycle), when detected.
    pub warmup_detected: Option<u64>,
    /// The confidence target was met (automatic mode).
    pub converged: bool,
    /// The target (automatic mode).
    pub ci_target: Option<f64>,
    /// Interval of the mean latency over the measurement samples.
    pub latency: Option<Interval>,
    /// Interval of the accepted flits per terminal per cycle.
    pub throughput: Option<Interval>,
    /// Accepted flits per terminal per cycle over the same samples (also when too few
    /// samples for an interval).
    pub accepted: Option<f64>,
    /// The saturation message, when the verdict is "saturated".
    pub saturated: Option<String>,
    /// Why the run ended (human-readable).
    pub stop: String,
}

/// The `measurement` object of `--json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Measurement {
    /// `auto` (detected warm-up, run to a confidence target) or `fixed` (`--warmup`/`--cycles`).
    pub mode: Cow<'static, str>,
    /// Cycles per sample of the output series.
    pub batch_cycles: u64,
    /// Batches of the confidence intervals.
    pub batches: usize,
    /// Cycle where MSER-5 placed the end of the transient (`null`: not detected, or fixed mode).
    pub warmup_detected: Option<u64>,
    /// Target relative half-width (`null` in fixed mode).
    pub ci_target: Option<f64>,
    /// Achieved relative half-width of the mean latency's 95% interval.
    pub latency_ci95_relative: Option<f64>,
    /// The target was met before the cycle budget ran out.
    pub converged: bool,
    /// Why the run ended (or the saturation message).
    pub message: String,
}

impl MeasureOutcome {
    /// The JSON form.
    pub fn report(&self) -> Measurement {
        Measurement {
            mode: Cow::Borrowed(if self.auto { "auto" } else { "fixed" }),
            batch_cycles: self.batch_cycles,
            batches: self.latency.map_or(BATCHES, |l| l.batches),
            warmup_detected: self.warmup_detected,
            ci_target: self.ci_target,
            latency_ci95_relative: self.latency.map(|l| l.relative()).filter(|r| r.is_finite()),
            converged: self.converged,
            message: self.saturated.clone().unwrap_or_else(|| self.stop.clone()),
        }
    }
}
