//! iSLIP's one-word fast path: [`Islip::allocate`] on one-word requests through the
//! rounds of `rounds_word.rs`, its picks made by its grant and accept arbiters.

use super::islip::IslipRounds;
use super::rounds_word::{run_word, WordPicks};
use super::{Islip, WordIo};
use crate::arbiter::Arbiters;

/// iSLIP's picks: its grant (column) and accept (row) arbiters.
struct ArbitratedWords<'a> {
    rows: &'a Arbiters,
    cols: &'a Arbiters,
}

/// The pick of arbiter `k` of `arbs` among the bits of `w` (not 0); a lone bit wins
/// under every arbiter kind, with no arbiter to consult.
#[inline(always)]
fn pick(arbs: &Arbiters, k: usize, w: u64) -> usize {
    if w & (w - 1) == 0 {
        w.trailing_zeros() as usize
    } else {
        arbs.arbitrate_word(k, w)
            .expect("an arbiter with requests grants one")
    }
}

impl WordPicks for ArbitratedWords<'_> {
    #[inline(always)]
    fn grant(&mut self, c: usize, rows: u64) -> usize {
        pick(self.cols, c, rows)
    }
    #[inline(always)]
    fn accept(&mut self, r: usize, cols: u64) -> usize {
        pick(self.rows, r, cols)
    }
}

impl Islip {
    /// [`Islip::allocate`] on one-word requests (rows `rows` of `io`), grants into `io`;
    /// the first round's grants are recorded for `update_grant`, as on the general path.
    #[inline]
    pub(crate) fn allocate_word(&mut self, rows: u64, io: &mut impl WordIo) {
        let IslipRounds {
            iters, first, word, ..
        } = &mut *self.r;
        first.clear();
        let mut picks = ArbitratedWords {
            rows: &self.s.row_arb,
            cols: &self.s.col_arb,
        };
        run_word(word, *iters, rows, io, &mut picks, |round, r, c| {
            if round == 0 {
                first.set_word(r, c);
            }
        });
    }
}

impl Islip {
    /// The allocation of the lone request `(r, c)` (one word), granted by its caller
    /// without running the rounds (a lone request is granted in the first round):
    /// records it as the first round's only grant, for `update_grant`.
    #[inline]
    pub(crate) fn granted_alone(&mut self, r: usize, c: usize) {
        let first = &mut self.r.first;
        first.clear();
        first.set_word(r, c);
    }
}
