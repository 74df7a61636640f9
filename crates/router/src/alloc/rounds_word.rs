//! The one-word fast path of the iterative allocators (iSLIP, PIM): the rounds of
//! `rounds.rs` on requests of at most 64 rows and 64 columns held in single words. Each
//! grants what [`Rounds::run`](super::rounds::Rounds::run) grants on the same requests,
//! with the same picks in the same order (so PIM draws the same numbers); the
//! differential tests in `alloc/tests.rs` compare them.

use super::word_io::read_rows;
use super::WordIo;

/// How a one-word round picks: the grant of column `c` among the rows of `rows`, the
/// accept of row `r` among the columns of `cols` (neither mask empty).
pub(super) trait WordPicks {
    fn grant(&mut self, c: usize, rows: u64) -> usize;
    fn accept(&mut self, r: usize, cols: u64) -> usize;
}

/// Scratch of the one-word rounds, kept between allocations so that none zeroes its
/// arrays: `by_col` and `offers` are all zero between allocations (each entry is taken
/// as it is used); `req` holds stale rows, and only rows written in an allocation are
/// read in it.
#[derive(Clone, Debug)]
pub(super) struct WordRounds {
    req: [u64; 64],
    by_col: [u64; 64],
    offers: [u64; 64],
}

impl WordRounds {
    pub(super) const fn new() -> WordRounds {
        WordRounds {
            req: [0; 64],
            by_col: [0; 64],
            offers: [0; 64],
        }
    }
}

/// Up to `iters` rounds on the request rows `rows` of `io` (grants written to `io`), in
/// the scratch `x`; `accepted(round, r, c)` is told of each grant as it is made. Every
/// request row is read before the first grant is written.
#[inline(always)]
pub(super) fn run_word(
    x: &mut WordRounds,
    iters: u8,
    rows: u64,
    io: &mut impl WordIo,
    picks: &mut impl WordPicks,
    mut accepted: impl FnMut(u8, usize, usize),
) {
    let WordRounds {
        req,
        by_col,
        offers,
    } = x;
    let live = read_rows(rows, io, req);
    let (mut rows_matched, mut cols_matched) = (0u64, 0u64);
    for round in 0..iters {
        // Collect: per column, the unmatched rows requesting it.
        let mut cols = 0u64;
        let mut unmatched = live & !rows_matched;
        while unmatched != 0 {
            let r = unmatched.trailing_zeros() as usize;
            unmatched &= unmatched - 1;
            let mut w = req[r % 64] & !cols_matched;
            cols |= w;
            while w != 0 {
                let c = w.trailing_zeros() as usize;
                w &= w - 1;
                by_col[c % 64] |= 1 << r;
            }
        }
        if cols == 0 {
            break;
        }
        // Grant: each requested column picks one of its requesting rows.
        let mut offered = 0u64;
        while cols != 0 {
            let c = cols.trailing_zeros() as usize;
            cols &= cols - 1;
            let r = picks.grant(c, std::mem::take(&mut by_col[c % 64]));
            offers[r % 64] |= 1 << c;
            offered |= 1 << r;
        }
        // Accept: each row offered columns takes one of them.
        while offered != 0 {
            let r = offered.trailing_zeros() as usize;
            offered &= offered - 1;
            let c = picks.accept(r, std::mem::take(&mut offers[r % 64]));
            io.grant(r, c);
            rows_matched |= 1 << r;
            cols_matched |= 1 << c;
            accepted(round, r, c);
        }
    }
}
