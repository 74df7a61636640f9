//! Bit matrices of word-mask rows ([`crate::mask`]), reused every cycle: the requests and
//! grants of the general allocation path. Each keeps a mask of its non-empty rows, so
//! clearing, scanning and emptiness tests cost in proportion to the rows in use.

use crate::mask;
use bitvec::prelude::{BitSlice, Lsb0};

/// A `rows x cols` bit matrix: row r is the word mask
/// `words[r * wpr..(r + 1) * wpr]`, `wpr = mask::words(cols)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BitMatrix {
    rows: usize,
    cols: usize,
    /// Words per row.
    wpr: usize,
    pub(super) words: Vec<u64>,
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

    /// Would a `rows x cols` matrix be one word per row with one summary word
    /// ([`BitMatrix::is_one_word`])?
    pub fn one_word_shape(rows: usize, cols: usize) -> bool {
        matches!(matrix_words(rows, cols), (1, _, 1))
    }

    /// Makes this empty matrix an empty `rows x cols` one (its allocation kept where it
    /// fits): a matrix shared by allocators of several shapes, taken in turn.
    #[inline]
    pub fn reshape(&mut self, rows: usize, cols: usize) {
        debug_assert!(self.is_empty(), "reshaping a matrix with set bits");
        if (rows, cols) != (self.rows, self.cols) {
            self.reshape_to(rows, cols);
        }
    }
    /// [`BitMatrix::reshape`] to another shape.
    #[cold]
    #[inline(never)]
    fn reshape_to(&mut self, rows: usize, cols: usize) {
        let (wpr, words, nonempty) = matrix_words(rows, cols);
        (self.rows, self.cols, self.wpr) = (rows, cols, wpr);
        self.words.clear();
        self.words.resize(words, 0);
        self.nonempty.clear();
        self.nonempty.resize(nonempty, 0);
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

#[cfg(test)]
impl BitMatrix {
    /// Bytes its vectors hold (their capacities), for the tests of the `bytes` functions.
    pub(crate) fn heap_bytes(&self) -> u64 {
        ((self.words.capacity() + self.nonempty.capacity()) * std::mem::size_of::<u64>()) as u64
    }
}
