//! The state both separable allocators share: one arbiter per row and one per column.

use super::{BitMatrix, GrantMatrix};
use crate::arbiter::Arbiters;
use flitsim_netlist::ArbiterKind;

/// Shared state of the separable allocators: one arbiter per row (over the columns) and
/// one per column (over the rows), plus scratch space.
///
/// Laid out as C lays out a struct, the arbiter banks first: switch allocation moves a
/// row and a column arbiter per flit, and with [`Allocator`]'s layout the banks sit at
/// the start of the allocator, next to what the step reads before them.
#[derive(Clone, Debug)]
#[repr(C)]
pub(crate) struct Separable {
    pub row_arb: Arbiters,
    pub col_arb: Arbiters,
    pub rows: usize,
    pub cols: usize,
    /// Scratch, transposed (`cols x rows`): per column, the rows taking part in its
    /// arbitration.
    pub by_col: BitMatrix,
}

/// The sizes of a separable allocator's row arbiters (one per row, over the columns) and
/// of its column arbiters (one per column, over the rows): the rule of
/// [`Separable::new`] and [`Separable::bytes`].
fn arbiter_sizes(rows: usize, cols: usize) -> [std::iter::RepeatN<usize>; 2] {
    [
        std::iter::repeat_n(cols, rows),
        std::iter::repeat_n(rows, cols),
    ]
}

impl Separable {
    /// Bytes [`Separable::new`] allocates, computed without allocating: both arbiter
    /// banks and the `cols x rows` scratch.
    pub fn bytes(arbiter: ArbiterKind, rows: usize, cols: usize) -> u64 {
        let [row_sizes, col_sizes] = arbiter_sizes(rows, cols);
        Arbiters::bytes(arbiter, row_sizes)
            .saturating_add(Arbiters::bytes(arbiter, col_sizes))
            .saturating_add(BitMatrix::bytes(cols, rows))
    }

    pub fn new(arbiter: ArbiterKind, rows: usize, cols: usize) -> Separable {
        let [row_sizes, col_sizes] = arbiter_sizes(rows, cols);
        Separable {
            rows,
            cols,
            row_arb: Arbiters::new(arbiter, row_sizes),
            col_arb: Arbiters::new(arbiter, col_sizes),
            by_col: BitMatrix::new(cols, rows),
        }
    }

    #[inline]
    pub fn update(&mut self, used: &GrantMatrix) {
        if used.is_one_word() {
            let mut w = used.rows_word();
            while w != 0 {
                let r = w.trailing_zeros() as usize;
                w &= w - 1;
                let mut x = used.words[r];
                while x != 0 {
                    let c = x.trailing_zeros() as usize;
                    x &= x - 1;
                    self.update_grant(r, c);
                }
            }
            return;
        }
        for (r, c) in used.ones() {
            self.update_grant(r, c);
        }
    }

    /// Moves the priorities of row arbiter `r` and column arbiter `c` for grant `(r, c)`.
    #[inline]
    pub fn update_grant(&mut self, r: usize, c: usize) {
        self.row_arb.update(r, c);
        self.col_arb.update(c, r);
    }
}

#[cfg(test)]
impl Separable {
    /// Bytes its vectors hold (their capacities), for the tests of the `bytes` functions.
    pub(crate) fn heap_bytes(&self) -> u64 {
        self.row_arb.heap_bytes() + self.col_arb.heap_bytes() + self.by_col.heap_bytes()
    }
}
