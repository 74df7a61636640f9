//! Paper 002: Patooghy and Sarbazi-Azad, "Analytical performance modelling of partially
//! adaptive routing in wormhole hypercubes" — P-cube routing on an n-cube.
//!
//! P-cube (Fig. 2): at node `C` with destination `D`, route along any dimension `i` with
//! `c_i = 1, d_i = 0` (phase 1, "negative" channels, towards the pivot `S AND D`); when
//! there is none, along any `i` with `c_i = 0, d_i = 1` (phase 2, "positive" channels).
//! The model assumes every minimal P-cube path of a pair is equally likely: `h_n! h_p!`
//! paths.
//!
//! # Per-channel arrival rates, eqs (1)-(2) — [`channel_rate_factor`]
//!
//! A channel `<a, b>` leaves node `a` across one dimension; it is negative if that bit of
//! `a` is 1, positive if 0. With `m` = the number of 0 bits of `a` (all n bits):
//!
//! ```text
//! (1) negative: lambda/(2^n - 1) sum_{i=0}^{n-m-1} sum_{j=0}^{m}
//!                   C(n-m-1, i) C(m, j) 2^(m-j) / ((i+j+1) C(i+j, i))
//! (2) positive: lambda/(2^n - 1) sum_{i=0}^{n-m} sum_{j=0}^{m-1}
//!                   C(n-m, i) C(m-1, j) 2^(m-j-1) / ((i+j+1) C(i+j, i))
//! ```
//!
//! Derivation (negative case): `j` = bits already cleared (chosen among the `m` zeros of
//! `a`), `i` = bits still to clear besides this one (among the other `n - m - 1` ones of
//! `a`); the remaining `m - j` zeros of `a` were 0 in the source, so the destination bit is
//! free there (`2^(m-j)`); the fraction of the `(i+j+1)!` phase-1 orders that pass through
//! `a` and then take this channel is `j! i! / (i+j+1)!`. The positive case is symmetric.
//!
//! **Corrections.** The printed binomials `C(n-1, i)` in (1) and `C(n, i)` in (2) must be
//! `C(n-m-1, i)` and `C(n-m, i)` (the summation limits `n-m-1` and `n-m` already say so);
//! the paper never defines `m`: it is the number of 0 bits of the channel's source node
//! (which makes low-weight channels the busiest, as Fig. 3 shows). With these readings the
//! formulas equal an exhaustive enumeration of all pairs and all minimal P-cube paths
//! exactly (rational arithmetic) for n = 3..8 (tests below).
//!
//! # Latency model, eqs (3)-(25) — [`solve`]
//!
//! - (4) `h_n = sum s_i (1 - d_i)`, `h_p = sum (1 - s_i) d_i`. **Correction:** printed
//!   `h_p = sum s_i d_i` (that is the pivot weight, not the phase-2 hop count).
//! - (5) `K_i = C(h_n, i)` for `i <= h_n`, `C(h_p, i - h_n)` after. **Correction:** printed
//!   with `h_n` and `h_p` swapped (phase 1 comes first).
//! - (11) `S(s,d) = H + M + T_blocking + W_eject`; (12) `T = T(s,pivot) + T(pivot,d)`;
//!   (13) `T(s,pivot) = sum_{i=1}^{h_n} P_i W_i`; (14) `T(pivot,d) = sum_{i=1}^{h_p} P_i W_i`.
//!   **Correction:** (14) prints the upper limit `h_n`.
//! - (15)-(18): the blocking probability at hop `i` is the mean over the `K_{i-1}` nodes of
//!   the product, over the `h_n - i + 1` (resp. `h_p - i + 1`) candidate channels, of the
//!   probability that all V VCs of the channel are busy, `P_{<a,b>,V}`.
//! - `W_mean,i` (not defined in the extraction) is read as the mean of `w_<a,b>` (eq 22)
//!   over the candidate channels of the `K_{i-1}` nodes.
//! - (19)-(20) Dally's chain per channel ([`crate::markov::vc_occupancy()`], where the
//!   corrections of the printed (20) are listed); (8) multiplexing degree per channel.
//! - (21) `S_<a,b>` = mean of `S(s,d)` over the pairs that can use the channel, weighted by
//!   `m_(s,d),<a,b>`, the number of their minimal paths through it.
//! - (22) `w_<a,b>` = M/G/1 with `lambda_<a,b>`, `S_<a,b>` and variance `(S_<a,b> - M)^2`.
//! - (23) `W_s` = M/G/1 at the source with rate `lambda_g / V`, service `S_s` (eq 9);
//!   (24) `W = mean_s W_s`; (10) `S = mean_s S_s`; (7) `V(s,d)` = mean over the hops of
//!   the mean multiplexing degree of the candidate channels; (6) `V = mean V(s,d)`.
//! - (25) `W_eject = M^2 lambda_g / (2 (1 - M lambda_g))` (M/D/1; the printed
//!   `M^2 lambda_g / 2(1 - M lambda_g)` is read with the parenthesised denominator).
//! - (3) `Latency = (S + W) V`.
//!
//! Solved by fixed-point iteration on the per-channel service times `S_<a,b>`, starting at
//! `M` (the iteration is monotone increasing, so it finds the least fixed point when there
//! is one). Bit permutations map P-cube paths to P-cube paths, so every quantity of a
//! channel depends only on (sign, m) and every quantity of a pair only on
//! `(h_n, h_p, pivot weight)`; the solver works on these classes (exact, not an
//! approximation), which keeps a 10-cube cheap.

use crate::markov::{multiplexing_degree, vc_occupancy};
use crate::queueing::mg1_wait_papers;

/// An exact non-negative rational number (reduced).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ratio {
    /// Numerator.
    pub num: u128,
    /// Denominator (> 0).
    pub den: u128,
}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

impl Ratio {
    /// `num / den`, reduced. Panics if `den == 0`.
    pub fn new(num: u128, den: u128) -> Ratio {
        assert!(den != 0, "zero denominator");
        let g = gcd(num, den).max(1);
        Ratio {
            num: num / g,
            den: den / g,
        }
    }

    /// Exact sum.
    pub fn plus(self, o: Ratio) -> Ratio {
        let g = gcd(self.den, o.den);
        let den = self.den / g * o.den;
        Ratio::new(self.num * (o.den / g) + o.num * (self.den / g), den)
    }

    /// The value as a float.
    pub fn to_f64(self) -> f64 {
        self.num as f64 / self.den as f64
    }
}

fn binom(n: u32, k: u32) -> u128 {
    if k > n {
        return 0;
    }
    let k = k.min(n - k);
    let mut r: u128 = 1;
    for i in 0..k {
        r = r * u128::from(n - i) / u128::from(i + 1);
    }
    r
}

/// Whether a channel goes from a 1 bit to a 0 bit (phase 1) or from 0 to 1 (phase 2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ChannelSign {
    /// Clears a bit (`a_i = 1`): phase 1.
    Negative,
    /// Sets a bit (`a_i = 0`): phase 2.
    Positive,
}

/// `(N - 1) / lambda` times the arrival rate of a channel of sign `sign` leaving a node
/// with `zeros` 0 bits in an `n`-cube, exactly: the sum in eq (1) (negative) or eq (2)
/// (positive), with the corrections in the module docs. Multiply by `lambda / (2^n - 1)`
/// for the rate. Panics if the class does not exist (`zeros = n` negative or `zeros = 0`
/// positive).
pub fn channel_rate_sum(n: u32, zeros: u32, sign: ChannelSign) -> Ratio {
    let m = zeros;
    let (outer, inner, top_i, top_j, pow) = match sign {
        ChannelSign::Negative => {
            assert!(m < n, "a negative channel leaves a node with a 1 bit");
            (n - m - 1, m, n - m - 1, m, m)
        }
        ChannelSign::Positive => {
            assert!(
                m >= 1 && m <= n,
                "a positive channel leaves a node with a 0 bit"
            );
            (n - m, m - 1, n - m, m - 1, m - 1)
        }
    };
    let mut acc = Ratio::new(0, 1);
    for i in 0..=top_i {
        for j in 0..=top_j {
            let num = binom(outer, i) * binom(inner, j) * (1u128 << (pow - j));
            let den = u128::from(i + j + 1) * binom(i + j, i);
            acc = acc.plus(Ratio::new(num, den));
        }
    }
    acc
}

/// Arrival rate factor `rate / lambda` of the channel leaving node `a` across dimension
/// `dim` of an `n`-cube (eqs 1-2), exactly: [`channel_rate_sum`] / `(2^n - 1)`.
pub fn channel_rate_factor(n: u32, a: u32, dim: u32) -> Ratio {
    let zeros = n - (a & ((1u32 << n) - 1)).count_ones();
    let sign = if a >> dim & 1 == 1 {
        ChannelSign::Negative
    } else {
        ChannelSign::Positive
    };
    let s = channel_rate_sum(n, zeros, sign);
    Ratio::new(s.num, s.den * ((1u128 << n) - 1))
}

/// Arrival rate (packets per cycle) of the channel leaving `a` across `dim` when every
/// node generates `lambda` packets per cycle to uniformly chosen other nodes (eqs 1-2).
pub fn channel_rate(n: u32, a: u32, dim: u32, lambda: f64) -> f64 {
    lambda * channel_rate_factor(n, a, dim).to_f64()
}

/// Parameters of the P-cube latency model.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PcubeConfig {
    /// Cube dimension n (2^n nodes), 1..=16.
    pub n: u32,
    /// Virtual channels per physical channel, V.
    pub vcs: usize,
    /// Packet length M in flits.
    pub length: u32,
    /// Generation rate lambda_g (packets per node per cycle).
    pub rate: f64,
}

/// Model state of one channel class (all channels of a sign leaving nodes with `zeros`
/// 0 bits behave the same).
#[derive(Debug, Clone, PartialEq)]
pub struct ChannelClassState {
    /// Sign of the channels.
    pub sign: ChannelSign,
    /// Number of 0 bits of the source node.
    pub zeros: u32,
    /// Arrival rate lambda_<a,b> (eqs 1-2).
    pub rate: f64,
    /// Mean service time S_<a,b> (eq 21).
    pub service: f64,
    /// P_v, v = 0..=V (eqs 19-20).
    pub p: Vec<f64>,
    /// Multiplexing degree (eq 8).
    pub multiplexing: f64,
    /// Waiting time w_<a,b> (eq 22).
    pub wait: f64,
}

/// A converged solution of the P-cube model.
#[derive(Debug, Clone, PartialEq)]
pub struct PcubeSolution {
    /// The configuration solved.
    pub config: PcubeConfig,
    /// Mean packet latency `(S + W) V` (eq 3).
    pub latency: f64,
    /// Mean network latency S (eq 10).
    pub network_latency: f64,
    /// Mean source waiting time W (eq 24).
    pub source_wait: f64,
    /// Average multiplexing degree V (eq 6).
    pub multiplexing: f64,
    /// Ejection waiting time (eq 25).
    pub eject_wait: f64,
    /// Fixed-point iterations used.
    pub iterations: u32,
    /// The channel classes, negative (zeros 0..n) then positive (zeros 1..=n).
    pub channels: Vec<ChannelClassState>,
    /// `S(s,d)` by pair type, indexed by [`PcubeSolution::pair_type_index`].
    pair_latency: Vec<f64>,
}

/// The outcome of [`solve`]: a solution or saturation (no fixed point).
#[derive(Debug, Clone, PartialEq)]
pub enum PcubeOutcome {
    /// The fixed point.
    Solved(PcubeSolution),
    /// No steady state: a channel, a source queue or the ejection channel is saturated,
    /// or the iteration diverged.
    Saturated {
        /// What saturated.
        reason: String,
    },
}

impl PcubeSolution {
    fn pair_type_index(n: u32, hn: u32, hp: u32, c: u32) -> usize {
        let n1 = n as usize + 1;
        (hn as usize * n1 + hp as usize) * n1 + c as usize
    }

    /// Network latency `S(s,d)` of the pair (eq 11), `s != d` node addresses.
    pub fn pair_network_latency(&self, s: u32, d: u32) -> f64 {
        let hn = (s & !d).count_ones();
        let hp = (!s & d).count_ones();
        let c = (s & d).count_ones();
        self.pair_latency[Self::pair_type_index(self.config.n, hn, hp, c)]
    }

    /// The state of the channel leaving node `a` across `dim`.
    pub fn channel(&self, a: u32, dim: u32) -> &ChannelClassState {
        let zeros = self.config.n - a.count_ones();
        let sign = if a >> dim & 1 == 1 {
            ChannelSign::Negative
        } else {
            ChannelSign::Positive
        };
        self.channels
            .iter()
            .find(|c| c.sign == sign && c.zeros == zeros)
            .expect("every channel has a class")
    }
}

fn factorial(k: u32) -> f64 {
    (1..=k).map(f64::from).product()
}

/// For channel class index `k`, `weights[k][type]` = the number of (pair, minimal path)
/// combinations of that pair type through one channel of the class (eq 21's
/// `m_(s,d),<a,b>` summed over the pairs of a type).
fn service_weights(n: u32, classes: &[(ChannelSign, u32)]) -> Vec<Vec<f64>> {
    let nodes = 1u32 << n;
    let all = nodes - 1;
    let ntypes = (n as usize + 1).pow(3);
    classes
        .iter()
        .map(|&(sign, zeros)| {
            let mut w = vec![0.0; ntypes];
            // Representative channel across dimension 0.
            let (a, bit) = match sign {
                ChannelSign::Negative => (all >> zeros, 1u32), // low n-m bits set, bit 0 = 1
                ChannelSign::Positive => (all & !((1u32 << zeros) - 1), 1u32), // bit 0 = 0
            };
            for s in 0..nodes {
                for d in 0..nodes {
                    if s == d {
                        continue;
                    }
                    let (hn, hp, c) = (
                        (s & !d).count_ones(),
                        (!s & d).count_ones(),
                        (s & d).count_ones(),
                    );
                    let count = match sign {
                        ChannelSign::Negative => {
                            if a & !s != 0 || (s & !a) & d != 0 || d & bit != 0 {
                                continue;
                            }
                            let done = (s & !a).count_ones();
                            let left = (a & !d).count_ones(); // includes this bit
                            factorial(done) * factorial(left - 1) * factorial(hp)
                        }
                        ChannelSign::Positive => {
                            if a & !d != 0 || (s & d) & !a != 0 || d & bit == 0 || s & bit != 0 {
                                continue;
                            }
                            let done = (a & !s).count_ones();
                            let left = (d & !a).count_ones();
                            factorial(hn) * factorial(done) * factorial(left - 1)
                        }
                    };
                    w[PcubeSolution::pair_type_index(n, hn, hp, c)] += count;
                }
            }
            w
        })
        .collect()
}

/// Solve the P-cube latency model (eqs 3-25) by fixed-point iteration.
///
/// Returns [`PcubeOutcome::Saturated`] rather than a number when there is no steady state.
/// Panics if `n` is 0 or above 16, `vcs` is 0 or `length` is 0.
pub fn solve(cfg: PcubeConfig) -> PcubeOutcome {
    let n = cfg.n;
    assert!((1..=16).contains(&n), "n must be in 1..=16");
    assert!(
        cfg.vcs >= 1 && cfg.length >= 1,
        "vcs and length must be >= 1"
    );
    let m_len = f64::from(cfg.length);
    let lg = cfg.rate;
    let nodes = f64::from(1u32 << n);
    let mut classes: Vec<(ChannelSign, u32)> = (0..n).map(|z| (ChannelSign::Negative, z)).collect();
    classes.extend((1..=n).map(|z| (ChannelSign::Positive, z)));
    let class_of = |sign: ChannelSign, zeros: u32| match sign {
        ChannelSign::Negative => zeros as usize,
        ChannelSign::Positive => (n + zeros - 1) as usize,
    };
    let rates: Vec<f64> = classes
        .iter()
        .map(|&(s, z)| lg * channel_rate_sum(n, z, s).to_f64() / (nodes - 1.0))
        .collect();
    let weights = service_weights(n, &classes);

    // Eq (25).
    if m_len * lg >= 1.0 {
        return PcubeOutcome::Saturated {
            reason: format!("ejection channel: M lambda_g = {} >= 1", m_len * lg),
        };
    }
    let eject = m_len * m_len * lg / (2.0 * (1.0 - m_len * lg));

    let mut service = vec![m_len; classes.len()];
    let ntypes = (n as usize + 1).pow(3);
    let mut pair = vec![0.0; ntypes];
    let mut pair_v = vec![0.0; ntypes];
    let mut states: Vec<ChannelClassState> = Vec::new();
    let max_iter = 10_000;
    let mut iterations = 0;
    loop {
        iterations += 1;
        // Per-channel quantities (eqs 19-20, 8, 22).
        states.clear();
        for (k, &(sign, zeros)) in classes.iter().enumerate() {
            let p = match vc_occupancy(rates[k], service[k], cfg.vcs) {
                Ok(p) => p,
                Err(e) => {
                    return PcubeOutcome::Saturated {
                        reason: format!("{sign:?} channel class with {zeros} zero bits: {e}"),
                    }
                }
            };
            let wait = match mg1_wait_papers(rates[k], service[k], m_len) {
                Ok(w) => w,
                Err(e) => {
                    return PcubeOutcome::Saturated {
                        reason: format!("{sign:?} channel class with {zeros} zero bits: {e}"),
                    }
                }
            };
            states.push(ChannelClassState {
                sign,
                zeros,
                rate: rates[k],
                service: service[k],
                multiplexing: multiplexing_degree(&p),
                p,
                wait,
            });
        }
        // Per-pair-type network latency (eqs 11-18) and multiplexing (eq 7).
        for hn in 0..=n {
            for hp in 0..=(n - hn) {
                for c in 0..=(n - hn - hp) {
                    let h = hn + hp;
                    if h == 0 {
                        continue;
                    }
                    let mut t = 0.0;
                    let mut v = 0.0;
                    for i in 1..=hn {
                        let weight = hn + c - (i - 1);
                        let st = &states[class_of(ChannelSign::Negative, n - weight)];
                        t += st.p[cfg.vcs].powi((hn - i + 1) as i32) * st.wait;
                        v += st.multiplexing;
                    }
                    for i in 1..=hp {
                        let weight = c + i - 1;
                        let st = &states[class_of(ChannelSign::Positive, n - weight)];
                        t += st.p[cfg.vcs].powi((hp - i + 1) as i32) * st.wait;
                        v += st.multiplexing;
                    }
                    let idx = PcubeSolution::pair_type_index(n, hn, hp, c);
                    pair[idx] = f64::from(h) + m_len + t + eject;
                    pair_v[idx] = v / f64::from(h);
                }
            }
        }
        // Eq (21).
        let mut change: f64 = 0.0;
        for (k, w) in weights.iter().enumerate() {
            let (num, den) = w
                .iter()
                .zip(&pair)
                .fold((0.0, 0.0), |(a, b), (wt, s)| (a + wt * s, b + wt));
            let new = num / den;
            change = change.max((new - service[k]).abs() / new);
            service[k] = new;
        }
        if change < 1e-12 {
            break;
        }
        if iterations >= max_iter || service.iter().any(|s| !s.is_finite()) {
            return PcubeOutcome::Saturated {
                reason: format!("no fixed point after {iterations} iterations"),
            };
        }
    }

    // Source side (eqs 9, 10, 23, 24) and multiplexing (eqs 6, 7).
    let mut s_bar = 0.0;
    let mut w_bar = 0.0;
    let mut v_bar = 0.0;
    for w in 0..=n {
        let mut s_s = 0.0;
        for hn in 0..=w {
            for hp in 0..=(n - w) {
                if hn + hp == 0 {
                    continue;
                }
                let count = (binom(w, hn) * binom(n - w, hp)) as f64;
                let idx = PcubeSolution::pair_type_index(n, hn, hp, w - hn);
                s_s += count * pair[idx];
                v_bar += binom(n, w) as f64 * count * pair_v[idx];
            }
        }
        s_s /= nodes - 1.0;
        let ws = match mg1_wait_papers(lg / cfg.vcs as f64, s_s, m_len) {
            Ok(x) => x,
            Err(e) => {
                return PcubeOutcome::Saturated {
                    reason: format!("source queue of a node of weight {w}: {e}"),
                }
            }
        };
        s_bar += binom(n, w) as f64 * s_s;
        w_bar += binom(n, w) as f64 * ws;
    }
    s_bar /= nodes;
    w_bar /= nodes;
    v_bar /= nodes * (nodes - 1.0);
    PcubeOutcome::Solved(PcubeSolution {
        config: cfg,
        latency: (s_bar + w_bar) * v_bar,
        network_latency: s_bar,
        source_wait: w_bar,
        multiplexing: v_bar,
        eject_wait: eject,
        iterations,
        channels: states,
        pair_latency: pair,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Independent enumeration: for every pair, count the minimal P-cube paths from the
    /// source to each node (forward) and from each node to the destination (backward) by
    /// following the routing function of Fig. 2, and add each channel's share of the
    /// paths. Returns, per channel `(a, dim)`, `n!` times the sum over pairs of
    /// (paths through the channel / paths of the pair) — an integer, since the number of
    /// paths `h_n! h_p!` divides `n!`.
    fn enumerate(n: u32) -> Vec<u128> {
        let nodes = 1usize << n;
        let mask = (nodes - 1) as u32;
        let route = |c: u32, d: u32| -> u32 {
            let r = c & !d;
            if r != 0 {
                r
            } else {
                !c & d & mask
            }
        };
        let nfact: u128 = (1..=u128::from(n)).product();
        let mut flow = vec![0u128; nodes * n as usize];
        let mut fwd = vec![0u128; nodes];
        let mut bwd = vec![0u128; nodes];
        for s in 0..nodes as u32 {
            for d in 0..nodes as u32 {
                if s == d {
                    continue;
                }
                // Backward counts: paths from x to d, by recursion on distance to d.
                let mut order: Vec<u32> = (0..nodes as u32).collect();
                order.sort_by_key(|&x| (x ^ d).count_ones());
                for &x in &order {
                    bwd[x as usize] = if x == d {
                        1
                    } else {
                        let r = route(x, d);
                        (0..n)
                            .filter(|i| r >> i & 1 == 1)
                            .map(|i| bwd[(x ^ (1 << i)) as usize])
                            .sum()
                    };
                }
                // Forward counts from s, processing nodes by distance from s.
                fwd.iter_mut().for_each(|f| *f = 0);
                fwd[s as usize] = 1;
                order.sort_by_key(|&x| (x ^ s).count_ones());
                let total = bwd[s as usize];
                for &x in &order {
                    if fwd[x as usize] == 0 || x == d {
                        continue;
                    }
                    let r = route(x, d);
                    for i in 0..n {
                        if r >> i & 1 == 1 {
                            let y = x ^ (1 << i);
                            fwd[y as usize] += fwd[x as usize];
                            let through = fwd[x as usize] * bwd[y as usize];
                            assert_eq!(through * nfact % total, 0);
                            flow[x as usize * n as usize + i as usize] += through * nfact / total;
                        }
                    }
                }
            }
        }
        flow
    }

    #[test]
    fn rates_equal_enumeration_exactly_n3_to_n8() {
        for n in 3..=8u32 {
            let flow = enumerate(n);
            let nfact: u128 = (1..=u128::from(n)).product();
            for a in 0..(1u32 << n) {
                for dim in 0..n {
                    let r = channel_rate_factor(n, a, dim);
                    // rate/lambda * (2^n - 1) * n! must be the integer the enumeration found.
                    let scaled = Ratio::new(r.num * ((1u128 << n) - 1) * nfact, r.den);
                    assert_eq!(scaled.den, 1, "n={n} a={a} dim={dim}");
                    assert_eq!(
                        scaled.num,
                        flow[(a * n + dim) as usize],
                        "n={n} a={a:b} dim={dim}"
                    );
                }
            }
        }
    }

    #[test]
    fn rates_hand_checked_and_unbalanced() {
        // n = 1: node 1 sends everything to node 0 and vice versa.
        assert_eq!(channel_rate_factor(1, 1, 0), Ratio::new(1, 1));
        assert_eq!(channel_rate_factor(1, 0, 0), Ratio::new(1, 1));
        // Total channel traffic = lambda * N * mean hops = lambda * 2^n * n 2^(n-1)/(2^n - 1).
        for n in 2..=8u32 {
            let mut total = Ratio::new(0, 1);
            for a in 0..(1u32 << n) {
                for dim in 0..n {
                    total = total.plus(channel_rate_factor(n, a, dim));
                }
            }
            let want = Ratio::new(
                (1u128 << n) * u128::from(n) * (1u128 << (n - 1)),
                (1u128 << n) - 1,
            );
            assert_eq!(total, want, "n={n}");
        }
        // The busiest channels leave node 0 (Fig. 3): more traffic than the balanced mean.
        let n = 6;
        // Balanced mean per channel: 2^(n-1) / (2^n - 1).
        let mean = 32.0 / 63.0;
        assert!(channel_rate_factor(n, 0, 0).to_f64() > mean);
        assert!(channel_rate_factor(n, 0b111111, 0).to_f64() < mean);
    }

    #[test]
    fn model_zero_load_and_monotone() {
        let cfg = PcubeConfig {
            n: 6,
            vcs: 3,
            length: 32,
            rate: 1e-9,
        };
        let PcubeOutcome::Solved(s) = solve(cfg) else {
            panic!("light load must solve")
        };
        // Zero load: S = mean hops + M = n 2^(n-1)/(2^n - 1) + M, W = 0, V = 1.
        let hops = 6.0 * 32.0 / 63.0;
        assert!((s.network_latency - (hops + 32.0)).abs() < 1e-4);
        assert!((s.latency - (hops + 32.0)).abs() < 1e-3);
        let mut last = s.latency;
        for r in [0.002, 0.004, 0.006] {
            let PcubeOutcome::Solved(s) = solve(PcubeConfig { rate: r, ..cfg }) else {
                panic!("rate {r} must solve")
            };
            assert!(s.latency > last);
            last = s.latency;
            for c in &s.channels {
                assert!((c.p.iter().sum::<f64>() - 1.0).abs() < 1e-9);
            }
            // Node 0's channels are the busiest.
            assert!(s.channel(0, 0).rate >= s.channel(0b111111, 0).rate);
            assert!(s.pair_network_latency(0b111111, 0) > s.pair_network_latency(1, 0));
        }
        assert!(matches!(
            solve(PcubeConfig { rate: 0.05, ..cfg }),
            PcubeOutcome::Saturated { .. }
        ));
    }
}
