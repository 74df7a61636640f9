//! Round-robin arbiter: the first requester at or after the priority pointer wins; after
//! an update the pointer moves just past the winner.

use crate::mask;

/// Round-robin arbiter (see the module docs).
#[derive(Clone, Debug)]
pub struct RoundRobinArbiter {
    size: usize,
    /// The requester with the highest priority; `size` stands for 0 (the update then
    /// needs no wrap test: a search from `size` finds nothing and starts over at 0).
    pointer: usize,
}

impl RoundRobinArbiter {
    /// An arbiter over `size` requesters, requester 0 first.
    pub fn new(size: usize) -> RoundRobinArbiter {
        RoundRobinArbiter { size, pointer: 0 }
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
        mask::first_one_from(req, self.pointer).or_else(|| mask::first_one(req))
    }

    /// [`RoundRobinArbiter::arbitrate`] for at most 64 requesters: the same search on one
    /// word.
    #[inline]
    pub fn arbitrate_word(&self, w: u64) -> Option<usize> {
        debug_assert!(self.size <= 64);
        let after = w & u64::MAX.checked_shl(self.pointer as u32).unwrap_or(0);
        let pick = if after != 0 { after } else { w };
        (pick != 0).then(|| pick.trailing_zeros() as usize)
    }

    /// Moves the pointer just past `winner`.
    #[inline]
    pub fn update(&mut self, winner: usize) {
        debug_assert!(winner < self.size);
        self.pointer = winner + 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
