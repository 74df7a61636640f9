//! Matrix arbiter (least recently served): bit `(i, j)` set means requester i has
//! priority over j. The winner is the requester that beats every other requester; an
//! update gives the winner the lowest priority (clears its row, sets its column).

use super::Arbiter;
use bitvec::prelude::*;

/// Matrix arbiter (see the module docs).
#[derive(Clone, Debug)]
pub struct MatrixArbiter {
    size: usize,
    /// Row-major `size x size` priority bits.
    prio: BitVec,
}

impl MatrixArbiter {
    /// An arbiter over `size` requesters; initially lower index beats higher index.
    pub fn new(size: usize) -> MatrixArbiter {
        let mut prio = bitvec![0; size * size];
        for i in 0..size {
            for j in i + 1..size {
                prio.set(i * size + j, true);
            }
        }
        MatrixArbiter { size, prio }
    }

    fn beats(&self, i: usize, j: usize) -> bool {
        self.prio[i * self.size + j]
    }
}

impl Arbiter for MatrixArbiter {
    fn size(&self) -> usize {
        self.size
    }

    fn arbitrate(&self, req: &BitSlice) -> Option<usize> {
        debug_assert_eq!(req.len(), self.size);
        req.iter_ones()
            .find(|&i| req.iter_ones().all(|j| j == i || self.beats(i, j)))
    }

    fn update(&mut self, winner: usize) {
        debug_assert!(winner < self.size);
        for j in 0..self.size {
            if j != winner {
                self.prio.set(winner * self.size + j, false);
                self.prio.set(j * self.size + winner, true);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn least_recently_served_wins() {
        let mut a = MatrixArbiter::new(3);
        let all = bitvec![1; 3];
        assert_eq!(a.arbitrate(&all), Some(0));
        a.update(0);
        assert_eq!(a.arbitrate(&all), Some(1));
        a.update(2); // 2 served out of turn: it becomes the lowest, order 1 > 0 > 2
        assert_eq!(a.arbitrate(&all), Some(1));
        a.update(1);
        assert_eq!(a.arbitrate(&all), Some(0));
    }
}
