//! Input buffers: one FIFO per input VC of a router (flat index over all input ports),
//! bounded by the port's `buffer_depth` or unbounded. Each entry remembers the cycle it
//! arrived (for residence times; a flit enters its FIFO in the step of that cycle, so it
//! is never ahead of the router's clock). Occupancy (histogram of lengths over time,
//! arrivals, departures, residence, maximum) is accounted here, at each push and pop.
//!
//! All FIFOs of a router are rings in one flat array of slots: FIFO `i` owns a
//! power-of-two run of slots (its depth rounded up), so positions wrap with a mask.
//! An unbounded FIFO starts with [`UNBOUNDED_START`] slots and, when full, moves to a
//! run twice as long at the end of the array (the old run is abandoned; the growth is
//! amortized and never happens to a bounded FIFO). Occupancy counters live the same
//! way in one flat array, one per occupancy a FIFO can reach (`depth + 1` per bounded
//! FIFO).
//!
//! The occupancy accounting costs one add per pop, and per push one add, one count and
//! a test for a new maximum, with no per-FIFO clock: the cycles a FIFO spent holding at
//! least `k` flits are the sum, over its drops below `k`, of the drop's cycle, minus the
//! sum over its rises to `k` of the rise's cycle (plus the current cycle while it still
//! holds `k` or more). So a push to occupancy `k` subtracts its cycle from the counter of
//! level `k`, a pop from occupancy `k` adds its cycle, and the histogram and the residence
//! sum follow at report time ([`InputBuffer::occupancy`]). All sums wrap (a level's
//! running value is negative until the FIFO drops below it); the results are the exact
//! counts. Level 0 (every FIFO holds at least 0 flits) is not stored: it counts the
//! cycles since the reset.

use crate::flit::{Flit, Stamp};
use flitsim_netlist::{BufferDepth, Cycle};

/// Slots an unbounded FIFO starts with (it doubles when full).
pub const UNBOUNDED_START: u32 = 16;

/// What fills a slot no flit has used yet.
const EMPTY_BUFFERED: BufferedFlit = BufferedFlit {
    flit: Flit::PLACEHOLDER,
    arrived: Stamp(0),
};

/// A flit in an input FIFO and the cycle it was read from the channel.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct BufferedFlit {
    /// The flit.
    pub flit: Flit,
    /// The cycle it entered the buffer.
    pub arrived: Stamp,
}

/// All input FIFOs of a router, indexed by flat input VC. `repr(C)`: what a push or a pop
/// reads comes first.
#[derive(Clone, Debug)]
#[repr(C)]
pub struct InputBuffer {
    /// Position and counts of each FIFO (read at every push and pop).
    fifos: Vec<Fifo>,
    /// The rings of all FIFOs (see the module docs).
    slots: Vec<BufferedFlit>,
    /// Occupancy counters of all FIFOs: FIFO `i`'s level `k >= 1` is
    /// `levels[fifos[i].level0 + k]`, the sum of the cycles of the pops from occupancy
    /// `k`, minus the sum of the cycles of the pushes to `k`, minus the reset cycle if the
    /// FIFO held `k` or more then (wrapping). 32 bits are exact: what a level yields, the
    /// cycles the FIFO held `k` or more since the reset, is below 2^32 (no run passes
    /// `Stamp::LAST`).
    levels: Vec<u32>,
    /// Flits in all FIFOs.
    count: u64,
    /// The router's current cycle (set at the start of each step and before a reset is
    /// received; departures use it).
    now: u64,
    /// What each FIFO held at the last reset (empty before the first reset; read only at
    /// reset and report time).
    resets: Vec<FifoReset>,
    /// The cycle of the last reset (0 before the first): every FIFO's level 0 counts from
    /// it.
    reset_at: Stamp,
}

/// One FIFO's ring, the counts its pushes update and its depth. Half a cache line.
#[derive(Copy, Clone, Debug)]
#[repr(align(32))]
struct Fifo {
    /// First slot of its ring in `slots`.
    base: u32,
    /// Ring size - 1 (the ring size is a power of two).
    mask: u32,
    /// Ring position of the front flit (`< mask + 1`).
    head: u32,
    /// Flits held.
    len: u32,
    /// Where its level 0 would lie in `levels` (one before its level 1, wrapping: FIFO 0's
    /// is `u32::MAX`); `mask + 1` levels follow when unbounded, `depth` when bounded.
    level0: u32,
    /// Largest occupancy since construction or the last reset.
    max: u32,
    /// Flits pushed since construction or the last reset. 32 bits are exact: a FIFO
    /// takes at most one flit per cycle (from its port's channel), after cycle 0 and up
    /// to `Stamp::LAST`.
    arrivals: u32,
    /// Depth in flits (`u32::MAX`: unbounded; read only at growth, reset and report
    /// time).
    depth: u32,
}

impl Fifo {
    /// Levels the FIFO stores: one per occupancy from 1 to the most it can hold.
    fn levels(&self) -> usize {
        levels(self.depth, self.mask + 1) as usize
    }

    /// The index of its level `k >= 1` in `levels`.
    #[inline(always)]
    fn level(&self, k: u32) -> usize {
        self.level0.wrapping_add(k) as usize
    }

    /// Its levels `1..=levels()`, in that order.
    fn levels_in<'a>(&self, levels: &'a [u32]) -> &'a [u32] {
        &levels[self.level(1)..][..self.levels()]
    }
}

/// What a FIFO held at the last reset.
#[derive(Copy, Clone, Debug, Default)]
struct FifoReset {
    /// Flits it held at the reset.
    len: u32,
    /// Cycles those flits had spent in it by then (their residence before the reset,
    /// which their departures' sum of cycles includes).
    resided: u64,
}

/// Levels a FIFO of `depth` flits (`u32::MAX`: unbounded) with a ring of `ring` slots
/// stores: one per occupancy from 1 to the most it can hold (`depth`; an unbounded FIFO,
/// its ring's size).
fn levels(depth: u32, ring: u32) -> u64 {
    if depth == u32::MAX {
        u64::from(ring)
    } else {
        u64::from(depth)
    }
}

/// The ring size of a FIFO of `depth`: the depth rounded up to a power of two, or
/// [`UNBOUNDED_START`] for an unbounded FIFO.
fn ring_size(depth: BufferDepth) -> u32 {
    depth
        .flits()
        .unwrap_or(UNBOUNDED_START)
        .checked_next_power_of_two()
        .expect("buffer depth above 2^31 flits (netlist validation bounds it by MAX_BUFFER_DEPTH)")
}

impl InputBuffer {
    /// Bytes [`InputBuffer::new`] allocates for one FIFO of `depth`, computed without
    /// allocating: its ring of slots (the depth rounded up to a power of two; an
    /// unbounded FIFO's [`UNBOUNDED_START`], before any growth), its occupancy levels and
    /// its position (what it held at a reset comes with the first reset, the end of
    /// warm-up).
    pub fn bytes_per_fifo(depth: BufferDepth) -> u64 {
        let ring = ring_size(depth);
        let levels = levels(depth.flits().unwrap_or(u32::MAX), ring);
        u64::from(ring) * std::mem::size_of::<BufferedFlit>() as u64
            + levels * std::mem::size_of::<u32>() as u64
            + std::mem::size_of::<Fifo>() as u64
    }

    /// One FIFO per entry of `depths`, all slots allocated here (bounded FIFOs never
    /// allocate afterwards).
    pub fn new(depths: impl IntoIterator<Item = BufferDepth>) -> InputBuffer {
        // The FIFOs' runs first, then both arrays at their exact size (growing them one
        // FIFO at a time would leave kilobytes per router unused).
        let (mut slots, mut levels) = (0u32, 0u32);
        let mut fifos: Vec<Fifo> = depths
            .into_iter()
            .map(|d| {
                let size = ring_size(d);
                let f = Fifo {
                    base: slots,
                    mask: size - 1,
                    head: 0,
                    len: 0,
                    level0: levels.wrapping_sub(1),
                    max: 0,
                    arrivals: 0,
                    depth: d.flits().unwrap_or(u32::MAX),
                };
                slots = slots
                    .checked_add(size)
                    .expect("input buffers exceed 2^32 slots");
                levels += f.levels() as u32;
                f
            })
            .collect();
        fifos.shrink_to_fit();
        InputBuffer {
            slots: vec![EMPTY_BUFFERED; slots as usize],
            levels: vec![0; levels as usize],
            resets: Vec::new(),
            reset_at: Stamp(0),
            fifos,
            count: 0,
            now: 0,
        }
    }

    /// Moves full unbounded FIFO `f` to a ring twice as large at the end of `slots` (and
    /// its levels along, to the end of `levels`).
    #[cold]
    #[inline(never)]
    fn grow(f: &mut Fifo, slots: &mut Vec<BufferedFlit>, levels: &mut Vec<u32>) {
        debug_assert!(f.depth == u32::MAX && f.len == f.mask + 1);
        let size = (f.mask + 1) * 2;
        let base = u32::try_from(slots.len()).expect("input buffers exceed 2^32 slots");
        slots.resize(slots.len() + size as usize, EMPTY_BUFFERED);
        for k in 0..f.len {
            slots[(base + k) as usize] = slots[(f.base + ((f.head + k) & f.mask)) as usize];
        }
        let old = f.level(1)..f.level(1) + f.levels();
        let start = u32::try_from(levels.len()).expect("occupancy counters exceed 2^32");
        levels.resize(levels.len() + size as usize, 0);
        levels.copy_within(old, start as usize);
        f.base = base;
        f.mask = size - 1;
        f.head = 0;
        f.level0 = start.wrapping_sub(1);
    }

    /// Appends a copy of `flit` to FIFO `vc`.
    ///
    /// # Panics
    /// In debug builds, when the FIFO is full (the upstream sent without a credit).
    #[inline]
    pub fn push(&mut self, vc: usize, flit: &Flit, now: Cycle) {
        let InputBuffer {
            slots,
            levels,
            fifos,
            ..
        } = self;
        let f = &mut fifos[vc];
        debug_assert!(
            f.len < f.depth,
            "input FIFO {vc} overflows (depth {}): a flit arrived without a credit",
            f.depth
        );
        if f.len > f.mask {
            Self::grow(f, slots, levels);
        }
        let slot = (f.base + ((f.head + f.len) & f.mask)) as usize;
        f.len += 1;
        if f.len > f.max {
            f.max = f.len;
        }
        f.arrivals += 1;
        let level = &mut levels[f.level(f.len)];
        *level = level.wrapping_sub(Stamp::of(now).0);
        slots[slot] = BufferedFlit {
            flit: *flit,
            arrived: Stamp::of(now),
        };
        self.count += 1;
    }

    /// Removes the front flit of FIFO `vc`; returns it where it lies (its slot is free
    /// for the FIFO's next push, so the borrow ends before that).
    ///
    /// # Panics
    /// In debug builds, when the FIFO is empty (callers pop only a VC whose front flit
    /// they have seen).
    #[inline]
    pub fn pop(&mut self, vc: usize) -> &BufferedFlit {
        let InputBuffer {
            slots,
            levels,
            fifos,
            now,
            ..
        } = self;
        let f = &mut fifos[vc];
        debug_assert!(f.len > 0, "pop from an empty input FIFO {vc}");
        let level = &mut levels[f.level(f.len)];
        *level = level.wrapping_add(*now as u32);
        let b = &slots[(f.base + f.head) as usize];
        f.head = (f.head + 1) & f.mask;
        f.len -= 1;
        // A flit enters its FIFO in the step of its arrival cycle, so it never leaves
        // before it arrived (the router sets the clock before every step and reset).
        debug_assert!(
            u64::from(b.arrived.0) <= *now,
            "FIFO {vc} pops a flit from the future"
        );
        self.count -= 1;
        b
    }

    /// The front flit of FIFO `vc`.
    #[inline]
    pub fn front(&self, vc: usize) -> Option<&BufferedFlit> {
        self.get(vc, 0)
    }

    /// The `k`-th flit of FIFO `vc` (0 = front).
    #[inline]
    pub fn get(&self, vc: usize, k: usize) -> Option<&BufferedFlit> {
        let f = &self.fifos[vc];
        (k < f.len as usize)
            .then(|| &self.slots[(f.base + ((f.head + k as u32) & f.mask)) as usize])
    }

    /// Flits in FIFO `vc`.
    #[inline]
    pub fn len(&self, vc: usize) -> usize {
        self.fifos[vc].len as usize
    }

    /// Sets the current cycle (the router calls it at the start of each step).
    #[inline]
    pub fn set_now(&mut self, now: Cycle) {
        self.now = now.0;
    }

    /// The cycle of the last [`InputBuffer::set_now`]: the router's current or last step.
    pub fn now(&self) -> Cycle {
        Cycle(self.now)
    }

    /// Sum of the arrival cycles of the flits in FIFO `vc` (wrapping).
    fn arrivals_inside(&self, vc: usize) -> u64 {
        (0..self.len(vc))
            .filter_map(|k| self.get(vc, k))
            .fold(0, |sum, b| sum.wrapping_add(u64::from(b.arrived.0)))
    }

    /// Restarts the occupancy accounting at `now` (end of warm-up).
    pub fn reset_occupancy(&mut self, now: Cycle) {
        self.resets.resize(self.fifos.len(), FifoReset::default());
        self.reset_at = Stamp::of(now);
        for vc in 0..self.fifos.len() {
            let f = self.fifos[vc];
            let levels = &mut self.levels[f.level(1)..][..f.levels()];
            levels.fill(0);
            // Holding `k <= len` flits counts from `now` on (levels 1 to `len`).
            levels[..f.len as usize].fill(Stamp::of(now).0.wrapping_neg());
            let resided = now
                .0
                .wrapping_mul(u64::from(f.len))
                .wrapping_sub(self.arrivals_inside(vc));
            self.fifos[vc].max = f.len;
            self.fifos[vc].arrivals = 0;
            let e = &mut self.resets[vc];
            (e.len, e.resided) = (f.len, resided);
        }
    }

    /// Occupancy statistics of FIFO `vc` up to the start of `until` (not before its last
    /// push or pop). The histogram has one entry per occupancy up to the largest reached
    /// (`max + 1` entries).
    pub fn occupancy(&self, vc: usize, until: Cycle) -> crate::occupancy::BufferOccupancy {
        let f = &self.fifos[vc];
        let record = self.resets.get(vc).copied().unwrap_or_default();
        let levels = f.levels_in(&self.levels);
        // Cycles spent holding at least `k` flits (still counting for `k <= len`; every
        // cycle since the reset for `k = 0`): below 2^32, so exact in the 32-bit levels.
        let until32 = Stamp::of(until).0;
        let at_least = |k: usize| match k.checked_sub(1) {
            None => u64::from(until32.wrapping_sub(self.reset_at.0)),
            Some(i) => levels.get(i).map_or(0, |l| {
                u64::from(l.wrapping_add(if k <= f.len as usize { until32 } else { 0 }))
            }),
        };
        let (arrivals, max) = (u64::from(f.arrivals), f.max);
        let histogram = (0..=max as usize)
            .map(|n| at_least(n).wrapping_sub(at_least(n + 1)))
            .collect();
        // The levels above 0 sum to the departures' cycles minus the arrivals' cycles
        // since the reset, minus the reset cycle once per flit held then; the flits still
        // inside are among the arrivals but have not departed. Each level is summed as its
        // count (below 2^32), less `until` for each of the `len` levels still counting.
        let residence_cycles = (1..=levels.len())
            .fold(record.resided, |sum, k| sum.wrapping_add(at_least(k)))
            .wrapping_sub(until.0.wrapping_mul(u64::from(f.len)))
            .wrapping_add(self.arrivals_inside(vc));
        crate::occupancy::BufferOccupancy {
            histogram,
            arrivals,
            departures: arrivals + u64::from(record.len) - u64::from(f.len),
            residence_cycles,
            max,
        }
    }

    /// Flits written into and read from FIFO `vc` since construction or the last
    /// [`InputBuffer::reset_occupancy`] (the cost model's buffer activity).
    pub fn flow(&self, vc: usize) -> (u64, u64) {
        let f = &self.fifos[vc];
        let held = self.resets.get(vc).map_or(0, |r| r.len);
        let writes = u64::from(f.arrivals);
        (writes, writes + u64::from(held) - u64::from(f.len))
    }

    /// Largest occupancy FIFO `vc` reached since construction or the last
    /// [`InputBuffer::reset_occupancy`].
    pub fn max(&self, vc: usize) -> u32 {
        self.fifos[vc].max
    }

    /// Flits in all FIFOs.
    pub fn total(&self) -> u64 {
        debug_assert_eq!(
            self.count,
            self.fifos.iter().map(|f| u64::from(f.len)).sum::<u64>()
        );
        self.count
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::flit::FlitKind;
    use crate::PacketId;
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
            created: Stamp(0),
            injected: Stamp(0),
            hops: 0,
        }
    }

    /// The 32-bit levels give exact counts up to the last stamp, and a residence sum
    /// past 2^32 (four flits held for almost 2^32 cycles each), also across a reset.
    #[test]
    fn occupancy_is_exact_up_to_the_last_stamp() {
        let last = Stamp::LAST.0;
        let mut b = InputBuffer::new([BufferDepth::Flits(4)]);
        b.set_now(Cycle(5));
        for i in 0..4 {
            b.push(0, &flit(i, 4), Cycle(5));
        }
        b.set_now(Cycle(last - 3));
        for _ in 0..4 {
            b.pop(0);
        }
        let o = b.occupancy(0, Cycle(last));
        assert_eq!(o.histogram, [8, 0, 0, 0, last - 8]);
        assert_eq!((o.arrivals, o.departures, o.max), (4, 4, 4));
        assert_eq!(o.residence_cycles, 4 * (last - 8));
        // A reset at cycle 9 while the four flits wait: they count from their arrival.
        let mut b = InputBuffer::new([BufferDepth::Flits(4)]);
        b.set_now(Cycle(5));
        for i in 0..4 {
            b.push(0, &flit(i, 4), Cycle(5));
        }
        b.reset_occupancy(Cycle(9));
        b.set_now(Cycle(last - 1));
        for _ in 0..4 {
            b.pop(0);
        }
        let o = b.occupancy(0, Cycle(last));
        assert_eq!(o.histogram, [1, 0, 0, 0, last - 10]);
        assert_eq!(o.residence_cycles, 4 * (last - 6));
    }

    /// A FIFO's position, counts and depth are half a cache line; it stores one level per
    /// occupancy from 1 to its depth; what it held at a reset is kept only from the first
    /// reset on.
    #[test]
    fn a_fifo_is_32_bytes_and_its_reset_record_comes_with_the_reset() {
        assert_eq!(std::mem::size_of::<Fifo>(), 32);
        let mut b = InputBuffer::new([BufferDepth::Flits(4); 3]);
        assert_eq!((b.levels.len(), b.resets.capacity()), (12, 0));
        b.reset_occupancy(Cycle(7));
        assert_eq!(b.resets.len(), 3);
    }

    #[test]
    fn fifo_order_and_unbounded_growth() {
        let mut b = InputBuffer::new([BufferDepth::Flits(2), BufferDepth::Unbounded]);
        b.set_now(Cycle(4));
        b.push(0, &flit(0, 2), Cycle(3));
        b.push(0, &flit(1, 2), Cycle(4));
        assert_eq!(b.len(0), 2);
        assert_eq!(b.front(0).unwrap().arrived, Stamp(3));
        assert_eq!(b.pop(0).flit.index, 0);
        assert_eq!(b.pop(0).flit.index, 1);
        for i in 0..100 {
            b.push(1, &flit(i, 100), Cycle(u64::from(i)));
        }
        assert_eq!((b.total(), b.len(0), b.len(1)), (100, 0, 100));
        for i in 0..100 {
            assert_eq!(b.get(1, i as usize).unwrap().flit.index, i);
        }
        assert!(b.get(1, 100).is_none() && b.front(0).is_none());
    }

    #[test]
    fn rings_wrap_around_in_order() {
        // Depth 3 rounds up to a ring of 4: positions wrap many times; the FIFO next to
        // it never sees its flits.
        let mut b = InputBuffer::new([BufferDepth::Flits(3), BufferDepth::Flits(1)]);
        let mut next_in = 0;
        let mut next_out = 0;
        for round in 0..50u32 {
            b.set_now(Cycle(u64::from(round)));
            while b.len(0) < 3 {
                b.push(0, &flit(next_in, 1000), Cycle(u64::from(round)));
                next_in += 1;
            }
            b.push(1, &flit(round, 1000), Cycle(u64::from(round)));
            for k in 0..3 {
                assert_eq!(b.get(0, k).unwrap().flit.index, next_out + k as u32);
            }
            for _ in 0..=round % 3 {
                assert_eq!(b.pop(0).flit.index, next_out);
                next_out += 1;
            }
            assert_eq!(b.pop(1).flit.index, round);
        }
        assert_eq!(b.total(), u64::from(next_in - next_out));
    }

    #[test]
    fn an_unbounded_fifo_grows_while_wrapped() {
        let mut b = InputBuffer::new([BufferDepth::Unbounded, BufferDepth::Flits(2)]);
        let n = UNBOUNDED_START;
        // Wrap the head first, then fill past the ring's size.
        for i in 0..n / 2 {
            b.push(0, &flit(i, 1000), Cycle(0));
        }
        for i in 0..n / 2 {
            assert_eq!(b.pop(0).flit.index, i);
        }
        for i in 0..3 * n {
            b.push(0, &flit(i, 1000), Cycle(0));
        }
        b.push(1, &flit(7, 1000), Cycle(0));
        for i in 0..3 * n {
            assert_eq!(b.pop(0).flit.index, i);
        }
        assert_eq!((b.len(0), b.pop(1).flit.index), (0, 7));
    }

    /// The occupancy accounting against a direct count: a FIFO pushed and popped by a
    /// fixed pattern, its histogram summed cycle by cycle.
    #[test]
    fn occupancy_matches_a_cycle_by_cycle_count() {
        for depth in [BufferDepth::Flits(5), BufferDepth::Unbounded] {
            let mut b = InputBuffer::new([depth]);
            let mut hist = vec![0u64; 64];
            let (mut arrivals, mut departures, mut residence, mut max) = (0, 0, 0, 0);
            let mut arrived = std::collections::VecDeque::new();
            let reset_at = 40;
            for t in 0..200u64 {
                if t == reset_at {
                    b.reset_occupancy(Cycle(t));
                    hist.fill(0);
                    (arrivals, departures, residence) = (0, 0, 0);
                    max = arrived.len();
                }
                b.set_now(Cycle(t));
                let cap = if depth == BufferDepth::Unbounded {
                    40
                } else {
                    5
                };
                if t % 3 != 0 && arrived.len() < cap {
                    b.push(0, &flit(0, 1), Cycle(t));
                    arrived.push_back(t);
                    arrivals += 1;
                    max = max.max(arrived.len());
                }
                if t % 5 == 0 && t % 7 != 0 {
                    if let Some(a) = arrived.pop_front() {
                        b.pop(0);
                        departures += 1;
                        residence += t - a;
                    }
                }
                hist[arrived.len()] += 1;
            }
            let o = b.occupancy(0, Cycle(200));
            hist.truncate(max + 1);
            assert_eq!(o.histogram, hist, "{depth:?}");
            assert_eq!(
                (o.arrivals, o.departures, o.residence_cycles, o.max as usize),
                (arrivals, departures, residence, max)
            );
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

        /// Any pattern of pushes and pops on a bounded and an unbounded FIFO (growing past
        /// its first ring), a reset at any cycle and a report at any later cycle: the
        /// occupancy statistics equal a cycle-by-cycle count.
        #[test]
        fn occupancy_of_any_pattern_matches_a_cycle_by_cycle_count(
            moves in proptest::collection::vec((0u8..4, 0u8..4), 1..300),
            reset_at in 0usize..300,
            report_after in 0u64..5,
        ) {
            let depths = [BufferDepth::Flits(5), BufferDepth::Unbounded];
            let mut b = InputBuffer::new(depths);
            let n = depths.len();
            let mut inside = vec![std::collections::VecDeque::new(); n];
            let mut hist = vec![vec![0u64; 128]; n];
            let (mut arrivals, mut departures) = (vec![0u64; n], vec![0u64; n]);
            let (mut residence, mut max) = (vec![0u64; n], vec![0usize; n]);
            for (t, &(pushes, pops)) in moves.iter().enumerate() {
                let now = Cycle(t as u64);
                if t == reset_at {
                    b.reset_occupancy(now);
                    for f in 0..n {
                        hist[f].fill(0);
                        (arrivals[f], departures[f], residence[f]) = (0, 0, 0);
                        max[f] = inside[f].len();
                    }
                }
                b.set_now(now);
                for f in 0..n {
                    // The bounded FIFO takes at most its depth; the unbounded one gets
                    // twice the pushes so that it grows.
                    let cap = if f == 0 { 5 } else { 100 };
                    for _ in 0..u32::from(pushes) * (f as u32 + 1) {
                        if inside[f].len() < cap {
                            b.push(f, &flit(0, 1), now);
                            inside[f].push_back(now.0);
                            arrivals[f] += 1;
                            max[f] = max[f].max(inside[f].len());
                        }
                    }
                    for _ in 0..pops {
                        if let Some(a) = inside[f].pop_front() {
                            proptest::prop_assert_eq!(u64::from(b.pop(f).arrived.0), a);
                            departures[f] += 1;
                            residence[f] += now.0 - a;
                        }
                    }
                    hist[f][inside[f].len()] += 1;
                }
            }
            let until = moves.len() as u64;
            for f in 0..n {
                // Reports later than the last step cover the cycles in between.
                hist[f][inside[f].len()] += report_after;
                let o = b.occupancy(f, Cycle(until + report_after));
                proptest::prop_assert_eq!(&o.histogram[..], &hist[f][..=max[f]]);
                proptest::prop_assert_eq!(
                    (o.arrivals, o.departures, o.residence_cycles, o.max as usize),
                    (arrivals[f], departures[f], residence[f], max[f])
                );
                proptest::prop_assert_eq!(b.max(f) as usize, max[f]);
            }
        }
    }

    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "overflows")]
    fn a_bounded_fifo_never_overflows() {
        let mut b = InputBuffer::new([BufferDepth::Flits(1)]);
        b.push(0, &flit(0, 2), Cycle(0));
        b.push(0, &flit(1, 2), Cycle(1));
    }
}
