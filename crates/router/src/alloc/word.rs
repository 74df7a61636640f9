//! The one-word fast paths of [`Allocator`]: requests of at most 64 rows and 64 columns
//! held in single words. Each grants exactly what [`Allocator::allocate`] grants on the
//! same requests; the differential tests in `alloc/tests.rs` compare them.

use super::{Allocator, GrantMatrix, RequestMatrix, WordIo, WordMatrix};

impl Allocator {
    /// [`Allocator::allocate`] of one-word requests from row `r` only. Both separable
    /// kinds grant row `r` the column its row arbiter picks among the row's requests:
    /// input-first, the row arbiter picks a column whose arbiter then sees `r` alone;
    /// output-first, every requested column's arbiter sees `r` alone and grants it, so
    /// the row arbiter picks among all the row's requests. A lone request needs no
    /// arbiter (every kind grants it). Priorities stay, as in `allocate`.
    #[inline]
    pub(super) fn allocate_lone_row(
        &mut self,
        r: usize,
        req: &RequestMatrix,
        grant: &mut GrantMatrix,
    ) {
        grant.clear();
        if let Some(c) = self.lone_row(r, req.row_word(r)) {
            grant.set_word(r, c);
        }
    }

    /// The column [`Allocator::allocate`] grants row `r` when it is the only requesting
    /// row, with requests `w` (columns below 64): the pick of its row arbiter, or its one
    /// request.
    /// Priorities stay. A non-separable kind allocates the row on its one-word path (which
    /// records what its `update_grant` reads).
    #[inline]
    pub fn lone_row(&mut self, r: usize, w: u64) -> Option<usize> {
        if !self.is_separable() {
            let mut m = LoneRow { r, w, c: None };
            let rows = if w != 0 { 1 << (r % 64) } else { 0 };
            match self {
                Allocator::Islip(a) => a.allocate_word(rows, &mut m),
                Allocator::Wavefront(a) => a.allocate_word(rows, &mut m),
                Allocator::Pim(a) => a.allocate_word(rows, &mut m),
                _ => unreachable!("separable kinds take the arbiter below"),
            }
            return m.c;
        }
        if w & w.wrapping_sub(1) == 0 {
            (w != 0).then(|| w.trailing_zeros() as usize)
        } else {
            let (row_arb, _) = self.arbiters_mut();
            row_arb.arbitrate_word(r, w)
        }
    }

    /// [`Allocator::allocate`] on a [`WordMatrix`], through the arbiters, in place: the
    /// requests in `m` are replaced by their grants. Requests that form a matching get the
    /// same grants here as from `allocate`; a caller that spots a matching on its own may
    /// keep the requests as the grants instead.
    #[inline]
    pub fn allocate_word(&mut self, m: &mut WordMatrix) {
        match self {
            Allocator::InputFirst(a) => a.allocate_word(std::mem::take(&mut m.rows), m),
            Allocator::OutputFirst(a) => a.allocate_word(std::mem::take(&mut m.rows), m),
            Allocator::Islip(a) => a.allocate_word(std::mem::take(&mut m.rows), m),
            Allocator::Wavefront(a) => a.allocate_word(std::mem::take(&mut m.rows), m),
            Allocator::Pim(a) => a.allocate_word(std::mem::take(&mut m.rows), m),
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
        if !self.is_separable() {
            return self.allocate_word(m);
        }
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
        if !self.is_separable() {
            return self.allocate_word(m);
        }
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
}

/// The request row `w` of row `r` alone, and the column granted it: the one-word I/O of
/// [`Allocator::lone_row`] for the kinds that allocate a lone row whole.
struct LoneRow {
    r: usize,
    w: u64,
    c: Option<usize>,
}

impl WordIo for LoneRow {
    #[inline(always)]
    fn request(&mut self, r: usize) -> u64 {
        debug_assert_eq!(r, self.r);
        self.w
    }
    #[inline(always)]
    fn grant(&mut self, r: usize, c: usize) {
        debug_assert_eq!(r, self.r);
        self.c = Some(c);
    }
}
