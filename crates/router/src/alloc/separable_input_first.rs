//! Separable input-first allocator: each row's arbiter picks one of the row's requested
//! columns; then each column's arbiter picks one of the rows that picked it. A row
//! arbiter's priority moves only when its pick was granted (in `update`).

use super::{arbitrate_words, GrantMatrix, RequestMatrix, Separable, WordIo};
use flitsim_netlist::ArbiterKind;

/// Separable input-first allocator (see the module docs).
#[derive(Clone, Debug)]
#[repr(C)] // `s` first: see `Allocator`.
pub struct SeparableInputFirst {
    pub(crate) s: Separable,
}

impl SeparableInputFirst {
    /// Bytes [`SeparableInputFirst::new`] allocates, computed without allocating: the
    /// shared separable state.
    pub fn bytes(arbiter: ArbiterKind, rows: usize, cols: usize) -> u64 {
        Separable::bytes(arbiter, rows, cols)
    }

    /// Over `rows x cols` with arbiters of `arbiter`.
    pub fn new(arbiter: ArbiterKind, rows: usize, cols: usize) -> SeparableInputFirst {
        SeparableInputFirst {
            s: Separable::new(arbiter, rows, cols),
        }
    }

    /// Computes grants for `req` into `grant` (cleared first); priorities stay.
    #[inline]
    pub fn allocate(&mut self, req: &RequestMatrix, grant: &mut GrantMatrix) {
        let s = &mut self.s;
        debug_assert_eq!((req.rows(), req.cols()), (s.rows, s.cols));
        grant.clear();
        // Stage 1: each requesting row picks a column; `by_col` collects the picks.
        for r in req.nonempty_rows() {
            if let Some(c) = s.row_arb.arbitrate(r, req.row(r)) {
                s.by_col.set(c, r);
            }
        }
        // Stage 2: each picked column grants one of the rows that picked it.
        for c in s.by_col.nonempty_rows() {
            if let Some(r) = s.col_arb.arbitrate(c, s.by_col.row(c)) {
                grant.set(r, c);
            }
        }
        s.by_col.clear();
    }

    /// [`SeparableInputFirst::allocate`] on one-word matrices: `rows` the requesting rows,
    /// their requests read from and the grants written to `m`. The same picks in the same
    /// order, on `u64`s.
    #[inline]
    pub(crate) fn allocate_word(&mut self, rows: u64, m: &mut impl WordIo) {
        let s = &mut self.s;
        debug_assert!(s.by_col.is_one_word() && s.by_col.is_empty());
        let mut picked = 0u64;
        let by_col = &mut s.by_col.words;
        arbitrate_words(
            rows,
            &s.row_arb,
            |r| m.request(r),
            |r, c| {
                by_col[c] |= 1 << r;
                picked |= 1 << c;
            },
        );
        arbitrate_words(
            picked,
            &s.col_arb,
            |c| std::mem::take(&mut by_col[c]),
            |c, r| m.grant(r, c),
        );
    }

    /// Moves arbiter priorities for the grants in `used`.
    #[inline]
    pub fn update(&mut self, used: &GrantMatrix) {
        self.s.update(used);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::alloc::BitMatrix;

    #[test]
    fn two_rows_wanting_one_column_share_it() {
        let mut a = SeparableInputFirst::new(ArbiterKind::RoundRobin, 2, 2);
        let mut req = BitMatrix::new(2, 2);
        req.set(0, 0);
        req.set(1, 0);
        let mut g = BitMatrix::new(2, 2);
        a.allocate(&req, &mut g);
        assert!(g.get(0, 0) && !g.get(1, 0));
        a.update(&g);
        a.allocate(&req, &mut g);
        assert!(g.get(1, 0) && !g.get(0, 0));
    }
}
