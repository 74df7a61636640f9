//! The rounds of the iterative allocators (iSLIP, PIM): in each round every unmatched
//! column requested by an unmatched row grants one of those rows, then every row
//! offered columns accepts one of them. Rounds stop after the count given or when a
//! round finds no request left between unmatched rows and columns.

use super::{BitMatrix, GrantMatrix, RequestMatrix};
use crate::mask;

/// How a round picks: the grant of column `c` among the rows in `rows`, and the accept of
/// row `r` among the columns in `cols` (word masks); `None` only for an empty mask.
pub(crate) trait RoundPicks {
    /// The row column `c` grants.
    fn grant(&mut self, c: usize, rows: &[u64]) -> Option<usize>;
    /// The column row `r` accepts.
    fn accept(&mut self, r: usize, cols: &[u64]) -> Option<usize>;
}

/// Scratch space of the rounds, reused every allocation.
#[derive(Clone, Debug)]
pub(crate) struct Rounds {
    /// Per column, the unmatched rows requesting it (`cols x rows`).
    by_col: BitMatrix,
    /// Per row, the columns that granted it (`rows x cols`).
    offers: BitMatrix,
    /// Rows matched so far (word mask).
    rows_matched: Vec<u64>,
    /// Columns matched so far (word mask).
    cols_matched: Vec<u64>,
}

impl Rounds {
    /// Bytes [`Rounds::new`] allocates, computed without allocating.
    pub fn bytes(rows: usize, cols: usize) -> u64 {
        let masks = (mask::words(rows) + mask::words(cols)) * std::mem::size_of::<u64>();
        BitMatrix::bytes(cols, rows)
            .saturating_add(BitMatrix::bytes(rows, cols))
            .saturating_add(masks as u64)
    }

    /// Scratch for `rows x cols` allocations.
    pub fn new(rows: usize, cols: usize) -> Rounds {
        Rounds {
            by_col: BitMatrix::new(cols, rows),
            offers: BitMatrix::new(rows, cols),
            rows_matched: vec![0; mask::words(rows)],
            cols_matched: vec![0; mask::words(cols)],
        }
    }

    /// Runs up to `iters` rounds on `req`, writing the matching into `grant` (cleared
    /// first); `accepted(round, r, c)` is told of each grant as it is made (round 0 first).
    pub fn run(
        &mut self,
        iters: u8,
        req: &RequestMatrix,
        grant: &mut GrantMatrix,
        picks: &mut impl RoundPicks,
        mut accepted: impl FnMut(u8, usize, usize),
    ) {
        grant.clear();
        mask::zero(&mut self.rows_matched);
        mask::zero(&mut self.cols_matched);
        for round in 0..iters {
            if !self.collect(req) {
                break;
            }
            // Grant: each requested column picks one of its requesting rows.
            for c in self.by_col.nonempty_rows() {
                if let Some(r) = picks.grant(c, self.by_col.row(c)) {
                    self.offers.set(r, c);
                }
            }
            self.by_col.clear();
            // Accept: each row offered columns takes one of them.
            for r in self.offers.nonempty_rows() {
                if let Some(c) = picks.accept(r, self.offers.row(r)) {
                    grant.set(r, c);
                    mask::set(&mut self.rows_matched, r);
                    mask::set(&mut self.cols_matched, c);
                    accepted(round, r, c);
                }
            }
            self.offers.clear();
        }
    }

    /// Fills `by_col` with the requests between unmatched rows and unmatched columns;
    /// false when there are none.
    fn collect(&mut self, req: &RequestMatrix) -> bool {
        let mut any = false;
        for r in req.nonempty_rows() {
            if mask::get(&self.rows_matched, r) {
                continue;
            }
            for c in mask::ones(req.row(r)) {
                if !mask::get(&self.cols_matched, c) {
                    self.by_col.set(c, r);
                    any = true;
                }
            }
        }
        any
    }
}

#[cfg(test)]
impl Rounds {
    /// Bytes its vectors hold (their capacities), for the tests of the `bytes` functions.
    pub(crate) fn heap_bytes(&self) -> u64 {
        let masks = (self.rows_matched.capacity() + self.cols_matched.capacity()) * 8;
        self.by_col.heap_bytes() + self.offers.heap_bytes() + masks as u64
    }
}
