//! The one-word fast path of the wavefront allocator: [`Wavefront::allocate`] on
//! requests of at most 64 rows and 64 columns held in single words, visiting the same
//! cells in the same order; the differential tests in `alloc/tests.rs` compare them.

use super::word_io::read_rows;
use super::{Wavefront, WordIo};

impl Wavefront {
    /// [`Wavefront::allocate`] on one-word requests (rows `rows` of `io`), grants into
    /// `io`; the priority stays.
    #[inline]
    pub(crate) fn allocate_word(&mut self, rows: u64, io: &mut impl WordIo) {
        let req = &mut *self.req_words;
        let mut free = read_rows(rows, io, req);
        let (n, priority) = (self.n as usize, self.priority as usize);
        let mut taken = 0u64;
        let mut granted = false;
        for d in 0..n {
            if free == 0 {
                break;
            }
            let diagonal = (priority + d) % n;
            let mut w = free;
            while w != 0 {
                let r = w.trailing_zeros() as usize;
                w &= w - 1;
                // The cell of row r on this diagonal (r < n); a column past the
                // matrix's is never requested.
                let c = (diagonal + n - r) % n;
                if c < 64 && (req[r % 64] & !taken) >> c & 1 != 0 {
                    io.grant(r, c);
                    taken |= 1 << c;
                    free &= !(1 << r);
                    granted = true;
                }
            }
        }
        self.granted = granted;
    }
}
