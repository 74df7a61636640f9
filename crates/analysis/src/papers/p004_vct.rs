//! Paper 004: "Virtual cut-through routing in toroidal interconnection networks" — latency
//! and saturation of a 2-D torus with virtual cut-through and unlimited storage buffers,
//! under a mean-field approximation.
//!
//! Setting: `n` nodes, every node generates a packet with probability `lambda` per time
//! unit, each to a destination exactly `l` hops away; packets are `m` flits. A head takes
//! 2 time units through a router, other flits 1, a channel 1; the source's injection
//! channel 1. `4n` unidirectional channels (2n bidirectional).
//!
//! # Equations and the readings chosen
//!
//! The extraction dropped most of the section 3.2 formulas; they are rebuilt from the
//! prose, and each reading is checked against what the paper says about it:
//!
//! - Base latency (section 3.2): `tau_min = 3(l + 1) + m` (printed).
//! - Eq (1): `rho = lambda L / 4` — steady state, `L` = channel-time units a packet
//!   occupies over its life; `lambda n L` busy channel-units per unit time over `4n`
//!   channels.
//! - Eqs (2), (7): `L = l m` (every channel of the path carries each of the `m` flits once;
//!   the paper shows it in all three delay regimes).
//! - Eq (9): `rho = lambda l m / 4` (eq 7 into eq 1). Eq (3): `lambda_cr = 4 / (l m)`
//!   (`rho -> 1`). This matches the conclusion's "inversely proportional to the distance l
//!   and the length m".
//! - Eq (4): `p(i) = (1 - rho) rho^i`, the probability of a blocking delay of `i` time units
//!   at a router when each time unit the channel is busy independently with probability
//!   `rho`. Eq (5): `d(rho) = sum i p(i) = rho / (1 - rho)`.
//! - Eq (6): with delay `d` at each of the `l + 1` routers of the path,
//!   `tau = (l + 1)(d + 3) + m` (reduces to `tau_min` at `d = 0`; the visible fragments are
//!   "1" and "3"). Eq (8): `tau = (l + 1)(3 + rho/(1 - rho)) + m`.
//!   Eq (10): the same with eq (9): `tau = (l + 1)(3 + lambda l m / (4 - lambda l m)) + m`;
//!   linear in `lambda` for small `lambda`, linear in `m`, with an `l(l + 1)` term — what
//!   the paper's remark after eq (9) says — and `tau ~ 1/(lambda_cr - lambda)` (critical
//!   exponent 1).
//! - Eq (11): Little, `N = lambda n tau`; worst case all packets condensed in the `4n`
//!   storage buffers: `B = N m / (4n) = lambda tau m / 4 = (rho / l) tau(rho)`, i.e.
//!   `B = rho (3 + rho/(1 - rho)) (1 + 1/l) + rho m / l`.
//!   Check against the paper's numbers: at `rho = 0.9` this is
//!   `10.8 (1 + 1/l) + 0.9 m / l`, which is what the paper prints ("10.8 (1 + ...) ...
//!   0.9"). At `rho = 0.99` it gives `100.98 (1 + 1/l) + 0.99 m / l`, while the paper prints
//!   "50 (1 + ...)": that figure is not reproducible from the formula that gives 10.8
//!   (it is what `rho = 0.98` gives: `0.98 (3 + 49) = 50.96`). We keep the formula and
//!   flag the printed 50 as an arithmetic slip in the paper.
//! - Saturation estimate: the simulations give `lambda_sat ~ 0.8 / m` for torus side
//!   `s >= 2l` (section 4.3, Fig. 9); [`empirical_saturation_rate`].
//!
//! flitsim's timing contract expresses this router exactly (routing_delay 1,
//! switch_alloc_delay 1, other delays 0, channel and terminal latency 1), for which the
//! engine's zero-load latency is `3(H + 1) + M`.

use thiserror::Error;

/// The model has no steady state at this rate.
#[derive(Debug, Clone, Copy, PartialEq, Error)]
#[error("saturated: utilisation {rho} >= 1 (critical rate {critical_rate})")]
pub struct Saturated {
    /// Channel utilisation `lambda l m / 4`.
    pub rho: f64,
    /// The critical generation rate `4 / (l m)` (eq 3).
    pub critical_rate: f64,
}

/// Base (zero-load) latency `3(l + 1) + m` (section 3.2).
pub fn base_latency(l: u32, m: u32) -> u64 {
    3 * (u64::from(l) + 1) + u64::from(m)
}

/// Channel utilisation `rho = lambda l m / 4` (eqs 1, 7, 9).
pub fn utilisation(lambda: f64, l: u32, m: u32) -> f64 {
    lambda * f64::from(l) * f64::from(m) / 4.0
}

/// Critical (saturation) generation rate `lambda_cr = 4 / (l m)` (eq 3).
pub fn critical_rate(l: u32, m: u32) -> f64 {
    4.0 / (f64::from(l) * f64::from(m))
}

/// The paper's empirical saturation rate `0.8 / m`, valid when the torus side is at least
/// twice the distance (`s >= 2l`; section 4.3, Fig. 9).
pub fn empirical_saturation_rate(m: u32) -> f64 {
    0.8 / f64::from(m)
}

/// Probability of a blocking delay of `i` time units at one router, `(1 - rho) rho^i`
/// (eq 4).
pub fn blocking_delay_probability(rho: f64, i: u32) -> f64 {
    (1.0 - rho) * rho.powi(i as i32)
}

/// Mean blocking delay at a router, `rho / (1 - rho)` (eq 5).
pub fn mean_blocking_delay(rho: f64) -> Result<f64, Saturated> {
    if rho >= 1.0 {
        return Err(Saturated {
            rho,
            critical_rate: f64::NAN,
        });
    }
    Ok(rho / (1.0 - rho))
}

/// Latency for a given channel utilisation, `(l + 1)(3 + rho/(1 - rho)) + m` (eqs 6, 8).
pub fn latency_at_utilisation(rho: f64, l: u32, m: u32) -> Result<f64, Saturated> {
    let d = mean_blocking_delay(rho).map_err(|_| Saturated {
        rho,
        critical_rate: critical_rate(l, m),
    })?;
    Ok((f64::from(l) + 1.0) * (3.0 + d) + f64::from(m))
}

/// Latency as a function of the generation rate (eq 10):
/// `(l + 1)(3 + lambda l m / (4 - lambda l m)) + m`.
pub fn latency(lambda: f64, l: u32, m: u32) -> Result<f64, Saturated> {
    latency_at_utilisation(utilisation(lambda, l, m), l, m)
}

/// Buffer capacity (flits per storage buffer) needed at utilisation `rho` in the worst case
/// where every packet in the network is condensed in a buffer (eq 11):
/// `B = (rho / l) tau(rho) = rho (3 + rho/(1 - rho)) (1 + 1/l) + rho m / l`.
pub fn buffer_size(rho: f64, l: u32, m: u32) -> Result<f64, Saturated> {
    Ok(rho / f64::from(l) * latency_at_utilisation(rho, l, m)?)
}

/// Mean number of packets in the network by Little's law, `N = lambda n tau` (section 4.4).
pub fn packets_in_network(lambda: f64, nodes: u32, l: u32, m: u32) -> Result<f64, Saturated> {
    Ok(lambda * f64::from(nodes) * latency(lambda, l, m)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base_latency_formula() {
        assert_eq!(base_latency(2, 5), 14);
        assert_eq!(base_latency(3, 20), 32);
        assert!((latency(0.0, 3, 20).unwrap() - 32.0).abs() < 1e-12);
    }

    #[test]
    fn critical_rate_is_where_utilisation_reaches_one() {
        for (l, m) in [(2, 5), (3, 10), (2, 20)] {
            let c = critical_rate(l, m);
            assert!((utilisation(c, l, m) - 1.0).abs() < 1e-12);
            assert!(latency(c, l, m).is_err());
            assert!(latency(0.999 * c, l, m).is_ok());
        }
        assert!((empirical_saturation_rate(10) - 0.08).abs() < 1e-15);
    }

    #[test]
    fn blocking_delay_distribution_sums_to_mean() {
        let rho = 0.6;
        let total: f64 = (0..400).map(|i| blocking_delay_probability(rho, i)).sum();
        let mean: f64 = (0..400)
            .map(|i| f64::from(i) * blocking_delay_probability(rho, i))
            .sum();
        assert!((total - 1.0).abs() < 1e-12);
        assert!((mean - mean_blocking_delay(rho).unwrap()).abs() < 1e-9);
    }

    #[test]
    fn latency_is_eq8_with_eq9() {
        // l = 2, m = 10, lambda = 0.1: rho = 0.5, d = 1, tau = 3 * 4 + 10 = 22.
        assert!((latency(0.1, 2, 10).unwrap() - 22.0).abs() < 1e-12);
        // Critical exponent 1: (lambda_cr - lambda) tau stays bounded near saturation.
        let c = critical_rate(2, 10);
        let a = (c - c * 0.999) * latency(c * 0.999, 2, 10).unwrap();
        let b = (c - c * 0.9999) * latency(c * 0.9999, 2, 10).unwrap();
        assert!((a - b).abs() / a < 0.01);
    }

    #[test]
    fn buffer_size_matches_papers_number_at_0_9() {
        // The paper: at rho = 0.9, B ~ 10.8 (1 + 1/l) + 0.9 m / l.
        for (l, m) in [(2, 5), (3, 10), (2, 20)] {
            let (lf, mf) = (f64::from(l), f64::from(m));
            let b = buffer_size(0.9, l, m).unwrap();
            assert!((b - (10.8 * (1.0 + 1.0 / lf) + 0.9 * mf / lf)).abs() < 1e-9);
        }
        // At 0.99 the same formula gives 100.98 (1 + 1/l) + 0.99 m / l (the paper's
        // printed "50" does not follow; see the module docs).
        let b = buffer_size(0.99, 2, 10).unwrap();
        assert!((b - (100.98 * 1.5 + 0.99 * 5.0)).abs() < 1e-6);
    }

    #[test]
    fn little() {
        let n = packets_in_network(0.05, 64, 2, 10).unwrap();
        assert!((n - 0.05 * 64.0 * latency(0.05, 2, 10).unwrap()).abs() < 1e-12);
    }
}
