//! The allocator contract: [`Allocator`], a closed enum over the allocator kinds (static
//! dispatch on the cycle path), matching request rows to resource columns.

use super::{Apart, GrantMatrix, RequestMatrix, SeparableInputFirst, SeparableOutputFirst};
use crate::arbiter::Arbiters;
use flitsim_netlist::{AllocatorKind, ArbiterKind};

/// A many-to-many matcher of any kind (see the module docs).
///
/// Laid out as C lays out a tagged union, over kinds that hold their `Separable` state
/// first: that state sits at one offset whatever the kind, so reaching it
/// ([`Allocator::update_grant`], once per flit in switch allocation) needs no branch on
/// the kind.
#[derive(Clone, Debug)]
#[repr(C, u8)]
pub enum Allocator {
    /// Separable input-first.
    InputFirst(SeparableInputFirst),
    /// Separable output-first.
    OutputFirst(SeparableOutputFirst),
}

impl Allocator {
    /// Bytes [`Allocator::new`] allocates for `kind` over `rows x cols` with arbiters of
    /// `arbiter`, computed without allocating: its arbiter banks and scratch matrices
    /// (they grow with `rows x cols`; with matrix arbiters, with `rows x cols x
    /// max(rows, cols)`).
    pub fn bytes(kind: AllocatorKind, arbiter: ArbiterKind, rows: usize, cols: usize) -> u64 {
        match kind {
            AllocatorKind::SeparableInputFirst => SeparableInputFirst::bytes(arbiter, rows, cols),
            AllocatorKind::SeparableOutputFirst => SeparableOutputFirst::bytes(arbiter, rows, cols),
        }
    }

    /// An allocator of `kind` over `rows x cols`, built from arbiters of `arbiter`.
    pub fn new(kind: AllocatorKind, arbiter: ArbiterKind, rows: usize, cols: usize) -> Allocator {
        match kind {
            AllocatorKind::SeparableInputFirst => {
                Allocator::InputFirst(SeparableInputFirst::new(arbiter, rows, cols))
            }
            AllocatorKind::SeparableOutputFirst => {
                Allocator::OutputFirst(SeparableOutputFirst::new(arbiter, rows, cols))
            }
        }
    }

    /// Computes grants for `req` into `grant` (cleared first). Does not move priorities;
    /// `&mut self` only for internal scratch space.
    ///
    /// Requests that already form a matching are granted as they are, without running
    /// the arbiters: in a separable allocator every arbiter then sees exactly one request
    /// and every arbiter kind grants a lone request, so the grants are the requests.
    ///
    /// One requesting row (of one word) is granted by its row arbiter alone
    /// (`Allocator::allocate_lone_row`).
    #[inline]
    pub fn allocate(&mut self, req: &RequestMatrix, grant: &mut GrantMatrix) {
        if req.is_one_word() {
            let rows = req.rows_word();
            if rows != 0 && rows & (rows - 1) == 0 {
                self.allocate_lone_row(rows.trailing_zeros() as usize, req, grant);
                return;
            }
        }
        if req.is_matching() {
            grant.copy_from(req);
            return;
        }
        self.allocate_arbitrated(req, grant);
    }

    /// [`Allocator::allocate`] through the arbiters (requests that form a matching too).
    #[inline]
    pub(super) fn allocate_arbitrated(&mut self, req: &RequestMatrix, grant: &mut GrantMatrix) {
        if req.is_one_word() {
            grant.clear();
            let rows = req.rows_word();
            let mut io = Apart { req, grant };
            match self {
                Allocator::InputFirst(a) => a.allocate_word(rows, &mut io),
                Allocator::OutputFirst(a) => a.allocate_word(rows, &mut io),
            }
            return;
        }
        match self {
            Allocator::InputFirst(a) => a.allocate(req, grant),
            Allocator::OutputFirst(a) => a.allocate(req, grant),
        }
    }

    /// Moves arbiter priorities for the grants in `used`.
    #[inline]
    pub fn update(&mut self, used: &GrantMatrix) {
        match self {
            Allocator::InputFirst(a) => a.update(used),
            Allocator::OutputFirst(a) => a.update(used),
        }
    }

    /// The row arbiters (one per row, over the columns) and the column arbiters (one per
    /// column, over the rows), for a caller that moves their priorities itself, as
    /// [`Allocator::update_grant`] does (one update each per used grant).
    #[inline(always)]
    pub fn arbiters_mut(&mut self) -> (&mut Arbiters, &mut Arbiters) {
        let s = match self {
            Allocator::InputFirst(a) => &mut a.s,
            Allocator::OutputFirst(a) => &mut a.s,
        };
        (&mut s.row_arb, &mut s.col_arb)
    }

    /// Moves arbiter priorities for one used grant `(r, c)`: [`Allocator::update`] of a
    /// grant matrix is this for each grant, row-major (each arbiter moves at most once,
    /// so the order does not matter).
    #[inline]
    pub fn update_grant(&mut self, r: usize, c: usize) {
        let s = match self {
            Allocator::InputFirst(a) => &mut a.s,
            Allocator::OutputFirst(a) => &mut a.s,
        };
        s.update_grant(r, c);
    }
}

#[cfg(test)]
impl Allocator {
    /// Bytes its vectors hold (their capacities), for the tests of the `bytes` functions.
    pub(crate) fn heap_bytes(&self) -> u64 {
        match self {
            Allocator::InputFirst(a) => a.s.heap_bytes(),
            Allocator::OutputFirst(a) => a.heap_bytes(),
        }
    }
}
