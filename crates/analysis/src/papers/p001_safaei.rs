//! Paper 001: Safaei, Khonsari, Fathy, Ould-Khaoua, "Performance evaluation of fully
//! adaptive routing for the torus interconnect networks" (ICCS 2007) — the Duato-Nbc
//! latency model, eqs (1)-(21), on a k-ary 2-cube with `V = V1 + V2` VCs per channel
//! (`V1` fully adaptive, `V2` escape VCs of the negative-hop + bonus-cards scheme).
//!
//! # Deadlock freedom of a split — [`is_deadlock_free`]
//!
//! Boppana and Chalasani's negative-hop (NHop) scheme colours the nodes so that a hop is
//! negative when it goes from a higher to a lower colour, and a packet that has taken `j`
//! negative hops uses escape class `j`; the classes form an acyclic order, so `c + 1`
//! escape classes suffice when no path takes more than `c` negative hops. On a torus with
//! even `k` the 2-cube is bipartite (two colours), hops alternate colours, and a minimal
//! path of `H <= D` hops takes at most `ceil(H/2)` negative hops, `D = 2 floor(k/2)` the
//! diameter: `V2 >= ceil(D/2) + 1 = k/2 + 1`. For odd `k` the torus is not bipartite;
//! we use the safe bound that every hop may be negative: `V2 >= D + 1`. Duato's
//! methodology adds the adaptive VCs on top of a deadlock-free escape subnetwork and needs
//! `V1 >= 1`. With V = 10 this gives the splits (V1, V2) = (5, 5) .. (1, 9) on 8x8 and
//! only (1, 9) on 16x16 (the paper's "minimum virtual channel requirements").
//! Bonus cards (Nbc) let a packet that needs fewer classes than remain start at a higher
//! class; the model counts the usable escape VCs with them (eqs 12-16).
//!
//! # Equations and readings
//!
//! - (1) `Latency = (S + W_s) V`.
//! - (2) Agarwal: `k_bar = k/4` hops per dimension, `d_bar = 2 k_bar`
//!   ([`MeanDistance::Agarwal`]); [`MeanDistance::Exact`] uses the exact mean over the
//!   `N - 1` destinations instead.
//! - (3) `lambda_c = lambda_g d_bar / 4`.
//! - (4)-(6) per destination, `h_x`, `h_y` torus distances, `H = h_x + h_y`; (5)
//!   `S_H = M + H + sum_{h=1}^{H} B_h`; (7) `B_h = P_block,h W_c`.
//! - (8)-(10) `phi_h = 2 - P_phi,h`, (9) `P_phi,h = 0` for `h < k_bar`,
//!   `2 / (d_bar - h + 1)` for `k_bar <= h < d_bar - 1`; read with `h` the hop index
//!   (1-based), and `P_phi,h = 1` for `h >= d_bar - 1` (the printed cases stop there;
//!   at the last hops only one dimension can remain), clamped to `[0, 1]`. **Reading
//!   added:** a destination in the same row or column (`h_x = 0` or `h_y = 0`) has one
//!   dimension throughout, `phi_h = 1` (eq 9 averages over pairs and would give it two
//!   choices).
//! - (11) `P_block,h = (P_block1 + (P_block2 + P_block3)/2)^phi_h`.
//! - `Delta` (remaining hops) at hop `h` is read as `H - h + 1` (the hop being requested
//!   included), and `c = ceil(Delta/2)`.
//! - (12)-(13) class 1: `u1 = V1 + V2 - c + 1` usable VCs,
//!   `P_block1 = P_v0 sum_{v=u1}^{V} P_v C(V - u1, v - u1) / C(V, v)`,
//!   `P_v0 = V1 / u1` (printed as is).
//! - (14)-(16) classes 2 and 3 with previous escape VC `l`: the prose says
//!   `V1 + V2 - c - l + 1` (class 2, `l = 1..V2-c`) and `V1 + V2 - c - l + 2` (class 3,
//!   `l = 1..V2-c+1`) usable VCs, each with `P_vl = 1 / u1`. **Correction:** the printed
//!   binomials `C(V2 - c - l, v - V1 - c - l) / C(V, v)` from `v = V1 + c + l` swap the
//!   usable and unusable counts relative to that prose and to eq (12); we use the
//!   probability that all `u` usable VCs are busy given `v` busy,
//!   `C(V - u, v - u) / C(V, v)`, exactly as in eq (12).
//! - (17) `S = mean over destinations of S_H`.
//! - (18) `W_c` = M/G/1 with `lambda_c`, the channel service time `S_c` and variance
//!   `(S_c - M)^2`; `S_c` = the mean of `S_H` over the pairs with a minimal path through the
//!   channel, read as each destination weighted by the number of channels in the union of
//!   its minimal paths, `h_x (h_y + 1) + h_y (h_x + 1)` (a pair at offset `k/2` is counted
//!   in one direction).
//! - (19) `W_s` = M/G/1 with `lambda_g / V`, service `S`, variance `(S - M)^2`.
//! - (20) Dally's chain with `lambda_c`, `S_c` (printed last case corrected, see
//!   [`crate::markov::vc_occupancy()`]); (21) the multiplexing degree.
//!
//! Solved by fixed-point iteration on `S_c` from `M + d_bar` (monotone); saturation is
//! [`SafaeiOutcome::Saturated`].

use thiserror::Error;

use crate::markov::{multiplexing_degree, vc_occupancy};
use crate::queueing::mg1_wait_papers;

/// How the mean distance `d_bar` of eqs (2)-(3) is computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MeanDistance {
    /// Agarwal's `d_bar = 2 k/4 = k/2`, as printed (eq 2).
    #[default]
    Agarwal,
    /// The exact mean torus distance over the `N - 1` other nodes.
    Exact,
}

/// Parameters of the Duato-Nbc model.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SafaeiConfig {
    /// Radix k of the k x k torus (k >= 2).
    pub k: u32,
    /// Fully adaptive VCs per channel, V1.
    pub v1: u32,
    /// Escape (negative-hop) VCs per channel, V2.
    pub v2: u32,
    /// Packet length M in flits.
    pub length: u32,
    /// Generation rate lambda_g (packets per node per cycle).
    pub rate: f64,
    /// Mean distance used in eqs (2)-(3).
    pub distance: MeanDistance,
}

/// A configuration the model does not accept.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum SafaeiError {
    /// k < 2, M = 0 or a rate that is negative or not finite.
    #[error("invalid parameter: {0}")]
    Invalid(&'static str),
}

/// A converged solution.
#[derive(Debug, Clone, PartialEq)]
pub struct SafaeiSolution {
    /// Mean packet latency (eq 1).
    pub latency: f64,
    /// Mean network latency S (eq 17).
    pub network_latency: f64,
    /// Source waiting time W_s (eq 19).
    pub source_wait: f64,
    /// Multiplexing degree (eq 21).
    pub multiplexing: f64,
    /// Channel arrival rate lambda_c (eq 3).
    pub channel_rate: f64,
    /// Channel service time S_c (eq 18).
    pub channel_service: f64,
    /// Channel waiting time W_c (eq 18).
    pub channel_wait: f64,
    /// P_v, v = 0..=V (eq 20).
    pub p: Vec<f64>,
    /// Fixed-point iterations used.
    pub iterations: u32,
}

/// The outcome of [`solve`].
#[derive(Debug, Clone, PartialEq)]
pub enum SafaeiOutcome {
    /// The fixed point.
    Solved(SafaeiSolution),
    /// No steady state.
    Saturated {
        /// What saturated.
        reason: String,
    },
}

/// Network diameter of a k x k torus, `2 floor(k/2)`.
pub fn diameter(k: u32) -> u32 {
    2 * (k / 2)
}

/// Escape VCs the negative-hop scheme needs on a k x k torus: `ceil(D/2) + 1` for even k,
/// `D + 1` for odd k (see the module docs).
pub fn escape_vcs_needed(k: u32) -> u32 {
    let d = diameter(k);
    if k % 2 == 0 {
        d.div_ceil(2) + 1
    } else {
        d + 1
    }
}

/// Whether the split `V1 + V2` is deadlock-free for Duato-Nbc on a k x k torus:
/// `V1 >= 1` and `V2 >= escape_vcs_needed(k)`.
pub fn is_deadlock_free(k: u32, v1: u32, v2: u32) -> bool {
    v1 >= 1 && v2 >= escape_vcs_needed(k)
}

/// The warning for a split that is not deadlock-free (the model still evaluates it: a
/// hop with `ceil(Delta/2) > V2` counts no usable escape VC), `None` for a safe split.
pub fn split_warning(k: u32, v1: u32, v2: u32) -> Option<String> {
    (!is_deadlock_free(k, v1, v2)).then(|| {
        format!(
            "split V1={v1}, V2={v2} is not deadlock-free on a {k}x{k} torus (negative-hop \
             routing needs V2 >= {}); the model counts only the escape VCs a hop can use",
            escape_vcs_needed(k)
        )
    })
}

fn ring_distance(k: u32, x: u32) -> u32 {
    x.min(k - x)
}

fn binom(n: u32, k: u32) -> f64 {
    if k > n {
        return 0.0;
    }
    (0..k).fold(1.0, |acc, i| acc * f64::from(n - i) / f64::from(i + 1))
}

/// Probability that `u` given VCs out of `V` are all busy: `sum_{v>=u} P_v C(V-u, v-u) /
/// C(V, v)` (the kernel of eqs 12, 14, 15).
fn all_busy(p: &[f64], u: u32) -> f64 {
    let vv = (p.len() - 1) as u32;
    if u == 0 {
        return 1.0;
    }
    (u..=vv)
        .map(|v| p[v as usize] * binom(vv - u, v - u) / binom(vv, v))
        .sum()
}

/// Blocking probability at hop `h` of a path of `hops` hops (eqs 8-16).
fn block_probability(
    cfg: &SafaeiConfig,
    p: &[f64],
    h: u32,
    hops: u32,
    one_dim: bool,
    kbar: f64,
    dbar: f64,
) -> f64 {
    let (v1, v2) = (cfg.v1, cfg.v2);
    let delta = hops - h + 1;
    let c = delta.div_ceil(2);
    // Usable escape VCs: V2 - c + 1, none when the split is too short for this hop.
    let u1 = v1 + (v2 + 1).saturating_sub(c);
    let weight = 1.0 / f64::from(u1);
    let pb1 = f64::from(v1) * weight * all_busy(p, u1);
    let pb2: f64 = (1..=v2.saturating_sub(c))
        .map(|l| weight * all_busy(p, v1 + v2 + 1 - c - l))
        .sum();
    let pb3: f64 = (1..=(v2 + 1).saturating_sub(c))
        .map(|l| weight * all_busy(p, v1 + v2 + 2 - c - l))
        .sum();
    let phi = if one_dim {
        1.0
    } else {
        let hf = f64::from(h);
        let p_phi = if hf < kbar {
            0.0
        } else if hf < dbar - 1.0 {
            (2.0 / (dbar - hf + 1.0)).clamp(0.0, 1.0)
        } else {
            1.0
        };
        2.0 - p_phi
    };
    (pb1 + (pb2 + pb3) / 2.0).powf(phi)
}

/// Solve the Duato-Nbc model (eqs 1-21) by fixed-point iteration.
pub fn solve(cfg: SafaeiConfig) -> Result<SafaeiOutcome, SafaeiError> {
    let k = cfg.k;
    if k < 2 || cfg.length == 0 {
        return Err(SafaeiError::Invalid("need k >= 2 and length >= 1"));
    }
    if !(cfg.rate.is_finite() && cfg.rate >= 0.0) {
        return Err(SafaeiError::Invalid("rate must be finite and >= 0"));
    }
    if cfg.v1 == 0 {
        return Err(SafaeiError::Invalid("need V1 >= 1 adaptive VC"));
    }
    let vcs = (cfg.v1 + cfg.v2) as usize;
    let m = f64::from(cfg.length);
    let nodes = f64::from(k * k);
    // Destinations as offsets (hx, hy) from node 0, with multiplicity 1 each.
    let dests: Vec<(u32, u32)> = (0..k)
        .flat_map(|x| (0..k).map(move |y| (x, y)))
        .filter(|&(x, y)| x != 0 || y != 0)
        .map(|(x, y)| (ring_distance(k, x), ring_distance(k, y)))
        .collect();
    let dbar = match cfg.distance {
        MeanDistance::Agarwal => f64::from(k) / 2.0,
        MeanDistance::Exact => {
            dests.iter().map(|&(x, y)| f64::from(x + y)).sum::<f64>() / (nodes - 1.0)
        }
    };
    let kbar = dbar / 2.0;
    let lambda_c = cfg.rate * dbar / 4.0; // eq (3)
    let mut s_c = m + dbar;
    let mut iterations = 0;
    let (p, w_c, s_h) = loop {
        iterations += 1;
        let p = match vc_occupancy(lambda_c, s_c, vcs) {
            Ok(p) => p,
            Err(e) => {
                return Ok(SafaeiOutcome::Saturated {
                    reason: format!("channel: {e}"),
                })
            }
        };
        let w_c = match mg1_wait_papers(lambda_c, s_c, m) {
            Ok(w) => w,
            Err(e) => {
                return Ok(SafaeiOutcome::Saturated {
                    reason: format!("channel: {e}"),
                })
            }
        };
        let s_h: Vec<f64> = dests
            .iter()
            .map(|&(hx, hy)| {
                let hops = hx + hy;
                let one_dim = hx == 0 || hy == 0;
                let blocking: f64 = (1..=hops)
                    .map(|h| block_probability(&cfg, &p, h, hops, one_dim, kbar, dbar) * w_c)
                    .sum();
                m + f64::from(hops) + blocking
            })
            .collect();
        let (num, den) = dests
            .iter()
            .zip(&s_h)
            .fold((0.0, 0.0), |(a, b), (&(hx, hy), s)| {
                let w = f64::from(hx * (hy + 1) + hy * (hx + 1));
                (a + w * s, b + w)
            });
        let new = num / den;
        let change = (new - s_c).abs() / new;
        s_c = new;
        if change < 1e-12 {
            break (p, w_c, s_h);
        }
        if iterations >= 10_000 || !s_c.is_finite() {
            return Ok(SafaeiOutcome::Saturated {
                reason: format!("no fixed point after {iterations} iterations"),
            });
        }
    };
    let s_bar = s_h.iter().sum::<f64>() / (nodes - 1.0);
    let w_s = match mg1_wait_papers(cfg.rate / vcs as f64, s_bar, m) {
        Ok(w) => w,
        Err(e) => {
            return Ok(SafaeiOutcome::Saturated {
                reason: format!("source queue: {e}"),
            })
        }
    };
    let mux = multiplexing_degree(&p);
    Ok(SafaeiOutcome::Solved(SafaeiSolution {
        latency: (s_bar + w_s) * mux,
        network_latency: s_bar,
        source_wait: w_s,
        multiplexing: mux,
        channel_rate: lambda_c,
        channel_service: s_c,
        channel_wait: w_c,
        p,
        iterations,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(k: u32, v1: u32, v2: u32, m: u32, rate: f64) -> SafaeiConfig {
        SafaeiConfig {
            k,
            v1,
            v2,
            length: m,
            rate,
            distance: MeanDistance::Agarwal,
        }
    }

    #[test]
    fn deadlock_free_splits() {
        assert_eq!(diameter(8), 8);
        assert_eq!(escape_vcs_needed(8), 5);
        assert_eq!(escape_vcs_needed(16), 9);
        assert_eq!(escape_vcs_needed(5), 5);
        assert!(is_deadlock_free(8, 5, 5));
        assert!(!is_deadlock_free(8, 6, 4));
        assert!(!is_deadlock_free(8, 0, 10));
        // V = 10 on 16x16: only (1, 9).
        let ok: Vec<u32> = (0..=10)
            .filter(|&v1| is_deadlock_free(16, v1, 10 - v1))
            .collect();
        assert_eq!(ok, vec![1]);
        assert!(split_warning(8, 5, 5).is_none());
        assert!(split_warning(8, 8, 2).is_some_and(|w| w.contains("V2 >= 5")));
    }

    #[test]
    fn a_split_that_is_not_deadlock_free_is_evaluated() {
        // The V1 = 8, V2 = 2 split on 8x8 solves; with fewer usable escape VCs a head is
        // blocked at least as often as with (5, 5) at the same rate, never less.
        let solved = |v1, v2| match solve(cfg(8, v1, v2, 32, 0.008)).unwrap() {
            SafaeiOutcome::Solved(s) => s.latency,
            SafaeiOutcome::Saturated { reason } => panic!("{reason}"),
        };
        let (short, safe) = (solved(8, 2), solved(5, 5));
        assert!(short.is_finite() && short > 32.0, "{short}");
        assert!(safe > 32.0, "{safe}");
        assert!(matches!(
            solve(cfg(8, 0, 10, 32, 0.001)),
            Err(SafaeiError::Invalid(_))
        ));
    }

    #[test]
    fn all_busy_kernel() {
        // All V busy: only state V counts, C(0,0)/C(V,V) = 1.
        let p = [0.1, 0.2, 0.3, 0.4];
        assert!((all_busy(&p, 3) - 0.4).abs() < 1e-12);
        // One given VC of 3 busy: sum_v P_v v/3.
        assert!((all_busy(&p, 1) - (0.2 / 3.0 + 0.3 * 2.0 / 3.0 + 0.4)).abs() < 1e-12);
    }

    #[test]
    fn zero_load_is_m_plus_mean_distance() {
        for distance in [MeanDistance::Agarwal, MeanDistance::Exact] {
            let c = SafaeiConfig {
                distance,
                ..cfg(8, 5, 5, 32, 0.0)
            };
            let SafaeiOutcome::Solved(s) = solve(c).unwrap() else {
                panic!()
            };
            // Exact mean distance over the 63 other nodes of an 8x8 torus: 256/63.
            assert!((s.network_latency - (32.0 + 256.0 / 63.0)).abs() < 1e-9);
            assert!((s.latency - s.network_latency).abs() < 1e-9);
        }
    }

    #[test]
    fn latency_grows_then_saturates() {
        let mut last = 0.0;
        for r in [0.001, 0.004, 0.008, 0.012] {
            let SafaeiOutcome::Solved(s) = solve(cfg(8, 5, 5, 32, r)).unwrap() else {
                panic!("rate {r} must solve")
            };
            assert!(s.latency > last);
            assert!((s.p.iter().sum::<f64>() - 1.0).abs() < 1e-9);
            last = s.latency;
        }
        assert!(matches!(
            solve(cfg(8, 5, 5, 32, 0.1)).unwrap(),
            SafaeiOutcome::Saturated { .. }
        ));
        // Longer packets saturate earlier.
        assert!(matches!(
            solve(cfg(8, 5, 5, 64, 0.03)).unwrap(),
            SafaeiOutcome::Saturated { .. }
        ));
    }
}
