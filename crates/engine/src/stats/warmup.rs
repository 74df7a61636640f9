//! Warm-up detection by MSER-5 (White, "An effective truncation heuristic for bias
//! reduction in simulation output", Simulation 69(6), 1997; Hoad, Robinson & Davies 2010
//! recommend it among 40+ methods).
//!
//! The output series (here: mean latency of the packets delivered in each sample of
//! `batch_cycles` cycles) is averaged over groups of 5 samples, `z_1..z_n`. For each
//! candidate truncation point `d` the marginal standard error
//!
//! ```text
//! MSER(d) = sum_{j>d} (z_j - mean(z_{d+1..n}))^2 / (n - d)^2
//! ```
//!
//! trades the bias of keeping the transient against the variance of discarding data; the
//! warm-up is `d* = argmin MSER(d)`. When `d*` falls in the second half of the series the
//! transient is not over yet (or the series has no steady state, for example above
//! saturation): the heuristic then answers "not yet" and the run keeps warming up.

/// Samples averaged per MSER batch (the "5" of MSER-5).
pub const MSER_GROUP: usize = 5;

/// Fewest MSER batches before a decision is attempted.
pub const MSER_MIN_BATCHES: usize = 8;

/// The MSER truncation point (an index into `z`) minimising the marginal standard error,
/// searched over `0..n - 4` (the last values give an unstable statistic).
pub fn mser(z: &[f64]) -> Option<usize> {
    let n = z.len();
    if n < 5 {
        return None;
    }
    // Suffix sums make each MSER(d) O(1).
    let mut s1 = vec![0.0; n + 1];
    let mut s2 = vec![0.0; n + 1];
    for j in (0..n).rev() {
        s1[j] = s1[j + 1] + z[j];
        s2[j] = s2[j + 1] + z[j] * z[j];
    }
    let mut best = (f64::INFINITY, 0);
    for d in 0..n - 4 {
        let m = (n - d) as f64;
        let ss = (s2[d] - s1[d] * s1[d] / m).max(0.0);
        let v = ss / (m * m);
        if v < best.0 {
            best = (v, d);
        }
    }
    Some(best.1)
}

/// MSER-5 over per-sample ratios `num[i] / den[i]` (latency sum / packets): groups of
/// [`MSER_GROUP`] samples form one batch ratio (a batch without packets repeats the
/// previous batch's value). Returns the truncation point in samples when the transient is
/// over (`d*` in the first half of the batches), `None` while it is not (or too few samples).
pub fn mser5(num: &[u64], den: &[u64]) -> Option<usize> {
    let batches = num.len() / MSER_GROUP;
    if batches < MSER_MIN_BATCHES {
        return None;
    }
    let mut z = Vec::with_capacity(batches);
    let mut last = None;
    for j in 0..batches {
        let r = j * MSER_GROUP..(j + 1) * MSER_GROUP;
        let n: u64 = num[r.clone()].iter().sum();
        let d: u64 = den[r].iter().sum();
        if d > 0 {
            last = Some(n as f64 / d as f64);
        }
        // Leading batches without any delivery are at the network's empty start.
        z.push(last.unwrap_or(0.0));
    }
    let d = mser(&z)?;
    (d <= batches / 2).then_some(d * MSER_GROUP)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stationary_series_needs_little_truncation() {
        let z: Vec<f64> = (0..40).map(|i| 10.0 + f64::from(i % 3)).collect();
        assert!(mser(&z).unwrap() <= 3);
    }

    #[test]
    fn the_transient_is_cut_off() {
        // 10 batches ramping up from 0, then steady at 50 with small noise.
        let z: Vec<f64> = (0..60)
            .map(|i| {
                if i < 10 {
                    5.0 * f64::from(i)
                } else {
                    50.0 + f64::from(i % 2)
                }
            })
            .collect();
        let d = mser(&z).unwrap();
        assert!((8..=11).contains(&d), "d* = {d}");
    }

    #[test]
    fn a_growing_series_has_no_warm_up() {
        // Latency growing without bound (saturation): d* lands late, so "not yet".
        let num: Vec<u64> = (0..200).map(|i| 10 * (100 + i * i)).collect();
        let den = vec![10; 200];
        assert_eq!(mser5(&num, &den), None);
        // Steady from the start: accepted right away.
        let num = vec![300; 200];
        assert_eq!(mser5(&num, &den), Some(0));
        // Too few samples: no decision.
        assert_eq!(mser5(&num[..20], &den[..20]), None);
    }
}
