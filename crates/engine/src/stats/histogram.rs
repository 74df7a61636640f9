//! [`LogHistogram`]: counts of non-negative integers (cycles) in log-spaced buckets, in
//! bounded memory with a stated relative precision.
//!
//! Values below [`EXACT`] have a bucket each. Above, every octave `[2^e, 2^(e+1))` is cut
//! into [`SUB_BUCKETS`] equal buckets of width `2^(e-6)`, the layout of HdrHistogram with
//! two significant binary digits more than a power of two. A bucket's values differ by less
//! than [`RELATIVE_PRECISION`] of its lowest value, so a quantile reported as the highest
//! value of its bucket `v̂` satisfies `q <= v̂ < q (1 + 1/64)` for the true quantile `q`.
//! Any `u64` fits in [`MAX_BUCKETS`] buckets; the counts grow only to the largest
//! bucket used. Counts are integers and merging adds them, so a merge is the same in any
//! order (thread and rank counts cannot change it).

use serde::{Deserialize, Serialize};

/// Values below this are counted exactly.
pub const EXACT: u64 = 128;
/// Buckets per octave above [`EXACT`].
pub const SUB_BUCKETS: u64 = 64;
/// Buckets a histogram can ever hold (the last octave ends at `u64::MAX`).
pub const MAX_BUCKETS: usize = (EXACT + (63 - 7 + 1) * SUB_BUCKETS) as usize;
/// Largest relative width of a bucket: `(highest - lowest) / lowest < 1/64`.
pub const RELATIVE_PRECISION: f64 = 1.0 / SUB_BUCKETS as f64;

/// Counts of values in log-spaced buckets (see the module documentation).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LogHistogram {
    /// Counts by bucket index, up to the highest bucket used.
    counts: Vec<u64>,
    /// Values recorded.
    total: u64,
    /// Lowest bucket changed since the last [`LogHistogram::drain_into`].
    #[serde(skip)]
    dirty_from: usize,
}

/// The bucket of `v`.
#[inline]
pub fn bucket(v: u64) -> usize {
    if v < EXACT {
        return v as usize;
    }
    let e = 63 - u64::from(v.leading_zeros());
    let shift = e - 6;
    (EXACT + (e - 7) * SUB_BUCKETS + ((v >> shift) - SUB_BUCKETS)) as usize
}

/// The lowest and highest value of bucket `i`.
pub fn bucket_range(i: usize) -> (u64, u64) {
    let i = i as u64;
    if i < EXACT {
        return (i, i);
    }
    let e = (i - EXACT) / SUB_BUCKETS + 7;
    let sub = (i - EXACT) % SUB_BUCKETS + SUB_BUCKETS;
    let shift = e - 6;
    let low = sub << shift;
    (low, low + ((1u64 << shift) - 1))
}

impl LogHistogram {
    /// Counts `v` once.
    #[inline]
    pub fn record(&mut self, v: u64) {
        let i = bucket(v);
        if i >= self.counts.len() {
            self.counts.resize(i + 1, 0);
        }
        self.counts[i] += 1;
        self.total += 1;
        self.dirty_from = self.dirty_from.min(i);
    }

    /// Values recorded.
    pub fn total(&self) -> u64 {
        self.total
    }

    /// Buckets held (the memory it takes is this many `u64`).
    pub fn buckets_held(&self) -> usize {
        self.counts.len()
    }

    /// Adds `other`'s counts.
    pub fn merge(&mut self, other: &LogHistogram) {
        if other.counts.len() > self.counts.len() {
            self.counts.resize(other.counts.len(), 0);
        }
        for (a, b) in self.counts.iter_mut().zip(&other.counts) {
            *a += b;
        }
        self.total += other.total;
    }

    /// Moves this histogram's counts into `into` and leaves it empty, touching only the
    /// buckets recorded since the last drain (its allocation is kept).
    pub fn drain_into(&mut self, into: &mut LogHistogram) {
        if self.total == 0 {
            self.dirty_from = self.counts.len();
            return;
        }
        if self.counts.len() > into.counts.len() {
            into.counts.resize(self.counts.len(), 0);
        }
        for (a, b) in into.counts[self.dirty_from..]
            .iter_mut()
            .zip(&mut self.counts[self.dirty_from..])
        {
            *a += *b;
            *b = 0;
        }
        into.total += self.total;
        self.total = 0;
        self.dirty_from = self.counts.len();
    }

    /// The `p`-quantile (`0 < p <= 1`): the highest value of the bucket holding the
    /// `ceil(p n)`-th smallest value; `None` when empty.
    pub fn quantile(&self, p: f64) -> Option<u64> {
        if self.total == 0 {
            return None;
        }
        let rank = ((p * self.total as f64).ceil() as u64).clamp(1, self.total);
        let mut seen = 0;
        for (i, &c) in self.counts.iter().enumerate() {
            seen += c;
            if seen >= rank {
                return Some(bucket_range(i).1);
            }
        }
        None
    }

    /// The buckets holding values: `[lowest, highest, count]` in value order.
    pub fn buckets(&self) -> Vec<[u64; 3]> {
        self.counts
            .iter()
            .enumerate()
            .filter(|(_, &c)| c > 0)
            .map(|(i, &c)| {
                let (lo, hi) = bucket_range(i);
                [lo, hi, c]
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};
    use rand_pcg::Pcg64Mcg;

    #[test]
    fn buckets_tile_the_values_and_respect_the_precision() {
        let mut next = 0u64;
        for i in 0..MAX_BUCKETS {
            let (lo, hi) = bucket_range(i);
            assert_eq!(lo, next, "bucket {i} starts where the last ended");
            assert_eq!((bucket(lo), bucket(hi)), (i, i));
            assert!(u128::from(hi - lo) * u128::from(SUB_BUCKETS) < u128::from(lo.max(1)));
            next = hi.wrapping_add(1);
        }
        assert_eq!(next, 0, "the last bucket ends at u64::MAX");
        assert_eq!(bucket(u64::MAX), MAX_BUCKETS - 1);
    }

    /// Quantiles of 100 000 draws spread over six decades agree with the exact order
    /// statistic within the stated precision, from above.
    #[test]
    fn quantiles_are_within_the_precision_of_the_exact_ones() {
        let mut rng = Pcg64Mcg::seed_from_u64(7);
        let mut h = LogHistogram::default();
        let mut v: Vec<u64> = (0..100_000)
            .map(|_| (10f64.powf(rng.random::<f64>() * 6.0)) as u64)
            .collect();
        for &x in &v {
            h.record(x);
        }
        v.sort_unstable();
        for p in [0.001, 0.1, 0.5, 0.9, 0.99, 0.999, 1.0] {
            let exact = v[((p * v.len() as f64).ceil() as usize).max(1) - 1];
            let got = h.quantile(p).unwrap();
            assert!(got >= exact, "p {p}: {got} < {exact}");
            assert!(
                (got - exact) as f64 <= RELATIVE_PRECISION * exact as f64,
                "p {p}: {got} vs {exact}"
            );
        }
    }

    #[test]
    fn drain_moves_counts_and_merge_is_order_free() {
        let mut a = LogHistogram::default();
        let mut b = LogHistogram::default();
        let mut total = LogHistogram::default();
        for x in [3u64, 300, 3000, 30] {
            a.record(x);
            total.record(x);
        }
        b.record(5);
        total.record(5);
        let mut ab = a.clone();
        ab.merge(&b);
        let mut ba = b.clone();
        ba.merge(&a);
        assert_eq!(ab.buckets(), ba.buckets());
        let mut sum = LogHistogram::default();
        a.drain_into(&mut sum);
        b.drain_into(&mut sum);
        assert_eq!((a.total(), b.total()), (0, 0));
        assert_eq!(sum.buckets(), total.buckets());
        a.record(7);
        a.drain_into(&mut sum);
        assert_eq!(sum.total(), 6);
        assert_eq!(LogHistogram::default().quantile(0.5), None);
    }
}
