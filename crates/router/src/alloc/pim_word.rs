//! PIM's one-word fast path: [`Pim::allocate`] on one-word requests through the rounds of
//! `rounds_word.rs`, its picks drawn from its stream.

use super::pim::random_one;
use super::rounds_word::{run_word, WordPicks};
use super::{Pim, WordIo};
use rand_pcg::Pcg64Mcg;

/// PIM's picks: draws from its stream, as `random_one` draws on the general path (a lone
/// bit draws nothing).
impl WordPicks for Pcg64Mcg {
    #[inline(always)]
    fn grant(&mut self, _c: usize, rows: u64) -> usize {
        random_one(self, &[rows]).expect("a column with requesters grants one")
    }
    #[inline(always)]
    fn accept(&mut self, _r: usize, cols: u64) -> usize {
        random_one(self, &[cols]).expect("a row with offers accepts one")
    }
}

impl Pim {
    /// [`Pim::allocate`] on one-word requests (rows `rows` of `io`), grants into `io`,
    /// drawing from the stream as the general path draws.
    #[inline]
    pub(crate) fn allocate_word(&mut self, rows: u64, io: &mut impl WordIo) {
        let r = &mut *self.r;
        run_word(&mut r.word, r.iters, rows, io, &mut r.rng, |_, _, _| {});
    }
}
