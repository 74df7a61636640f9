//! One-of-N arbiters. An arbiter picks one requester ([`Arbiters::arbitrate`], pure) and
//! moves its priority only when told the pick was used ([`Arbiters::update`]), following
//! BookSim's `Arbitrate`/`UpdateState` split: a separable allocator updates an input
//! arbiter only when its pick also won at the output.
//!
//! Requests are word masks ([`crate::mask`]: `mask::words(size)` words, bit i = requester
//! i, bits `>= size` zero). Arbiters come in banks, [`Arbiters`]: all the arbiters of one
//! role in a router (the row arbiters of an allocator, the VC arbiters of the input ports),
//! of one kind, since a router uses one arbiter kind everywhere. A bank is a closed enum
//! over the kinds holding one vector, so the inner loops dispatch statically (one match,
//! inlined) and reach an arbiter by one index, instead of matching on every arbiter. A
//! round-robin bank of at most 64 arbiters of at most 64 requesters each (every bank of
//! a router with at most 64 ports and 64 VCs per side) holds fixed arrays instead
//! ([`RoundRobinWordBank`], inside the enum): an update is one byte store, with no
//! bounds check and no pointer to follow.

pub mod matrix;
pub mod round_robin;

use crate::mask;
use flitsim_netlist::ArbiterKind;

pub use matrix::MatrixArbiter;
pub use round_robin::{RoundRobinArbiter, RoundRobinWordBank};

/// A bank of arbiters of one kind, arbiter `k` over its own number of requesters (see the
/// module docs).
///
/// Laid out as C lays out a tagged union (one tag byte, then the kind's data): the
/// pointers of a [`RoundRobinWordBank`] follow the tag in its cache line.
#[derive(Clone, Debug)]
#[repr(u8)]
pub enum Arbiters {
    /// Round-robin, at most 64 arbiters of at most 64 requesters each.
    RoundRobinWords(RoundRobinWordBank),
    /// Round-robin, larger banks.
    RoundRobin(Vec<RoundRobinArbiter>),
    /// Matrix (least recently served).
    Matrix(Vec<MatrixArbiter>),
}

impl Arbiters {
    /// Arbiters of `kind`, one per entry of `sizes` (its number of requesters).
    pub fn new(kind: ArbiterKind, sizes: impl IntoIterator<Item = usize>) -> Arbiters {
        let sizes: Vec<usize> = sizes.into_iter().collect();
        match kind {
            ArbiterKind::RoundRobin => match RoundRobinWordBank::new(&sizes) {
                Some(bank) => Arbiters::RoundRobinWords(bank),
                None => {
                    Arbiters::RoundRobin(sizes.into_iter().map(RoundRobinArbiter::new).collect())
                }
            },
            ArbiterKind::Matrix => {
                Arbiters::Matrix(sizes.into_iter().map(MatrixArbiter::new).collect())
            }
            ArbiterKind::RoundRobinSkip => {
                Arbiters::RoundRobin(sizes.into_iter().map(RoundRobinArbiter::skipping).collect())
            }
        }
    }

    /// Bytes [`Arbiters::new`] allocates for a bank of `kind` with one arbiter per entry of
    /// `sizes`, computed without allocating: nothing for a round-robin bank that
    /// [fits](RoundRobinWordBank::fits) fixed arrays (it lives inside the enum), else the
    /// vector of arbiters, and a matrix arbiter's priority matrix
    /// ([`MatrixArbiter::bytes`]).
    pub fn bytes(kind: ArbiterKind, sizes: impl Iterator<Item = usize> + Clone) -> u64 {
        use std::mem::size_of;
        let n = sizes.clone().count() as u64;
        match kind {
            ArbiterKind::RoundRobin if RoundRobinWordBank::fits(sizes.clone()) => 0,
            ArbiterKind::RoundRobin | ArbiterKind::RoundRobinSkip => {
                n.saturating_mul(size_of::<RoundRobinArbiter>() as u64)
            }
            ArbiterKind::Matrix => sizes.fold(
                n.saturating_mul(size_of::<MatrixArbiter>() as u64),
                |b, size| b.saturating_add(MatrixArbiter::bytes(size)),
            ),
        }
    }

    /// Number of arbiters.
    pub fn len(&self) -> usize {
        match self {
            Arbiters::RoundRobinWords(b) => b.len(),
            Arbiters::RoundRobin(a) => a.len(),
            Arbiters::Matrix(a) => a.len(),
        }
    }

    /// True when the bank holds no arbiter.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Number of requesters of arbiter `k`.
    pub fn size(&self, k: usize) -> usize {
        match self {
            Arbiters::RoundRobinWords(b) => b.size(k),
            Arbiters::RoundRobin(a) => a[k].size(),
            Arbiters::Matrix(a) => a[k].size(),
        }
    }

    /// The winner of arbiter `k` among the set bits of `req` (`mask::words(size(k))`
    /// words), or `None` when no bit is set. Does not change priority.
    #[inline]
    pub fn arbitrate(&self, k: usize, req: &[u64]) -> Option<usize> {
        match self {
            Arbiters::RoundRobinWords(b) => {
                debug_assert_eq!(req.len(), mask::words(b.size(k)));
                req.first().and_then(|&w| b.arbitrate_word(k, w))
            }
            Arbiters::RoundRobin(a) => a[k].arbitrate(req),
            Arbiters::Matrix(a) => a[k].arbitrate(req),
        }
    }

    /// [`Arbiters::arbitrate`] for an arbiter of at most 64 requesters.
    #[inline(always)]
    pub fn arbitrate_word(&self, k: usize, req: u64) -> Option<usize> {
        match self {
            Arbiters::RoundRobinWords(b) => b.arbitrate_word(k, req),
            Arbiters::RoundRobin(a) => a[k].arbitrate_word(req),
            Arbiters::Matrix(a) => a[k].arbitrate_word(req),
        }
    }

    /// Records that arbiter `k` served `winner`: it gets the lowest priority next time.
    #[inline(always)]
    pub fn update(&mut self, k: usize, winner: usize) {
        match self {
            Arbiters::RoundRobinWords(b) => b.update(k, winner),
            Arbiters::RoundRobin(a) => a[k].update(winner),
            Arbiters::Matrix(a) => a[k].update(winner),
        }
    }
}

/// A bank of arbiters of at most 64 requesters each, arbitrated and updated one word at a
/// time: an [`Arbiters`] bank of any kind, or a [`RoundRobinWordBank`] reached out of one
/// (a caller that matched on the kind once, outside its loop, then follows no branch on
/// the kind per update).
pub trait WordArbiters {
    /// [`Arbiters::arbitrate_word`].
    fn arbitrate_word(&self, k: usize, req: u64) -> Option<usize>;
    /// [`Arbiters::update`].
    fn update(&mut self, k: usize, winner: usize);
}

impl WordArbiters for Arbiters {
    #[inline(always)]
    fn arbitrate_word(&self, k: usize, req: u64) -> Option<usize> {
        Arbiters::arbitrate_word(self, k, req)
    }
    #[inline(always)]
    fn update(&mut self, k: usize, winner: usize) {
        Arbiters::update(self, k, winner);
    }
}

impl WordArbiters for RoundRobinWordBank {
    #[inline(always)]
    fn arbitrate_word(&self, k: usize, req: u64) -> Option<usize> {
        RoundRobinWordBank::arbitrate_word(self, k, req)
    }
    #[inline(always)]
    fn update(&mut self, k: usize, winner: usize) {
        RoundRobinWordBank::update(self, k, winner);
    }
}

#[cfg(test)]
impl Arbiters {
    /// Bytes its vectors hold (their capacities), for the tests of the `bytes` functions.
    pub(crate) fn heap_bytes(&self) -> u64 {
        use std::mem::size_of;
        match self {
            Arbiters::RoundRobinWords(_) => 0,
            Arbiters::RoundRobin(a) => (a.capacity() * size_of::<RoundRobinArbiter>()) as u64,
            Arbiters::Matrix(a) => a.iter().fold(
                (a.capacity() * size_of::<MatrixArbiter>()) as u64,
                |b, m| b + m.heap_bytes(),
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mask;
    use proptest::prelude::*;

    /// The fair kinds (the skipping round-robin starves requesters: with four asking it
    /// serves only 1 and 3, see its own test).
    fn kinds() -> [ArbiterKind; 2] {
        [ArbiterKind::RoundRobin, ArbiterKind::Matrix]
    }

    /// The grants of the RTL router's binary-state round-robin arbiter (`c_rr_arbiter`
    /// run alone under Icarus Verilog) when every requester asks every cycle: 1, 3, 1, 3
    /// of four; 1, 3, 0, 2, 4, 1, 3, 0 of five; then 2, 4, 2 when only 0, 2 and 4 ask.
    #[test]
    fn the_skipping_round_robin_grants_what_the_rtl_arbiter_grants() {
        let run = |a: &mut Arbiters, bits: &[bool], n: usize| -> Vec<usize> {
            (0..n)
                .map(|_| {
                    let w = a.arbitrate(0, &req(bits)).expect("a requester");
                    a.update(0, w);
                    w
                })
                .collect()
        };
        let mut four = Arbiters::new(ArbiterKind::RoundRobinSkip, [4]);
        assert_eq!(run(&mut four, &[true; 4], 4), [1, 3, 1, 3]);
        let mut five = Arbiters::new(ArbiterKind::RoundRobinSkip, [5]);
        assert_eq!(run(&mut five, &[true; 5], 8), [1, 3, 0, 2, 4, 1, 3, 0]);
        let even = [true, false, true, false, true];
        assert_eq!(run(&mut five, &even, 3), [2, 4, 2]);
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
                let a = Arbiters::new(kind, [bits.len()]);
                match a.arbitrate(0, &req(&bits)) {
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
                let mut a = Arbiters::new(kind, [n]);
                let mut won = false;
                for round in rounds.iter().take(n) {
                    let mut r = round[..n].to_vec();
                    r[victim] = true;
                    let w = a.arbitrate(0, &req(&r)).unwrap();
                    prop_assert_eq!(a.arbitrate_word(0, req(&r)[0]), Some(w));
                    a.update(0, w);
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
            let mut rr = Arbiters::new(ArbiterKind::RoundRobin, [n]);
            let mut mx = Arbiters::new(ArbiterKind::Matrix, [n]);
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
                prop_assert_eq!(rr.arbitrate(0, &req(&bits)), Some(want_rr));
                prop_assert_eq!(mx.arbitrate(0, &req(&bits)), Some(want_mx));
                rr.update(0, want_rr);
                mx.update(0, want_mx);
                pointer = (want_rr + 1) % n;
                served[want_mx] = t as i64;
            }
        }
    }

    /// `bytes` of a bank is what `new` allocates (the vectors' capacities): nothing for a
    /// round-robin bank on fixed arrays, the arbiters' vector past 64 arbiters or 64
    /// requesters, and a matrix arbiter's rows of words.
    #[test]
    fn bytes_are_what_new_allocates() {
        let banks: [Vec<usize>; 8] = [
            vec![],
            vec![1],
            vec![4, 64],
            vec![65],
            vec![2, 5, 3],
            vec![64; 64],
            vec![3; 65],
            vec![130, 7],
        ];
        for kind in kinds() {
            for sizes in &banks {
                assert_eq!(
                    Arbiters::bytes(kind, sizes.iter().copied()),
                    Arbiters::new(kind, sizes.iter().copied()).heap_bytes(),
                    "{kind:?} {sizes:?}"
                );
            }
        }
        let rr = |sizes: &[usize]| Arbiters::bytes(ArbiterKind::RoundRobin, sizes.iter().copied());
        assert_eq!(rr(&[64; 64]), 0);
        assert_eq!(rr(&[3; 65]), 65 * 16);
        // 130 rows of 3 words, 7 rows of 1, and two arbiters of 40 bytes.
        assert_eq!(
            Arbiters::bytes(ArbiterKind::Matrix, [130, 7].into_iter()),
            (130 * 3 + 7) * 8 + 2 * 40
        );
    }

    #[test]
    fn all_requesting_are_served_in_turn() {
        for kind in kinds() {
            let mut a = Arbiters::new(kind, [4]);
            let all = req(&[true; 4]);
            let mut order = Vec::new();
            for _ in 0..8 {
                let w = a.arbitrate(0, &all).unwrap();
                a.update(0, w);
                order.push(w);
            }
            let mut first: Vec<usize> = order[..4].to_vec();
            first.sort_unstable();
            assert_eq!(first, vec![0, 1, 2, 3], "{kind:?}");
            assert_eq!(order[..4], order[4..], "{kind:?}");
        }
    }

    #[test]
    fn arbiters_of_a_bank_keep_their_own_size_and_priority() {
        for kind in kinds() {
            let mut a = Arbiters::new(kind, [2, 5, 3]);
            assert_eq!((a.len(), a.size(0), a.size(1), a.size(2)), (3, 2, 5, 3));
            let all = |n: usize| req(&vec![true; n]);
            assert_eq!(a.arbitrate(1, &all(5)), Some(0), "{kind:?}");
            a.update(1, 0);
            // Arbiter 1 moved on; arbiters 0 and 2 did not.
            assert_eq!(a.arbitrate(1, &all(5)), Some(1), "{kind:?}");
            assert_eq!(a.arbitrate(0, &all(2)), Some(0), "{kind:?}");
            assert_eq!(a.arbitrate_word(2, 0b110), Some(1), "{kind:?}");
        }
    }

    #[test]
    fn arbitrate_does_not_move_priority() {
        for kind in kinds() {
            let a = Arbiters::new(kind, [5]);
            let r = req(&[false, true, false, true, true]);
            let w = a.arbitrate(0, &r);
            assert_eq!(a.arbitrate(0, &r), w, "{kind:?}");
        }
    }
}
