//! One-of-N arbiters. An arbiter picks one requester ([`Arbiter::arbitrate`], pure) and
//! moves its priority only when told the pick was used ([`Arbiter::update`]), following
//! BookSim's `Arbitrate`/`UpdateState` split: a separable allocator updates an input
//! arbiter only when its pick also won at the output.

pub mod matrix;
pub mod round_robin;

use bitvec::slice::BitSlice;
use flitsim_netlist::ArbiterKind;

pub use matrix::MatrixArbiter;
pub use round_robin::RoundRobinArbiter;

/// Picks one of N requesters.
pub trait Arbiter: Send + std::fmt::Debug {
    /// Number of requesters.
    fn size(&self) -> usize;
    /// The winner among the set bits of `req` (`req.len() == size()`), or `None` when no
    /// bit is set. Does not change priority.
    fn arbitrate(&self, req: &BitSlice) -> Option<usize>;
    /// Records that `winner` was served: it gets the lowest priority next time.
    fn update(&mut self, winner: usize);
}

/// A boxed arbiter of `kind` over `size` requesters.
pub fn new_arbiter(kind: ArbiterKind, size: usize) -> Box<dyn Arbiter> {
    match kind {
        ArbiterKind::RoundRobin => Box::new(RoundRobinArbiter::new(size)),
        ArbiterKind::Matrix => Box::new(MatrixArbiter::new(size)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bitvec::prelude::*;
    use proptest::prelude::*;

    fn kinds() -> [ArbiterKind; 2] {
        [ArbiterKind::RoundRobin, ArbiterKind::Matrix]
    }

    proptest! {
        /// The winner is a requester, and there is one whenever somebody requests.
        #[test]
        fn winner_is_a_requester(bits in proptest::collection::vec(any::<bool>(), 1..20)) {
            for kind in kinds() {
                let a = new_arbiter(kind, bits.len());
                let req: BitVec = bits.iter().copied().collect();
                match a.arbitrate(&req) {
                    Some(w) => prop_assert!(req[w]),
                    None => prop_assert!(req.not_any()),
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
                let mut a = new_arbiter(kind, n);
                let mut won = false;
                for round in rounds.iter().take(n) {
                    let mut req: BitVec = round[..n].iter().copied().collect();
                    req.set(victim, true);
                    let w = a.arbitrate(&req).unwrap();
                    a.update(w);
                    if w == victim {
                        won = true;
                        break;
                    }
                }
                prop_assert!(won, "{kind:?}: requester {victim} of {n} starved");
            }
        }
    }

    #[test]
    fn all_requesting_are_served_in_turn() {
        for kind in kinds() {
            let mut a = new_arbiter(kind, 4);
            let req = bitvec![1; 4];
            let mut order = Vec::new();
            for _ in 0..8 {
                let w = a.arbitrate(&req).unwrap();
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
            let a = new_arbiter(kind, 5);
            let req = bitvec![0, 1, 0, 1, 1];
            let w = a.arbitrate(&req);
            assert_eq!(a.arbitrate(&req), w, "{kind:?}");
        }
    }
}
