//! Input buffers: one FIFO per input VC of a router (flat index over all input ports),
//! bounded by the port's `buffer_depth` or unbounded. Each entry remembers the cycle it
//! arrived, so a flit never moves on before its own arrival cycle. (Maximum occupancy is
//! counted in `RouterStats`.)

use crate::flit::Flit;
use flitsim_netlist::{BufferDepth, Cycle};
use smallvec::SmallVec;
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
    /// The router's current cycle (set at the start of each step; departures use it).
    now: u64,
    /// Occupancy accounting per FIFO (issue 6), accumulated at each push and pop.
    occ: Vec<OccupancyState>,
}

/// Lazily accumulated occupancy of one FIFO.
#[derive(Clone, Debug, Default)]
struct OccupancyState {
    /// Cycles spent at each occupancy, up to `since`. Inline up to 16 entries (FIFOs of
    /// depth <= 15): every push and pop updates it, and a separate heap block per FIFO
    /// cost a cache miss each time.
    hist: SmallVec<[u64; 16]>,
    since: u64,
    arrivals: u64,
    departures: u64,
    residence: u64,
    max: u32,
}

impl OccupancyState {
    #[inline]
    fn dwell(&mut self, len: usize, now: u64) {
        // Saturating: a FIFO used without `set_now` (unit tests) never underflows.
        let d = now.saturating_sub(self.since);
        match self.hist.get_mut(len) {
            Some(h) => *h += d,
            None => {
                self.hist.resize(len + 1, 0);
                self.hist[len] += d;
            }
        }
        self.since = self.since.max(now);
    }
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
            occ: vec![OccupancyState::default(); depth.len()],
            depth,
            count: 0,
            now: 0,
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
        let o = &mut self.occ[vc];
        o.dwell(q.len(), now.0);
        o.arrivals += 1;
        o.max = o.max.max(q.len() as u32 + 1);
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
        let o = &mut self.occ[vc];
        o.dwell(self.fifos[vc].len() + 1, self.now);
        o.departures += 1;
        o.residence += self.now.saturating_sub(b.arrived.0);
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

    /// Sets the current cycle (the router calls it at the start of each step).
    #[inline]
    pub fn set_now(&mut self, now: Cycle) {
        self.now = now.0;
    }

    /// Restarts the occupancy accounting at `now` (end of warm-up).
    pub fn reset_occupancy(&mut self, now: Cycle) {
        for (o, q) in self.occ.iter_mut().zip(&self.fifos) {
            *o = OccupancyState {
                since: now.0,
                max: q.len() as u32,
                ..OccupancyState::default()
            };
        }
    }

    /// Occupancy statistics of FIFO `vc` up to the start of `until`.
    pub fn occupancy(&self, vc: usize, until: Cycle) -> crate::occupancy::BufferOccupancy {
        let o = &self.occ[vc];
        let len = self.fifos[vc].len();
        let mut histogram = o.hist.to_vec();
        if histogram.len() <= len {
            histogram.resize(len + 1, 0);
        }
        histogram[len] += until.0.saturating_sub(o.since);
        crate::occupancy::BufferOccupancy {
            histogram,
            arrivals: o.arrivals,
            departures: o.departures,
            residence_cycles: o.residence,
            max: o.max,
        }
    }

    /// Largest occupancy FIFO `vc` reached since construction or the last
    /// [`InputBuffer::reset_occupancy`].
    #[inline]
    pub fn max(&self, vc: usize) -> u32 {
        self.occ[vc].max
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
