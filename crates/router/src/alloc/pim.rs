//! Parallel iterative matching (Anderson et al., 1993): up to `alloc_iters` rounds in
//! which each unmatched column requested by unmatched rows grants one of them at random,
//! then each row offered columns accepts one of them at random. The draws come from the
//! allocator's own random stream, seeded from the router's, in a fixed order (columns,
//! then rows, ascending), so a run is the same for any thread count. The stream moves
//! at each allocation; there are no priorities to update.

use super::rounds::{RoundPicks, Rounds};
use super::rounds_word::WordRounds;
use super::{GrantMatrix, RequestMatrix, Separable};
use crate::mask;
use flitsim_netlist::ArbiterKind;
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// PIM allocator (see the module docs).
#[derive(Clone, Debug)]
#[repr(C)] // `s` first: see `Allocator`.
pub struct Pim {
    /// Arbiters of the separable layout `Allocator` relies on; never consulted (the
    /// one-word paths that read them are not taken for this kind).
    pub(crate) s: Separable,
    /// The rest, boxed: [`super::Allocator`] holds every kind inline, so its size is
    /// that of the largest.
    pub(super) r: Box<PimRounds>,
}

/// What PIM keeps beside its (unused) arbiters.
#[derive(Clone, Debug)]
pub(super) struct PimRounds {
    pub(super) iters: u8,
    rounds: Rounds,
    pub(super) rng: Pcg64Mcg,
    /// The one-word rounds' scratch.
    pub(super) word: WordRounds,
}

/// One of the set bits of `m`, uniformly at random (`None` when `m` is empty).
pub(crate) fn random_one(rng: &mut Pcg64Mcg, m: &[u64]) -> Option<usize> {
    let n: u32 = m.iter().map(|w| w.count_ones()).sum();
    if n == 0 {
        return None;
    }
    let k = if n == 1 {
        0
    } else {
        rng.random_range(0..n) as usize
    };
    mask::ones(m).nth(k)
}

impl RoundPicks for Pcg64Mcg {
    fn grant(&mut self, _c: usize, rows: &[u64]) -> Option<usize> {
        random_one(self, rows)
    }
    fn accept(&mut self, _r: usize, cols: &[u64]) -> Option<usize> {
        random_one(self, cols)
    }
}

impl Pim {
    /// Bytes [`Pim::new`] allocates, computed without allocating.
    pub fn bytes(arbiter: ArbiterKind, rows: usize, cols: usize) -> u64 {
        Separable::bytes(arbiter, rows, cols)
            .saturating_add(std::mem::size_of::<PimRounds>() as u64)
            .saturating_add(Rounds::bytes(rows, cols))
    }

    /// Over `rows x cols`, `iters` rounds (at least 1), its stream seeded with `seed`.
    pub fn new(arbiter: ArbiterKind, iters: u8, seed: u64, rows: usize, cols: usize) -> Pim {
        Pim {
            s: Separable::new(arbiter, rows, cols),
            r: Box::new(PimRounds {
                iters: iters.max(1),
                rounds: Rounds::new(rows, cols),
                rng: Pcg64Mcg::seed_from_u64(seed),
                word: WordRounds::new(),
            }),
        }
    }

    /// Computes grants for `req` into `grant` (cleared first), drawing from the stream.
    pub fn allocate(&mut self, req: &RequestMatrix, grant: &mut GrantMatrix) {
        debug_assert_eq!((req.rows(), req.cols()), (self.s.rows, self.s.cols));
        let PimRounds {
            iters, rounds, rng, ..
        } = &mut *self.r;
        rounds.run(*iters, req, grant, rng, |_, _, _| {});
    }
}

#[cfg(test)]
impl Pim {
    /// Bytes its vectors hold (their capacities), for the tests of the `bytes` functions.
    pub(crate) fn heap_bytes(&self) -> u64 {
        std::mem::size_of::<PimRounds>() as u64 + self.s.heap_bytes() + self.r.rounds.heap_bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::alloc::BitMatrix;

    #[test]
    fn the_same_seed_draws_the_same_grants_and_draws_are_spread() {
        let mut req = BitMatrix::new(4, 1);
        for r in 0..4 {
            req.set(r, 0);
        }
        let run = |seed| {
            let mut a = Pim::new(ArbiterKind::RoundRobin, 1, seed, 4, 1);
            let mut g = BitMatrix::new(4, 1);
            let mut wins = [0u32; 4];
            for _ in 0..400 {
                a.allocate(&req, &mut g);
                let (r, _) = g.ones().next().expect("one request wins");
                wins[r] += 1;
            }
            wins
        };
        assert_eq!(run(7), run(7));
        assert_ne!(run(7), run(8));
        // Each of 4 rows wins about 100 of 400 draws (binomial, sd ~8.7).
        assert!(
            run(7).iter().all(|&w| (60..140).contains(&w)),
            "{:?}",
            run(7)
        );
    }

    #[test]
    fn enough_rounds_give_a_maximal_matching() {
        // Row 0 requests both columns, row 1 column 0 only. One round may leave (0, 1)
        // alone; two rounds always end maximal: (0, 1) with (1, 0), or (0, 0).
        let mut req = BitMatrix::new(2, 2);
        for (r, c) in [(0, 0), (0, 1), (1, 0)] {
            req.set(r, c);
        }
        let mut a = Pim::new(ArbiterKind::RoundRobin, 2, 3, 2, 2);
        let mut g = BitMatrix::new(2, 2);
        for _ in 0..50 {
            a.allocate(&req, &mut g);
            let mut ones: Vec<_> = g.ones().collect();
            ones.sort_unstable();
            assert!(
                ones == vec![(0, 1), (1, 0)] || ones == vec![(0, 0)],
                "{ones:?}"
            );
        }
    }
}
