//! Random streams: one independent `rand_pcg` generator per component.
//!
//! Every terminal and every router draws from its own stream, seeded from a hash of
//! `(seed, component kind, id)`. No generator is shared, so the numbers a component sees
//! do not depend on how many components exist, in which order they are stepped, or on
//! which thread.

use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// The generator type of a component's stream.
pub type ComponentRng = Pcg64Mcg;

/// What kind of component a stream belongs to (part of the seed hash, so terminal 3 and
/// router 3 get unrelated streams).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ComponentKind {
    /// A terminal: packet generation and destinations.
    Terminal,
    /// A router: its selection function (`random`) and anything else it draws.
    Router,
}

impl ComponentKind {
    fn tag(self) -> u64 {
        match self {
            ComponentKind::Terminal => 0x7465_726d_696e_616c, // "terminal"
            ComponentKind::Router => 0x726f_7574_6572_0000,   // "router"
        }
    }
}

/// SplitMix64 finaliser: a bijective 64-bit mixer (Steele et al., 2014). Stable across
/// Rust versions, unlike `std`'s hashers.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The seed of the stream of component `(kind, id)` for the run seed `seed`.
pub fn stream_seed(seed: u64, kind: ComponentKind, id: u32) -> u64 {
    mix(mix(mix(seed) ^ kind.tag()) ^ u64::from(id))
}

/// The generator of component `(kind, id)` for the run seed `seed`.
pub fn stream(seed: u64, kind: ComponentKind, id: u32) -> ComponentRng {
    ComponentRng::seed_from_u64(stream_seed(seed, kind, id))
}

/// A Bernoulli trial with a fixed probability, drawn with one `u64` and an integer
/// comparison (exact and cheap on the per-cycle path).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Bernoulli {
    /// Success iff the drawn `u64` is below this; `None` = always succeed (p = 1).
    threshold: Option<u64>,
}

impl Bernoulli {
    /// Probability `p` in `[0, 1]` (clamped).
    pub fn new(p: f64) -> Bernoulli {
        if p >= 1.0 {
            Bernoulli { threshold: None }
        } else if p.is_nan() || p <= 0.0 {
            Bernoulli { threshold: Some(0) }
        } else {
            // p * 2^64, exact to f64 precision; `as` saturates.
            Bernoulli {
                threshold: Some((p * 18_446_744_073_709_551_616.0) as u64),
            }
        }
    }

    /// One trial. Draws exactly one number unless p is 0 or 1 (then it draws none).
    #[inline]
    pub fn sample(&self, rng: &mut ComponentRng) -> bool {
        match self.threshold {
            None => true,
            Some(0) => false,
            Some(t) => rng.next_u64() < t,
        }
    }

    /// Up to `trials` trials in a row, stopping at the first success: its index, or
    /// `None` if all fail. Draws exactly what as many [`Bernoulli::sample`] calls would,
    /// in one tight loop (the generator's state stays in registers).
    #[inline]
    pub fn first_success(&self, rng: &mut ComponentRng, trials: u64) -> Option<u64> {
        match self.threshold {
            None => (trials > 0).then_some(0),
            Some(0) => None,
            Some(t) => {
                if trials == 0 {
                    return None;
                }
                // A copy, so the state is not stored back after every draw.
                let mut r = rng.clone();
                let mut k = 0;
                let hit = loop {
                    if r.next_u64() < t {
                        break Some(k);
                    }
                    k += 1;
                    if k == trials {
                        break None;
                    }
                };
                *rng = r;
                hit
            }
        }
    }
}

/// A uniformly distributed integer in `0..n` (`n >= 1`), by Lemire's multiply-shift with
/// rejection (exact, no modulo bias).
pub fn below(rng: &mut ComponentRng, n: u64) -> u64 {
    debug_assert!(n >= 1);
    let threshold = n.wrapping_neg() % n;
    loop {
        let m = u128::from(rng.next_u64()) * u128::from(n);
        if (m as u64) >= threshold {
            return (m >> 64) as u64;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_differ_by_kind_id_and_seed() {
        let a = stream_seed(1, ComponentKind::Terminal, 3);
        assert_ne!(a, stream_seed(1, ComponentKind::Router, 3));
        assert_ne!(a, stream_seed(1, ComponentKind::Terminal, 4));
        assert_ne!(a, stream_seed(2, ComponentKind::Terminal, 3));
        assert_eq!(a, stream_seed(1, ComponentKind::Terminal, 3));
    }

    #[test]
    fn bernoulli_frequency_is_close_to_p() {
        let mut rng = stream(7, ComponentKind::Terminal, 0);
        let b = Bernoulli::new(0.3);
        let hits = (0..100_000).filter(|_| b.sample(&mut rng)).count();
        // Binomial sd = sqrt(1e5 * 0.21) ~ 145; allow 5 sd.
        assert!((hits as i64 - 30_000).abs() < 725, "hits = {hits}");
        assert!(Bernoulli::new(1.0).sample(&mut rng));
        assert!(!Bernoulli::new(0.0).sample(&mut rng));
    }

    #[test]
    fn first_success_draws_what_single_trials_draw() {
        for p in [0.0, 0.05, 0.5, 1.0] {
            let b = Bernoulli::new(p);
            let (mut one, mut run) = (
                stream(3, ComponentKind::Terminal, 9),
                stream(3, ComponentKind::Terminal, 9),
            );
            for trials in [0, 1, 7, 40, 200, 3] {
                let expect = (0..trials).find(|_| b.sample(&mut one));
                assert_eq!(b.first_success(&mut run, trials), expect, "p = {p}");
                assert_eq!(one.next_u64(), run.next_u64(), "p = {p}: streams apart");
            }
        }
    }

    #[test]
    fn below_is_in_range_and_covers_it() {
        let mut rng = stream(7, ComponentKind::Terminal, 1);
        let mut seen = [0u32; 7];
        for _ in 0..7_000 {
            seen[below(&mut rng, 7) as usize] += 1;
        }
        assert!(seen.iter().all(|&c| c > 800 && c < 1200), "{seen:?}");
    }
}
