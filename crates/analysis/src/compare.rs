//! Comparison helpers on plain data: how far a measurement is from a prediction.
//!
//! Used by the cross-checks (`flitsim check`, `flitsim reproduce`), which pass measured
//! statistics in as numbers; nothing here knows about the simulator.

/// Total-variation distance `1/2 sum_i |p_i - q_i|` between two distributions over the same
/// states `0..` (the shorter slice is padded with zeros). 0 for identical distributions,
/// 1 for disjoint supports. The inputs are used as given (not renormalised).
pub fn total_variation(p: &[f64], q: &[f64]) -> f64 {
    let n = p.len().max(q.len());
    let at = |x: &[f64], i: usize| x.get(i).copied().unwrap_or(0.0);
    0.5 * (0..n).map(|i| (at(p, i) - at(q, i)).abs()).sum::<f64>()
}

/// Relative error `(measured - predicted) / predicted`; `None` when `predicted` is 0 or
/// either value is not finite.
pub fn relative_error(measured: f64, predicted: f64) -> Option<f64> {
    if predicted == 0.0 || !measured.is_finite() || !predicted.is_finite() {
        return None;
    }
    Some((measured - predicted) / predicted)
}

/// Normalise non-negative counts (e.g. cycles spent with `v` busy VCs) into a distribution;
/// `None` when the total is 0.
pub fn normalise(counts: &[f64]) -> Option<Vec<f64>> {
    let total: f64 = counts.iter().sum();
    (total > 0.0).then(|| counts.iter().map(|c| c / total).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tv_distance() {
        assert_eq!(total_variation(&[0.5, 0.5], &[0.5, 0.5]), 0.0);
        assert_eq!(total_variation(&[1.0, 0.0], &[0.0, 1.0]), 1.0);
        assert!((total_variation(&[0.2, 0.8], &[0.5, 0.3, 0.2]) - 0.5).abs() < 1e-12);
    }

    #[test]
    fn relative() {
        assert_eq!(relative_error(110.0, 100.0), Some(0.1));
        assert_eq!(relative_error(90.0, 100.0), Some(-0.1));
        assert_eq!(relative_error(1.0, 0.0), None);
        assert_eq!(normalise(&[1.0, 3.0]), Some(vec![0.25, 0.75]));
        assert_eq!(normalise(&[0.0]), None);
    }
}
