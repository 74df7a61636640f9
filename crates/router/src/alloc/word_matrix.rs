//! A fixed 64 x 64 bit matrix of one word per row: the requests and grants of the
//! one-word allocation paths, with no bounds checks.

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
    pub(super) rows: u64,
    pub(super) words: [u64; 64],
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
