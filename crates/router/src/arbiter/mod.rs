//! One-of-N arbiters. An arbiter picks one requester ([`Arbiter::arbitrate`], pure) and
//! moves its priority only when told the pick was used ([`Arbiter::update`]), following
//! BookSim's `Arbitrate`/`UpdateState` split: a separable allocator updates an input
//! arbiter only when its pick also won at the output.
//!
//! Requests are word masks ([`crate::mask`]: `mask::words(size)` words, bit i = requester
//! i, bits `>= size` zero). [`Arbiter`] is a closed enum over the kinds, so the allocators'
//! inner loops dispatch statically (one match, inlined) instead of through a vtable.

pub mod matrix;
pub mod round_robin;

use flitsim_netlist::ArbiterKind;

pub use matrix::MatrixArbiter;
pub use round_robin::RoundRobinArbiter;

/// An arbiter of any kind (see the module docs).
#[derive(Clone, Debug)]
pub enum Arbiter {
    /// Round-robin.
    RoundRobin(RoundRobinArbiter),
    /// Matrix (least recently served).
    Matrix(MatrixArbiter),
}

impl Arbiter {
    /// An arbiter of `kind` over `size` requesters.
    pub fn new(kind: ArbiterKind, size: usize) -> Arbiter {
        match kind {
            ArbiterKind::RoundRobin => Arbiter::RoundRobin(RoundRobinArbiter::new(size)),
            ArbiterKind::Matrix => Arbiter::Matrix(MatrixArbiter::new(size)),
        }
    }

    /// Number of requesters.
    #[inline]
    pub fn size(&self) -> usize {
        match self {
            Arbiter::RoundRobin(a) => a.size(),
            Arbiter::Matrix(a) => a.size(),
        }
    }

    /// The winner among the set bits of `req` (`mask::words(size())` words), or `None`
    /// when no bit is set. Does not change priority.
    #[inline]
    pub fn arbitrate(&self, req: &[u64]) -> Option<usize> {
        match self {
            Arbiter::RoundRobin(a) => a.arbitrate(req),
            Arbiter::Matrix(a) => a.arbitrate(req),
        }
    }

    /// Records that `winner` was served: it gets the lowest priority next time.
    #[inline]
    pub fn update(&mut self, winner: usize) {
        match self {
            Arbiter::RoundRobin(a) => a.update(winner),
            Arbiter::Matrix(a) => a.update(winner),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mask;
    use proptest::prelude::*;

    fn kinds() -> [ArbiterKind; 2] {
        [ArbiterKind::RoundRobin, ArbiterKind::Matrix]
    }

    fn req(bits: &[bool]) -> Vec<u64> {
        let mut m = vec![0; mask::words(bits.len())];
        for (i, _) in bits.iter().enumerate().filter(|(_, &b)| b) {
            mask::set(&mut m, i);
        }
        m
    }

    proptest! {
        /// The winner is a requester, and there is one whenever somebody requests
        /// (sizes past one word included).
        #[test]
        fn winner_is_a_requester(bits in proptest::collection::vec(any::<bool>(), 1..150)) {
            for kind in kinds() {
                let a = Arbiter::new(kind, bits.len());
                match a.arbitrate(&req(&bits)) {
                    Some(w) => prop_assert!(bits[w]),
                    None => prop_assert!(!bits.contains(&true)),
                }
            }
        }

        /// A requester that keeps requesting wins within N rounds whatever the others do.
        #[test]
        fn no_starvation_within_n_rounds(
            n in 1usize..12,
            victim_seed in any::<usize>(),
            rounds in proptest::collection::vec(proptest::collection::vec(any::<bool>(), 12), 12),
        ) {
            let victim = victim_seed % n;
            for kind in kinds() {
                let mut a = Arbiter::new(kind, n);
                let mut won = false;
                for round in rounds.iter().take(n) {
                    let mut r = round[..n].to_vec();
                    r[victim] = true;
                    let w = a.arbitrate(&req(&r)).unwrap();
                    a.update(w);
                    if w == victim {
                        won = true;
                        break;
                    }
                }
                prop_assert!(won, "{kind:?}: requester {victim} of {n} starved");
            }
        }

        /// Over more than one word, a round-robin arbiter grants the first requester at
        /// or after its pointer (cyclically), and a matrix arbiter the requester served
        /// least recently, as a plain model of either computes it.
        #[test]
        fn multi_word_arbiters_follow_their_definition(
            n in 60usize..140,
            rounds in proptest::collection::vec(proptest::collection::vec(any::<u8>(), 1..6), 1..30),
        ) {
            let mut rr = Arbiter::new(ArbiterKind::RoundRobin, n);
            let mut mx = Arbiter::new(ArbiterKind::Matrix, n);
            let mut pointer = 0usize;
            // Matrix model: last service time per requester (never served: -(n - i), so
            // lower indices first).
            let mut served: Vec<i64> = (0..n).map(|i| i as i64 - n as i64).collect();
            for (t, round) in rounds.iter().enumerate() {
                let mut bits = vec![false; n];
                for &b in round {
                    bits[usize::from(b) * 7 % n] = true;
                }
                let want_rr = (0..n).map(|k| (pointer + k) % n).find(|&i| bits[i]).unwrap();
                let want_mx = (0..n).filter(|&i| bits[i]).min_by_key(|&i| served[i]).unwrap();
                prop_assert_eq!(rr.arbitrate(&req(&bits)), Some(want_rr));
                prop_assert_eq!(mx.arbitrate(&req(&bits)), Some(want_mx));
                rr.update(want_rr);
                mx.update(want_mx);
                pointer = (want_rr + 1) % n;
                served[want_mx] = t as i64;
            }
        }
    }

    #[test]
    fn all_requesting_are_served_in_turn() {
        for kind in kinds() {
            let mut a = Arbiter::new(kind, 4);
            let all = req(&[true; 4]);
            let mut order = Vec::new();
            for _ in 0..8 {
                let w = a.arbitrate(&all).unwrap();
                a.update(w);
                order.push(w);
            }
            let mut first: Vec<usize> = order[..4].to_vec();
            first.sort_unstable();
            assert_eq!(first, vec![0, 1, 2, 3], "{kind:?}");
            assert_eq!(order[..4], order[4..], "{kind:?}");
        }
    }

    #[test]
    fn arbitrate_does_not_move_priority() {
        for kind in kinds() {
            let a = Arbiter::new(kind, 5);
            let r = req(&[false, true, false, true, true]);
            let w = a.arbitrate(&r);
            assert_eq!(a.arbitrate(&r), w, "{kind:?}");
        }
    }
}
