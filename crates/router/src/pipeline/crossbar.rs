//! Stage 4, the crossbar (switch traversal).
//!
//! - Reads: flits granted by SA at cycle `c` (at most one per input port and per output
//!   port per cycle, which SA guarantees).
//! - Writes: each flit onto its output channel at `c + sd + xd`: `emit` leaves the flits
//!   due in their slot, where the engine reads them ([`Crossbar::emitted`]) and copies each
//!   once, straight onto its channel.
//! - Knob: `crossbar_delay` (xd), modelled together with `switch_alloc_delay` (sd) as an
//!   internal pipeline per output port; term `sd + xd` after SA in the head latency.
//!   Every flit takes the same delay, so the flits inside exit in the `sd + xd + 1` cycles
//!   from now on: a ring of that many slots (rounded up to a power of two), indexed by
//!   exit cycle, each slot holding the flits due in its cycle (at most one per output
//!   port, since SA grants an output port at most once per cycle). `emit` looks only at
//!   the slot due now instead of at every port.
//! - `output_speedup` so > 1: an output port takes up to so flits per cycle (SA grants
//!   each output port at most so times per cycle, from different input ports), so a slot
//!   holds up to so flits per port; they enter the port's output queue
//!   ([`OutputQueues`]), which writes one flit per cycle onto the channel.
//! - Counts the flits and heads written onto each output port (`flits_sent`,
//!   `packets_sent` of [`crate::RouterStats`]) when they enter, so that `emit` touches no
//!   flit: the count of a port is what entered minus what is still inside.

use super::output_queue::OutputQueues;
use crate::flit::Flit;
use flitsim_netlist::Cycle;

/// Flits between SA and their output channel, by exit cycle.
#[derive(Clone, Debug)]
pub struct Crossbar {
    /// Output ports.
    ports: u32,
    /// Flits a slot holds at most: output ports x `output_speedup`.
    cap: usize,
    /// Ring size - 1 (the size is a power of two above the delay `sd + xd`).
    mask: u64,
    /// Slot `s` holds its flits (output port, flit) in `flits[s * cap..][..count[s]]`.
    flits: Vec<(u32, Flit)>,
    /// Flits in each slot.
    count: SlotCounts,
    /// Flits in all slots and output queues.
    len: usize,
    /// The output queues (`output_speedup` > 1), else `None`: then the flits of a slot
    /// are written onto their channels as they leave it.
    queues: Option<Box<OutputQueues>>,
    /// Where the flits of the last `emit` lie in `flits` (start, count): their slot takes
    /// new flits only from the next step on, so they stay there until then. Both below
    /// 2^32 (checked in `new`), so that the slice's end needs no overflow test.
    emitted: (u32, u32),
    /// Per output port, [flits, heads] that entered since the last reset plus those
    /// inside at the reset ([`Crossbar::sent`] subtracts those inside now).
    entered: Box<[[u64; 2]]>,
    /// Exit cycle of each slot's flits (debug builds check that no slot is reused early).
    #[cfg(debug_assertions)]
    exit: Vec<Cycle>,
}

impl Crossbar {
    /// Bytes [`Crossbar::new`] allocates for `ports` output ports, a pipeline of
    /// `depth` cycles and output speedup `speedup`, computed without allocating: the
    /// ring's flit slots, their counts and the per-port counts of flits sent (and, with
    /// speedup, the output queues before any flit enters them).
    pub fn bytes(ports: usize, depth: u64, speedup: u8) -> u64 {
        let slots = ring_slots(depth);
        let cap = ports as u64 * u64::from(speedup.max(1));
        let queues = if speedup > 1 {
            (std::mem::size_of::<OutputQueues>() + ports * std::mem::size_of::<(u32, Flit)>())
                as u64
                + ports as u64
                    * std::mem::size_of::<std::collections::VecDeque<(u32, Flit)>>() as u64
        } else {
            0
        };
        let per_slot = std::mem::size_of::<(u32, Flit)>() as u64 * cap
            + if cfg!(debug_assertions) {
                std::mem::size_of::<Cycle>() as u64
            } else {
                0
            };
        slots * per_slot
            + SlotCounts::bytes(slots)
            + std::mem::size_of::<[u64; 2]>() as u64 * ports as u64
            + queues
    }

    /// For `ports` output ports, a pipeline of `depth` cycles (`sd + xd`) and output
    /// speedup `speedup` (1: none).
    pub fn new(ports: usize, depth: u64, speedup: u8) -> Crossbar {
        let slots = ring_slots(depth);
        let cap = ports * usize::from(speedup.max(1));
        assert!(
            u32::try_from(slots as usize * cap).is_ok(),
            "crossbar pipelines exceed 2^32 flits (netlist validation bounds sd and xd by MAX_PIPELINE_DELAY)"
        );
        let empty = (u32::MAX, Flit::PLACEHOLDER);
        Crossbar {
            ports: ports as u32,
            cap,
            mask: slots - 1,
            flits: vec![empty; slots as usize * cap],
            count: SlotCounts::new(slots as usize),
            len: 0,
            queues: (speedup > 1).then(|| Box::new(OutputQueues::new(ports))),
            emitted: (0, 0),
            entered: vec![[0; 2]; ports].into_boxed_slice(),
            #[cfg(debug_assertions)]
            exit: vec![Cycle(0); slots as usize],
        }
    }

    /// A copy of a flit granted the switch, to be written onto output `port` at `exit`
    /// (every flit of the router takes the same delay, so `exit` is `sd + xd` after the
    /// current cycle). Returns the copy, for the fields the hop changes.
    #[inline]
    pub fn push(&mut self, port: usize, exit: Cycle, flit: &Flit) -> &mut Flit {
        let s = (exit.0 & self.mask) as usize;
        let n = self.count[s] as usize;
        #[cfg(debug_assertions)]
        {
            assert!(
                n == 0 || self.exit[s] == exit,
                "crossbar slot of cycle {exit} still holds flits of cycle {}",
                self.exit[s]
            );
            assert!(
                self.flits[s * self.cap..][..n]
                    .iter()
                    .filter(|&&(p, _)| p as usize == port)
                    .count()
                    < self.cap / self.ports as usize,
                "more flits for output {port} in one cycle than its speedup"
            );
            self.exit[s] = exit;
        }
        self.count[s] = n as u32 + 1;
        self.len += 1;
        let entered = &mut self.entered[port];
        entered[0] += 1;
        if flit.kind.is_head() {
            entered[1] += 1;
        }
        let slot = &mut self.flits[s * self.cap + n];
        *slot = (port as u32, *flit);
        &mut slot.1
    }

    /// Takes the flits due at `now` out of the pipeline; they stay readable through
    /// [`Crossbar::emitted`] until the next step.
    #[inline(always)]
    pub fn emit(&mut self, now: Cycle) {
        let s = (now.0 & self.mask) as usize;
        let n = std::mem::take(&mut self.count[s]) as usize;
        #[cfg(debug_assertions)]
        assert!(
            n == 0 || self.exit[s] == now,
            "crossbar flit missed its cycle"
        );
        self.emitted = ((s * self.cap) as u32, n as u32);
        self.len -= n;
        if let Some(q) = self.queues.as_deref_mut() {
            // The slot's flits stay inside, in the queues, until they are sent.
            q.enter(&self.flits[s * self.cap..][..n]);
            self.len += n;
            self.len -= q.send();
        }
    }

    /// The flits the last [`Crossbar::emit`] took out, as (output port, flit), at most
    /// one per port, in no particular order (valid until the next step pushes a flit).
    #[inline]
    pub fn emitted(&self) -> &[(u32, Flit)] {
        if let Some(q) = self.queues.as_deref() {
            return q.sent();
        }
        let (start, n) = (self.emitted.0 as usize, self.emitted.1 as usize);
        &self.flits[start..start + n]
    }

    /// Slots of the ring (a power of two above the delay), each read by
    /// [`Crossbar::in_flight_to`].
    pub fn stages(&self) -> usize {
        (self.mask + 1) as usize
    }

    /// Flits inside the crossbar pipelines.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when no flit is inside.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The flits inside, as (output port, flit): in the pipeline, then in the output
    /// queues.
    fn inside(&self) -> impl Iterator<Item = &(u32, Flit)> {
        self.count
            .iter()
            .enumerate()
            .flat_map(|(s, &n)| &self.flits[s * self.cap..][..n as usize])
            .chain(self.queues.iter().flat_map(|q| q.waiting()))
    }

    /// Flits inside bound for downstream VC `vc` of output `port`.
    pub fn in_flight_to(&self, port: usize, vc: u8) -> u32 {
        self.inside()
            .filter(|(p, f)| *p as usize == port && f.vc.0 == vc)
            .count() as u32
    }

    /// Flits and heads written onto output `port` since construction or the last
    /// [`Crossbar::reset_sent`].
    pub fn sent(&self, port: usize) -> (u64, u64) {
        let [flits, heads] = self
            .inside()
            .filter(|(p, _)| *p as usize == port)
            .fold(self.entered[port], |[flits, heads], (_, f)| {
                [flits - 1, heads - u64::from(f.kind.is_head())]
            });
        (flits, heads)
    }

    /// Restarts the counts of [`Crossbar::sent`] (end of warm-up).
    pub fn reset_sent(&mut self) {
        let mut entered = vec![[0; 2]; self.ports as usize];
        for &(p, f) in self.inside() {
            entered[p as usize][0] += 1;
            entered[p as usize][1] += u64::from(f.kind.is_head());
        }
        self.entered = entered.into_boxed_slice();
    }
}

/// Slots of a ring holding what leaves `delay` cycles after it enters (here and in the
/// credit return): a power of two above the delay.
pub(crate) fn ring_slots(delay: u64) -> u64 {
    (delay + 1).next_power_of_two()
}

/// Slots whose counts [`SlotCounts`] keeps inside the struct.
const NEAR_SLOTS: usize = 4;

/// The item count of each slot of a ring (here and in the credit return): the first
/// [`NEAR_SLOTS`] inside the struct, so that the rings of the default delays (`sd + xd`
/// and `credit_delay` up to 3) touch no cache line of their own for them, the rest on
/// the heap.
#[derive(Clone, Debug)]
pub(crate) struct SlotCounts {
    /// Slots 0..NEAR_SLOTS (those beyond the ring stay 0).
    near: [u32; NEAR_SLOTS],
    /// Slots from NEAR_SLOTS on.
    far: Box<[u32]>,
    /// Slots of the ring (below 2^32: the ring's items are).
    slots: u32,
}

impl SlotCounts {
    /// Bytes [`SlotCounts::new`] allocates for a ring of `slots` slots.
    pub(crate) fn bytes(slots: u64) -> u64 {
        slots.saturating_sub(NEAR_SLOTS as u64) * std::mem::size_of::<u32>() as u64
    }

    /// Zero counts for a ring of `slots` slots.
    pub(crate) fn new(slots: usize) -> SlotCounts {
        SlotCounts {
            near: [0; NEAR_SLOTS],
            far: vec![0; slots.saturating_sub(NEAR_SLOTS)].into_boxed_slice(),
            slots: slots as u32,
        }
    }

    /// The counts of the ring's slots, in slot order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = &u32> {
        self.near
            .iter()
            .chain(self.far.iter())
            .take(self.slots as usize)
    }
}

impl std::ops::Index<usize> for SlotCounts {
    type Output = u32;
    #[inline(always)]
    fn index(&self, s: usize) -> &u32 {
        if s < NEAR_SLOTS {
            &self.near[s]
        } else {
            &self.far[s - NEAR_SLOTS]
        }
    }
}

impl std::ops::IndexMut<usize> for SlotCounts {
    #[inline(always)]
    fn index_mut(&mut self, s: usize) -> &mut u32 {
        if s < NEAR_SLOTS {
            &mut self.near[s]
        } else {
            &mut self.far[s - NEAR_SLOTS]
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::buffer::tests::flit;

    #[test]
    fn flits_leave_after_the_delay_in_every_slot_of_the_ring() {
        // Delay 2: a ring of 4 slots, reused every 4 cycles.
        let mut x = Crossbar::new(3, 2, 1);
        for t in 0..20u64 {
            let port = (t % 3) as usize;
            x.push(port, Cycle(t + 2), &flit(t as u32, 100));
            if t % 2 == 0 {
                x.push((port + 1) % 3, Cycle(t + 2), &flit(1000 + t as u32, 100));
            }
            assert_eq!(x.len(), x.count.iter().sum::<u32>() as usize);
            x.emit(Cycle(t));
            let mut out = [None; 3];
            for &(p, f) in x.emitted() {
                assert!(
                    out[p as usize].replace(f).is_none(),
                    "two flits on port {p}"
                );
            }
            let ports = x.emitted().len();
            if t >= 2 {
                let p = ((t - 2) % 3) as usize;
                assert_eq!(out[p].map(|f| f.index), Some(t as u32 - 2));
                let both = (t - 2) % 2 == 0;
                assert_eq!(ports, 1 + usize::from(both));
                if both {
                    assert_eq!(out[(p + 1) % 3].map(|f| f.index), Some(1000 + t as u32 - 2));
                }
            } else {
                assert_eq!(ports, 0);
            }
        }
        assert_eq!(x.len(), 3);
        assert_eq!(
            x.in_flight_to(0, 0) + x.in_flight_to(1, 0) + x.in_flight_to(2, 0),
            3
        );
    }

    #[test]
    fn zero_delay_leaves_in_the_same_cycle() {
        let mut x = Crossbar::new(2, 0, 1);
        x.push(1, Cycle(5), &flit(0, 1));
        assert_eq!(x.in_flight_to(1, 0), 1);
        x.emit(Cycle(5));
        assert!(x.is_empty());
        assert_eq!(
            x.emitted()
                .iter()
                .map(|&(p, f)| (p, f.index))
                .collect::<Vec<_>>(),
            [(1, 0)]
        );
        // Nothing due: nothing emitted.
        x.emit(Cycle(6));
        assert!(x.emitted().is_empty());
    }

    /// Flits and heads counted per port as they enter equal those counted as they
    /// leave, across a reset with flits inside.
    #[test]
    fn sent_counts_the_flits_that_left_since_the_reset() {
        let mut x = Crossbar::new(3, 3, 1);
        let mut left = [[0u64; 2]; 3];
        for t in 0..40u64 {
            if t == 17 {
                x.reset_sent();
                left = [[0; 2]; 3];
            }
            let port = (t * 7 % 3) as usize;
            // Packets of 3 flits: every third flit is a head.
            x.push(port, Cycle(t + 3), &flit((t % 3) as u32, 3));
            x.emit(Cycle(t));
            for &(p, f) in x.emitted() {
                left[p as usize][0] += 1;
                left[p as usize][1] += u64::from(f.kind.is_head());
            }
            for (p, l) in left.iter().enumerate() {
                assert_eq!(x.sent(p), (l[0], l[1]), "port {p} at {t}");
            }
        }
        assert_eq!(x.len(), 3);
    }

    /// Counts of rings smaller and larger than the part kept inside the struct.
    #[test]
    fn slot_counts_cover_exactly_the_ring() {
        for slots in [1, NEAR_SLOTS, 16] {
            let mut c = SlotCounts::new(slots);
            for s in 0..slots {
                c[s] += s as u32 + 1;
            }
            let counts: Vec<u32> = c.iter().copied().collect();
            assert_eq!(counts, (1..=slots as u32).collect::<Vec<_>>());
        }
    }
}
