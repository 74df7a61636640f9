//! iSLIP (McKeown, 1999): up to `alloc_iters` rounds, each an output-first separable
//! allocation among the rows and columns left unmatched by the rounds before. Each
//! column's grant arbiter and each row's accept arbiter move only for grants made in the
//! first round and used (in `update`), which keeps the grant pointers apart under load.
//! With one round it is the separable output-first allocator.

use super::rounds::{RoundPicks, Rounds};
use super::rounds_word::WordRounds;
use super::{BitMatrix, GrantMatrix, RequestMatrix, Separable};
use crate::arbiter::Arbiters;
use flitsim_netlist::ArbiterKind;

/// iSLIP allocator (see the module docs).
#[derive(Clone, Debug)]
#[repr(C)] // `s` first: see `Allocator`.
pub struct Islip {
    /// Accept arbiters (`row_arb`) and grant arbiters (`col_arb`).
    pub(crate) s: Separable,
    /// The rest, boxed: [`super::Allocator`] holds every kind inline, so its size is
    /// that of the largest.
    pub(super) r: Box<IslipRounds>,
    /// One round: iSLIP is then separable output-first, every grant is made in the
    /// first round, and callers may take the separable shortcuts
    /// ([`super::Allocator::is_separable`]).
    pub(crate) one_round: bool,
}

/// What iSLIP keeps beside its arbiters.
#[derive(Clone, Debug)]
pub(super) struct IslipRounds {
    pub(super) iters: u8,
    rounds: Rounds,
    /// The grants of the last allocation's first round: their arbiters move when used.
    pub(super) first: BitMatrix,
    /// The one-word rounds' scratch.
    pub(super) word: WordRounds,
}

/// The round picks of iSLIP: the grant and accept arbiters.
struct Arbitrated<'a> {
    rows: &'a Arbiters,
    cols: &'a Arbiters,
}

impl RoundPicks for Arbitrated<'_> {
    fn grant(&mut self, c: usize, rows: &[u64]) -> Option<usize> {
        self.cols.arbitrate(c, rows)
    }
    fn accept(&mut self, r: usize, cols: &[u64]) -> Option<usize> {
        self.rows.arbitrate(r, cols)
    }
}

impl Islip {
    /// Bytes [`Islip::new`] allocates, computed without allocating: the arbiters, the
    /// boxed rest, the rounds' scratch and the first round's grants.
    pub fn bytes(arbiter: ArbiterKind, rows: usize, cols: usize) -> u64 {
        Separable::bytes(arbiter, rows, cols)
            .saturating_add(std::mem::size_of::<IslipRounds>() as u64)
            .saturating_add(Rounds::bytes(rows, cols))
            .saturating_add(BitMatrix::bytes(rows, cols))
    }

    /// Over `rows x cols` with arbiters of `arbiter`, `iters` rounds (at least 1).
    pub fn new(arbiter: ArbiterKind, iters: u8, rows: usize, cols: usize) -> Islip {
        Islip {
            s: Separable::new(arbiter, rows, cols),
            one_round: iters <= 1,
            r: Box::new(IslipRounds {
                iters: iters.max(1),
                rounds: Rounds::new(rows, cols),
                first: BitMatrix::new(rows, cols),
                word: WordRounds::new(),
            }),
        }
    }

    /// Computes grants for `req` into `grant` (cleared first); priorities stay.
    pub fn allocate(&mut self, req: &RequestMatrix, grant: &mut GrantMatrix) {
        debug_assert_eq!((req.rows(), req.cols()), (self.s.rows, self.s.cols));
        let IslipRounds {
            iters,
            rounds,
            first,
            ..
        } = &mut *self.r;
        first.clear();
        let mut picks = Arbitrated {
            rows: &self.s.row_arb,
            cols: &self.s.col_arb,
        };
        rounds.run(*iters, req, grant, &mut picks, |round, r, c| {
            if round == 0 {
                first.set(r, c);
            }
        });
    }

    /// Moves the arbiters of grant `(r, c)`, used, if the first round made it (with one
    /// round, every grant).
    #[inline]
    pub fn update_grant(&mut self, r: usize, c: usize) {
        // With one round every grant is a first-round grant (and the separable
        // shortcuts, which do not record them, may have made it).
        if self.one_round || self.r.first.get(r, c) {
            self.s.update_grant(r, c);
        }
    }

    /// Moves arbiter priorities for the grants in `used`.
    pub fn update(&mut self, used: &GrantMatrix) {
        for (r, c) in used.ones() {
            self.update_grant(r, c);
        }
    }
}

#[cfg(test)]
impl Islip {
    /// Bytes its vectors hold (their capacities), for the tests of the `bytes` functions.
    pub(crate) fn heap_bytes(&self) -> u64 {
        std::mem::size_of::<IslipRounds>() as u64
            + self.s.heap_bytes()
            + self.r.rounds.heap_bytes()
            + self.r.first.heap_bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::alloc::SeparableOutputFirst;

    /// Rows 0 and 1 both request columns 0 and 1; row 2 requests column 0 only.
    fn contended() -> BitMatrix {
        let mut req = BitMatrix::new(3, 2);
        for (r, c) in [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0)] {
            req.set(r, c);
        }
        req
    }

    #[test]
    fn a_second_round_matches_what_the_first_left() {
        // 2 x 2, all requests: both columns grant row 0 (pointers at 0), row 0 accepts
        // column 0; round 2 offers column 1 to row 1.
        let mut req = BitMatrix::new(2, 2);
        for (r, c) in [(0, 0), (0, 1), (1, 0), (1, 1)] {
            req.set(r, c);
        }
        let mut g = BitMatrix::new(2, 2);
        let mut one = Islip::new(ArbiterKind::RoundRobin, 1, 2, 2);
        one.allocate(&req, &mut g);
        assert_eq!(g.ones().collect::<Vec<_>>(), vec![(0, 0)]);
        let mut two = Islip::new(ArbiterKind::RoundRobin, 2, 2, 2);
        two.allocate(&req, &mut g);
        assert_eq!(g.ones().collect::<Vec<_>>(), vec![(0, 0), (1, 1)]);
    }

    #[test]
    fn only_first_round_grants_move_the_pointers() {
        let mut req = BitMatrix::new(3, 3);
        for r in 0..3 {
            for c in 0..3 {
                req.set(r, c);
            }
        }
        let mut a = Islip::new(ArbiterKind::RoundRobin, 3, 3, 3);
        let mut g = BitMatrix::new(3, 3);
        a.allocate(&req, &mut g);
        assert_eq!(g.ones().collect::<Vec<_>>(), vec![(0, 0), (1, 1), (2, 2)]);
        a.update(&g);
        // Only (0, 0) moved its pointers: column 0's to row 1, row 0's to column 1.
        // Columns 1 and 2 still grant row 0, which accepts column 1; column 0 grants
        // row 1; round 2 matches (2, 2). Had (1, 1) and (2, 2) moved theirs too, the
        // first round alone would grant (0, 2), (1, 0), (2, 1).
        a.allocate(&req, &mut g);
        assert_eq!(g.ones().collect::<Vec<_>>(), vec![(0, 1), (1, 0), (2, 2)]);
    }

    #[test]
    fn one_round_is_separable_output_first() {
        for arb in [ArbiterKind::RoundRobin, ArbiterKind::Matrix] {
            let mut islip = Islip::new(arb, 1, 3, 2);
            let mut sof = SeparableOutputFirst::new(arb, 3, 2);
            let (mut g, mut h) = (BitMatrix::new(3, 2), BitMatrix::new(3, 2));
            for _ in 0..6 {
                islip.allocate(&contended(), &mut g);
                sof.allocate(&contended(), &mut h);
                assert_eq!(g, h);
                islip.update(&g);
                sof.update(&h);
            }
        }
    }
}
