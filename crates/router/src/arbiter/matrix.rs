//! Matrix arbiter (least recently served): bit `(i, j)` set means requester i has
//! priority over j. The winner is the requester that beats every other requester; an
//! update gives the winner the lowest priority (clears its row, sets its column).

use crate::mask;

/// Matrix arbiter (see the module docs).
#[derive(Clone, Debug)]
pub struct MatrixArbiter {
    size: usize,
    /// Words per row.
    wpr: usize,
    /// Row i (`wpr` words): the requesters i beats. The diagonal is always clear.
    prio: Vec<u64>,
}

/// Words per row and words in all of the priority matrix of an arbiter over `size`
/// requesters (`size` rows): the sizing rule of [`MatrixArbiter::new`] and
/// [`MatrixArbiter::bytes`].
fn prio_words(size: usize) -> (usize, usize) {
    let wpr = mask::words(size);
    (wpr, size * wpr)
}

impl MatrixArbiter {
    /// Bytes [`MatrixArbiter::new`] allocates for `size` requesters, computed without
    /// allocating: the priority matrix, `size` rows of `size` bits (rounded up to words),
    /// so a bank of such arbiters, one per requester of another, grows with the cube.
    pub fn bytes(size: usize) -> u64 {
        (prio_words(size).1 as u64).saturating_mul(std::mem::size_of::<u64>() as u64)
    }

    /// An arbiter over `size` requesters; initially lower index beats higher index.
    pub fn new(size: usize) -> MatrixArbiter {
        let (wpr, words) = prio_words(size);
        let mut prio = vec![0; words];
        // Row i holds bits i + 1 .. size, set a word at a time (bit by bit, a bank of
        // arbiters over a thousand requesters each took minutes to build).
        for (i, row) in prio.chunks_exact_mut(wpr.max(1)).enumerate() {
            let first = i + 1;
            if first < size {
                row[first / 64] = !0 << (first % 64);
                row[first / 64 + 1..].fill(!0);
                if size % 64 != 0 {
                    row[wpr - 1] &= (1 << (size % 64)) - 1;
                }
            }
        }
        MatrixArbiter { size, wpr, prio }
    }

    /// Number of requesters.
    pub fn size(&self) -> usize {
        self.size
    }

    /// The lowest-indexed requester of `req` that beats every other requester of `req`.
    #[inline]
    pub fn arbitrate(&self, req: &[u64]) -> Option<usize> {
        debug_assert_eq!(req.len(), self.wpr);
        if let [r] = *req {
            return self.arbitrate_word(r);
        }
        mask::ones(req).find(|&i| {
            let beats = &self.prio[i * self.wpr..(i + 1) * self.wpr];
            // Every other requester j has bit (i, j); i itself is not in its row.
            req.iter().zip(beats).enumerate().all(|(k, (&r, &b))| {
                let me = if k == i / 64 { 1u64 << (i % 64) } else { 0 };
                r & !b & !me == 0
            })
        })
    }

    /// [`MatrixArbiter::arbitrate`] for at most 64 requesters: i wins when every other
    /// requester is in its row.
    #[inline]
    pub fn arbitrate_word(&self, req: u64) -> Option<usize> {
        debug_assert!(self.size <= 64);
        mask::ones(&[req]).find(|&i| req & !self.prio[i] & !(1 << i) == 0)
    }

    /// `winner` now loses to everybody: clear its row, set its column elsewhere.
    pub fn update(&mut self, winner: usize) {
        debug_assert!(winner < self.size);
        let w = self.wpr;
        mask::zero(&mut self.prio[winner * w..(winner + 1) * w]);
        for j in (0..self.size).filter(|&j| j != winner) {
            mask::set(&mut self.prio[j * w..(j + 1) * w], winner);
        }
    }
}

#[cfg(test)]
impl MatrixArbiter {
    /// Bytes its vector holds (its capacity), for the tests of the `bytes` functions.
    pub(crate) fn heap_bytes(&self) -> u64 {
        (self.prio.capacity() * std::mem::size_of::<u64>()) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The initial matrix has bit `(i, j)` set exactly when `i < j`, for sizes around
    /// the word boundaries.
    #[test]
    fn lower_index_beats_higher_at_first() {
        for size in (0..=130).chain([191, 192, 193, 300]) {
            let a = MatrixArbiter::new(size);
            assert_eq!(a.prio.len(), size * a.wpr);
            for i in 0..size {
                let row = &a.prio[i * a.wpr..(i + 1) * a.wpr];
                for j in 0..a.wpr * 64 {
                    let set = row[j / 64] >> (j % 64) & 1 == 1;
                    assert_eq!(set, i < j && j < size, "size {size}, bit ({i}, {j})");
                }
            }
        }
    }

    #[test]
    fn least_recently_served_wins() {
        let mut a = MatrixArbiter::new(3);
        let all = [0b111];
        assert_eq!(a.arbitrate(&all), Some(0));
        a.update(0);
        assert_eq!(a.arbitrate(&all), Some(1));
        a.update(2); // 2 served out of turn: it becomes the lowest, order 1 > 0 > 2
        assert_eq!(a.arbitrate(&all), Some(1));
        a.update(1);
        assert_eq!(a.arbitrate(&all), Some(0));
    }
}
