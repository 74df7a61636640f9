//! Dally's birth-death model of the number of busy virtual channels on one physical channel.
//!
//! Source: Dally, "Virtual channel flow control" (IEEE TPDS 3(2), 1992), as restated by
//! paper 001 (Safaei et al., ICCS 2007) eq (20) and paper 002 (Patooghy and Sarbazi-Azad)
//! eqs (19)-(20) and Fig. 4.
//!
//! # The chain
//!
//! State `v` (0 <= v <= V) is the number of busy VCs of a channel whose packets arrive at
//! rate `lambda` (packets/cycle) and hold a VC for a mean time `S` (cycles). From state
//! `v < V` the chain moves up at rate `lambda`; from state `v > 0` it moves down at rate
//! `1/S`, except that in state `V` the down rate is `1/S - lambda`: a packet that arrives
//! while all VCs are busy waits and takes the VC that is freed, so only a fraction of the
//! departures leave state V (002, text above Fig. 4: "the transition rate out of state V is
//! reduced by lambda").
//!
//! # Closed form (stated and tested here)
//!
//! With `rho = lambda * S < 1`, the unnormalised weights are
//! `Q_v = rho^v` for `0 <= v < V` and `Q_V = rho^V / (1 - rho)`; their sum is `1/(1 - rho)`,
//! so
//!
//! ```text
//! P_v = (1 - rho) rho^v     for 0 <= v < V
//! P_V = rho^V
//! ```
//!
//! This is the M/M/1 queue-length distribution with every state `>= V` lumped into `V`.
//! For `rho >= 1` the chain has no steady state ([`VcOccupancyError::Saturated`]).
//!
//! # Where the papers' printed forms differ
//!
//! - 001 eq (20) prints the last case as `P_{v-1} lambda_c (1/S - lambda_c)` (a product);
//!   the balance equation `P_{V-1} lambda = P_V (1/S - lambda)` gives the ratio
//!   `P_{V-1} lambda_c / (1/S - lambda_c)`. The `Q_v` recursion printed next to it has the
//!   same defect. Corrected here.
//! - 002 eq (19) prints `Q_v` exactly as above (no correction needed).
//! - 002 eq (20) prints `P_0 = 1/v` and `P_v = sum_{i<v} Q_i / sum_{i<V} Q_i`; both are
//!   extraction or typesetting errors (the second is not even a distribution). The reading
//!   consistent with eq (19) and with 001 eq (20) is `P_v = Q_v / sum_{i=0}^{V} Q_i`.
//! - 002 says "state pi_v, 1 <= v <= V"; the chain has states 0..=V.

use thiserror::Error;

/// Why the VC-occupancy chain has no steady state.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum VcOccupancyError {
    /// `lambda * S >= 1`: the channel is saturated.
    #[error("channel saturated: lambda * S = {rho} >= 1")]
    Saturated {
        /// The offered load `lambda * S`.
        rho: f64,
    },
    /// A parameter is negative, not finite, or `vcs == 0`.
    #[error("invalid parameter: {0}")]
    Invalid(&'static str),
}

/// Steady-state probabilities `P_0..=P_V` of `v` busy VCs on a channel with `vcs = V`
/// virtual channels, packet arrival rate `lambda` (per cycle) and mean VC holding time
/// `service` (cycles).
///
/// Implements 001 eq (20) and 002 eqs (19)-(20) through the closed form
/// `P_v = (1 - rho) rho^v` (v < V), `P_V = rho^V`, `rho = lambda * service`
/// (see the module docs for the corrections to the printed equations).
///
/// The returned vector has `vcs + 1` entries summing to 1.
pub fn vc_occupancy(lambda: f64, service: f64, vcs: usize) -> Result<Vec<f64>, VcOccupancyError> {
    if vcs == 0 {
        return Err(VcOccupancyError::Invalid("vcs must be at least 1"));
    }
    if !(lambda.is_finite() && lambda >= 0.0) {
        return Err(VcOccupancyError::Invalid("lambda must be finite and >= 0"));
    }
    if !(service.is_finite() && service >= 0.0) {
        return Err(VcOccupancyError::Invalid("service must be finite and >= 0"));
    }
    let rho = lambda * service;
    if rho >= 1.0 {
        return Err(VcOccupancyError::Saturated { rho });
    }
    let mut p = Vec::with_capacity(vcs + 1);
    let mut pow = 1.0;
    for _ in 0..vcs {
        p.push((1.0 - rho) * pow);
        pow *= rho;
    }
    p.push(pow);
    Ok(p)
}

/// The same distribution computed the long way: the balance-equation recursion of 001
/// eq (20) (with its last case corrected to a ratio) followed by normalisation.
///
/// Kept as an independent check of [`vc_occupancy`]; both must agree.
pub fn vc_occupancy_recursive(
    lambda: f64,
    service: f64,
    vcs: usize,
) -> Result<Vec<f64>, VcOccupancyError> {
    // Validate exactly as the closed form does.
    vc_occupancy(lambda, service, vcs)?;
    let mut q = vec![1.0_f64; vcs + 1];
    for v in 1..=vcs {
        q[v] = if v < vcs {
            q[v - 1] * lambda * service
        } else {
            q[v - 1] * lambda / (1.0 / service - lambda)
        };
    }
    let total: f64 = q.iter().sum();
    Ok(q.into_iter().map(|x| x / total).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    #[test]
    fn one_vc_is_idle_or_busy() {
        // V = 1: P_0 = 1 - rho, P_1 = rho (by hand: Q_0 = 1, Q_1 = rho/(1-rho)).
        let p = vc_occupancy(0.01, 30.0, 1).unwrap();
        assert_eq!(p.len(), 2);
        assert!(close(p[0], 0.7));
        assert!(close(p[1], 0.3));
    }

    #[test]
    fn light_load_is_all_idle() {
        let p = vc_occupancy(1e-9, 10.0, 4).unwrap();
        assert!((p[0] - 1.0).abs() < 1e-7);
        assert!(p[1..].iter().all(|&x| x < 1e-7));
        let p = vc_occupancy(0.0, 10.0, 4).unwrap();
        assert_eq!(p, vec![1.0, 0.0, 0.0, 0.0, 0.0]);
    }

    #[test]
    fn heavy_load_last_state_dominates() {
        // rho = 0.02 * 45 = 0.9, V = 3. By hand: Q = 1, 0.9, 0.81, 0.729/0.1 = 7.29,
        // sum = 10, so P = 0.1, 0.09, 0.081, 0.729.
        let p = vc_occupancy(0.02, 45.0, 3).unwrap();
        let want = [0.1, 0.09, 0.081, 0.729];
        for (a, b) in p.iter().zip(want) {
            assert!(close(*a, b), "{p:?}");
        }
        assert!(p[3] > p[0] + p[1] + p[2]);
    }

    #[test]
    fn sums_to_one_and_matches_recursion() {
        for &(l, s, v) in &[
            (0.02, 40.0, 3),
            (0.001, 12.0, 10),
            (0.03, 33.0, 6),
            (0.5, 1.0, 2),
        ] {
            let p = vc_occupancy(l, s, v).unwrap();
            let r = vc_occupancy_recursive(l, s, v).unwrap();
            assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-12);
            for (a, b) in p.iter().zip(&r) {
                assert!((a - b).abs() < 1e-12);
            }
        }
    }

    #[test]
    fn saturation_is_an_error() {
        assert_eq!(
            vc_occupancy(0.1, 10.0, 3),
            Err(VcOccupancyError::Saturated { rho: 1.0 })
        );
        assert!(matches!(
            vc_occupancy(0.1, 20.0, 3),
            Err(VcOccupancyError::Saturated { .. })
        ));
        assert!(matches!(
            vc_occupancy(0.1, 1.0, 0),
            Err(VcOccupancyError::Invalid(_))
        ));
    }
}
