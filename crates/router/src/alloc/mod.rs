//! Allocators: many-to-many matchers of requesters (rows) to resources (columns), used by
//! VC allocation (input VCs x output VCs) and switch allocation (input ports x output
//! ports). Requests and grants are bit matrices ([`RequestMatrix`], [`GrantMatrix`]) on
//! `bitvec`, reused every cycle (no allocation on the cycle path).
//!
//! Contract of every allocator: grants are a subset of requests, with at most one grant
//! per row and per column. [`Allocator::allocate`] computes the matching without moving
//! arbiter priorities; [`Allocator::update`] moves them for the grants that were used
//! (BookSim's evaluate/update split, which iSLIP-style pointer updates need).

pub mod separable_input_first;
pub mod separable_output_first;

use crate::arbiter::{new_arbiter, Arbiter};
use bitvec::prelude::*;
use flitsim_netlist::{AllocatorKind, ArbiterKind};

pub use separable_input_first::SeparableInputFirst;
pub use separable_output_first::SeparableOutputFirst;

/// A `rows x cols` bit matrix, row-major.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BitMatrix {
    rows: usize,
    cols: usize,
    bits: BitVec,
}

/// Requests: bit `(r, c)` = requester r wants resource c.
pub type RequestMatrix = BitMatrix;
/// Grants: bit `(r, c)` = requester r got resource c.
pub type GrantMatrix = BitMatrix;

impl BitMatrix {
    /// An all-zero `rows x cols` matrix.
    pub fn new(rows: usize, cols: usize) -> BitMatrix {
        BitMatrix {
            rows,
            cols,
            bits: bitvec![0; rows * cols],
        }
    }
    /// Rows.
    pub fn rows(&self) -> usize {
        self.rows
    }
    /// Columns.
    pub fn cols(&self) -> usize {
        self.cols
    }
    /// Clears every bit (keeps the allocation).
    pub fn clear(&mut self) {
        self.bits.fill(false);
    }
    /// Sets bit `(r, c)`.
    #[inline]
    pub fn set(&mut self, r: usize, c: usize) {
        self.bits.set(r * self.cols + c, true);
    }
    /// Bit `(r, c)`.
    #[inline]
    pub fn get(&self, r: usize, c: usize) -> bool {
        self.bits[r * self.cols + c]
    }
    /// Row `r` as a bit slice.
    #[inline]
    pub fn row(&self, r: usize) -> &BitSlice {
        &self.bits[r * self.cols..(r + 1) * self.cols]
    }
    /// True when no bit is set.
    pub fn is_empty(&self) -> bool {
        self.bits.not_any()
    }
    /// The set bits as `(row, col)` pairs, row-major.
    pub fn ones(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        let cols = self.cols;
        self.bits.iter_ones().map(move |i| (i / cols, i % cols))
    }
}

/// A many-to-many matcher (see the module docs).
pub trait Allocator: Send + std::fmt::Debug {
    /// Computes grants for `req` into `grant` (cleared first). Does not move priorities;
    /// `&mut self` only for internal scratch space.
    fn allocate(&mut self, req: &RequestMatrix, grant: &mut GrantMatrix);
    /// Moves arbiter priorities for the grants in `used`.
    fn update(&mut self, used: &GrantMatrix);
}

/// A boxed allocator of `kind` over `rows x cols`, built from arbiters of `arbiter`.
pub fn new_allocator(
    kind: AllocatorKind,
    arbiter: ArbiterKind,
    rows: usize,
    cols: usize,
) -> Box<dyn Allocator> {
    match kind {
        AllocatorKind::SeparableInputFirst => {
            Box::new(SeparableInputFirst::new(arbiter, rows, cols))
        }
        AllocatorKind::SeparableOutputFirst => {
            Box::new(SeparableOutputFirst::new(arbiter, rows, cols))
        }
    }
}

/// Shared state of the separable allocators: one arbiter per row (over the columns) and
/// one per column (over the rows), plus scratch space.
#[derive(Debug)]
pub(crate) struct Separable {
    pub rows: usize,
    pub cols: usize,
    pub row_arb: Vec<Box<dyn Arbiter>>,
    pub col_arb: Vec<Box<dyn Arbiter>>,
    /// Scratch: one row or column of candidate bits.
    pub scratch_rows: BitVec,
    /// Scratch: the intermediate matching (first stage's picks).
    pub mid: BitMatrix,
}

impl Separable {
    pub fn new(arbiter: ArbiterKind, rows: usize, cols: usize) -> Separable {
        Separable {
            rows,
            cols,
            row_arb: (0..rows).map(|_| new_arbiter(arbiter, cols)).collect(),
            col_arb: (0..cols).map(|_| new_arbiter(arbiter, rows)).collect(),
            scratch_rows: bitvec![0; rows],
            mid: BitMatrix::new(rows, cols),
        }
    }

    pub fn update(&mut self, used: &GrantMatrix) {
        for (r, c) in used.ones() {
            self.row_arb[r].update(c);
            self.col_arb[c].update(r);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const KINDS: [AllocatorKind; 2] = [
        AllocatorKind::SeparableInputFirst,
        AllocatorKind::SeparableOutputFirst,
    ];
    const ARBS: [ArbiterKind; 2] = [ArbiterKind::RoundRobin, ArbiterKind::Matrix];

    fn matrix(rows: usize, cols: usize, bits: &[bool]) -> RequestMatrix {
        let mut m = BitMatrix::new(rows, cols);
        for r in 0..rows {
            for c in 0..cols {
                if bits[(r * cols + c) % bits.len()] {
                    m.set(r, c);
                }
            }
        }
        m
    }

    proptest! {
        /// Grants are a subset of requests, at most one per row and per column, and a
        /// request matrix with any request gets at least one grant (separable allocators
        /// are maximal-ish: the first row/column choice always finds a winner).
        #[test]
        fn grants_are_a_matching_within_requests(
            rows in 1usize..10, cols in 1usize..10,
            bits in proptest::collection::vec(any::<bool>(), 1..100),
        ) {
            let req = matrix(rows, cols, &bits);
            for kind in KINDS { for arb in ARBS {
                let mut a = new_allocator(kind, arb, rows, cols);
                let mut g = BitMatrix::new(rows, cols);
                for _ in 0..3 {
                    a.allocate(&req, &mut g);
                    for (r, c) in g.ones() { prop_assert!(req.get(r, c)); }
                    for r in 0..rows { prop_assert!(g.row(r).count_ones() <= 1); }
                    for c in 0..cols {
                        prop_assert!((0..rows).filter(|&r| g.get(r, c)).count() <= 1);
                    }
                    prop_assert_eq!(req.is_empty(), g.is_empty());
                    a.update(&g);
                }
            }}
        }

        /// A request that stays asserted is granted within rows * cols rounds, whatever
        /// the other requests are (and they stay asserted too: the worst case).
        #[test]
        fn no_starvation(
            rows in 1usize..6, cols in 1usize..6,
            bits in proptest::collection::vec(any::<bool>(), 1..40),
            pick in any::<usize>(),
        ) {
            let mut req = matrix(rows, cols, &bits);
            let (vr, vc) = (pick % rows, (pick / rows) % cols);
            req.set(vr, vc);
            for kind in KINDS { for arb in ARBS {
                let mut a = new_allocator(kind, arb, rows, cols);
                let mut g = BitMatrix::new(rows, cols);
                let mut won = false;
                for _ in 0..rows * cols {
                    a.allocate(&req, &mut g);
                    a.update(&g);
                    if g.get(vr, vc) { won = true; break; }
                }
                prop_assert!(won, "{:?}/{:?}: ({}, {}) starved", kind, arb, vr, vc);
            }}
        }
    }
}
