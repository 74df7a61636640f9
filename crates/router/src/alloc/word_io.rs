//! How a one-word allocation reads its requests and writes its grants ([`WordIo`]), and
//! one arbitration round on one-word rows ([`arbitrate_words`]).

use super::{BitMatrix, WordMatrix};
use crate::arbiter::Arbiters;

/// The requests a one-word allocation reads and the grants it writes: every request row
/// is read once, before the first grant is written (both separable allocators read all
/// requests in their first stage), so the grants may replace the requests in place.
pub(crate) trait WordIo {
    /// Request row `r`, read once.
    fn request(&mut self, r: usize) -> u64;
    /// Grants `(r, c)`.
    fn grant(&mut self, r: usize, c: usize);
}

/// Reads request rows `rows` of `io` once each into `req` (indexed by row); returns the
/// rows that request anything.
#[inline(always)]
pub(super) fn read_rows(mut rows: u64, io: &mut impl WordIo, req: &mut [u64; 64]) -> u64 {
    let mut live = 0u64;
    while rows != 0 {
        let r = rows.trailing_zeros() as usize;
        rows &= rows - 1;
        let w = io.request(r);
        req[r % 64] = w;
        if w != 0 {
            live |= 1 << r;
        }
    }
    live
}

/// Requests and grants in two one-word [`BitMatrix`]es (the grants clear on entry).
pub(super) struct Apart<'a> {
    pub(super) req: &'a BitMatrix,
    pub(super) grant: &'a mut BitMatrix,
}

impl WordIo for Apart<'_> {
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
impl WordIo for WordMatrix {
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
