//! A delay line: the ring of slots one channel side's items travel in, and the arena of
//! a partition's delay lines of one item type.

use super::landing::{Due, Land};
use super::ring::{ring_size, DelayLine};
use flitsim_netlist::{Cycle, TerminalId, VcId};
use flitsim_router::{Credit, Flit, PacketId, Reset};

/// Tag of a slot that never held anything.
pub(super) const NEVER: u64 = u64::MAX;

/// A slot: its item counts only at the cycle of its tag (`due`); before the first send
/// it holds a blank ([`Blank`]).
#[derive(Copy, Clone, Debug)]
pub(super) struct Slot<T> {
    pub(super) due: u64,
    pub(super) item: T,
}

/// What travels on lines: plain values, with a blank that fills a slot before anything
/// is sent in it (never read: no tag names it).
pub trait Blank: Copy {
    /// The filler of empty slots.
    const BLANK: Self;
}

impl Blank for Flit {
    const BLANK: Flit = Flit::PLACEHOLDER;
}

impl Blank for Credit {
    const BLANK: Credit = Credit { vc: VcId(0) };
}

impl Blank for Reset {
    const BLANK: Reset = Reset {
        vc: VcId(0),
        packet: PacketId {
            source: TerminalId(u32::MAX),
            seq: u32::MAX,
        },
        dest: TerminalId(u32::MAX),
        len: 0,
        created: Cycle(0),
    };
}

/// Many delay lines of one item type in one flat ring-buffer arena.
#[derive(Clone, Debug)]
pub struct DelayLines<T> {
    lines: u32,
    pub(super) slots: Vec<Slot<T>>,
}

impl<T> Default for DelayLines<T> {
    fn default() -> Self {
        DelayLines {
            lines: 0,
            slots: Vec::new(),
        }
    }
}

impl<T: Blank> DelayLines<T> {
    /// Bytes of the ring of one line of `latency` cycles ([`DelayLines::push`] adds them to
    /// the arena), computed without allocating.
    pub fn line_bytes(latency: u32) -> u64 {
        u64::from(ring_size(latency.max(1))) * std::mem::size_of::<Slot<T>>() as u64
    }

    /// Reserves exactly the slots of lines of these latencies (pushed next), so that
    /// the arena is allocated once at its final size rather than grown by doubling.
    pub fn reserve_exact(&mut self, latencies: impl IntoIterator<Item = u32>) {
        let slots: usize = latencies
            .into_iter()
            .map(|l| ring_size(l.max(1)) as usize)
            .sum();
        self.slots.reserve_exact(slots);
    }

    /// Adds a line of `latency >= 1` cycles.
    ///
    /// # Panics
    /// If `latency` is 0 (netlist validation rejects it before the engine sees it).
    pub fn push(&mut self, latency: u32) -> DelayLine {
        assert!(latency >= 1, "channel latency must be >= 1, got 0");
        let size = ring_size(latency) as usize;
        let start = self.slots.len() as u32;
        self.slots.extend(std::iter::repeat_n(
            Slot {
                due: NEVER,
                item: T::BLANK,
            },
            size,
        ));
        self.lines += 1;
        DelayLine { start, latency }
    }

    /// Number of lines.
    pub fn len(&self) -> usize {
        self.lines as usize
    }

    /// No lines.
    pub fn is_empty(&self) -> bool {
        self.lines == 0
    }

    /// Phase 1: the item of line `l` due at `at` (the cycle, or its [`Arrival`](super::Arrival)),
    /// if any (the line is not changed).
    #[inline]
    pub fn peek(&self, l: DelayLine, at: impl Due) -> Option<&T> {
        let (slot, now) = at.on(l);
        let s = &self.slots[slot];
        (s.due == now).then_some(&s.item)
    }

    /// [`DelayLines::peek`] for a reader told something is due (the wake-ups): the slot's tag
    /// is checked in debug builds only.
    #[inline]
    pub fn due(&self, l: DelayLine, at: impl Due) -> &T {
        let (slot, now) = at.on(l);
        let s = &self.slots[slot];
        debug_assert_eq!(s.due, now, "woken for an item not there");
        &s.item
    }

    /// Sends a copy of `item` on line `l` at `at` (the cycle it is sent, or its
    /// [`Landing`](super::Landing)), due `latency` cycles later; returns that cycle.
    ///
    /// # Panics
    /// If something was already sent on the line this cycle (two writers, or one twice).
    #[inline]
    pub fn send(&mut self, l: DelayLine, at: impl Land, item: &T) -> u64 {
        let (slot, due) = at.on(l);
        let s = &mut self.slots[slot];
        assert!(
            s.due != due,
            "two items sent on one channel side at cycle {} (phase discipline broken)",
            due - u64::from(l.latency)
        );
        s.due = due;
        s.item = *item;
        due
    }

    /// The items of line `l` still travelling at the start of cycle `next` (due at
    /// `next` or later), in no particular order.
    pub fn in_flight(&self, l: DelayLine, next: u64) -> impl Iterator<Item = &T> + '_ {
        self.slots[l.start as usize..(l.start + l.mask() + 1) as usize]
            .iter()
            .filter(move |s| s.due != NEVER && s.due >= next)
            .map(|s| &s.item)
    }

    /// The cycle the last item of any line still travelling at the start of cycle
    /// `next` is due, if any.
    pub fn last_due(&self, next: u64) -> Option<u64> {
        self.slots
            .iter()
            .filter(|s| s.due != NEVER && s.due >= next)
            .map(|s| s.due)
            .max()
    }

    /// Slots of every line of the arena.
    pub fn slot_count(&self) -> usize {
        self.slots.len()
    }

    /// Number of items of line `l` still travelling at the start of cycle `next`.
    pub fn count_in_flight(&self, l: DelayLine, next: u64) -> u32 {
        self.in_flight(l, next).count() as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    impl Blank for u32 {
        const BLANK: u32 = 0;
    }

    #[test]
    fn an_item_arrives_exactly_latency_cycles_later() {
        for lat in 1..6u32 {
            let mut l: DelayLines<u32> = DelayLines::default();
            let _other = l.push(1);
            let i = l.push(lat);
            // Send one item every cycle; read every cycle (read before send, as the two
            // phases do).
            for t in 0..20u64 {
                let got = l.peek(i, t);
                if t >= u64::from(lat) {
                    assert_eq!(got, Some(&((t - u64::from(lat)) as u32)));
                } else {
                    assert!(got.is_none());
                }
                l.send(i, t, &(t as u32));
                assert_eq!(l.count_in_flight(i, t + 1), lat.min(t as u32 + 1));
            }
        }
    }

    #[test]
    fn a_gap_is_read_as_nothing_even_after_wraparound() {
        let mut l: DelayLines<u32> = DelayLines::default();
        let i = l.push(3);
        l.send(i, 5u64, &7);
        for t in 5..20u64 {
            let got = l.peek(i, t);
            assert_eq!(got, (t == 8).then_some(&7), "cycle {t}");
        }
        assert_eq!(l.count_in_flight(i, 9), 0);
    }

    #[test]
    fn a_send_returns_the_cycle_its_item_is_due() {
        let mut l: DelayLines<u32> = DelayLines::default();
        let i = l.push(2);
        assert_eq!(l.send(i, 1u64, &9), 3);
        assert_eq!((l.peek(i, 2u64), l.peek(i, 3u64)), (None, Some(&9)));
        assert_eq!(l.count_in_flight(i, 2), 1);
    }

    #[test]
    fn due_reads_the_item_due_now() {
        let mut l: DelayLines<u32> = DelayLines::default();
        let i = l.push(1);
        l.send(i, 4u64, &11);
        assert_eq!(l.due(i, 5u64), &11);
    }

    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "woken for an item not there")]
    fn due_of_a_stale_slot_panics_in_debug_builds() {
        let mut l: DelayLines<u32> = DelayLines::default();
        let i = l.push(1);
        l.send(i, 4u64, &11);
        let _ = l.due(i, 7u64);
    }

    #[test]
    #[should_panic(expected = "phase discipline")]
    fn two_items_in_one_cycle_panic() {
        let mut l: DelayLines<u32> = DelayLines::default();
        let i = l.push(2);
        l.send(i, 0u64, &0);
        l.send(i, 0u64, &1);
    }
}
