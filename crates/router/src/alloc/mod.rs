//! Allocators: many-to-many matchers of requesters (rows) to resources (columns), used by
//! VC allocation (input VCs x output VCs) and switch allocation (input ports x output
//! ports). Requests and grants are bit matrices ([`RequestMatrix`], [`GrantMatrix`]) of
//! word-mask rows ([`crate::mask`]; why words and not `bitvec` there: see that module),
//! reused every cycle (no allocation on the cycle path). A matrix also keeps a mask of its
//! non-empty rows, so clearing, scanning and emptiness tests cost in proportion to the
//! rows in use, not to the matrix size. Switch allocation on a router of at most 64 ports
//! per side uses a [`WordMatrix`] instead: one `u64` per row in a fixed array of 64, whose
//! accesses need no bounds checks ([`Allocator::allocate_word`]).
//!
//! Contract of every allocator: grants are a subset of requests, with at most one grant
//! per row and per column. [`Allocator::allocate`] computes the matching without moving
//! arbiter priorities; [`Allocator::update`] moves them for the grants that were used
//! (BookSim's evaluate/update split, which iSLIP-style pointer updates need).
//! [`Allocator`] is a closed enum over the kinds (static dispatch on the cycle path).

pub mod separable_input_first;
pub mod separable_output_first;

use crate::arbiter::Arbiters;
use crate::mask;
use bitvec::prelude::{BitSlice, Lsb0};
use flitsim_netlist::{AllocatorKind, ArbiterKind};

pub use separable_input_first::SeparableInputFirst;
pub use separable_output_first::SeparableOutputFirst;

/// A `rows x cols` bit matrix: row r is the word mask
/// `words[r * wpr..(r + 1) * wpr]`, `wpr = mask::words(cols)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BitMatrix {
    rows: usize,
    cols: usize,
    /// Words per row.
    wpr: usize,
    words: Vec<u64>,
    /// Rows that may hold a set bit (a superset: exactly the rows set since the last
    /// `clear`).
    nonempty: Vec<u64>,
}

/// Requests: bit `(r, c)` = requester r wants resource c.
pub type RequestMatrix = BitMatrix;
/// Grants: bit `(r, c)` = requester r got resource c.
pub type GrantMatrix = BitMatrix;

/// Words per row, words of all rows, and words of the row mask of a `rows x cols`
/// matrix: the sizing rule of [`BitMatrix::new`] and [`BitMatrix::bytes`].
fn matrix_words(rows: usize, cols: usize) -> (usize, usize, usize) {
    let wpr = mask::words(cols);
    (wpr, rows * wpr, mask::words(rows))
}

impl BitMatrix {
    /// Bytes [`BitMatrix::new`] allocates for a `rows x cols` matrix, computed without
    /// allocating: its rows (rounded up to words) and its row mask.
    pub fn bytes(rows: usize, cols: usize) -> u64 {
        let (_, words, nonempty) = matrix_words(rows, cols);
        (words as u64)
            .saturating_add(nonempty as u64)
            .saturating_mul(std::mem::size_of::<u64>() as u64)
    }

    /// An all-zero `rows x cols` matrix.
    pub fn new(rows: usize, cols: usize) -> BitMatrix {
        let (wpr, words, nonempty) = matrix_words(rows, cols);
        BitMatrix {
            rows,
            cols,
            wpr,
            words: vec![0; words],
            nonempty: vec![0; nonempty],
        }
    }

    /// Bytes its vectors hold (their capacities), for the tests of the `bytes` functions.
    #[cfg(test)]
    pub(crate) fn heap_bytes(&self) -> u64 {
        ((self.words.capacity() + self.nonempty.capacity()) * std::mem::size_of::<u64>()) as u64
    }

    /// Rows.
    pub fn rows(&self) -> usize {
        self.rows
    }
    /// Columns.
    pub fn cols(&self) -> usize {
        self.cols
    }
    /// Clears every bit (keeps the allocation); touches only the rows set since the last
    /// clear.
    #[inline]
    pub fn clear(&mut self) {
        if let ([rows], 1) = (&mut *self.nonempty, self.wpr) {
            // One word per row, at most 64 rows: zero the rows named by the summary word.
            let mut w = std::mem::take(rows);
            while w != 0 {
                let r = w.trailing_zeros() as usize;
                w &= w - 1;
                self.words[r] = 0;
            }
            return;
        }
        self.clear_rows();
    }
    /// [`BitMatrix::clear`] for rows of several words or more than 64 rows.
    #[cold]
    fn clear_rows(&mut self) {
        let wpr = self.wpr;
        for r in mask::ones(&self.nonempty) {
            mask::zero(&mut self.words[r * wpr..(r + 1) * wpr]);
        }
        mask::zero(&mut self.nonempty);
    }
    /// Sets bit `(r, c)`.
    #[inline]
    pub fn set(&mut self, r: usize, c: usize) {
        debug_assert!(r < self.rows && c < self.cols);
        self.words[r * self.wpr + c / 64] |= 1 << (c % 64);
        mask::set(&mut self.nonempty, r);
    }
    /// Bit `(r, c)`.
    #[inline]
    pub fn get(&self, r: usize, c: usize) -> bool {
        debug_assert!(c < self.cols);
        mask::get(self.row(r), c)
    }
    /// Row `r` as a word mask (`mask::words(cols)` words).
    #[inline]
    pub fn row(&self, r: usize) -> &[u64] {
        if self.wpr == 1 {
            return std::slice::from_ref(&self.words[r]);
        }
        &self.words[r * self.wpr..(r + 1) * self.wpr]
    }
    /// One word per row and one summary word: at most 64 rows and 64 columns (every
    /// switch and VC allocator of a router with at most 64 ports and 64 VCs per side).
    #[inline]
    pub fn is_one_word(&self) -> bool {
        self.wpr == 1 && self.nonempty.len() == 1
    }
    /// The rows that may hold a set bit, as one word (only when [`BitMatrix::is_one_word`]).
    #[inline]
    pub fn rows_word(&self) -> u64 {
        debug_assert!(self.is_one_word());
        self.nonempty[0]
    }
    /// Row `r` as one word (only when [`BitMatrix::is_one_word`]).
    #[inline]
    pub fn row_word(&self, r: usize) -> u64 {
        debug_assert!(self.is_one_word());
        self.words[r]
    }
    /// Sets bit `(r, c)` of a one-word matrix.
    #[inline]
    pub fn set_word(&mut self, r: usize, c: usize) {
        debug_assert!(self.is_one_word() && r < self.rows && c < self.cols);
        self.words[r] |= 1 << c;
        self.nonempty[0] |= 1 << r;
    }
    /// Sets the bits of `w` in row `r` of a one-word matrix.
    #[inline]
    pub fn set_row_word(&mut self, r: usize, w: u64) {
        debug_assert!(self.is_one_word() && r < self.rows);
        debug_assert!(
            self.cols == 64 || w >> self.cols == 0,
            "bits past the columns"
        );
        self.words[r] |= w;
        self.nonempty[0] |= 1 << r;
    }
    /// Row `r` as a `bitvec` slice of `cols` bits (for cold readers).
    pub fn row_bits(&self, r: usize) -> &BitSlice<u64, Lsb0> {
        mask::bits(self.row(r), self.cols)
    }
    /// True when no bit is set.
    #[inline]
    pub fn is_empty(&self) -> bool {
        mask::is_empty(&self.nonempty)
    }
    /// Rows that hold a set bit, ascending.
    #[inline]
    pub fn nonempty_rows(&self) -> mask::Ones<'_> {
        mask::ones(&self.nonempty)
    }
    /// True when the set bits form a matching: at most one per row and per column.
    /// Answered for matrices of at most 64 columns; wider ones answer false.
    #[inline(always)]
    pub fn is_matching(&self) -> bool {
        if self.wpr != 1 {
            return false;
        }
        let mut cols = 0u64;
        let mut one = |w: u64| {
            // A row in `nonempty` has a bit set.
            let fits = w & (w - 1) == 0 && w & cols == 0;
            cols |= w;
            fits
        };
        if let [mut rows] = *self.nonempty {
            while rows != 0 {
                let r = rows.trailing_zeros() as usize;
                rows &= rows - 1;
                if !one(self.words[r]) {
                    return false;
                }
            }
            return true;
        }
        mask::ones(&self.nonempty).all(|r| one(self.words[r]))
    }

    /// Makes this matrix equal to `other` (same shape).
    #[inline]
    pub fn copy_from(&mut self, other: &BitMatrix) {
        debug_assert_eq!((self.rows, self.cols), (other.rows, other.cols));
        self.clear();
        if other.is_one_word() {
            let mut rows = other.nonempty[0];
            while rows != 0 {
                let r = rows.trailing_zeros() as usize;
                rows &= rows - 1;
                self.words[r] = other.words[r];
            }
            self.nonempty[0] = other.nonempty[0];
            return;
        }
        let wpr = self.wpr;
        for r in mask::ones(&other.nonempty) {
            mask::copy(
                &mut self.words[r * wpr..(r + 1) * wpr],
                &other.words[r * wpr..(r + 1) * wpr],
            );
        }
        mask::copy(&mut self.nonempty, &other.nonempty);
    }

    /// The set bits as `(row, col)` pairs, row-major.
    #[inline]
    pub fn ones(&self) -> MatrixOnes<'_> {
        MatrixOnes {
            m: self,
            rows: self.nonempty_rows(),
            r: 0,
            cols: mask::ones(&[]),
        }
    }
}

/// Iterator over the set bits of a [`BitMatrix`] (see [`BitMatrix::ones`]).
#[derive(Clone, Debug)]
pub struct MatrixOnes<'a> {
    m: &'a BitMatrix,
    rows: mask::Ones<'a>,
    /// The row `cols` walks.
    r: usize,
    cols: mask::Ones<'a>,
}

impl Iterator for MatrixOnes<'_> {
    type Item = (usize, usize);

    #[inline]
    fn next(&mut self) -> Option<(usize, usize)> {
        loop {
            if let Some(c) = self.cols.next() {
                return Some((self.r, c));
            }
            self.r = self.rows.next()?;
            self.cols = mask::ones(self.m.row(self.r));
        }
    }
}

/// A matrix of at most 64 rows and 64 columns on fixed arrays: row r is the word `words[r]`,
/// column c its bit c. Row and column indices are taken modulo 64 (callers keep them below
/// 64), so no access needs a bounds check: the one-word paths of switch allocation use it
/// for their requests and grants.
///
/// Laid out as C lays out a struct, the row mask first: it shares its cache line with
/// the first seven rows.
#[derive(Clone, Debug, PartialEq, Eq)]
#[repr(C)]
pub struct WordMatrix {
    /// Rows that may hold a set bit (exactly the rows set since the last `clear`).
    rows: u64,
    words: [u64; 64],
}

impl Default for WordMatrix {
    fn default() -> Self {
        WordMatrix::new()
    }
}

impl WordMatrix {
    /// An all-zero matrix.
    pub const fn new() -> WordMatrix {
        WordMatrix {
            rows: 0,
            words: [0; 64],
        }
    }
    /// Sets bit `(r, c)`.
    #[inline(always)]
    pub fn set(&mut self, r: usize, c: usize) {
        debug_assert!(r < 64 && c < 64);
        self.words[r % 64] |= 1 << (c % 64);
        self.rows |= 1 << (r % 64);
    }
    /// Row `r`.
    #[inline(always)]
    pub fn row(&self, r: usize) -> u64 {
        debug_assert!(r < 64);
        self.words[r % 64]
    }
    /// The rows that may hold a set bit (bit r = row r).
    #[inline(always)]
    pub fn rows(&self) -> u64 {
        self.rows
    }
    /// The rows that hold a set bit as `(row, bits)`, ascending, each zeroed as it is
    /// yielded: the matrix is clear once the iterator is exhausted.
    #[inline(always)]
    pub fn drain(&mut self) -> WordDrain<'_> {
        let rows = std::mem::take(&mut self.rows);
        WordDrain { m: self, rows }
    }
    /// Clears every bit; touches only the rows set since the last clear.
    #[inline(always)]
    pub fn clear(&mut self) {
        let mut w = std::mem::take(&mut self.rows);
        while w != 0 {
            let r = w.trailing_zeros() as usize;
            w &= w - 1;
            self.words[r % 64] = 0;
        }
    }
}

/// Iterator that empties a [`WordMatrix`] row by row (see [`WordMatrix::drain`]).
#[derive(Debug)]
pub struct WordDrain<'a> {
    m: &'a mut WordMatrix,
    /// The rows not yet yielded.
    rows: u64,
}

impl Iterator for WordDrain<'_> {
    type Item = (usize, u64);

    #[inline(always)]
    fn next(&mut self) -> Option<(usize, u64)> {
        if self.rows == 0 {
            return None;
        }
        let r = self.rows.trailing_zeros() as usize;
        self.rows &= self.rows - 1;
        Some((r, std::mem::take(&mut self.m.words[r % 64])))
    }
}

/// A many-to-many matcher of any kind (see the module docs).
///
/// Laid out as C lays out a tagged union, over kinds that hold their [`Separable`] state
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

    /// Bytes its vectors hold (their capacities), for the tests of the `bytes` functions.
    #[cfg(test)]
    pub(crate) fn heap_bytes(&self) -> u64 {
        match self {
            Allocator::InputFirst(a) => a.s.heap_bytes(),
            Allocator::OutputFirst(a) => a.heap_bytes(),
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
    /// ([`Allocator::allocate_lone_row`]).
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

    /// [`Allocator::allocate`] of one-word requests from row `r` only. Both separable
    /// kinds grant row `r` the column its row arbiter picks among the row's requests:
    /// input-first, the row arbiter picks a column whose arbiter then sees `r` alone;
    /// output-first, every requested column's arbiter sees `r` alone and grants it, so
    /// the row arbiter picks among all the row's requests. A lone request needs no
    /// arbiter (every kind grants it). Priorities stay, as in `allocate`.
    #[inline]
    fn allocate_lone_row(&mut self, r: usize, req: &RequestMatrix, grant: &mut GrantMatrix) {
        grant.clear();
        if let Some(c) = self.lone_row(r, req.row_word(r)) {
            grant.set_word(r, c);
        }
    }

    /// The column [`Allocator::allocate`] grants row `r` when it is the only requesting
    /// row, with requests `w` (columns below 64): the pick of its row arbiter, or its one
    /// request.
    /// Priorities stay.
    #[inline]
    pub fn lone_row(&self, r: usize, w: u64) -> Option<usize> {
        if w & w.wrapping_sub(1) == 0 {
            (w != 0).then(|| w.trailing_zeros() as usize)
        } else {
            let s = match self {
                Allocator::InputFirst(a) => &a.s,
                Allocator::OutputFirst(a) => &a.s,
            };
            s.row_arb.arbitrate_word(r, w)
        }
    }

    /// [`Allocator::allocate`] through the arbiters (requests that form a matching too).
    #[inline]
    fn allocate_arbitrated(&mut self, req: &RequestMatrix, grant: &mut GrantMatrix) {
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

    /// [`Allocator::allocate`] on a [`WordMatrix`], through the arbiters, in place: the
    /// requests in `m` are replaced by their grants. Requests that form a matching get the
    /// same grants here as from `allocate`; a caller that spots a matching on its own may
    /// keep the requests as the grants instead.
    #[inline]
    pub fn allocate_word(&mut self, m: &mut WordMatrix) {
        let rows = std::mem::take(&mut m.rows);
        match self {
            Allocator::InputFirst(a) => a.allocate_word(rows, m),
            Allocator::OutputFirst(a) => a.allocate_word(rows, m),
        }
    }

    /// [`Allocator::allocate_word`] for requests in which no column is requested by two
    /// rows, in place. Both separable kinds grant each row the column its row arbiter
    /// picks among the row's requests (input-first: the picked column's arbiter sees that
    /// row alone; output-first: every column's arbiter grants its lone row, then the row
    /// arbiter picks among all the row's requests), so no column arbiter is consulted, and
    /// a row of one request keeps it. Priorities stay, as in `allocate_word`.
    #[inline]
    pub fn allocate_word_one_per_col(&mut self, m: &mut WordMatrix) {
        let (row_arb, _) = self.arbiters_mut();
        let mut rows = m.rows;
        while rows != 0 {
            let r = rows.trailing_zeros() as usize;
            rows &= rows - 1;
            let w = m.words[r % 64];
            debug_assert!(w != 0, "a row in the mask has a request");
            if w & (w - 1) != 0 {
                let c = row_arb
                    .arbitrate_word(r, w)
                    .expect("a row with requests wins one");
                m.words[r % 64] = 1 << c;
            }
        }
    }

    /// [`Allocator::allocate_word`] for requests in which each row requests one column,
    /// in place: `cols` holds the requested columns, `by_col(c)` the rows requesting
    /// column c. Both separable kinds grant column c to the row its column arbiter picks
    /// among `by_col(c)` (input-first: every row picks its lone column, whose arbiter
    /// sees all its requesters; output-first: that pick is the column arbiter's, and the
    /// row then holds one grant), so no row arbiter is consulted, and a column of one
    /// requester grants it. Priorities stay, as in `allocate_word`.
    #[inline]
    pub fn allocate_word_one_per_row(
        &mut self,
        m: &mut WordMatrix,
        mut cols: u64,
        by_col: impl Fn(usize) -> u64,
    ) {
        let (_, col_arb) = self.arbiters_mut();
        while cols != 0 {
            let c = cols.trailing_zeros() as usize;
            cols &= cols - 1;
            let rows = by_col(c);
            debug_assert!(rows != 0, "a requested column has a requester");
            if rows & (rows - 1) != 0 {
                let r = col_arb
                    .arbitrate_word(c, rows)
                    .expect("a column with requesters grants one");
                let mut lost = rows & !(1 << r);
                m.rows &= !lost;
                while lost != 0 {
                    let l = lost.trailing_zeros() as usize;
                    lost &= lost - 1;
                    m.words[l % 64] = 0;
                }
            }
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

/// The requests a one-word allocation reads and the grants it writes: every request row
/// is read once, before the first grant is written (both separable allocators read all
/// requests in their first stage), so the grants may replace the requests in place.
pub(crate) trait WordGrants {
    /// Request row `r`, read once.
    fn request(&mut self, r: usize) -> u64;
    /// Grants `(r, c)`.
    fn grant(&mut self, r: usize, c: usize);
}

/// Requests and grants in two one-word [`BitMatrix`]es (the grants clear on entry).
struct Apart<'a> {
    req: &'a BitMatrix,
    grant: &'a mut BitMatrix,
}

impl WordGrants for Apart<'_> {
    #[inline(always)]
    fn request(&mut self, r: usize) -> u64 {
        self.req.words[r]
    }
    #[inline(always)]
    fn grant(&mut self, r: usize, c: usize) {
        self.grant.set_word(r, c);
    }
}

/// Grants in place of the requests: a request row is zeroed as it is read (the caller
/// took the row mask, which the grants then rebuild).
impl WordGrants for WordMatrix {
    #[inline(always)]
    fn request(&mut self, r: usize) -> u64 {
        std::mem::take(&mut self.words[r % 64])
    }
    #[inline(always)]
    fn grant(&mut self, r: usize, c: usize) {
        self.set(r, c);
    }
}

/// One arbitration round on one-word rows: for each index `i` of `which`, ascending,
/// arbiter `i` of `arbs` arbitrates among the bits of `row(i)`; a winner `j` is reported
/// as `won(i, j)`.
#[inline]
pub(crate) fn arbitrate_words(
    mut which: u64,
    arbs: &Arbiters,
    mut row: impl FnMut(usize) -> u64,
    mut won: impl FnMut(usize, usize),
) {
    while which != 0 {
        let i = which.trailing_zeros() as usize;
        which &= which - 1;
        let w = row(i);
        // A lone request wins under every arbiter kind: no arbiter to consult.
        let j = if w & w.wrapping_sub(1) == 0 {
            (w != 0).then(|| w.trailing_zeros() as usize)
        } else {
            arbs.arbitrate_word(i, w)
        };
        if let Some(j) = j {
            won(i, j);
        }
    }
}

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

    /// Bytes its vectors hold (their capacities), for the tests of the `bytes` functions.
    #[cfg(test)]
    pub(crate) fn heap_bytes(&self) -> u64 {
        self.row_arb.heap_bytes() + self.col_arb.heap_bytes() + self.by_col.heap_bytes()
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

    /// The set bits of a [`WordMatrix`] as `(row, col)` pairs, row-major.
    fn word_ones(m: &WordMatrix) -> Vec<(usize, usize)> {
        let mut ones = Vec::new();
        for r in mask::ones(&[m.rows()]) {
            ones.extend(mask::ones(&[m.row(r)]).map(|c| (r, c)));
        }
        ones
    }

    #[test]
    fn word_matrix_sets_reads_and_clears() {
        let mut m = WordMatrix::new();
        m.set(0, 63);
        m.set(63, 0);
        m.set(5, 7);
        m.set(5, 9);
        assert_eq!(m.rows(), 1 | 1 << 5 | 1 << 63);
        assert_eq!(
            (m.row(0), m.row(5), m.row(63)),
            (1 << 63, 1 << 7 | 1 << 9, 1)
        );
        assert_eq!(word_ones(&m), vec![(0, 63), (5, 7), (5, 9), (63, 0)]);
        let kept = m.clone();
        m.clear();
        assert_eq!(m, WordMatrix::default());
        m = kept;
        let rows: Vec<_> = m.drain().collect();
        assert_eq!(rows, vec![(0, 1 << 63), (5, 1 << 7 | 1 << 9), (63, 1)]);
        assert_eq!(m, WordMatrix::default());
    }

    /// A plain model of an arbiter, from its definition: round-robin grants the first
    /// requester at or after the pointer (cyclically); matrix grants the requester served
    /// least recently (never served: lower index first).
    struct PlainArbiter {
        kind: ArbiterKind,
        n: usize,
        pointer: usize,
        served: Vec<i64>,
        t: i64,
    }

    impl PlainArbiter {
        fn new(kind: ArbiterKind, n: usize) -> PlainArbiter {
            let served = (0..n).map(|i| i as i64 - n as i64).collect();
            PlainArbiter {
                kind,
                n,
                pointer: 0,
                served,
                t: 0,
            }
        }
        fn pick(&self, req: &[bool]) -> Option<usize> {
            match self.kind {
                ArbiterKind::RoundRobin => (0..self.n)
                    .map(|k| (self.pointer + k) % self.n)
                    .find(|&i| req[i]),
                ArbiterKind::Matrix => (0..self.n)
                    .filter(|&i| req[i])
                    .min_by_key(|&i| self.served[i]),
            }
        }
        fn update(&mut self, w: usize) {
            self.pointer = (w + 1) % self.n;
            self.served[w] = self.t;
            self.t += 1;
        }
    }

    /// A plain separable allocator on `Vec<bool>` matrices, from the definitions in
    /// `separable_input_first.rs` and `separable_output_first.rs`.
    fn plain_allocate(
        kind: AllocatorKind,
        rows_arb: &[PlainArbiter],
        cols_arb: &[PlainArbiter],
        req: &[Vec<bool>],
    ) -> Vec<(usize, usize)> {
        let (rows, cols) = (req.len(), req[0].len());
        let mut mid = vec![vec![false; cols]; rows];
        let mut grants = Vec::new();
        match kind {
            AllocatorKind::SeparableInputFirst => {
                for r in 0..rows {
                    if let Some(c) = rows_arb[r].pick(&req[r]) {
                        mid[r][c] = true;
                    }
                }
                for c in 0..cols {
                    let col: Vec<bool> = (0..rows).map(|r| mid[r][c]).collect();
                    if let Some(r) = cols_arb[c].pick(&col) {
                        grants.push((r, c));
                    }
                }
            }
            AllocatorKind::SeparableOutputFirst => {
                for c in 0..cols {
                    let col: Vec<bool> = (0..rows).map(|r| req[r][c]).collect();
                    if let Some(r) = cols_arb[c].pick(&col) {
                        mid[r][c] = true;
                    }
                }
                for r in 0..rows {
                    if let Some(c) = rows_arb[r].pick(&mid[r]) {
                        grants.push((r, c));
                    }
                }
            }
        }
        grants.sort_unstable();
        grants
    }

    /// `bytes` of a matrix and of an allocator is what `new` allocates (the vectors'
    /// capacities), for one-word and multi-word shapes, word banks and vectors of
    /// arbiters, every kind.
    #[test]
    fn bytes_are_what_new_allocates() {
        for (rows, cols) in [
            (0, 0),
            (1, 1),
            (6, 6),
            (20, 20),
            (64, 64),
            (65, 3),
            (3, 65),
            (130, 70),
        ] {
            assert_eq!(
                BitMatrix::bytes(rows, cols),
                BitMatrix::new(rows, cols).heap_bytes(),
                "{rows} x {cols}"
            );
            for kind in KINDS {
                for arb in ARBS {
                    assert_eq!(
                        Allocator::bytes(kind, arb, rows, cols),
                        Allocator::new(kind, arb, rows, cols).heap_bytes(),
                        "{kind:?} {arb:?} {rows} x {cols}"
                    );
                }
            }
        }
        // A 6 x 6 matrix: one word per row and the row mask.
        assert_eq!(BitMatrix::bytes(6, 6), (6 + 1) * 8);
        // Matrix arbiters, one per row over 130 columns and one per column over 130 rows:
        // each a vector of arbiters (40 bytes each) and 130 rows of 3 words per arbiter.
        let words = |rows: u64, cols: u64| (rows * cols.div_ceil(64) + rows.div_ceil(64)) * 8;
        assert_eq!(std::mem::size_of::<crate::arbiter::MatrixArbiter>(), 40);
        assert_eq!(
            Allocator::bytes(
                AllocatorKind::SeparableInputFirst,
                ArbiterKind::Matrix,
                130,
                130
            ),
            2 * 130 * (40 + 130 * 3 * 8) + words(130, 130)
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]
        /// Over sizes past one word, a sequence of allocations grants exactly what the
        /// plain model grants, and priorities move the same way.
        #[test]
        fn allocators_follow_the_plain_model(
            rows in 1usize..140, cols in 1usize..140,
            seeds in proptest::collection::vec(any::<u64>(), 1..6),
            density in 1u64..8,
        ) {
            for kind in KINDS { for arb in ARBS {
                let mut a = Allocator::new(kind, arb, rows, cols);
                let mut g = BitMatrix::new(rows, cols);
                let mut ra: Vec<_> = (0..rows).map(|_| PlainArbiter::new(arb, cols)).collect();
                let mut ca: Vec<_> = (0..cols).map(|_| PlainArbiter::new(arb, rows)).collect();
                for &seed in &seeds {
                    let mut x = seed;
                    let mut req = BitMatrix::new(rows, cols);
                    let mut plain = vec![vec![false; cols]; rows];
                    for (r, row) in plain.iter_mut().enumerate() {
                        for (c, bit) in row.iter_mut().enumerate() {
                            x = x.wrapping_mul(6_364_136_223_846_793_005)
                                .wrapping_add(1_442_695_040_888_963_407);
                            if (x >> 60) < density {
                                req.set(r, c);
                                *bit = true;
                            }
                        }
                    }
                    a.allocate(&req, &mut g);
                    let want = plain_allocate(kind, &ra, &ca, &plain);
                    prop_assert_eq!(g.ones().collect::<Vec<_>>(), want.clone());
                    a.update(&g);
                    for &(r, c) in &want {
                        ra[r].update(c);
                        ca[c].update(r);
                    }
                }
            }}
        }
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
                let mut a = Allocator::new(kind, arb, rows, cols);
                let mut g = BitMatrix::new(rows, cols);
                // The same allocator driven through `allocate_word` on a `WordMatrix` (grants
                // in place of the requests) and `update_grant`.
                let mut w = Allocator::new(kind, arb, rows, cols);
                let mut wreq = WordMatrix::new();
                for (r, c) in req.ones() {
                    wreq.set(r, c);
                }
                for _ in 0..3 {
                    a.allocate(&req, &mut g);
                    let used: Vec<_> = g.ones().collect();
                    let mut wg = wreq.clone();
                    w.allocate_word(&mut wg);
                    prop_assert_eq!(word_ones(&wg), used.clone());
                    for (r, c) in used {
                        w.update_grant(r, c);
                    }
                    wg.clear();
                    prop_assert_eq!(&wg, &WordMatrix::new());
                    for (r, c) in g.ones() { prop_assert!(req.get(r, c)); }
                    for r in 0..rows { prop_assert!(g.row_bits(r).count_ones() <= 1); }
                    for c in 0..cols {
                        prop_assert!((0..rows).filter(|&r| g.get(r, c)).count() <= 1);
                    }
                    prop_assert_eq!(req.is_empty(), g.is_empty());
                    if req.is_matching() {
                        prop_assert_eq!(&g, &req);
                    }
                    a.update(&g);
                }
            }}
        }

        /// One requesting row: `allocate` (the row arbiter alone) grants what the full
        /// separable allocation grants, and priorities then move the same way, from
        /// priorities left by earlier allocations of any requests.
        #[test]
        fn a_lone_row_gets_the_separable_grant(
            rows in 1usize..=64, cols in 1usize..=64,
            history in proptest::collection::vec(any::<bool>(), 1..100),
            rounds in proptest::collection::vec((any::<usize>(), any::<u64>()), 1..12),
        ) {
            let warm = matrix(rows, cols, &history);
            let col_mask = if cols == 64 { u64::MAX } else { (1 << cols) - 1 };
            for kind in KINDS { for arb in ARBS {
                let mut a = Allocator::new(kind, arb, rows, cols);
                let mut g = BitMatrix::new(rows, cols);
                // Priorities moved by a full allocation first.
                a.allocate(&warm, &mut g);
                a.update(&g);
                let mut full = a.clone();
                let mut fg = BitMatrix::new(rows, cols);
                for &(r, bits) in &rounds {
                    let (r, bits) = (r % rows, bits & col_mask);
                    let mut req = BitMatrix::new(rows, cols);
                    for c in mask::ones(&[bits]) {
                        req.set(r, c);
                    }
                    a.allocate(&req, &mut g);
                    full.allocate_arbitrated(&req, &mut fg);
                    prop_assert_eq!(&g, &fg);
                    a.update(&g);
                    full.update(&fg);
                    // Same priorities: the same grants for a contended request next.
                    a.allocate_arbitrated(&warm, &mut g);
                    full.allocate_arbitrated(&warm, &mut fg);
                    prop_assert_eq!(&g, &fg);
                }
            }}
        }

        /// Requests contended on one side only: `allocate_word_one_per_row` (each row
        /// requests one column) and `allocate_word_one_per_col` (no column requested by two
        /// rows) grant what `allocate_word` grants, from priorities left by earlier
        /// allocations of any requests.
        #[test]
        fn one_sided_requests_get_the_separable_grants(
            rows in 1usize..=64, cols in 1usize..=64,
            history in proptest::collection::vec(any::<bool>(), 1..100),
            picks in proptest::collection::vec(any::<u64>(), 64),
        ) {
            let warm = matrix(rows, cols, &history);
            for kind in KINDS { for arb in ARBS {
                let mut a = Allocator::new(kind, arb, rows, cols);
                let mut g = BitMatrix::new(rows, cols);
                for _ in 0..3 {
                    a.allocate(&warm, &mut g);
                    a.update(&g);
                }
                // Row r requests column picks[r] / 4 % cols, or nothing when picks[r] % 4 is 0.
                let mut one_per_row = WordMatrix::new();
                let mut by_col = [0u64; 64];
                let mut requested = 0u64;
                for (r, &x) in picks.iter().enumerate().take(rows).filter(|(_, &x)| x % 4 != 0) {
                    let c = (x / 4) as usize % cols;
                    one_per_row.set(r, c);
                    by_col[c] |= 1 << r;
                    requested |= 1 << c;
                }
                let mut want = one_per_row.clone();
                a.allocate_word(&mut want);
                let mut got = one_per_row;
                a.allocate_word_one_per_row(&mut got, requested, |c| by_col[c]);
                prop_assert_eq!(&got, &want);
                // Column c is requested by row picks[c] / 4 % rows, or by none.
                let mut one_per_col = WordMatrix::new();
                for (c, &x) in picks.iter().enumerate().take(cols).filter(|(_, &x)| x % 4 != 0) {
                    one_per_col.set((x / 4) as usize % rows, c);
                }
                let mut want = one_per_col.clone();
                a.allocate_word(&mut want);
                let mut got = one_per_col;
                a.allocate_word_one_per_col(&mut got);
                prop_assert_eq!(&got, &want);
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
                let mut a = Allocator::new(kind, arb, rows, cols);
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
