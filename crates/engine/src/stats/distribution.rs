//! Distributions of packet latency, network latency and source-queue time over the measured
//! packets: [`Distributions`] (three [`LogHistogram`]s), the batches that give each
//! percentile its confidence interval ([`PercentileBatches`]) and the `distributions`
//! object of `--json` ([`DistributionsReport`]).
//!
//! Terminals record a measured packet when its tail is consumed, into histograms that the
//! engine drains into the current batch at every sample of the output series; nothing is
//! done per cycle. A percentile's interval comes from batch means (Law & Kelton 9.5.3, as
//! for the mean): the percentile of each batch of consecutive samples is one observation,
//! and the half-width is `t(0.975, k-1) s / sqrt(k)` over the `k` batch percentiles. The
//! point estimate is the percentile of all measured packets. Batches double in length
//! whenever [`MAX_BATCHES`] are full, so there are between [`BATCHES`] and [`MAX_BATCHES`]
//! of them once enough samples exist, in bounded memory whatever the run length. Packets
//! delivered after the last sample (the drain) join the last batch.

use super::batch_means::{self, BATCHES};
use super::histogram::{LogHistogram, RELATIVE_PRECISION};
use serde::{Deserialize, Serialize};

/// Batches held at most before pairs of them are merged.
pub const MAX_BATCHES: usize = 2 * BATCHES;

/// Percentiles reported when none are asked for (percent).
pub const DEFAULT_PERCENTILES: [f64; 4] = [50.0, 90.0, 99.0, 99.9];

/// Percentiles a run may ask for at most.
pub const MAX_PERCENTILES: usize = 32;

/// The histograms of one group of measured packets.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Distributions {
    /// Packet latency under the run's definition.
    pub latency: LogHistogram,
    /// Head injected -> tail consumed.
    pub network: LogHistogram,
    /// Generated -> head injected.
    pub source_queue: LogHistogram,
}

impl Distributions {
    /// Records one measured packet.
    #[inline]
    pub fn record(&mut self, latency: u64, network: u64, source_queue: u64) {
        self.latency.record(latency);
        self.network.record(network);
        self.source_queue.record(source_queue);
    }

    /// Adds `o`'s counts.
    pub fn merge(&mut self, o: &Distributions) {
        self.latency.merge(&o.latency);
        self.network.merge(&o.network);
        self.source_queue.merge(&o.source_queue);
    }

    /// Moves the counts into `into` (see [`LogHistogram::drain_into`]).
    pub fn drain_into(&mut self, into: &mut Distributions) {
        self.latency.drain_into(&mut into.latency);
        self.network.drain_into(&mut into.network);
        self.source_queue.drain_into(&mut into.source_queue);
    }

    /// Bytes of counts held.
    pub fn bytes(&self) -> usize {
        8 * (self.latency.buckets_held()
            + self.network.buckets_held()
            + self.source_queue.buckets_held())
    }

    fn hists(&self) -> [&LogHistogram; 3] {
        [&self.latency, &self.network, &self.source_queue]
    }
}

/// Batches of consecutive samples, each with its own histograms (see the module
/// documentation). The last batch is the one filling.
#[derive(Clone, Debug)]
pub struct PercentileBatches {
    batches: Vec<Distributions>,
    /// Samples per batch.
    per_batch: u64,
    /// Samples in the last batch.
    in_last: u64,
}

impl Default for PercentileBatches {
    fn default() -> Self {
        PercentileBatches {
            batches: vec![Distributions::default()],
            per_batch: 1,
            in_last: 0,
        }
    }
}

impl PercentileBatches {
    /// The batch filling now.
    pub fn current(&mut self) -> &mut Distributions {
        self.batches.last_mut().expect("one batch at least")
    }

    /// Closes a sample. Samples before the first measured packet are not counted.
    pub fn end_sample(&mut self) {
        if self.batches.len() == 1 && self.batches[0].latency.total() == 0 {
            return;
        }
        self.in_last += 1;
        if self.in_last < self.per_batch {
            return;
        }
        if self.batches.len() == MAX_BATCHES {
            self.batches = self
                .batches
                .chunks(2)
                .map(|c| {
                    let mut d = c[0].clone();
                    c.iter().skip(1).for_each(|x| d.merge(x));
                    d
                })
                .collect();
            self.per_batch *= 2;
        }
        self.batches.push(Distributions::default());
        self.in_last = 0;
    }

    /// The report: percentiles `ps` (percent) of every measured packet (`pending`: those
    /// not drained into a batch yet, joining the last one) with batch-means intervals.
    pub fn report(&self, pending: &Distributions, ps: &[f64]) -> DistributionsReport {
        let mut batches = self.batches.clone();
        if let Some(last) = batches.last_mut() {
            last.merge(pending);
        }
        batches.retain(|b| b.latency.total() > 0);
        let mut all = Distributions::default();
        batches.iter().for_each(|b| all.merge(b));
        let of = |k: usize| {
            let hist = all.hists()[k];
            Distribution {
                percentiles: ps
                    .iter()
                    .map(|&p| {
                        let obs: Vec<f64> = batches
                            .iter()
                            .filter_map(|b| b.hists()[k].quantile(p / 100.0))
                            .map(|v| v as f64)
                            .collect();
                        Percentile {
                            p,
                            value: hist.quantile(p / 100.0),
                            ci95: batch_means::from_batch_means(&obs).map(|i| i.half_width),
                        }
                    })
                    .collect(),
                histogram: hist.buckets(),
            }
        };
        DistributionsReport {
            relative_precision: RELATIVE_PRECISION,
            batches: batches.len(),
            packet_latency: of(0),
            network_latency: of(1),
            source_queue_time: of(2),
        }
    }
}

/// One percentile of a distribution.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Percentile {
    /// The percentile asked for, in percent (99.9 = the 0.999-quantile).
    pub p: f64,
    /// Cycles: the highest value of the histogram bucket holding the `ceil(p n / 100)`-th
    /// smallest value (at most `relative_precision` above the exact one); `null` without
    /// measured packets.
    pub value: Option<u64>,
    /// Half-width of its 95% batch-means confidence interval; `null` with fewer than two
    /// batches.
    pub ci95: Option<f64>,
}

/// A distribution: its percentiles and its histogram.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Distribution {
    /// The percentiles asked for, in the order asked.
    pub percentiles: Vec<Percentile>,
    /// The non-empty buckets, `[lowest, highest, count]` in cycles, in value order.
    pub histogram: Vec<[u64; 3]>,
}

impl Distribution {
    /// The value of percentile `p` (percent), if it was asked for and measured.
    pub fn value(&self, p: f64) -> Option<u64> {
        self.percentiles.iter().find(|x| x.p == p)?.value
    }
}

/// The `distributions` object of `--json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DistributionsReport {
    /// A bucket's width relative to its lowest value, at most (values below 128 cycles
    /// are exact).
    pub relative_precision: f64,
    /// Batches the percentiles' intervals come from.
    pub batches: usize,
    /// Packet latency under the run's definition.
    pub packet_latency: Distribution,
    /// Network latency (head injected -> tail consumed).
    pub network_latency: Distribution,
    /// Source-queue time (generated -> head injected).
    pub source_queue_time: Distribution,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn batches_double_and_stay_bounded() {
        let mut b = PercentileBatches::default();
        b.end_sample();
        assert_eq!(b.in_last, 0, "no sample counts before a measured packet");
        for s in 0..1000u64 {
            b.current().record(10 + s % 7, 5, 1);
            b.end_sample();
            assert!(b.batches.len() <= MAX_BATCHES);
        }
        let r = b.report(&Distributions::default(), &DEFAULT_PERCENTILES);
        assert!((BATCHES..=MAX_BATCHES).contains(&r.batches));
        let total: u64 = r.packet_latency.histogram.iter().map(|h| h[2]).sum();
        assert_eq!(total, 1000);
        assert_eq!(r.packet_latency.value(50.0), Some(13));
        assert_eq!(r.network_latency.percentiles[3].ci95, Some(0.0));
    }
}
