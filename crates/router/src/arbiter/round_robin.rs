//! Round-robin arbiter: the first requester at or after the priority pointer wins; after
//! an update the pointer moves just past the winner.

use crate::mask;

/// Round-robin arbiter (see the module docs).
#[derive(Clone, Debug)]
pub struct RoundRobinArbiter {
    size: usize,
    /// The requester with the highest priority; `size` stands for 0 (the update then
    /// needs no wrap test: a search from `size` finds nothing and starts over at 0).
    pointer: u32,
    /// The pointer moves two places past the winner (`ArbiterKind::RoundRobinSkip`).
    skip: bool,
}

impl RoundRobinArbiter {
    /// An arbiter over `size` requesters, requester 0 first.
    pub fn new(size: usize) -> RoundRobinArbiter {
        RoundRobinArbiter {
            size,
            pointer: 0,
            skip: false,
        }
    }

    /// An arbiter over `size` requesters whose pointer moves two places past the winner,
    /// requester 1 first: the RTL router's binary-state round-robin arbiter, whose state
    /// is the winner's index plus one and whose mask gives priority past that state.
    pub fn skipping(size: usize) -> RoundRobinArbiter {
        RoundRobinArbiter {
            size,
            pointer: u32::from(size > 0),
            skip: true,
        }
    }

    /// Number of requesters.
    pub fn size(&self) -> usize {
        self.size
    }

    /// The first requester of `req` at or after the pointer, else the first one before it.
    #[inline]
    pub fn arbitrate(&self, req: &[u64]) -> Option<usize> {
        debug_assert_eq!(req.len(), mask::words(self.size));
        if let [w] = *req {
            return self.arbitrate_word(w);
        }
        // Nothing at or after the pointer: the lowest requester is before it.
        mask::first_one_from(req, self.pointer as usize).or_else(|| mask::first_one(req))
    }

    /// [`RoundRobinArbiter::arbitrate`] for at most 64 requesters: the same search on one
    /// word.
    #[inline]
    pub fn arbitrate_word(&self, w: u64) -> Option<usize> {
        debug_assert!(self.size <= 64);
        first_from(w, self.pointer as usize)
    }

    /// Moves the pointer just past `winner`.
    #[inline]
    pub fn update(&mut self, winner: usize) {
        debug_assert!(winner < self.size);
        let next = if self.skip {
            (winner + 1) % self.size + 1
        } else {
            winner + 1
        };
        self.pointer = u32::try_from(next).expect("arbiters have fewer than 2^32 requesters");
    }
}

/// The first set bit of `w` at or after `pointer` (at most 64), else the first one.
#[inline(always)]
fn first_from(w: u64, pointer: usize) -> Option<usize> {
    let after = w & u64::MAX.checked_shl(pointer as u32).unwrap_or(0);
    let pick = if after != 0 { after } else { w };
    (pick != 0).then(|| pick.trailing_zeros() as usize)
}

/// A bank of at most 64 round-robin arbiters of at most 64 requesters each, on fixed
/// arrays indexed modulo 64 (no bounds checks): arbiter `k` behaves as a
/// [`RoundRobinArbiter`] of `size(k)` requesters. Switch allocation updates three such
/// arbiters per flit.
///
/// Laid out as C lays out a struct, `pointers` first: the pointers of a small router's
/// arbiters share the cache line of the bank's start (the enum tag of [`super::Arbiters`]
/// before it), the line a step touches anyway.
#[derive(Clone, Debug)]
#[repr(C)]
pub struct RoundRobinWordBank {
    /// Arbiter `k`'s pointer, as [`RoundRobinArbiter`]'s (`size` stands for 0).
    pointers: [u8; 64],
    /// Arbiter `k`'s number of requesters.
    sizes: [u8; 64],
    /// Number of arbiters.
    len: usize,
}

impl RoundRobinWordBank {
    /// Do arbiters of these sizes fit a bank: at most 64 of at most 64 requesters each?
    /// The rule of [`RoundRobinWordBank::new`], and of [`super::Arbiters::bytes`] (a bank
    /// that fits holds no vector).
    pub fn fits(sizes: impl IntoIterator<Item = usize>) -> bool {
        let mut n = 0usize;
        for size in sizes {
            n += 1;
            if n > 64 || size > 64 {
                return false;
            }
        }
        true
    }

    /// Arbiters of the given sizes, each with requester 0 first; `None` when they do not
    /// [fit](RoundRobinWordBank::fits).
    pub fn new(sizes: &[usize]) -> Option<RoundRobinWordBank> {
        if !Self::fits(sizes.iter().copied()) {
            return None;
        }
        let mut bank = RoundRobinWordBank {
            pointers: [0; 64],
            sizes: [0; 64],
            len: sizes.len(),
        };
        for (k, &n) in sizes.iter().enumerate() {
            bank.sizes[k] = n as u8;
        }
        Some(bank)
    }

    /// Number of arbiters.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when the bank holds no arbiter.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Number of requesters of arbiter `k`.
    pub fn size(&self, k: usize) -> usize {
        debug_assert!(k < self.len);
        usize::from(self.sizes[k % 64])
    }

    /// [`RoundRobinArbiter::arbitrate_word`] of arbiter `k`.
    #[inline(always)]
    pub fn arbitrate_word(&self, k: usize, w: u64) -> Option<usize> {
        debug_assert!(k < self.len && (self.size(k) == 64 || w >> self.size(k) == 0));
        first_from(w, usize::from(self.pointers[k % 64]))
    }

    /// [`RoundRobinArbiter::update`] of arbiter `k`.
    #[inline(always)]
    pub fn update(&mut self, k: usize, winner: usize) {
        debug_assert!(k < self.len && winner < self.size(k));
        self.pointers[k % 64] = winner as u8 + 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_word_bank_follows_its_arbiters() {
        let sizes = [1usize, 4, 64, 7];
        let mut bank = RoundRobinWordBank::new(&sizes).unwrap();
        let mut arbs: Vec<_> = sizes.iter().map(|&n| RoundRobinArbiter::new(n)).collect();
        assert_eq!((bank.len(), bank.size(2)), (4, 64));
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..500 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let k = (x % 4) as usize;
            let n = sizes[k];
            let w = if n == 64 { x } else { x & ((1 << n) - 1) };
            let want = arbs[k].arbitrate_word(w);
            assert_eq!(bank.arbitrate_word(k, w), want);
            if let Some(v) = want {
                arbs[k].update(v);
                bank.update(k, v);
            }
        }
        assert!(RoundRobinWordBank::new(&[65]).is_none());
        assert!(RoundRobinWordBank::new(&[1; 65]).is_none());
    }

    #[test]
    fn pointer_moves_past_the_winner() {
        let mut a = RoundRobinArbiter::new(4);
        let req = [0b0101];
        assert_eq!(a.arbitrate(&req), Some(0));
        a.update(0);
        assert_eq!(a.arbitrate(&req), Some(2));
        a.update(2);
        assert_eq!(a.arbitrate(&req), Some(0));
        assert_eq!(a.arbitrate(&[0]), None);
    }

    #[test]
    fn a_pointer_past_the_last_requester_starts_over_at_0() {
        for size in [4usize, 64, 130] {
            let mut a = RoundRobinArbiter::new(size);
            let mut req = vec![0u64; mask::words(size)];
            mask::set(&mut req, 2);
            mask::set(&mut req, size - 1);
            a.update(size - 1);
            assert_eq!(a.arbitrate(&req), Some(2), "size {size}");
            a.update(2);
            assert_eq!(a.arbitrate(&req), Some(size - 1), "size {size}");
        }
    }

    #[test]
    fn the_search_wraps_across_words() {
        let mut a = RoundRobinArbiter::new(130);
        let mut req = [0u64; 3];
        mask::set(&mut req, 3);
        mask::set(&mut req, 129);
        a.update(70);
        assert_eq!(a.arbitrate(&req), Some(129));
        a.update(129);
        assert_eq!(a.arbitrate(&req), Some(3));
    }
}
