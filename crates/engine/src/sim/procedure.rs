//! The measurement procedure: sampling the output series, detecting the warm-up, running
//! to the confidence target, and the saturation verdict (see `stats` for the methods).
//!
//! Samples are taken between cycles from the terminals' merged integer counters; nothing
//! here looks at routers, so idle routers stay skipped and any engine partitioning works.

use super::Simulation;
use crate::error::SimError;
use crate::stats::batch_means::BATCHES;
use crate::stats::series::{self, Sample};
use crate::stats::warmup;
use crate::stats::Window;
use flitsim_netlist::Cycle;

/// Fewest measurement samples before the confidence target is tested (two per batch).
const MIN_MEASURE_SAMPLES: usize = 2 * BATCHES;

impl Simulation {
    /// Cycles per sample: the configured value, or at least 100 cycles, four zero-load
    /// latencies and ten expected packets (network-wide).
    pub(super) fn batch_cycles(&self) -> u64 {
        if let Some(b) = self.config.auto.map(|a| a.batch_cycles).filter(|&b| b > 0) {
            return b;
        }
        let packets_per_cycle = self.config.rate * self.net.num_terminals() as f64;
        let for_packets = if packets_per_cycle > 0.0 {
            (10.0 / packets_per_cycle).ceil()
        } else {
            0.0
        };
        let b = 100f64
            .max(4.0 * self.zero_load_latency.ceil())
            .max(for_packets)
            .min(10_000.0) as u64;
        b.div_ceil(10) * 10
    }

    fn sample(&self) -> Sample {
        Sample::of(self.now.0, &self.stats())
    }

    /// Steps up to cycle `until`, then appends a sample.
    fn advance(&mut self, until: u64, samples: &mut Vec<Sample>) -> Result<(), SimError> {
        if self.now.0 < until {
            self.run_for(until - self.now.0)?;
        }
        self.drain_distributions();
        samples.push(self.sample());
        Ok(())
    }

    /// Checks the saturation verdict on the series since cycle 0; `true` = stop now.
    fn saturation_check(&mut self, samples: &[Sample]) -> bool {
        if self.outcome.saturated.is_none() {
            self.outcome.saturated = series::saturation(samples);
        }
        self.outcome.saturated.is_some() && self.config.stop_on_saturation
    }

    fn finish_intervals(&mut self, samples: &[Sample]) {
        let (lat, thr) = series::intervals(samples, self.net.num_terminals());
        self.outcome.latency = lat;
        self.outcome.throughput = thr;
        if let (Some(a), Some(z)) = (samples.first(), samples.last()) {
            let tc = (z.cycle - a.cycle) * self.net.num_terminals() as u64;
            self.outcome.accepted =
                (tc > 0).then(|| (z.flits_consumed - a.flits_consumed) as f64 / tc as f64);
        }
    }

    /// The fixed window `[warmup, warmup + cycles)`, sampled for intervals and the verdict.
    pub(super) fn measure_fixed(&mut self) -> Result<(), SimError> {
        let b = self.batch_cycles();
        self.outcome.auto = false;
        self.outcome.batch_cycles = b;
        let Window { start, end } = self.window;
        let mut samples = vec![self.sample()];
        let mut first = None;
        if self.now >= start {
            first = Some(0);
            self.reset_router_stats();
        }
        while self.now < end {
            let next = if self.now < start {
                (self.now.0 + b).min(start.0)
            } else {
                (self.now.0 + b).min(end.0)
            };
            self.advance(next, &mut samples)?;
            if first.is_none() && self.now >= start {
                first = Some(samples.len() - 1);
                self.reset_router_stats();
            }
            if self.config.stop_on_saturation && self.saturation_check(&samples) {
                self.stop_window(start);
                self.outcome.stop = format!("stopped at cycle {}", self.now);
                break;
            }
        }
        if !self.config.stop_on_saturation {
            // The window runs to its end; the verdict judges the whole series at once.
            self.outcome.saturated = series::saturation(&samples);
        }
        // A window closed as it opened (the verdict fired on its first sample) measured
        // nothing: like a run stopped before it, report from the whole series.
        let from = first.filter(|_| !self.window.is_empty()).unwrap_or(0);
        self.finish_intervals(&samples[from..]);
        if self.outcome.stop.is_empty() {
            self.outcome.stop = format!(
                "fixed window of {} cycles after {} warm-up cycles",
                end.0 - start.0,
                start.0
            );
        }
        Ok(())
    }

    /// Closes the window at `now` (it opened at `start`, or not at all if `start` is later).
    fn stop_window(&mut self, start: Cycle) {
        let start = start.min(self.now);
        self.set_window(Window {
            start,
            end: self.now,
        });
    }

    /// Warm-up detected by MSER-5, then measurement until the target or the budget.
    pub(super) fn measure_auto(&mut self) -> Result<(), SimError> {
        let auto = self.config.auto.unwrap_or_default();
        let b = self.batch_cycles();
        self.outcome.auto = true;
        self.outcome.batch_cycles = b;
        self.outcome.ci_target = Some(auto.ci_target);
        let start = self.now.0;
        let warmup_budget = start + auto.max_cycles / 2;
        let budget = start + auto.max_cycles;
        // Nothing is measured until the warm-up ends.
        self.set_window(Window {
            start: Cycle(u64::MAX),
            end: Cycle(u64::MAX),
        });
        let mut samples = vec![self.sample()];
        // 1. Warm-up: until MSER-5 places the end of the transient in the first half.
        loop {
            let next = self.now.0 + b;
            self.advance(next, &mut samples)?;
            if self.saturation_check(&samples) {
                self.stop_window(self.now);
                self.finish_intervals(&samples[samples.len() / 2..]);
                self.outcome.stop = format!("saturated during warm-up at cycle {}", self.now);
                return Ok(());
            }
            let (lat, pk, _, _) = series::increments(&samples);
            if let Some(d) = warmup::mser5(&lat, &pk) {
                self.outcome.warmup_detected = Some(samples[d].cycle);
                break;
            }
            if self.now.0 >= warmup_budget {
                break;
            }
        }
        // 2. Measurement: packets generated from now on are measured.
        let open = self.now;
        self.reset_router_stats();
        self.set_window(Window {
            start: open,
            end: Cycle(u64::MAX),
        });
        let first = samples.len() - 1;
        loop {
            let next = self.now.0 + b;
            self.advance(next, &mut samples)?;
            if self.saturation_check(&samples) {
                self.stop_window(open);
                self.finish_intervals(&samples[first..]);
                self.outcome.stop = format!("saturated at cycle {}", self.now);
                return Ok(());
            }
            if samples.len() - first > MIN_MEASURE_SAMPLES {
                self.finish_intervals(&samples[first..]);
                if self
                    .outcome
                    .latency
                    .is_some_and(|l| l.relative() <= auto.ci_target)
                {
                    self.outcome.converged = true;
                    break;
                }
            }
            if self.now.0 >= budget {
                break;
            }
        }
        self.finish_intervals(&samples[first..]);
        self.stop_window(open);
        self.outcome.stop = if self.outcome.converged {
            format!(
                "converged: latency 95% half-width within {:.1}% after {} measured cycles",
                100.0 * auto.ci_target,
                self.now.0 - open.0
            )
        } else {
            format!(
                "cycle budget of {} cycles ran out before the {:.1}% target",
                auto.max_cycles,
                100.0 * auto.ci_target
            )
        };
        Ok(())
    }
}
