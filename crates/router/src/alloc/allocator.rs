//! The allocator contract: [`Allocator`], a closed enum over the allocator kinds (static
//! dispatch on the cycle path), matching request rows to resource columns.

use super::word_io::Apart;
use super::{
    GrantMatrix, Islip, Pim, RequestMatrix, SeparableInputFirst, SeparableOutputFirst, Wavefront,
};
use crate::arbiter::Arbiters;
use flitsim_netlist::{AllocatorKind, ArbiterKind};

/// A many-to-many matcher of any kind (see the module docs).
///
/// Laid out as C lays out a tagged union, over kinds that hold their `Separable` state
/// first: that state sits at one offset whatever the kind, so reaching it
/// ([`Allocator::arbiters_mut`], once per flit in switch allocation) needs no branch on
/// the kind.
///
/// Every kind has a one-word fast path; the separable kinds also have shortcuts (a lone
/// row, requests that form a matching, requests contended on one side) and arbiters a
/// caller may move itself ([`Allocator::is_separable`]). The others (iSLIP, wavefront,
/// PIM) allocate every request through their own one-word or general path and move their
/// priorities by their own rules ([`Allocator::update_grant`]).
#[derive(Clone, Debug)]
#[repr(C, u8)]
pub enum Allocator {
    /// Separable input-first.
    InputFirst(SeparableInputFirst),
    /// Separable output-first.
    OutputFirst(SeparableOutputFirst),
    /// iSLIP.
    Islip(Islip),
    /// Wavefront.
    Wavefront(Wavefront),
    /// Parallel iterative matching.
    Pim(Pim),
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
            AllocatorKind::Islip => Islip::bytes(arbiter, rows, cols),
            AllocatorKind::Wavefront => Wavefront::bytes(arbiter, rows, cols),
            AllocatorKind::Pim => Pim::bytes(arbiter, rows, cols),
        }
    }

    /// An allocator of `kind` over `rows x cols`, built from arbiters of `arbiter`, with
    /// one round (iSLIP, PIM) and PIM's stream seeded with 0.
    pub fn new(kind: AllocatorKind, arbiter: ArbiterKind, rows: usize, cols: usize) -> Allocator {
        Allocator::configured(kind, arbiter, 1, 0, rows, cols)
    }

    /// An allocator of `kind` over `rows x cols`, built from arbiters of `arbiter`, with
    /// `iters` rounds (iSLIP, PIM) and PIM's random stream seeded with `seed`.
    pub fn configured(
        kind: AllocatorKind,
        arbiter: ArbiterKind,
        iters: u8,
        seed: u64,
        rows: usize,
        cols: usize,
    ) -> Allocator {
        match kind {
            AllocatorKind::SeparableInputFirst => {
                Allocator::InputFirst(SeparableInputFirst::new(arbiter, rows, cols))
            }
            AllocatorKind::SeparableOutputFirst => {
                Allocator::OutputFirst(SeparableOutputFirst::new(arbiter, rows, cols))
            }
            AllocatorKind::Islip => Allocator::Islip(Islip::new(arbiter, iters, rows, cols)),
            AllocatorKind::Wavefront => Allocator::Wavefront(Wavefront::new(arbiter, rows, cols)),
            AllocatorKind::Pim => Allocator::Pim(Pim::new(arbiter, iters, seed, rows, cols)),
        }
    }

    /// Rows and columns.
    pub fn shape(&self) -> (usize, usize) {
        let s = match self {
            Allocator::InputFirst(a) => &a.s,
            Allocator::OutputFirst(a) => &a.s,
            Allocator::Islip(a) => &a.s,
            Allocator::Wavefront(a) => &a.s,
            Allocator::Pim(a) => &a.s,
        };
        (s.rows, s.cols)
    }

    /// True for the separable kinds and iSLIP of one round (separable output-first, whose
    /// every grant moves its arbiters), the only ones with shortcuts: a caller takes
    /// [`Allocator::arbiters_mut`] only for these, and the one-sided variants of
    /// [`Allocator::allocate_word`] and [`Allocator::lone_row`] skip the arbiters only for
    /// these (the other kinds allocate the requests whole).
    #[inline(always)]
    pub fn is_separable(&self) -> bool {
        match self {
            Allocator::InputFirst(_) | Allocator::OutputFirst(_) => true,
            Allocator::Islip(a) => a.one_round,
            Allocator::Wavefront(_) | Allocator::Pim(_) => false,
        }
    }

    /// [`Allocator::allocate`] on the general path (requests past one word).
    #[inline(never)]
    pub(super) fn allocate_general(&mut self, req: &RequestMatrix, grant: &mut GrantMatrix) {
        match self {
            Allocator::InputFirst(a) => a.allocate(req, grant),
            Allocator::OutputFirst(a) => a.allocate(req, grant),
            Allocator::Islip(a) => a.allocate(req, grant),
            Allocator::Wavefront(a) => a.allocate(req, grant),
            Allocator::Pim(a) => a.allocate(req, grant),
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
    ///
    /// The other kinds allocate every request on their own one-word or general path.
    #[inline]
    pub fn allocate(&mut self, req: &RequestMatrix, grant: &mut GrantMatrix) {
        if !self.is_separable() {
            return self.allocate_arbitrated(req, grant);
        }
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
            return match self {
                Allocator::InputFirst(a) => a.allocate_word(rows, &mut io),
                Allocator::OutputFirst(a) => a.allocate_word(rows, &mut io),
                Allocator::Islip(a) => a.allocate_word(rows, &mut io),
                Allocator::Wavefront(a) => a.allocate_word(rows, &mut io),
                Allocator::Pim(a) => a.allocate_word(rows, &mut io),
            };
        }
        self.allocate_general(req, grant);
    }

    /// The allocation of the lone request `(r, c)` (one word), which every kind grants,
    /// made by the caller without running the allocator: records what
    /// [`Allocator::update_grant`] reads (iSLIP's first-round grants, the wavefront's
    /// grant flag). Priorities stay.
    #[inline]
    pub fn granted_alone(&mut self, r: usize, c: usize) {
        match self {
            Allocator::Islip(a) => a.granted_alone(r, c),
            Allocator::Wavefront(a) => a.granted_alone(),
            Allocator::InputFirst(_) | Allocator::OutputFirst(_) | Allocator::Pim(_) => {}
        }
    }

    /// Moves arbiter priorities for the grants in `used`.
    #[inline]
    pub fn update(&mut self, used: &GrantMatrix) {
        match self {
            Allocator::InputFirst(a) => a.update(used),
            Allocator::OutputFirst(a) => a.update(used),
            Allocator::Islip(a) => a.update(used),
            Allocator::Wavefront(a) => a.update(used),
            Allocator::Pim(_) => {}
        }
    }

    /// The row arbiters (one per row, over the columns) and the column arbiters (one per
    /// column, over the rows), for a caller that moves their priorities itself, as
    /// [`Allocator::update_grant`] does (one update each per used grant). For the
    /// separable kinds only ([`Allocator::is_separable`]): the others move their
    /// priorities by their own rules ([`Allocator::update_grant`]).
    #[inline(always)]
    pub fn arbiters_mut(&mut self) -> (&mut Arbiters, &mut Arbiters) {
        debug_assert!(self.is_separable(), "arbiters of a non-separable allocator");
        let s = match self {
            Allocator::InputFirst(a) => &mut a.s,
            Allocator::OutputFirst(a) => &mut a.s,
            Allocator::Islip(a) => &mut a.s,
            Allocator::Wavefront(a) => &mut a.s,
            Allocator::Pim(a) => &mut a.s,
        };
        (&mut s.row_arb, &mut s.col_arb)
    }

    /// Moves arbiter priorities for one used grant `(r, c)`: [`Allocator::update`] of a
    /// grant matrix is this for each grant, row-major (each arbiter moves at most once,
    /// so the order does not matter).
    #[inline]
    pub fn update_grant(&mut self, r: usize, c: usize) {
        match self {
            Allocator::InputFirst(a) => a.s.update_grant(r, c),
            Allocator::OutputFirst(a) => a.s.update_grant(r, c),
            Allocator::Islip(a) => a.update_grant(r, c),
            Allocator::Wavefront(a) => a.update_grant(r, c),
            Allocator::Pim(_) => {}
        }
    }
}

#[cfg(test)]
impl Allocator {
    /// Bytes its vectors hold (their capacities), for the tests of the `bytes` functions.
    pub(crate) fn heap_bytes(&self) -> u64 {
        match self {
            Allocator::InputFirst(a) => a.s.heap_bytes(),
            Allocator::OutputFirst(a) => a.heap_bytes(),
            Allocator::Islip(a) => a.heap_bytes(),
            Allocator::Wavefront(a) => a.heap_bytes(),
            Allocator::Pim(a) => a.heap_bytes(),
        }
    }
}
