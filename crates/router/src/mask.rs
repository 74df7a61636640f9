//! Word masks: sets of small indices (VCs, ports, matrix columns) stored as slices of
//! `u64` words, bit `i` in word `i / 64` at position `i % 64` (bitvec's `Lsb0` order, so a
//! mask can be viewed as a `BitSlice<u64, Lsb0>` with [`bits`]).
//!
//! Why plain words and not `bitvec` slices on the hot path: the allocators, arbiters and
//! stage scans run every cycle on sets of 5 to ~100 bits, where a `BitSlice` search
//! (`first_one` through `domain` splitting on a bit-offset slice) costs far more than the
//! one `trailing_zeros` a word needs; profiles of the bitvec version spent about a third
//! of the run there. Masks of any length stay supported (`words(n)` words, bits `>= n`
//! always zero), so hypercubes with more than 64 VCs per router work unchanged. Cold
//! readers (traces, tests) take the `bitvec` view.

use bitvec::prelude::{BitSlice, Lsb0};

/// Words needed for a mask of `bits` bits.
#[inline]
pub const fn words(bits: usize) -> usize {
    bits.div_ceil(64)
}

/// Sets bit `i`.
#[inline]
pub fn set(m: &mut [u64], i: usize) {
    m[i / 64] |= 1 << (i % 64);
}

/// Clears bit `i`.
#[inline]
pub fn unset(m: &mut [u64], i: usize) {
    m[i / 64] &= !(1 << (i % 64));
}

/// Bit `i`.
#[inline]
pub fn get(m: &[u64], i: usize) -> bool {
    m[i / 64] >> (i % 64) & 1 == 1
}

/// Clears every bit. (One word, the common case, without a `memset` call.)
#[inline]
pub fn zero(m: &mut [u64]) {
    match m {
        [w] => *w = 0,
        [a, b] => (*a, *b) = (0, 0),
        _ => m.fill(0),
    }
}

/// Copies `src` into `dst` (same length).
#[inline]
pub fn copy(dst: &mut [u64], src: &[u64]) {
    match (dst, src) {
        ([d], [s]) => *d = *s,
        (d, s) => d.copy_from_slice(s),
    }
}

/// True when no bit is set. (One word, the common case, tested without a loop.)
#[inline]
pub fn is_empty(m: &[u64]) -> bool {
    match *m {
        [w] => w == 0,
        ref m => m.iter().all(|&w| w == 0),
    }
}

/// The lowest set bit. (One word, the common case, without a loop.)
#[inline]
pub fn first_one(m: &[u64]) -> Option<usize> {
    match *m {
        [w] => (w != 0).then(|| w.trailing_zeros() as usize),
        ref m => m
            .iter()
            .position(|&w| w != 0)
            .map(|k| k * 64 + m[k].trailing_zeros() as usize),
    }
}

/// The lowest set bit at or after `start` (`start` may be past the end).
#[inline]
pub fn first_one_from(m: &[u64], start: usize) -> Option<usize> {
    let k = start / 64;
    let first = *m.get(k)? & (u64::MAX << (start % 64));
    if first != 0 {
        return Some(k * 64 + first.trailing_zeros() as usize);
    }
    m[k + 1..]
        .iter()
        .position(|&w| w != 0)
        .map(|j| (k + 1 + j) * 64 + m[k + 1 + j].trailing_zeros() as usize)
}

/// The set bits in ascending order.
#[inline]
pub fn ones(m: &[u64]) -> Ones<'_> {
    Ones {
        words: m,
        k: 0,
        word: m.first().copied().unwrap_or(0),
    }
}

/// The set bits `i` with `lo <= i < hi`, in ascending order.
#[inline]
pub fn ones_in(m: &[u64], lo: usize, hi: usize) -> impl Iterator<Item = usize> + '_ {
    let k = lo / 64;
    let it = Ones {
        words: m,
        k,
        word: m.get(k).map_or(0, |w| w & (u64::MAX << (lo % 64))),
    };
    it.take_while(move |&i| i < hi)
}

/// The mask as a `bitvec` slice of `len` bits (for cold readers: traces, tests).
pub fn bits(m: &[u64], len: usize) -> &BitSlice<u64, Lsb0> {
    &BitSlice::from_slice(m)[..len]
}

/// Iterator over the set bits of a mask (see [`ones`]).
#[derive(Clone, Debug)]
pub struct Ones<'a> {
    words: &'a [u64],
    /// Index of the current word.
    k: usize,
    /// The current word with the bits already yielded cleared.
    word: u64,
}

impl Iterator for Ones<'_> {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        while self.word == 0 {
            self.k += 1;
            self.word = *self.words.get(self.k)?;
        }
        let i = self.k * 64 + self.word.trailing_zeros() as usize;
        self.word &= self.word - 1;
        Some(i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Every operation agrees with the same set kept as a sorted vector of indices.
        #[test]
        fn masks_agree_with_a_plain_set(
            len in 1usize..200,
            picks in proptest::collection::vec(any::<usize>(), 0..40),
            from in any::<usize>(),
            lo in any::<usize>(),
            hi in any::<usize>(),
        ) {
            let mut m = vec![0u64; words(len)];
            let mut set_ = std::collections::BTreeSet::new();
            for p in picks {
                set(&mut m, p % len);
                set_.insert(p % len);
            }
            let all: Vec<usize> = set_.iter().copied().collect();
            prop_assert_eq!(ones(&m).collect::<Vec<_>>(), all.clone());
            prop_assert_eq!(first_one(&m), all.first().copied());
            prop_assert_eq!(is_empty(&m), all.is_empty());
            let from = from % (len + 70);
            prop_assert_eq!(first_one_from(&m, from), all.iter().copied().find(|&i| i >= from));
            let (lo, hi) = (lo % (len + 1), hi % (len + 1));
            let want: Vec<usize> = all.iter().copied().filter(|&i| lo <= i && i < hi).collect();
            prop_assert_eq!(ones_in(&m, lo, hi).collect::<Vec<_>>(), want);
            prop_assert_eq!(bits(&m, len).iter_ones().collect::<Vec<_>>(), all.clone());
            for &i in &all {
                prop_assert!(get(&m, i));
                unset(&mut m, i);
            }
            prop_assert!(is_empty(&m));
        }
    }
}
