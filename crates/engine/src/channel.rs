//! Channel delay lines. A channel of latency `L >= 1` has two sides: flits go downstream
//! on its forward side, credits upstream on its reverse side, with the same latency. Each
//! side is one delay line, stored with its *writer* (STYLE.md B.4.3): the forward side with
//! the upstream component's partition, the reverse side with the downstream one's, so a
//! partition's phase-2 writes touch only its own [`Lines`].
//!
//! A delay line is a ring of slots (a power of two >= `L + 1`, indexed by `cycle & mask`),
//! each tagged with the cycle it is due. What is sent at cycle `t` sits in the slot of
//! `t + L` tagged `t + L`; the reader of cycle `t + L` finds it by the tag. Readers never
//! write (a stale slot simply carries an old tag), so phase 1 reads other partitions'
//! lines through shared references while nobody writes them; writers fill only slots due
//! later (phase 2). The live tags at any time lie in `[now, now + L]`, fewer than the ring
//! size, so a slot is never overwritten before it is read.
//!
//! At most one item enters each side per cycle: a channel moves one flit per cycle
//! (flit = phit), and the contract allows at most one credit per channel per cycle. A
//! second write in one cycle is a phase-discipline bug and panics.

/// Tag of a slot that never held anything.
const NEVER: u64 = u64::MAX;

#[derive(Copy, Clone, Debug)]
struct Slot<T> {
    due: u64,
    item: Option<T>,
}

#[derive(Copy, Clone, Debug)]
struct Meta {
    start: u32,
    mask: u32,
    latency: u32,
}

/// Many delay lines of one item type in one flat ring-buffer arena, by local index.
#[derive(Clone, Debug)]
pub struct Lines<T> {
    meta: Vec<Meta>,
    slots: Vec<Slot<T>>,
}

impl<T> Default for Lines<T> {
    fn default() -> Self {
        Lines {
            meta: Vec::new(),
            slots: Vec::new(),
        }
    }
}

impl<T: Copy> Lines<T> {
    /// Adds a line of `latency >= 1` cycles; returns its local index.
    ///
    /// # Panics
    /// If `latency` is 0 (netlist validation rejects it before the engine sees it).
    pub fn push(&mut self, latency: u32) -> u32 {
        assert!(latency >= 1, "channel latency must be >= 1, got 0");
        let size = (latency as usize + 1).next_power_of_two();
        let start = self.slots.len() as u32;
        self.slots.extend(std::iter::repeat_n(
            Slot {
                due: NEVER,
                item: None,
            },
            size,
        ));
        self.meta.push(Meta {
            start,
            mask: size as u32 - 1,
            latency,
        });
        (self.meta.len() - 1) as u32
    }

    /// Number of lines.
    pub fn len(&self) -> usize {
        self.meta.len()
    }

    /// No lines.
    pub fn is_empty(&self) -> bool {
        self.meta.is_empty()
    }

    /// Latency of line `i`.
    pub fn latency(&self, i: u32) -> u32 {
        self.meta[i as usize].latency
    }

    /// Phase 1 at `now`: the item of line `i` due now, if any (the line is not changed).
    #[inline]
    pub fn peek(&self, i: u32, now: u64) -> Option<T> {
        let m = self.meta[i as usize];
        let s = &self.slots[(m.start + (now as u32 & m.mask)) as usize];
        if s.due == now {
            s.item
        } else {
            None
        }
    }

    /// [`Lines::peek`] by reference.
    #[inline]
    pub fn peek_ref(&self, i: u32, now: u64) -> Option<&T> {
        let m = self.meta[i as usize];
        let s = &self.slots[(m.start + (now as u32 & m.mask)) as usize];
        if s.due == now {
            s.item.as_ref()
        } else {
            None
        }
    }

    /// Phase 2 at `now`: sends `item` on line `i`, due at `now + latency`; returns that
    /// cycle.
    ///
    /// # Panics
    /// If something was already sent on the line this cycle (two writers, or one twice).
    #[inline]
    pub fn send(&mut self, i: u32, now: u64, item: T) -> u64 {
        let m = self.meta[i as usize];
        let due = now + u64::from(m.latency);
        let s = &mut self.slots[(m.start + (due as u32 & m.mask)) as usize];
        assert!(
            s.due != due,
            "two items sent on one channel side at cycle {now} (phase discipline broken)"
        );
        *s = Slot {
            due,
            item: Some(item),
        };
        due
    }

    /// The items of line `i` still travelling at the start of cycle `next` (due at
    /// `next` or later), in no particular order.
    pub fn in_flight(&self, i: u32, next: u64) -> impl Iterator<Item = &T> + '_ {
        let m = self.meta[i as usize];
        self.slots[m.start as usize..(m.start + m.mask + 1) as usize]
            .iter()
            .filter(move |s| s.due != NEVER && s.due >= next)
            .filter_map(|s| s.item.as_ref())
    }

    /// Number of items of line `i` still travelling at the start of cycle `next`.
    pub fn count_in_flight(&self, i: u32, next: u64) -> u32 {
        self.in_flight(i, next).count() as u32
    }
}

/// Wake-up lists: what one writer partition sent to one reader partition, as the reader's
/// local component indices bucketed by the cycle the items are due. The reader visits only
/// the components listed for `now` instead of peeking every line (cost follows activity).
///
/// Same discipline as the lines: buckets are a ring (a power of two > the largest latency,
/// indexed by `due & mask`) tagged with their due cycle; the writer fills buckets due later
/// in phase 2 (a bucket whose tag is stale is emptied first), the reader only reads the
/// bucket due `now` in phase 1. An index may be listed more than once.
#[derive(Clone, Debug)]
pub struct Wakes {
    mask: u32,
    buckets: Vec<(u64, Vec<u32>)>,
}

impl Wakes {
    /// Wake-up lists for lines of latency at most `max_latency` (>= 1).
    pub fn new(max_latency: u32) -> Wakes {
        let size = (max_latency.max(1) as usize + 1).next_power_of_two();
        Wakes {
            mask: size as u32 - 1,
            buckets: vec![(NEVER, Vec::new()); size],
        }
    }

    /// Phase 2: component `id` of the reader partition receives something at `due`.
    #[inline]
    pub fn push(&mut self, due: u64, id: u32) {
        let b = &mut self.buckets[(due as u32 & self.mask) as usize];
        if b.0 != due {
            debug_assert!(
                b.0 == NEVER || b.0 < due,
                "wake-up bucket reused while still live"
            );
            b.0 = due;
            b.1.clear();
        }
        b.1.push(id);
    }

    /// Phase 1 at `now`: the components that receive something now.
    #[inline]
    pub fn due(&self, now: u64) -> &[u32] {
        let b = &self.buckets[(now as u32 & self.mask) as usize];
        if b.0 == now {
            &b.1
        } else {
            &[]
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_item_arrives_exactly_latency_cycles_later() {
        for lat in 1..6u32 {
            let mut l: Lines<u32> = Lines::default();
            let _other = l.push(1);
            let i = l.push(lat);
            // Send one item every cycle; read every cycle (read before send, as the two
            // phases do).
            for t in 0..20u64 {
                let got = l.peek(i, t);
                if t >= u64::from(lat) {
                    assert_eq!(got, Some((t - u64::from(lat)) as u32));
                } else {
                    assert!(got.is_none());
                }
                l.send(i, t, t as u32);
                assert_eq!(l.count_in_flight(i, t + 1), lat.min(t as u32 + 1));
            }
        }
    }

    #[test]
    fn a_gap_is_read_as_nothing_even_after_wraparound() {
        let mut l: Lines<u32> = Lines::default();
        let i = l.push(3);
        l.send(i, 5, 7);
        for t in 5..20 {
            let got = l.peek(i, t);
            assert_eq!(got, (t == 8).then_some(7), "cycle {t}");
        }
        assert_eq!(l.count_in_flight(i, 9), 0);
    }

    #[test]
    fn a_wake_up_is_seen_exactly_at_its_due_cycle() {
        let mut w = Wakes::new(3);
        // Latencies 1..=3 from several cycles; each list is read once, at its cycle.
        let mut expected: std::collections::BTreeMap<u64, Vec<u32>> = Default::default();
        for t in 0..30u64 {
            assert_eq!(w.due(t), expected.remove(&t).unwrap_or_default().as_slice());
            for lat in 1..=3u64 {
                if (t + lat) % 2 == 0 {
                    let id = (t * 10 + lat) as u32;
                    w.push(t + lat, id);
                    expected.entry(t + lat).or_default().push(id);
                }
            }
        }
    }

    #[test]
    #[should_panic(expected = "phase discipline")]
    fn two_items_in_one_cycle_panic() {
        let mut l: Lines<u32> = Lines::default();
        let i = l.push(2);
        l.send(i, 0, 0);
        l.send(i, 0, 1);
    }
}
