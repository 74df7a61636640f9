//! The report of a run: what `flitsim run --json` prints (besides `config`). Field names
//! are stable: scripts depend on them (see docs/run-output.md).

use super::distribution::DistributionsReport;
use super::measurement::{MeasureOutcome, Measurement};
use super::{TerminalStats, Window};
use crate::error::SimError;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;

/// Packet latency (generation -> tail consumed), cycles, over measured delivered packets.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Latency {
    /// Mean; `null` when no measured packet was delivered.
    pub mean: Option<f64>,
    /// Maximum; `null` when no measured packet was delivered.
    pub max: Option<u64>,
    /// Half-width of the 95% confidence interval of the mean; `null` until batch means exist.
    pub ci95: Option<f64>,
}

/// A mean over measured delivered packets; `null` when there are none.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Mean {
    /// The mean.
    pub mean: Option<f64>,
}

/// Offered load (the configured generation rate).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Offered {
    /// Packets per terminal per cycle (`--rate`; for a replayed trace, the trace's packets
    /// generated in the window).
    pub packets_per_terminal_cycle: f64,
    /// Flits per terminal per cycle (rate x length; for a replayed trace, the trace's).
    pub flits_per_terminal_cycle: f64,
    /// Flits of packets actually generated in the window, per terminal per cycle.
    pub measured_flits_per_terminal_cycle: f64,
}

/// Accepted throughput: what the terminals consumed during the window.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Accepted {
    /// Packets (tails) consumed per terminal per cycle.
    pub packets_per_terminal_cycle: f64,
    /// Flits consumed per terminal per cycle.
    pub flits_per_terminal_cycle: f64,
    /// Half-width of the 95% batch-means confidence interval of
    /// `flits_per_terminal_cycle`; `null` when too few batches.
    pub ci95: Option<f64>,
}

/// Counts of measured packets (generated during the window).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Packets {
    /// Measured packets generated.
    pub generated: u64,
    /// Measured packets delivered by the end of the run (after the drain).
    pub delivered: u64,
    /// Measured packets still in the system at the end (source queue or network).
    pub in_flight_end: u64,
}

/// Little's law check over the window: N = lambda x T.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Little {
    /// Time-average number of packets in the system (generated, not yet consumed; source
    /// queues included), whole network.
    pub measured: f64,
    /// Accepted packet rate of the whole network (packets per cycle) x mean time in the
    /// system (generation to tail consumed, whatever the latency definition); `null`
    /// without delivered packets.
    pub predicted: Option<f64>,
    /// (measured - predicted) / predicted; `null` without a prediction.
    pub relative_error: Option<f64>,
}

/// How many cycles each phase took.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CycleCounts {
    /// Warm-up cycles (not measured).
    pub warmup: u64,
    /// Measurement window length.
    pub measured: u64,
    /// Cycles simulated after the window to drain measured packets.
    pub drain: u64,
    /// Total cycles simulated.
    pub total: u64,
}

/// A deadlock (or stall) found by the watchdog, as reported in JSON.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeadlockReport {
    /// `deadlock` (a cycle of waiting VCs) or `stalled` (no cycle found); `cycle-limit`
    /// when a library run stopped at [`Stamp::LAST`](flitsim_router::Stamp::LAST) (no
    /// waiting VCs; the CLI refuses such runs before they start).
    pub kind: Cow<'static, str>,
    /// The cycle the watchdog fired.
    pub cycle: u64,
    /// `r3.east vc1` names: each waits for the next, the last for the first (deadlock),
    /// or every waiting VC (stalled).
    pub waiting: Vec<String>,
    /// The rendered message.
    pub message: String,
}

impl From<&SimError> for DeadlockReport {
    fn from(e: &SimError) -> Self {
        let (kind, cycle, waiting) = match e {
            SimError::Deadlock { cycle, waiting } => ("deadlock", cycle, &waiting[..]),
            SimError::Stalled { cycle, waiting, .. } => ("stalled", cycle, &waiting[..]),
            SimError::CycleLimit { cycle } => ("cycle-limit", cycle, &[][..]),
        };
        DeadlockReport {
            kind: Cow::Borrowed(kind),
            cycle: cycle.0,
            waiting: waiting.iter().map(|w| w.name.clone()).collect(),
            message: e.to_string(),
        }
    }
}

/// Everything a run measured.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunReport {
    /// Packet latency between the events of the run's latency definition (default
    /// generation -> tail consumed; `config.latency` in `--json`).
    pub latency: Latency,
    /// Network latency (head injected -> tail consumed), cycles.
    pub network_latency: Mean,
    /// Source-queue time (generated -> head injected), cycles.
    pub source_queue_time: Mean,
    /// Router-to-router hops per packet.
    pub hops: Mean,
    /// Offered load.
    pub offered: Offered,
    /// Accepted throughput.
    pub accepted: Accepted,
    /// Measured packet counts.
    pub packets: Packets,
    /// Little's law check.
    pub little: Little,
    /// Zero-load latency from the documented formula (cycles), averaged over the traffic's
    /// source/destination pairs, computed without simulating; under the run's latency
    /// definition (the terminal channels it leaves out are subtracted).
    pub zero_load_latency: f64,
    /// Half-width (cycles) of the 95% confidence interval of `zero_load_latency` when its
    /// uniform part came from a random sample of pairs (a large network without a closed
    /// form); `null` when exact.
    pub zero_load_latency_ci: Option<f64>,
    /// Phase lengths.
    pub cycles: CycleCounts,
    /// `null`, or the watchdog's report.
    pub deadlock: Option<DeadlockReport>,
    /// Of the router-to-router head hops from the window opening to the end of the run,
    /// the fraction whose output port differs from the dimension-order port at that router
    /// (exactly 0 for `dor`); `null` when the routing has no dimension-order reference (no
    /// coordinates) or no hop was made.
    pub adaptive_hops_fraction: Option<f64>,
    /// The saturation verdict: accepted throughput fell short of offered and source
    /// queues kept growing (see `measurement.message`).
    pub saturated: bool,
    /// How the run was measured: warm-up detection, batches, convergence.
    pub measurement: Measurement,
    /// Percentiles and histograms of packet latency, network latency and source-queue
    /// time over the measured delivered packets.
    pub distributions: DistributionsReport,
}

/// Inputs of the report that are not terminal counters.
pub(crate) struct ReportInputs<'a> {
    /// Offered packets per terminal per cycle; `None` for a replayed trace, whose offered
    /// load is what it generated in the window.
    pub rate: Option<f64>,
    /// Mean packet length in flits.
    pub length: f64,
    pub terminals: usize,
    pub window: Window,
    pub drain: u64,
    pub total: u64,
    pub zero_load_latency: f64,
    pub zero_load_latency_ci: Option<f64>,
    pub error: Option<&'a SimError>,
    pub outcome: &'a MeasureOutcome,
    /// (adaptive hops, hops with a dimension-order reference), summed over routers.
    pub adaptive_hops: (u64, u64),
    pub distributions: DistributionsReport,
}

fn ratio(num: u64, den: u64) -> Option<f64> {
    (den > 0).then(|| num as f64 / den as f64)
}

impl RunReport {
    /// Builds the report from the merged counters (the only place floats appear).
    pub(crate) fn new(s: &TerminalStats, i: &ReportInputs<'_>) -> RunReport {
        let w = i.window.len();
        let tw = w * i.terminals as u64;
        let per_tc = |n: u64| ratio(n, tw).unwrap_or(0.0);
        let n = s.measured_delivered;
        let o = i.outcome;
        // A run stopped for saturation before its window opened still reports the
        // throughput it accepted (from the sampled series).
        let mean_latency = ratio(s.latency_sum, n);
        let accepted_flits = if w > 0 {
            per_tc(s.window_flits_consumed)
        } else {
            o.accepted.unwrap_or(0.0)
        };
        let measured = ratio(s.generated_area - s.consumed_area, w).unwrap_or(0.0);
        let predicted = ratio(s.system_time_sum, n)
            .map(|t| ratio(s.window_packets_consumed, w).unwrap_or(0.0) * t);
        RunReport {
            latency: Latency {
                mean: mean_latency,
                max: (n > 0).then_some(s.latency_max),
                ci95: o.latency.map(|l| l.half_width),
            },
            network_latency: Mean {
                mean: ratio(s.network_latency_sum, n),
            },
            source_queue_time: Mean {
                mean: ratio(s.source_queue_sum, n),
            },
            hops: Mean {
                mean: ratio(s.hops_sum, n),
            },
            offered: Offered {
                packets_per_terminal_cycle: i.rate.unwrap_or(per_tc(s.measured_generated)),
                flits_per_terminal_cycle: i
                    .rate
                    .map_or(per_tc(s.window_flits_generated), |r| r * i.length),
                measured_flits_per_terminal_cycle: per_tc(s.window_flits_generated),
            },
            accepted: Accepted {
                packets_per_terminal_cycle: per_tc(s.window_packets_consumed),
                flits_per_terminal_cycle: accepted_flits,
                ci95: o.throughput.map(|t| t.half_width),
            },
            packets: Packets {
                generated: s.measured_generated,
                delivered: s.measured_delivered,
                in_flight_end: s.measured_generated - s.measured_delivered,
            },
            little: Little {
                measured,
                predicted,
                relative_error: predicted.filter(|p| *p > 0.0).map(|p| (measured - p) / p),
            },
            zero_load_latency: i.zero_load_latency,
            zero_load_latency_ci: i.zero_load_latency_ci,
            cycles: CycleCounts {
                warmup: i.window.start.0,
                measured: w,
                drain: i.drain,
                total: i.total,
            },
            deadlock: i.error.map(DeadlockReport::from),
            adaptive_hops_fraction: ratio(i.adaptive_hops.0, i.adaptive_hops.1),
            saturated: o.saturated.is_some(),
            measurement: o.report(),
            distributions: i.distributions.clone(),
        }
    }
}
