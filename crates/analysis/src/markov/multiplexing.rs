//! Average degree of virtual-channel multiplexing on a physical channel.
//!
//! Source: Dally 1992, as used by paper 001 eq (21) and paper 002 eq (8):
//!
//! ```text
//! Vbar = sum_{v=1}^{V} v^2 P_v / sum_{v=1}^{V} v P_v
//! ```
//!
//! It is the mean number of busy VCs seen by a busy VC (a size-biased mean): when `v` VCs
//! share the channel's bandwidth each advances at `1/v` of the channel rate, and the models
//! scale latency by `Vbar`. Both papers print the same form; no correction was needed.

/// Average multiplexing degree `sum v^2 P_v / sum v P_v` of an occupancy distribution
/// `p[v]` (001 eq 21, 002 eq 8).
///
/// When no VC is ever busy (`sum v P_v == 0`) the limit as the load goes to zero is
/// returned: 1 (a lone packet owns the channel).
pub fn multiplexing_degree(p: &[f64]) -> f64 {
    let (num, den) = p.iter().enumerate().fold((0.0, 0.0), |(n, d), (v, &pv)| {
        let v = v as f64;
        (n + v * v * pv, d + v * pv)
    });
    if den > 0.0 {
        num / den
    } else {
        1.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_computed() {
        // P = 0.1, 0.09, 0.081, 0.729: num = 0.09 + 4*0.081 + 9*0.729 = 6.975,
        // den = 0.09 + 2*0.081 + 3*0.729 = 2.439.
        let v = multiplexing_degree(&[0.1, 0.09, 0.081, 0.729]);
        assert!((v - 6.975 / 2.439).abs() < 1e-12);
    }

    #[test]
    fn bounds() {
        assert_eq!(multiplexing_degree(&[1.0, 0.0, 0.0]), 1.0);
        assert_eq!(multiplexing_degree(&[0.0, 1.0, 0.0]), 1.0);
        assert_eq!(multiplexing_degree(&[0.0, 0.0, 0.0, 1.0]), 3.0);
        let v = multiplexing_degree(&[0.2, 0.3, 0.5]);
        assert!(v > 1.0 && v < 2.0);
    }
}
