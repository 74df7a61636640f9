//! The sampled output series: every `batch_cycles` cycles the engine merges the terminals'
//! integer counters (in id order) and stores one [`Sample`] of cumulative totals. Warm-up
//! detection, batch-means intervals and the saturation verdict all read this series, so
//! nothing is sampled per router or per cycle (idle routers stay skipped).

use super::batch_means::{self, Interval};
use super::TerminalStats;

/// Cumulative totals at the end of a sample (since cycle 0, all packets).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Sample {
    /// First cycle after the sample.
    pub cycle: u64,
    /// Packets generated.
    pub generated: u64,
    /// Packets whose tail was consumed.
    pub consumed: u64,
    /// Flits consumed.
    pub flits_consumed: u64,
    /// Sum of the latencies of the consumed packets.
    pub latency_sum: u64,
}

impl Sample {
    /// The sample of merged terminal counters at `cycle`.
    pub fn of(cycle: u64, s: &TerminalStats) -> Sample {
        Sample {
            cycle,
            generated: s.packets_generated,
            consumed: s.packets_consumed,
            flits_consumed: s.flits_consumed,
            latency_sum: s.consumed_latency_sum,
        }
    }

    /// Packets in the system (source queues and network).
    pub fn in_system(&self) -> u64 {
        self.generated - self.consumed
    }
}

/// Per-sample increments of the series `s` (from `s[0]` to `s[n-1]`, so `n - 1` values):
/// (latency sums, packets consumed, flits consumed, cycles).
pub fn increments(s: &[Sample]) -> (Vec<u64>, Vec<u64>, Vec<u64>, Vec<u64>) {
    let mut lat = Vec::with_capacity(s.len());
    let mut pk = Vec::with_capacity(s.len());
    let mut fl = Vec::with_capacity(s.len());
    let mut cy = Vec::with_capacity(s.len());
    for w in s.windows(2) {
        lat.push(w[1].latency_sum - w[0].latency_sum);
        pk.push(w[1].consumed - w[0].consumed);
        fl.push(w[1].flits_consumed - w[0].flits_consumed);
        cy.push(w[1].cycle - w[0].cycle);
    }
    (lat, pk, fl, cy)
}

/// Batch-means intervals of the mean packet latency (cycles) and of the accepted
/// throughput (flits per terminal per cycle) over the series `s`.
pub fn intervals(s: &[Sample], terminals: usize) -> (Option<Interval>, Option<Interval>) {
    let (lat, pk, fl, cy) = increments(s);
    let latency = batch_means::ratio_batch_means(&lat, &pk, batch_means::BATCHES);
    let scaled: Vec<u64> = cy.iter().map(|c| c * terminals as u64).collect();
    let throughput = batch_means::ratio_batch_means(&fl, &scaled, batch_means::BATCHES);
    (latency, throughput)
}

/// Fewest samples before the saturation verdict may be given.
pub const SATURATION_MIN_SAMPLES: usize = 40;

/// Saturation verdict over the series `s` (since cycle 0): over its second half, the
/// network accepted less than 95% of the packets generated, by more than three standard
/// deviations of Poisson counts (3 sqrt(generated)), AND the number of packets in the
/// system grew by at least a quarter: source queues grow without bound. The standard
/// deviation term keeps the few, long packets of high-variance lengths (exp:100) from
/// passing for growth. Returns the message, or `None`.
pub fn saturation(s: &[Sample]) -> Option<String> {
    let n = s.len();
    if n < SATURATION_MIN_SAMPLES {
        return None;
    }
    let (mid, last) = (s[n / 2], s[n - 1]);
    let generated = last.generated - mid.generated;
    let consumed = last.consumed - mid.consumed;
    if generated < 100 {
        return None;
    }
    let deficit = generated.saturating_sub(consumed);
    let grew = 4 * last.in_system() >= 5 * mid.in_system();
    let significant = deficit as f64 > 3.0 * (generated as f64).sqrt();
    if deficit as f64 > 0.05 * generated as f64 && significant && grew {
        Some(format!(
            "saturated: over cycles {}..{} the network accepted {:.1}% of the packets offered; \
             packets waiting grew from {} to {} (source queues grow without bound)",
            mid.cycle,
            last.cycle,
            100.0 * consumed as f64 / generated as f64,
            mid.in_system(),
            last.in_system()
        ))
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn series(gen_per: u64, cons_per: u64, n: u64) -> Vec<Sample> {
        (0..n)
            .map(|i| Sample {
                cycle: 100 * i,
                generated: gen_per * i,
                consumed: cons_per * i,
                flits_consumed: 4 * cons_per * i,
                latency_sum: 30 * cons_per * i,
            })
            .collect()
    }

    #[test]
    fn queue_growth_is_saturation_and_balance_is_not() {
        assert!(saturation(&series(100, 80, 60)).is_some());
        assert!(saturation(&series(100, 100, 60)).is_none());
        // Too short to judge.
        assert!(saturation(&series(100, 80, 10)).is_none());
        // A deficit within the noise of a few packets is not growth.
        assert!(saturation(&series(10, 9, 60)).is_none());
        assert!(saturation(&series(10, 8, 60)).is_some());
    }

    #[test]
    fn intervals_of_a_steady_series() {
        let (lat, thr) = intervals(&series(100, 100, 61), 10);
        let lat = lat.unwrap();
        assert_eq!((lat.mean, lat.half_width), (30.0, 0.0));
        // 400 flits per 100 cycles over 10 terminals.
        assert!((thr.unwrap().mean - 0.4).abs() < 1e-12);
    }
}
