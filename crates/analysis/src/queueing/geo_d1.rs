//! The waiting-time distribution of the discrete-time Geo/D/1 queue: one arrival with
//! probability `p` in each slot (Bernoulli), deterministic service of `d` slots, FIFO.
//!
//! Successive waiting times follow Lindley's recursion (Kleinrock, *Queueing Systems*
//! vol. 1, eq (8.3)): `W(n+1) = max(0, W(n) + d - A(n+1))` with `A` the inter-arrival
//! time, geometric on `{1, 2, ...}`: `P(A = k) = p (1 - p)^(k - 1)`. On the integers the
//! recursion maps a distribution of `W` to the next one exactly; iterating from `W = 0`
//! converges to the stationary distribution when `p d < 1`. Its mean agrees with the
//! discrete-time Pollaczek-Khinchine value `p d (d - 1) / (2 (1 - p d))`.

use super::QueueError;

/// Stationary waiting-time distribution, truncated where the tail mass falls below
/// `1e-12`: `P(W = w)` for `w = 0, 1, ...`.
///
/// # Errors
/// `Saturated` when `p d >= 1`.
pub fn geo_d1_wait_pmf(p: f64, d: u32) -> Result<Vec<f64>, QueueError> {
    let rho = p * f64::from(d);
    if rho >= 1.0 {
        return Err(QueueError::Saturated { rho });
    }
    // Enough support for a tail of 1e-12 (geometric decay, generous bound), at most 1e5.
    let len = ((60.0 * f64::from(d) / (1.0 - rho).powi(2)) as usize).clamp(64, 100_000);
    let kmax = ((30.0 / p.max(1e-9)) as usize).clamp(2, 4 * len);
    let a: Vec<f64> = (1..=kmax)
        .map(|k| p * (1.0 - p).powi(k as i32 - 1))
        .collect();
    let mut w = vec![0.0; len];
    w[0] = 1.0;
    for _ in 0..100_000 {
        let mut next = vec![0.0; len];
        for (x, &pw) in w.iter().enumerate().filter(|(_, &pw)| pw > 1e-18) {
            let y0 = x + d as usize;
            for (i, &pa) in a.iter().enumerate() {
                let y = y0.saturating_sub(i + 1);
                next[y.min(len - 1)] += pw * pa;
                if y == 0 {
                    // Every longer gap also empties the queue.
                    next[0] += pw * (1.0 - p).powi(i as i32 + 1);
                    break;
                }
            }
        }
        let diff: f64 = next.iter().zip(&w).map(|(a, b)| (a - b).abs()).sum();
        w = next;
        if diff < 1e-13 {
            break;
        }
    }
    Ok(w)
}

/// The `q`-quantile of a pmf on `0, 1, ...`: the least `w` with `P(W <= w) >= q`.
pub fn pmf_quantile(pmf: &[f64], q: f64) -> u64 {
    let mut c = 0.0;
    for (w, &x) in pmf.iter().enumerate() {
        c += x;
        if c >= q - 1e-12 {
            return w as u64;
        }
    }
    pmf.len() as u64 - 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mean_matches_the_discrete_pollaczek_khinchine_value() {
        for (p, d) in [(0.1, 4u32), (0.2, 4), (0.3, 2), (0.05, 10)] {
            let pmf = geo_d1_wait_pmf(p, d).unwrap();
            let total: f64 = pmf.iter().sum();
            let mean: f64 = pmf.iter().enumerate().map(|(w, x)| w as f64 * x).sum();
            let df = f64::from(d);
            let pk = p * df * (df - 1.0) / (2.0 * (1.0 - p * df));
            assert!((total - 1.0).abs() < 1e-9, "mass {total}");
            assert!(
                (mean - pk).abs() < 1e-6 * pk.max(1.0),
                "p {p} d {d}: {mean} vs {pk}"
            );
        }
        assert!(geo_d1_wait_pmf(0.25, 4).is_err());
        assert_eq!(pmf_quantile(&[0.5, 0.25, 0.25], 0.6), 1);
    }
}
