//! Batch-means 95% confidence intervals (Law & Kelton, "Simulation Modeling and
//! Analysis", section 9.5.3): a correlated output series is cut into `k` contiguous
//! batches; for batches long compared with the correlation time the batch means are
//! nearly independent and normal, so the mean's interval is
//! `mean +- t(0.975, k-1) * s / sqrt(k)` with `s` the standard deviation of the batch means.
//!
//! The engine samples its counters every `batch_cycles` cycles; the samples are grouped
//! into a fixed number of batches ([`BATCHES`]), so batches grow as the run grows and the
//! correlation between them fades.

/// Number of batches the samples are grouped into.
pub const BATCHES: usize = 20;

/// Two-sided 95% quantile of Student's t with `df` degrees of freedom (`t(0.975, df)`).
/// Exact table for `df <= 30`, Cornish-Fisher expansion beyond (error < 1e-4).
pub fn t_quantile_975(df: usize) -> f64 {
    const TABLE: [f64; 30] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
        2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
        2.052, 2.048, 2.045, 2.042,
    ];
    match df {
        0 => f64::INFINITY,
        1..=30 => TABLE[df - 1],
        _ => {
            let z = 1.959_964;
            let n = df as f64;
            let z3 = z * z * z;
            let z5 = z3 * z * z;
            z + (z3 + z) / (4.0 * n) + (5.0 * z5 + 16.0 * z3 + 3.0 * z) / (96.0 * n * n)
        }
    }
}

/// A mean and the half-width of its 95% confidence interval.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Interval {
    /// The point estimate.
    pub mean: f64,
    /// Half-width of the 95% confidence interval.
    pub half_width: f64,
    /// Batches the interval was computed from.
    pub batches: usize,
}

impl Interval {
    /// Half-width relative to the mean (`inf` for a zero mean).
    pub fn relative(&self) -> f64 {
        if self.mean == 0.0 {
            f64::INFINITY
        } else {
            self.half_width / self.mean.abs()
        }
    }

    /// Does the interval contain `x`?
    pub fn covers(&self, x: f64) -> bool {
        (x - self.mean).abs() <= self.half_width
    }
}

/// Interval from already-formed batch means (each an equally weighted observation).
pub fn from_batch_means(means: &[f64]) -> Option<Interval> {
    let k = means.len();
    if k < 2 {
        return None;
    }
    let mean = means.iter().sum::<f64>() / k as f64;
    let var = means.iter().map(|m| (m - mean).powi(2)).sum::<f64>() / (k - 1) as f64;
    Some(Interval {
        mean,
        half_width: t_quantile_975(k - 1) * (var / k as f64).sqrt(),
        batches: k,
    })
}

/// Batch-means interval of the mean of `series`, cut into `batches` equal contiguous
/// batches (the first `len % batches` values are dropped: they are the oldest).
pub fn batch_means(series: &[f64], batches: usize) -> Option<Interval> {
    let m = series.len() / batches.max(1);
    if m == 0 || batches < 2 {
        return None;
    }
    let skip = series.len() - m * batches;
    let means: Vec<f64> = series[skip..]
        .chunks_exact(m)
        .map(|c| c.iter().sum::<f64>() / m as f64)
        .collect();
    from_batch_means(&means)
}

/// Batch-means interval of a ratio estimator `sum(num) / sum(den)` (mean packet latency =
/// latency sum / packets, per sample): batch `j`'s observation is its own ratio, the point
/// estimate is the overall ratio. Batches without any `den` make the interval `None`.
pub fn ratio_batch_means(num: &[u64], den: &[u64], batches: usize) -> Option<Interval> {
    debug_assert_eq!(num.len(), den.len());
    let m = num.len() / batches.max(1);
    if m == 0 || batches < 2 {
        return None;
    }
    let skip = num.len() - m * batches;
    let mut means = Vec::with_capacity(batches);
    for j in 0..batches {
        let r = skip + j * m..skip + (j + 1) * m;
        let n: u64 = num[r.clone()].iter().sum();
        let d: u64 = den[r].iter().sum();
        if d == 0 {
            return None;
        }
        means.push(n as f64 / d as f64);
    }
    let mut iv = from_batch_means(&means)?;
    let (n, d): (u64, u64) = (num[skip..].iter().sum(), den[skip..].iter().sum());
    iv.mean = n as f64 / d as f64;
    Some(iv)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};
    use rand_pcg::Pcg64Mcg;

    fn normal(rng: &mut Pcg64Mcg) -> f64 {
        // Box-Muller.
        let u1: f64 = 1.0 - rng.random::<f64>();
        let u2: f64 = rng.random::<f64>();
        (-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos()
    }

    /// AR(1): x_t = mu + phi (x_{t-1} - mu) + e_t, started in its stationary distribution.
    fn ar1(seed: u64, n: usize, mu: f64, phi: f64) -> Vec<f64> {
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let sd0 = 1.0 / (1.0 - phi * phi).sqrt();
        let mut x = mu + sd0 * normal(&mut rng);
        (0..n)
            .map(|_| {
                x = mu + phi * (x - mu) + normal(&mut rng);
                x
            })
            .collect()
    }

    #[test]
    fn t_quantiles_match_the_table_and_tend_to_the_normal() {
        assert_eq!(t_quantile_975(19), 2.093);
        // Published values: t(0.975, 40) = 2.021, t(0.975, 120) = 1.980.
        assert!((t_quantile_975(40) - 2.021).abs() < 1e-3);
        assert!((t_quantile_975(120) - 1.980).abs() < 1e-3);
        assert!((t_quantile_975(100_000) - 1.960).abs() < 1e-3);
    }

    #[test]
    fn batch_means_of_a_constant_series_is_exact() {
        let iv = batch_means(&[3.0; 100], 20).unwrap();
        assert_eq!((iv.mean, iv.half_width, iv.batches), (3.0, 0.0, 20));
        assert!(batch_means(&[1.0; 10], 20).is_none());
    }

    #[test]
    fn ratio_estimator_weights_by_the_denominator() {
        // Two batches: 10/1 and 30/3 -> ratio 40/4 = 10, batch means both 10.
        let iv = ratio_batch_means(&[10, 30], &[1, 3], 2).unwrap();
        assert_eq!((iv.mean, iv.half_width), (10.0, 0.0));
        assert!(ratio_batch_means(&[10, 30], &[0, 3], 2).is_none());
    }

    /// The interval covers the true mean of a strongly correlated AR(1) series (phi = 0.9,
    /// correlation time ~19 samples) about 95% of the time; naive i.i.d. intervals would
    /// cover it far less often (their variance is ~19x too small).
    #[test]
    fn ar1_coverage_is_about_95_percent() {
        let (mu, phi, n, seeds) = (5.0, 0.9, 20_000, 400);
        let mut covered = 0;
        let mut naive_covered = 0;
        for seed in 0..seeds {
            let x = ar1(seed, n, mu, phi);
            let iv = batch_means(&x, BATCHES).unwrap();
            covered += usize::from(iv.covers(mu));
            // Every value its own batch: ignores the correlation.
            let naive = from_batch_means(&x).unwrap();
            naive_covered += usize::from(naive.covers(mu));
        }
        let p = covered as f64 / seeds as f64;
        assert!((0.90..=0.98).contains(&p), "coverage {p}");
        let q = naive_covered as f64 / seeds as f64;
        assert!(q < 0.6, "naive coverage {q}");
    }
}
