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
//! amortized and never happens to a bounded FIFO). Occupancy histograms live the same
//! way in one flat array, `depth + 1` counters per bounded FIFO.

use crate::flit::Flit;
use flitsim_netlist::{BufferDepth, Cycle};

/// Slots an unbounded FIFO starts with (it doubles when full).
pub const UNBOUNDED_START: u32 = 16;

/// What fills a slot no flit has used yet.
const EMPTY_BUFFERED: BufferedFlit = BufferedFlit {
    flit: Flit::PLACEHOLDER,
    arrived: Cycle(0),
};

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
    /// The rings of all FIFOs (see the module docs).
    slots: Vec<BufferedFlit>,
    /// Occupancy histograms of all FIFOs: FIFO `i` counts the cycles at occupancy `n` in
    /// `hist[fifos[i].hist_base + n]`, up to its `since`.
    hist: Vec<u64>,
    /// Position and accounting per FIFO.
    fifos: Vec<Fifo>,
    /// Flits in all FIFOs.
    count: u64,
    /// The router's current cycle (set at the start of each step; departures use it).
    now: u64,
}

/// One FIFO's ring and its lazily accumulated occupancy (issue 6), updated at each push
/// and pop. One cache line.
#[derive(Copy, Clone, Debug)]
#[repr(align(64))]
struct Fifo {
    /// First slot of its ring in `slots`.
    base: u32,
    /// Ring size - 1 (the ring size is a power of two).
    mask: u32,
    /// Ring position of the front flit (`< mask + 1`).
    head: u32,
    /// Flits held.
    len: u32,
    /// Depth in flits (`u32::MAX`: unbounded).
    depth: u32,
    /// First counter of its histogram in `hist` (`mask + 2` counters when unbounded,
    /// `depth + 1` when bounded).
    hist_base: u32,
    /// Largest occupancy since construction or the last reset.
    max: u32,
    /// Occupancy at the last reset (arrivals = departures + len - this).
    len_at_reset: u32,
    /// Cycle up to which the histogram is accumulated.
    since: u64,
    departures: u64,
    /// Sum over departed flits of (departure cycle - arrival cycle).
    residence: u64,
}

impl Fifo {
    /// Counters its histogram has: one per occupancy it can reach.
    fn hist_len(&self) -> usize {
        if self.depth == u32::MAX {
            self.mask as usize + 2
        } else {
            self.depth as usize + 1
        }
    }
}

impl InputBuffer {
    /// One FIFO per entry of `depths`, all slots allocated here (bounded FIFOs never
    /// allocate afterwards).
    pub fn new(depths: impl IntoIterator<Item = BufferDepth>) -> InputBuffer {
        // The FIFOs' runs first, then both arrays at their exact size (growing them one
        // FIFO at a time would leave kilobytes per router unused).
        let (mut slots, mut hist) = (0u32, 0u32);
        let mut fifos: Vec<Fifo> = depths
            .into_iter()
            .map(|d| {
                let size = d
                    .flits()
                    .unwrap_or(UNBOUNDED_START)
                    .checked_next_power_of_two()
                    .expect("buffer depth above 2^31 flits");
                let f = Fifo {
                    base: slots,
                    mask: size - 1,
                    head: 0,
                    len: 0,
                    depth: d.flits().unwrap_or(u32::MAX),
                    hist_base: hist,
                    max: 0,
                    len_at_reset: 0,
                    since: 0,
                    departures: 0,
                    residence: 0,
                };
                slots = slots
                    .checked_add(size)
                    .expect("input buffers exceed 2^32 slots");
                hist += f.hist_len() as u32;
                f
            })
            .collect();
        fifos.shrink_to_fit();
        InputBuffer {
            slots: vec![EMPTY_BUFFERED; slots as usize],
            hist: vec![0; hist as usize],
            fifos,
            count: 0,
            now: 0,
        }
    }

    /// Moves full unbounded FIFO `f` to a ring twice as large at the end of `slots` (and
    /// its histogram along, to the end of `hist`).
    #[cold]
    #[inline(never)]
    fn grow(f: &mut Fifo, slots: &mut Vec<BufferedFlit>, hist: &mut Vec<u64>) {
        debug_assert!(f.depth == u32::MAX && f.len == f.mask + 1);
        let size = (f.mask + 1) * 2;
        let base = u32::try_from(slots.len()).expect("input buffers exceed 2^32 slots");
        slots.resize(slots.len() + size as usize, EMPTY_BUFFERED);
        for k in 0..f.len {
            slots[(base + k) as usize] = slots[(f.base + ((f.head + k) & f.mask)) as usize];
        }
        let old = f.hist_base as usize..f.hist_base as usize + f.hist_len();
        let hist_base = u32::try_from(hist.len()).expect("occupancy counters exceed 2^32");
        hist.resize(hist.len() + size as usize + 1, 0);
        hist.copy_within(old, hist_base as usize);
        f.base = base;
        f.mask = size - 1;
        f.head = 0;
        f.hist_base = hist_base;
    }

    /// Adds the cycles since FIFO `f`'s last change, spent at its occupancy `f.len`, to
    /// its histogram in `hist`.
    #[inline(always)]
    fn dwell(f: &mut Fifo, hist: &mut [u64], now: u64) {
        // Saturating: a FIFO used without `set_now` (unit tests) never underflows.
        let d = now.saturating_sub(f.since);
        f.since = f.since.max(now);
        hist[(f.hist_base + f.len) as usize] += d;
    }

    /// Appends a copy of `flit` to FIFO `vc`.
    ///
    /// # Panics
    /// In debug builds, when the FIFO is full (the upstream sent without a credit).
    #[inline]
    pub fn push(&mut self, vc: usize, flit: &Flit, now: Cycle) {
        let InputBuffer {
            slots, hist, fifos, ..
        } = self;
        let f = &mut fifos[vc];
        debug_assert!(
            f.len < f.depth,
            "input FIFO {vc} overflows (depth {}): a flit arrived without a credit",
            f.depth
        );
        if f.len > f.mask {
            Self::grow(f, slots, hist);
        }
        Self::dwell(f, hist, now.0);
        let slot = (f.base + ((f.head + f.len) & f.mask)) as usize;
        f.len += 1;
        f.max = f.max.max(f.len);
        slots[slot] = BufferedFlit {
            flit: *flit,
            arrived: now,
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
            hist,
            fifos,
            now,
            ..
        } = self;
        let f = &mut fifos[vc];
        debug_assert!(f.len > 0, "pop from an empty input FIFO {vc}");
        Self::dwell(f, hist, *now);
        let b = &slots[(f.base + f.head) as usize];
        f.head = (f.head + 1) & f.mask;
        f.len -= 1;
        f.departures += 1;
        // A flit enters its FIFO in the step of its arrival cycle, so it never leaves
        // before it arrived (the router sets the clock before every step and reset).
        debug_assert!(b.arrived.0 <= *now, "FIFO {vc} pops a flit from the future");
        f.residence += *now - b.arrived.0;
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

    /// Restarts the occupancy accounting at `now` (end of warm-up).
    pub fn reset_occupancy(&mut self, now: Cycle) {
        for f in &mut self.fifos {
            let h = f.hist_base as usize;
            self.hist[h..h + f.hist_len()].fill(0);
            f.since = now.0;
            f.max = f.len;
            f.len_at_reset = f.len;
            f.departures = 0;
            f.residence = 0;
        }
    }

    /// Occupancy statistics of FIFO `vc` up to the start of `until`. The histogram has
    /// one entry per occupancy up to the largest reached (`max + 1` entries).
    pub fn occupancy(&self, vc: usize, until: Cycle) -> crate::occupancy::BufferOccupancy {
        let f = &self.fifos[vc];
        let h = f.hist_base as usize;
        let mut histogram = self.hist[h..=h + f.max as usize].to_vec();
        histogram[f.len as usize] += until.0.saturating_sub(f.since);
        crate::occupancy::BufferOccupancy {
            histogram,
            arrivals: f.departures + u64::from(f.len) - u64::from(f.len_at_reset),
            departures: f.departures,
            residence_cycles: f.residence,
            max: f.max,
        }
    }

    /// Largest occupancy FIFO `vc` reached since construction or the last
    /// [`InputBuffer::reset_occupancy`].
    #[inline]
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
        b.set_now(Cycle(4));
        b.push(0, &flit(0, 2), Cycle(3));
        b.push(0, &flit(1, 2), Cycle(4));
        assert_eq!(b.len(0), 2);
        assert_eq!(b.front(0).unwrap().arrived, Cycle(3));
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

    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "overflows")]
    fn a_bounded_fifo_never_overflows() {
        let mut b = InputBuffer::new([BufferDepth::Flits(1)]);
        b.push(0, &flit(0, 2), Cycle(0));
        b.push(0, &flit(1, 2), Cycle(1));
    }
}
