//! Input buffers: one FIFO per input VC of a router (flat index over all input ports),
//! bounded by the port's `buffer_depth` or unbounded. Each entry remembers the cycle it
//! arrived, so a flit never moves on before its own arrival cycle. (Maximum occupancy is
//! counted in `RouterStats`.)

use crate::flit::Flit;
use flitsim_netlist::{BufferDepth, Cycle};
use std::collections::VecDeque;

/// A flit in an input FIFO and the cycle it was read from the channel.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct BufferedFlit {
    /// The flit.
    pub flit: Flit,
    /// The cycle it entered the buffer.
    pub arrived: Cycle,
}

/// All input FIFOs of a router, indexed by flat input VC.
#[derive(Clone, Debug)]
pub struct InputBuffer {
    fifos: Vec<VecDeque<BufferedFlit>>,
    depth: Vec<Option<u32>>,
    /// Flits in all FIFOs.
    count: u64,
}

impl InputBuffer {
    /// One FIFO per entry of `depths`, preallocated to its depth (bounded ones never
    /// allocate afterwards).
    pub fn new(depths: impl IntoIterator<Item = BufferDepth>) -> InputBuffer {
        let depth: Vec<Option<u32>> = depths.into_iter().map(BufferDepth::flits).collect();
        InputBuffer {
            fifos: depth
                .iter()
                .map(|d| VecDeque::with_capacity(d.unwrap_or(8) as usize))
                .collect(),
            depth,
            count: 0,
        }
    }

    /// Appends a flit to FIFO `vc`.
    ///
    /// # Panics
    /// In debug builds, when the FIFO is full (the upstream sent without a credit).
    #[inline]
    pub fn push(&mut self, vc: usize, flit: Flit, now: Cycle) {
        let q = &mut self.fifos[vc];
        debug_assert!(
            self.depth[vc].is_none_or(|d| (q.len() as u32) < d),
            "input FIFO {vc} overflows (depth {:?}): a flit arrived without a credit",
            self.depth[vc]
        );
        q.push_back(BufferedFlit { flit, arrived: now });
        self.count += 1;
    }

    /// Removes the front flit of FIFO `vc`.
    #[inline]
    pub fn pop(&mut self, vc: usize) -> BufferedFlit {
        let b = self.fifos[vc]
            .pop_front()
            .expect("pop from an empty input FIFO");
        self.count -= 1;
        b
    }

    /// The front flit of FIFO `vc`.
    #[inline]
    pub fn front(&self, vc: usize) -> Option<&BufferedFlit> {
        self.fifos[vc].front()
    }

    /// The `k`-th flit of FIFO `vc` (0 = front).
    #[inline]
    pub fn get(&self, vc: usize, k: usize) -> Option<&BufferedFlit> {
        self.fifos[vc].get(k)
    }

    /// Flits in FIFO `vc`.
    #[inline]
    pub fn len(&self, vc: usize) -> usize {
        self.fifos[vc].len()
    }

    /// Flits in all FIFOs.
    pub fn total(&self) -> u64 {
        debug_assert_eq!(self.count, self.fifos.iter().map(|q| q.len() as u64).sum());
        self.count
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::flit::{FlitKind, PacketId};
    use flitsim_netlist::{TerminalId, VcId};

    pub(crate) fn flit(index: u32, len: u32) -> Flit {
        Flit {
            packet: PacketId {
                source: TerminalId(0),
                seq: 0,
            },
            index,
            len,
            kind: FlitKind::of(index, len),
            vc: VcId(0),
            dest: TerminalId(1),
            created: Cycle(0),
            injected: Cycle(0),
            hops: 0,
        }
    }

    #[test]
    fn fifo_order_and_unbounded_growth() {
        let mut b = InputBuffer::new([BufferDepth::Flits(2), BufferDepth::Unbounded]);
        b.push(0, flit(0, 2), Cycle(3));
        b.push(0, flit(1, 2), Cycle(4));
        assert_eq!(b.len(0), 2);
        assert_eq!(b.front(0).unwrap().arrived, Cycle(3));
        assert_eq!(b.pop(0).flit.index, 0);
        assert_eq!(b.pop(0).flit.index, 1);
        for i in 0..100 {
            b.push(1, flit(i, 100), Cycle(u64::from(i)));
        }
        assert_eq!((b.total(), b.len(0), b.len(1)), (100, 0, 100));
    }

    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "overflows")]
    fn a_bounded_fifo_never_overflows() {
        let mut b = InputBuffer::new([BufferDepth::Flits(1)]);
        b.push(0, flit(0, 2), Cycle(0));
        b.push(0, flit(1, 2), Cycle(1));
    }
}
