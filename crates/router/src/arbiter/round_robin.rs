//! Round-robin arbiter: the first requester at or after the priority pointer wins; after
//! an update the pointer moves just past the winner.

use super::Arbiter;
use bitvec::slice::BitSlice;

/// Round-robin arbiter (see the module docs).
#[derive(Clone, Debug)]
pub struct RoundRobinArbiter {
    size: usize,
    /// The requester with the highest priority.
    pointer: usize,
}

impl RoundRobinArbiter {
    /// An arbiter over `size` requesters, requester 0 first.
    pub fn new(size: usize) -> RoundRobinArbiter {
        RoundRobinArbiter { size, pointer: 0 }
    }
}

impl Arbiter for RoundRobinArbiter {
    fn size(&self) -> usize {
        self.size
    }

    fn arbitrate(&self, req: &BitSlice) -> Option<usize> {
        debug_assert_eq!(req.len(), self.size);
        req[self.pointer..]
            .first_one()
            .map(|i| i + self.pointer)
            .or_else(|| req[..self.pointer].first_one())
    }

    fn update(&mut self, winner: usize) {
        debug_assert!(winner < self.size);
        self.pointer = (winner + 1) % self.size;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bitvec::prelude::*;

    #[test]
    fn pointer_moves_past_the_winner() {
        let mut a = RoundRobinArbiter::new(4);
        let req = bitvec![1, 0, 1, 0];
        assert_eq!(a.arbitrate(&req), Some(0));
        a.update(0);
        assert_eq!(a.arbitrate(&req), Some(2));
        a.update(2);
        assert_eq!(a.arbitrate(&req), Some(0));
        assert_eq!(a.arbitrate(&bitvec![0; 4]), None);
    }
}
