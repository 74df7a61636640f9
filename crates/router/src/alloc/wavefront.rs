//! Wavefront allocator (Tamir and Chi, 1993): the requests laid on an `n x n` square,
//! `n = max(rows, cols)`, are visited diagonal by diagonal (cell `(r, c)` lies on
//! diagonal `(r + c) mod n`), starting from the priority diagonal; a request is granted
//! when its row and column are still free. The cells of one diagonal share no row or
//! column, so the diagonal with priority is granted whole, and the result is a maximal
//! matching. The priority diagonal moves on by one after each allocation whose grants
//! are used.

use super::{GrantMatrix, RequestMatrix, Separable};
use crate::mask;
use flitsim_netlist::ArbiterKind;

/// Wavefront allocator (see the module docs).
#[derive(Clone, Debug)]
#[repr(C)] // `s` first: see `Allocator`.
pub struct Wavefront {
    /// Arbiters of the separable layout `Allocator` relies on; never consulted (the
    /// one-word paths that read them are not taken for this kind).
    pub(crate) s: Separable,
    /// The side of the square.
    pub(super) n: u32,
    /// The diagonal visited first.
    pub(super) priority: u32,
    /// The last allocation granted something (the priority moves once, when it is used).
    pub(super) granted: bool,
    /// Scratch: rows still unmatched (word mask).
    rows_free: Vec<u64>,
    /// Scratch: columns already matched (word mask).
    cols_taken: Vec<u64>,
    /// Scratch of the one-word path: the request rows (only rows written in an
    /// allocation are read in it, so it is never zeroed).
    pub(super) req_words: Box<[u64; 64]>,
}

impl Wavefront {
    /// Bytes [`Wavefront::new`] allocates, computed without allocating.
    pub fn bytes(arbiter: ArbiterKind, rows: usize, cols: usize) -> u64 {
        let masks = (mask::words(rows) + mask::words(cols)) * std::mem::size_of::<u64>();
        Separable::bytes(arbiter, rows, cols)
            .saturating_add(masks as u64)
            .saturating_add(std::mem::size_of::<[u64; 64]>() as u64)
    }

    /// Over `rows x cols`.
    pub fn new(arbiter: ArbiterKind, rows: usize, cols: usize) -> Wavefront {
        Wavefront {
            s: Separable::new(arbiter, rows, cols),
            n: rows.max(cols).max(1) as u32,
            priority: 0,
            granted: false,
            rows_free: vec![0; mask::words(rows)],
            cols_taken: vec![0; mask::words(cols)],
            req_words: Box::new([0; 64]),
        }
    }

    /// Computes grants for `req` into `grant` (cleared first); the priority stays.
    pub fn allocate(&mut self, req: &RequestMatrix, grant: &mut GrantMatrix) {
        debug_assert_eq!((req.rows(), req.cols()), (self.s.rows, self.s.cols));
        grant.clear();
        mask::zero(&mut self.cols_taken);
        let mut left = 0usize;
        for r in req.nonempty_rows() {
            mask::set(&mut self.rows_free, r);
            left += 1;
        }
        let (n, cols) = (self.n as usize, self.s.cols);
        for d in 0..n {
            if left == 0 {
                break;
            }
            let diagonal = (self.priority as usize + d) % n;
            for k in 0..self.rows_free.len() {
                let mut w = self.rows_free[k];
                while w != 0 {
                    let r = k * 64 + w.trailing_zeros() as usize;
                    w &= w - 1;
                    // The cell of row r on this diagonal (r < n).
                    let c = (diagonal + n - r) % n;
                    if c < cols && req.get(r, c) && !mask::get(&self.cols_taken, c) {
                        grant.set(r, c);
                        mask::set(&mut self.cols_taken, c);
                        self.rows_free[k] &= !(1 << (r % 64));
                        left -= 1;
                    }
                }
            }
        }
        mask::zero(&mut self.rows_free);
        self.granted = !grant.is_empty();
    }

    /// The allocation of a lone request, granted by its caller without visiting the
    /// diagonals (a lone request is granted on its own diagonal): the priority moves
    /// when it is used.
    #[inline]
    pub fn granted_alone(&mut self) {
        self.granted = true;
    }

    /// A grant of the last allocation was used: the priority diagonal moves on (once
    /// per allocation).
    #[inline]
    pub fn update_grant(&mut self, _r: usize, _c: usize) {
        if self.granted {
            self.priority = (self.priority + 1) % self.n;
            self.granted = false;
        }
    }

    /// Moves the priority diagonal when `used` holds a grant.
    pub fn update(&mut self, used: &GrantMatrix) {
        if !used.is_empty() {
            self.update_grant(0, 0);
        }
    }
}

#[cfg(test)]
impl Wavefront {
    /// Bytes its vectors hold (their capacities), for the tests of the `bytes` functions.
    pub(crate) fn heap_bytes(&self) -> u64 {
        let masks = (self.rows_free.capacity() + self.cols_taken.capacity()) * 8;
        self.s.heap_bytes() + masks as u64 + std::mem::size_of::<[u64; 64]>() as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::alloc::BitMatrix;

    #[test]
    fn the_priority_diagonal_is_granted_whole_then_moves() {
        // Every cell requested: the priority diagonal is the matching.
        let mut req = BitMatrix::new(3, 3);
        for r in 0..3 {
            for c in 0..3 {
                req.set(r, c);
            }
        }
        let mut a = Wavefront::new(ArbiterKind::RoundRobin, 3, 3);
        let mut g = BitMatrix::new(3, 3);
        a.allocate(&req, &mut g);
        // Diagonal 0: (0, 0), (1, 2), (2, 1).
        assert_eq!(g.ones().collect::<Vec<_>>(), vec![(0, 0), (1, 2), (2, 1)]);
        // Unused, the priority stays.
        a.allocate(&req, &mut g);
        assert_eq!(g.ones().collect::<Vec<_>>(), vec![(0, 0), (1, 2), (2, 1)]);
        a.update(&g);
        a.allocate(&req, &mut g);
        // Diagonal 1: (0, 1), (1, 0), (2, 2).
        assert_eq!(g.ones().collect::<Vec<_>>(), vec![(0, 1), (1, 0), (2, 2)]);
    }

    #[test]
    fn a_rectangle_skips_the_cells_past_its_columns() {
        // 3 rows, 1 column, all requesting: n = 3; diagonal 0 holds (0, 0) only.
        let mut req = BitMatrix::new(3, 1);
        for r in 0..3 {
            req.set(r, 0);
        }
        let mut a = Wavefront::new(ArbiterKind::RoundRobin, 3, 1);
        let mut g = BitMatrix::new(3, 1);
        let mut winners = Vec::new();
        for _ in 0..3 {
            a.allocate(&req, &mut g);
            winners.extend(g.ones());
            a.update(&g);
        }
        // Diagonal d holds (d, 0): each row wins once in three allocations.
        assert_eq!(winners, vec![(0, 0), (1, 0), (2, 0)]);
    }
}
