//! Separable output-first allocator: each column's arbiter picks one of the rows
//! requesting it; then each row's arbiter accepts one of the columns that picked it.
//! Priorities move only for accepted grants (in `update`).

use super::{arbitrate_words, BitMatrix, GrantMatrix, RequestMatrix, Separable, WordIo};
use flitsim_netlist::ArbiterKind;

/// Separable output-first allocator (see the module docs).
#[derive(Clone, Debug)]
#[repr(C)] // `s` first: see `Allocator`.
pub struct SeparableOutputFirst {
    pub(crate) s: Separable,
    /// Scratch: the columns' picks (`rows x cols`).
    mid: BitMatrix,
}

impl SeparableOutputFirst {
    /// Bytes [`SeparableOutputFirst::new`] allocates, computed without allocating: the
    /// shared separable state and the `rows x cols` scratch of the columns' picks.
    pub fn bytes(arbiter: ArbiterKind, rows: usize, cols: usize) -> u64 {
        Separable::bytes(arbiter, rows, cols).saturating_add(BitMatrix::bytes(rows, cols))
    }

    /// Over `rows x cols` with arbiters of `arbiter`.
    pub fn new(arbiter: ArbiterKind, rows: usize, cols: usize) -> SeparableOutputFirst {
        SeparableOutputFirst {
            s: Separable::new(arbiter, rows, cols),
            mid: BitMatrix::new(rows, cols),
        }
    }

    /// Computes grants for `req` into `grant` (cleared first); priorities stay.
    #[inline]
    pub fn allocate(&mut self, req: &RequestMatrix, grant: &mut GrantMatrix) {
        let s = &mut self.s;
        debug_assert_eq!((req.rows(), req.cols()), (s.rows, s.cols));
        grant.clear();
        if req.is_empty() {
            return;
        }
        // The requests by column (`by_col` is the transpose of `req`).
        for (r, c) in req.ones() {
            s.by_col.set(c, r);
        }
        // Stage 1: each requested column picks one of its requesting rows.
        for c in s.by_col.nonempty_rows() {
            if let Some(r) = s.col_arb.arbitrate(c, s.by_col.row(c)) {
                self.mid.set(r, c);
            }
        }
        s.by_col.clear();
        // Stage 2: each row offered columns accepts one of them.
        for r in self.mid.nonempty_rows() {
            if let Some(c) = s.row_arb.arbitrate(r, self.mid.row(r)) {
                grant.set(r, c);
            }
        }
        self.mid.clear();
    }

    /// [`SeparableOutputFirst::allocate`] on one-word matrices: `rows` the requesting rows,
    /// their requests read from and the grants written to `m`. The same picks in the same
    /// order, on `u64`s.
    #[inline]
    pub(crate) fn allocate_word(&mut self, rows: u64, m: &mut impl WordIo) {
        let s = &mut self.s;
        debug_assert!(s.by_col.is_one_word() && s.by_col.is_empty() && self.mid.is_empty());
        // The requests by column.
        let (mut cols, mut w) = (0u64, rows);
        while w != 0 {
            let r = w.trailing_zeros() as usize;
            w &= w - 1;
            let mut x = m.request(r);
            cols |= x;
            while x != 0 {
                let c = x.trailing_zeros() as usize;
                x &= x - 1;
                s.by_col.words[c] |= 1 << r;
            }
        }
        // Stage 1: each requested column picks one of its requesting rows.
        let mut offered = 0u64;
        let (by_col, mid) = (&mut s.by_col.words, &mut self.mid.words);
        arbitrate_words(
            cols,
            &s.col_arb,
            |c| std::mem::take(&mut by_col[c]),
            |c, r| {
                mid[r] |= 1 << c;
                offered |= 1 << r;
            },
        );
        // Stage 2: each row offered columns accepts one of them.
        arbitrate_words(
            offered,
            &s.row_arb,
            |r| std::mem::take(&mut mid[r]),
            |r, c| m.grant(r, c),
        );
    }

    /// Moves arbiter priorities for the grants in `used`.
    #[inline]
    pub fn update(&mut self, used: &GrantMatrix) {
        self.s.update(used);
    }
}

#[cfg(test)]
impl SeparableOutputFirst {
    /// Bytes its vectors hold (their capacities), for the tests of the `bytes` functions.
    pub(crate) fn heap_bytes(&self) -> u64 {
        self.s.heap_bytes() + self.mid.heap_bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::alloc::BitMatrix;

    #[test]
    fn one_row_offered_two_columns_accepts_one() {
        let mut a = SeparableOutputFirst::new(ArbiterKind::RoundRobin, 2, 2);
        let mut req = BitMatrix::new(2, 2);
        req.set(0, 0);
        req.set(0, 1);
        let mut g = BitMatrix::new(2, 2);
        a.allocate(&req, &mut g);
        assert_eq!(g.row_bits(0).count_ones(), 1);
        assert!(g.row_bits(1).not_any());
    }
}
