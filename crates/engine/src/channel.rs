//! Channel delay lines. A channel of latency `L >= 1` has two sides: flits go downstream
//! on its forward side, credits upstream on its reverse side, with the same latency. Each
//! side is one delay line, stored with its *writer*: the forward side with
//! the upstream component's partition, the reverse side with the downstream one's, so a
//! partition's phase-2 writes touch only its own [`Lines`].
//!
//! A delay line is a ring of slots (a power of two >= `L + 1`, indexed by `cycle & mask`),
//! each tagged with the cycle it is due. What is sent at cycle `t` sits in the slot of
//! `t + L` tagged `t + L`; the reader of cycle `t + L` finds it by the tag. Readers never
//! write (a stale slot simply carries an old tag), so phase 1 reads other partitions'
//! lines through shared references while nobody writes them; writers fill only slots due
//! later (phase 2, or right after the writer's step when its partition is alone and no
//! other reads its lines: the slots written, due at `now + L >= now + 1`, are never the
//! ones read at `now`). The live tags at any time lie in `[now, now + L]`, fewer than the
//! ring size, so a slot is never overwritten before it is read.
//!
//! At most one item enters each side per cycle: a channel moves one flit per cycle
//! (flit = phit), and the contract allows at most one credit per channel per cycle. A
//! second write in one cycle is a phase-discipline bug and panics.

use flitsim_netlist::{Cycle, TerminalId, VcId};
use flitsim_router::{Credit, Flit, PacketId, Reset};

/// Tag of a slot that never held anything.
const NEVER: u64 = u64::MAX;

/// A slot: its item counts only at the cycle of its tag (`due`); before the first send
/// it holds a blank ([`Blank`]).
#[derive(Copy, Clone, Debug)]
struct Slot<T> {
    due: u64,
    item: T,
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

/// A delay line of a [`Lines`]: where its ring of slots lies and its latency (a handle
/// the cycle loop keeps, so reading or writing a line looks nothing up; 8 bytes: the
/// ring's size follows from the latency).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Line {
    start: u32,
    latency: u32,
}

impl Line {
    /// No line (a port without a channel); using it panics.
    pub const NONE: Line = Line {
        start: u32::MAX,
        latency: 0,
    };

    /// The line's latency in cycles.
    pub fn latency(self) -> u32 {
        self.latency
    }

    /// The mask of the line's ring (its size minus one).
    #[inline(always)]
    fn mask(self) -> u32 {
        ring_size(self.latency) - 1
    }

    /// The index of the slot of cycle `t`.
    #[inline(always)]
    fn slot(self, t: u64) -> usize {
        (self.start + (t as u32 & self.mask())) as usize
    }
}

/// Slots in the ring of a line of `latency` cycles.
fn ring_size(latency: u32) -> u32 {
    (latency + 1).next_power_of_two()
}

/// Where what is sent at one cycle on any line of one latency lands: the cycle it is due
/// and its slot's offset in the line's ring, the same for every such line (computed once
/// per cycle by a writer whose lines all have that latency).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Landing {
    due: u64,
    offset: u32,
    latency: u32,
}

impl Landing {
    /// For items sent at `now` on lines of `latency` cycles.
    pub fn new(now: u64, latency: u32) -> Landing {
        let due = now + u64::from(latency);
        Landing {
            due,
            offset: due as u32 & (ring_size(latency) - 1),
            latency,
        }
    }

    /// The cycle the items are due.
    pub fn due(self) -> u64 {
        self.due
    }
}

/// Where the items due at one cycle lie on any line of one latency: the cycle and its
/// slot's offset in the line's ring, the same for every such line (computed once per
/// cycle by a reader whose lines all have that latency).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Arrival {
    now: u64,
    offset: u32,
    latency: u32,
}

impl Arrival {
    /// For items due at `now` on lines of `latency` cycles.
    pub fn new(now: u64, latency: u32) -> Arrival {
        Arrival {
            now,
            offset: now as u32 & (ring_size(latency) - 1),
            latency,
        }
    }
}

/// Where a writer's items of one cycle land on a line ([`Lines::send`]): a [`Landing`]
/// on a line of its latency (the slot located once per cycle), or on a line of any
/// latency the cycle they are sent (`u64`; the slot located per line).
pub trait Land: Copy {
    /// The index of the slot the item sent on `l` lands in, and the cycle it is due.
    fn on(self, l: Line) -> (usize, u64);
}

impl Land for Landing {
    #[inline(always)]
    fn on(self, l: Line) -> (usize, u64) {
        debug_assert_eq!(l.latency, self.latency, "a line of another latency");
        ((l.start + self.offset) as usize, self.due)
    }
}

impl Land for u64 {
    #[inline(always)]
    fn on(self, l: Line) -> (usize, u64) {
        let due = self + u64::from(l.latency);
        (l.slot(due), due)
    }
}

/// Where a reader finds the items due at one cycle on a line ([`Lines::peek`],
/// [`Lines::due`]): an [`Arrival`] on a line of its latency (the slot located once per
/// cycle), or on a line of any latency the cycle itself (`u64`).
pub trait Due: Copy {
    /// The index of the slot of the cycle on `l`, and the cycle.
    fn on(self, l: Line) -> (usize, u64);
}

impl Due for Arrival {
    #[inline(always)]
    fn on(self, l: Line) -> (usize, u64) {
        debug_assert_eq!(l.latency, self.latency, "a line of another latency");
        ((l.start + self.offset) as usize, self.now)
    }
}

impl Due for u64 {
    #[inline(always)]
    fn on(self, l: Line) -> (usize, u64) {
        (l.slot(self), self)
    }
}

/// Many delay lines of one item type in one flat ring-buffer arena.
#[derive(Clone, Debug)]
pub struct Lines<T> {
    lines: u32,
    slots: Vec<Slot<T>>,
}

impl<T> Default for Lines<T> {
    fn default() -> Self {
        Lines {
            lines: 0,
            slots: Vec::new(),
        }
    }
}

impl<T: Blank> Lines<T> {
    /// Bytes of the ring of one line of `latency` cycles ([`Lines::push`] adds them to
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
    pub fn push(&mut self, latency: u32) -> Line {
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
        Line { start, latency }
    }

    /// Number of lines.
    pub fn len(&self) -> usize {
        self.lines as usize
    }

    /// No lines.
    pub fn is_empty(&self) -> bool {
        self.lines == 0
    }

    /// Phase 1: the item of line `l` due at `at` (the cycle, or its [`Arrival`]), if any
    /// (the line is not changed).
    #[inline]
    pub fn peek(&self, l: Line, at: impl Due) -> Option<&T> {
        let (slot, now) = at.on(l);
        let s = &self.slots[slot];
        (s.due == now).then_some(&s.item)
    }

    /// [`Lines::peek`] for a reader told something is due (the wake-ups): the slot's tag
    /// is checked in debug builds only.
    #[inline]
    pub fn due(&self, l: Line, at: impl Due) -> &T {
        let (slot, now) = at.on(l);
        let s = &self.slots[slot];
        debug_assert_eq!(s.due, now, "woken for an item not there");
        &s.item
    }

    /// Sends a copy of `item` on line `l` at `at` (the cycle it is sent, or its
    /// [`Landing`]), due `latency` cycles later; returns that cycle.
    ///
    /// # Panics
    /// If something was already sent on the line this cycle (two writers, or one twice).
    #[inline]
    pub fn send(&mut self, l: Line, at: impl Land, item: &T) -> u64 {
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
    pub fn in_flight(&self, l: Line, next: u64) -> impl Iterator<Item = &T> + '_ {
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

    /// Number of items of line `l` still travelling at the start of cycle `next`.
    pub fn count_in_flight(&self, l: Line, next: u64) -> u32 {
        self.in_flight(l, next).count() as u32
    }
}

/// A component's place in a [`Wakes`] bucket and what it receives ([`Wakes::spot`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct WakeSpot {
    word: u32,
    index: u32,
    bit: u64,
    what: u64,
}

impl WakeSpot {
    /// Nowhere (a port without a channel; never written).
    pub const NONE: WakeSpot = WakeSpot {
        word: u32::MAX,
        index: u32::MAX,
        bit: 0,
        what: 0,
    };
}

/// Wake-ups: what one writer partition sent to one reader partition, as arrival masks of
/// the reader's components bucketed by the cycle the items are due. The reader visits only
/// the components woken for `now` instead of peeking every line (cost follows activity).
///
/// A bucket holds a bit set of the woken components (the reader's routers in the first
/// [`Wakes::terminal_base`] / 64 words, then its terminals) and, per component, the mask of
/// what arrives (a router's [`crate::assemble::arrival_bit`]s, a terminal's
/// [`crate::assemble::TERMINAL_FLIT`] and [`crate::assemble::TERMINAL_CREDIT`]): a
/// component receiving several items in one cycle is one bit and one mask, decoded once.
///
/// Same discipline as the lines: buckets are a ring (a power of two > the largest latency,
/// indexed by `due & mask`) tagged with their due cycle; in phase 2 the writer first makes
/// the buckets of the cycles it can write ([`Wakes::prepare`]: a bucket whose tag is stale
/// was read already and is emptied), then sets bits in them; the reader only reads the
/// bucket due `now` in phase 1. A partition alone, whose wake-ups only it writes and
/// reads, may instead take the bucket due `now` in place and empty it while it wakes in
/// a later one ([`Wakes::take_and_wake`]).
#[derive(Clone, Debug)]
pub struct Wakes {
    mask: u32,
    max_latency: u32,
    /// Words of router bits in each bucket's bit set (as many again for terminals).
    router_words: usize,
    /// The cycle each bucket is due.
    due: Vec<u64>,
    /// The buckets, `stride` words each: the bit set of the components woken (routers,
    /// then terminals from bit [`Wakes::terminal_base`]), then per component (same index)
    /// what arrives.
    words: Vec<u64>,
    stride: usize,
}

impl Wakes {
    /// Bytes [`Wakes::new`] allocates for the same arguments, computed without
    /// allocating: one bucket per cycle of the ring, each a bit set and a mask per
    /// component, and its due cycle.
    pub fn bytes(max_latency: u32, components: usize) -> u64 {
        let (size, _, stride) = Self::layout(max_latency, components);
        (size * (stride + 1) * std::mem::size_of::<u64>()) as u64
    }

    /// Buckets (a power of two above `max_latency`, at least 1), words of router bits
    /// per bucket, and words per bucket, for [`Wakes::new`] and [`Wakes::bytes`].
    fn layout(max_latency: u32, components: usize) -> (usize, usize, usize) {
        let size = ring_size(max_latency.max(1)) as usize;
        let router_words = components.div_ceil(64);
        (size, router_words, 2 * router_words + 2 * router_words * 64)
    }

    /// Wake-ups for a reader partition of `components` routers and as many terminals, on
    /// lines of latency at most `max_latency` (>= 1).
    pub fn new(max_latency: u32, components: usize) -> Wakes {
        let max_latency = max_latency.max(1);
        let (size, router_words, stride) = Self::layout(max_latency, components);
        Wakes {
            mask: size as u32 - 1,
            max_latency,
            router_words,
            due: vec![NEVER; size],
            words: vec![0; size * stride],
            stride,
        }
    }

    /// The wake-up index of the reader's terminal `i` (its routers' indices are their own).
    pub fn terminal_base(&self) -> u32 {
        (self.router_words * 64) as u32
    }

    /// Where the bucket of cycle `due` starts in `words`.
    #[inline(always)]
    fn bucket(&self, due: u64) -> usize {
        (due as u32 & self.mask) as usize * self.stride
    }

    /// Phase 2 at `now`, before any [`Wakes::wake`]: readies the buckets due in
    /// `now + 1..=now + max_latency` (a stale one was read already: it is emptied).
    #[inline(always)]
    pub fn prepare(&mut self, now: u64) {
        for due in now + 1..=now + u64::from(self.max_latency) {
            self.ready(now, due);
        }
    }

    /// [`Wakes::prepare`] of the bucket due at `due` alone.
    #[inline(always)]
    fn ready(&mut self, now: u64, due: u64) {
        let tag = &mut self.due[(due as u32 & self.mask) as usize];
        if *tag == due {
            return;
        }
        debug_assert!(
            *tag == NEVER || *tag <= now,
            "wake-up bucket reused while still live"
        );
        *tag = due;
        let base = self.bucket(due);
        let (set, masks) = self.words[base..base + self.stride].split_at_mut(2 * self.router_words);
        for (word, masks) in set.iter_mut().zip(masks.chunks_exact_mut(64)) {
            let mut bits = std::mem::take(word);
            while bits != 0 {
                masks[bits.trailing_zeros() as usize & 63] = 0;
                bits &= bits - 1;
            }
        }
    }

    /// For a reader that is the only writer (one partition) on lines of one latency, at
    /// `now`, sending items due at `due` (`now + 1..=now + max_latency`): the bucket of
    /// `now`, to be taken from in place instead of [`Wakes::deliver`]ed (the reader
    /// empties it as it steps the components it names, so it is empty when reused), and
    /// the bucket of `due`, readied ([`Wakes::prepare`]), to wake in.
    #[inline(always)]
    pub fn take_and_wake(&mut self, now: u64, due: u64) -> (Woken<'_>, WakeBucket<'_>) {
        debug_assert!(
            due > now && due - now <= u64::from(self.max_latency),
            "a bucket out of reach"
        );
        self.ready(now, due);
        let (at_now, at_due) = (self.bucket(now), self.bucket(due));
        let stride = self.stride;
        let (now_words, due_words) = if at_now < at_due {
            let (lo, hi) = self.words.split_at_mut(at_due);
            (&mut lo[at_now..at_now + stride], &mut hi[..stride])
        } else {
            let (lo, hi) = self.words.split_at_mut(at_now);
            (&mut hi[..stride], &mut lo[at_due..at_due + stride])
        };
        // A bucket not due now was taken from at its cycle (or never used): it is empty.
        debug_assert!(
            self.due[(now as u32 & self.mask) as usize] == now || now_words.iter().all(|&w| w == 0),
            "wake-up bucket of cycle {now} not emptied"
        );
        let rw = self.router_words;
        let (set, masks) = now_words.split_at_mut(2 * rw);
        let (routers, terminals) = set.split_at_mut(rw);
        let (arrivals, terminal_arrivals) = masks.split_at_mut(64 * rw);
        (
            Woken {
                routers,
                terminals,
                arrivals,
                terminal_arrivals,
            },
            WakeBucket {
                due,
                router_words: rw,
                words: due_words,
            },
        )
    }

    /// Phase 2 (after [`Wakes::prepare`]): component `id` of the reader partition (a
    /// router's index, or [`Wakes::terminal_base`] + a terminal's) receives `what` (its
    /// arrival mask bits) at `due`.
    #[inline]
    pub fn wake(&mut self, due: u64, id: u32, what: u64) {
        self.wake_spot(due, self.spot(id, what));
    }

    /// Where [`Wakes::wake`] of `id` and `what` writes in a bucket (computed once, kept by
    /// the writer).
    pub fn spot(&self, id: u32, what: u64) -> WakeSpot {
        spot(self.router_words, id, what)
    }

    /// [`Wakes::wake`] at a [`Wakes::spot`].
    #[inline]
    pub fn wake_spot(&mut self, due: u64, spot: WakeSpot) {
        debug_assert_eq!(
            self.due[(due as u32 & self.mask) as usize],
            due,
            "wake-up bucket not prepared"
        );
        let base = self.bucket(due);
        self.words[base + spot.word as usize] |= spot.bit;
        self.words[base + spot.index as usize] |= spot.what;
    }

    /// The bucket of cycle `due` (prepared by [`Wakes::prepare`]), for a writer whose
    /// items of the cycle are all due then: it wakes without locating the bucket again.
    #[inline]
    pub fn bucket_mut(&mut self, due: u64) -> WakeBucket<'_> {
        debug_assert_eq!(
            self.due[(due as u32 & self.mask) as usize],
            due,
            "wake-up bucket not prepared"
        );
        let base = self.bucket(due);
        WakeBucket {
            due,
            router_words: self.router_words,
            words: &mut self.words[base..base + self.stride],
        }
    }

    /// Phase 1 at `now`: adds the routers woken now to `routers` (a bit set) and what
    /// arrives for each to `arrivals` (one per router, padded to 64 per word of
    /// `routers`), the terminals woken now to `terminals` and `terminal_arrivals` alike.
    #[inline(always)]
    pub fn deliver(
        &self,
        now: u64,
        (routers, arrivals): (&mut [u64], &mut [u64]),
        (terminals, terminal_arrivals): (&mut [u64], &mut [u64]),
    ) {
        if self.due[(now as u32 & self.mask) as usize] != now {
            return;
        }
        let base = self.bucket(now);
        let rw = self.router_words;
        let (set, masks) = self.words[base..base + self.stride].split_at(2 * rw);
        merge(&set[..rw], &masks[..64 * rw], routers, arrivals);
        merge(&set[rw..], &masks[64 * rw..], terminals, terminal_arrivals);
    }
}

/// Adds the components named by the bit set `from_bits` and their masks `from_masks` to
/// `bits` and `masks` (masks padded to 64 per word of the sets).
#[inline(always)]
fn merge(from_bits: &[u64], from_masks: &[u64], bits: &mut [u64], masks: &mut [u64]) {
    debug_assert_eq!(masks.len(), 64 * bits.len(), "arrivals not padded");
    let per_word = from_masks.chunks_exact(64).zip(masks.chunks_exact_mut(64));
    for ((&from, to), (from_masks, masks)) in from_bits.iter().zip(bits.iter_mut()).zip(per_word) {
        *to |= from;
        let mut from = from;
        while from != 0 {
            let k = from.trailing_zeros() as usize & 63;
            from &= from - 1;
            masks[k] |= from_masks[k];
        }
    }
}

/// [`Wakes::spot`] in wake-ups of `router_words` words of router bits.
#[inline(always)]
fn spot(router_words: usize, id: u32, what: u64) -> WakeSpot {
    WakeSpot {
        word: id / 64,
        index: (2 * router_words) as u32 + id,
        bit: 1 << (id % 64),
        what,
    }
}

/// What the bucket of one cycle names, to be taken in place ([`Wakes::take_and_wake`]):
/// what [`Wakes::deliver`] would add.
#[derive(Debug)]
pub struct Woken<'a> {
    /// Bit set of the routers woken.
    pub routers: &'a mut [u64],
    /// Bit set of the terminals woken.
    pub terminals: &'a mut [u64],
    /// Per router (64 per word of `routers`), what arrives.
    pub arrivals: &'a mut [u64],
    /// Per terminal (64 per word of `terminals`), what arrives.
    pub terminal_arrivals: &'a mut [u64],
}

/// One bucket of a [`Wakes`] ([`Wakes::bucket_mut`]).
#[derive(Debug)]
pub struct WakeBucket<'a> {
    due: u64,
    router_words: usize,
    words: &'a mut [u64],
}

impl WakeBucket<'_> {
    /// [`Wakes::wake`] at the bucket's cycle, `due`.
    #[inline(always)]
    pub fn wake(&mut self, due: u64, id: u32, what: u64) {
        self.wake_spot(due, spot(self.router_words, id, what));
    }

    /// [`Wakes::wake_spot`] at the bucket's cycle, `due`.
    #[inline(always)]
    pub fn wake_spot(&mut self, due: u64, spot: WakeSpot) {
        debug_assert_eq!(due, self.due, "woken for another cycle");
        self.words[spot.word as usize] |= spot.bit;
        self.words[spot.index as usize] |= spot.what;
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
            let mut l: Lines<u32> = Lines::default();
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
    fn sending_at_a_landing_is_sending_at_its_cycle() {
        for lat in 1..6u32 {
            let (mut a, mut b): (Lines<u32>, Lines<u32>) = Default::default();
            let (la, lb) = ((a.push(2), a.push(lat)), (b.push(2), b.push(lat)));
            for t in 0..20u64 {
                assert_eq!(a.peek(la.1, t), b.peek(lb.1, t), "cycle {t}");
                let at = Landing::new(t, lat);
                assert_eq!(at.due(), a.send(la.1, t, &(t as u32)));
                assert_eq!(at.due(), b.send(lb.1, at, &(t as u32)));
            }
            assert_eq!(
                a.slots.iter().map(|s| (s.due, s.item)).collect::<Vec<_>>(),
                b.slots.iter().map(|s| (s.due, s.item)).collect::<Vec<_>>()
            );
        }
    }

    #[test]
    fn reading_at_an_arrival_is_reading_at_its_cycle() {
        for lat in 1..6u32 {
            let mut l: Lines<u32> = Lines::default();
            let (_other, i) = (l.push(2), l.push(lat));
            for t in 0..20u64 {
                assert_eq!(l.peek(i, Arrival::new(t, lat)), l.peek(i, t), "cycle {t}");
                if t >= u64::from(lat) {
                    assert_eq!(l.due(i, Arrival::new(t, lat)), l.due(i, t));
                }
                l.send(i, Landing::new(t, lat), &(t as u32));
            }
        }
    }

    #[test]
    #[should_panic(expected = "two items sent on one channel side")]
    fn a_second_send_at_a_landing_panics() {
        let mut l: Lines<u32> = Lines::default();
        let i = l.push(3);
        l.send(i, Landing::new(4, 3), &1);
        l.send(i, Landing::new(4, 3), &2);
    }

    #[test]
    fn a_gap_is_read_as_nothing_even_after_wraparound() {
        let mut l: Lines<u32> = Lines::default();
        let i = l.push(3);
        l.send(i, 5u64, &7);
        for t in 5..20u64 {
            let got = l.peek(i, t);
            assert_eq!(got, (t == 8).then_some(&7), "cycle {t}");
        }
        assert_eq!(l.count_in_flight(i, 9), 0);
    }

    /// Routers woken, their arrival masks, terminals woken, theirs.
    type Delivered = (Vec<u64>, Vec<u64>, Vec<u64>, Vec<u64>);

    /// What `Wakes::deliver` adds at `t` from an empty state.
    fn delivered(w: &Wakes, t: u64, n: usize) -> Delivered {
        let words = n.div_ceil(64);
        let (mut r, mut a) = (vec![0; words], vec![0; words * 64]);
        let (mut term, mut ta) = (vec![0; words], vec![0; words * 64]);
        w.deliver(t, (&mut r, &mut a), (&mut term, &mut ta));
        a.truncate(n);
        ta.truncate(n);
        (r, a, term, ta)
    }

    /// What `Wakes::take_and_wake` at `t` names, taken as a reader takes it.
    fn taken(w: &mut Wakes, t: u64, n: usize) -> Delivered {
        let (woken, _) = w.take_and_wake(t, t + 1);
        let take = |v: &mut [u64]| -> Vec<u64> { v.iter_mut().map(std::mem::take).collect() };
        let (r, term) = (take(woken.routers), take(woken.terminals));
        let (mut a, mut ta) = (take(woken.arrivals), take(woken.terminal_arrivals));
        a.truncate(n);
        ta.truncate(n);
        (r, a, term, ta)
    }

    #[test]
    fn taking_in_place_names_what_delivering_names_and_empties_the_bucket() {
        let n = 70;
        let (mut a, mut b) = (Wakes::new(1, n), Wakes::new(1, n));
        let tb = a.terminal_base();
        for t in 0..12u64 {
            // `a` delivers (and is prepared), `b` is taken in place.
            assert_eq!(delivered(&a, t, n), taken(&mut b, t, n), "cycle {t}");
            a.prepare(t);
            let mut bucket = b.bucket_mut(t + 1);
            for (id, what) in [(t * 11 % 70, 1 << (t % 64)), (69, 1 << 40), (3, 1 << 33)] {
                a.wake(t + 1, id as u32, what);
                bucket.wake(t + 1, id as u32, what);
            }
            a.wake(t + 1, tb + (t * 3 % 70) as u32, 1 + t % 2);
            bucket.wake(t + 1, tb + (t * 3 % 70) as u32, 1 + t % 2);
        }
        // Taken at cycle 12, nothing is left in any bucket.
        taken(&mut b, 12, n);
        assert!(b.words.iter().all(|&w| w == 0));
    }

    #[test]
    fn a_wake_up_is_seen_exactly_at_its_due_cycle() {
        let n = 70; // two words: ids on both sides of 64
        let mut w = Wakes::new(3, n);
        let tb = w.terminal_base();
        // Latencies 1..=3 from several cycles; each bucket is read once, at its cycle.
        let mut expected: std::collections::BTreeMap<u64, Delivered> = Default::default();
        for t in 0..40u64 {
            let want = expected
                .remove(&t)
                .unwrap_or_else(|| (vec![0; 2], vec![0; n], vec![0; 2], vec![0; n]));
            assert_eq!(delivered(&w, t, n), want, "cycle {t}");
            w.prepare(t);
            for lat in 1..=3u64 {
                if (t + lat) % 2 == 0 {
                    let due = t + lat;
                    let e = expected
                        .entry(due)
                        .or_insert_with(|| (vec![0; 2], vec![0; n], vec![0; 2], vec![0; n]));
                    // A router twice (two bits, one wake-up) and a terminal.
                    let id = ((t * 7 + lat * 13) % n as u64) as usize;
                    for what in [1u64 << lat, 1 << (32 + lat)] {
                        w.wake(due, id as u32, what);
                        e.0[id / 64] |= 1 << (id % 64);
                        e.1[id] |= what;
                    }
                    let term = ((t * 5 + lat) % n as u64) as usize;
                    w.wake(due, tb + term as u32, 1 << (lat % 2));
                    e.2[term / 64] |= 1 << (term % 64);
                    e.3[term] |= 1 << (lat % 2);
                }
            }
        }
    }

    #[test]
    fn waking_through_a_bucket_is_waking_through_the_wakes() {
        let n = 70;
        let (mut a, mut b) = (Wakes::new(2, n), Wakes::new(2, n));
        let tb = a.terminal_base();
        for t in 0..12u64 {
            assert_eq!(delivered(&a, t, n), delivered(&b, t, n), "cycle {t}");
            a.prepare(t);
            b.prepare(t);
            let due = t + 1 + t % 2;
            let spots = [
                a.spot((t * 11 % n as u64) as u32, 1 << (t % 64)),
                a.spot(69, 1 << 40),
                a.spot(tb + (t * 3 % n as u64) as u32, 2),
            ];
            let mut bucket = b.bucket_mut(due);
            for s in spots {
                a.wake_spot(due, s);
                bucket.wake_spot(due, s);
            }
            let id = (t * 13 % n as u64) as u32;
            a.wake(due, id, 1 << 33);
            bucket.wake(due, id, 1 << 33);
            a.wake(due, tb + id, 1);
            bucket.wake(due, tb + id, 1);
        }
    }

    #[test]
    fn a_bucket_is_emptied_before_reuse_even_after_a_gap() {
        let mut w = Wakes::new(1, 3);
        w.prepare(0);
        w.wake(1, 2, 0b101);
        w.wake(1, w.terminal_base() + 1, 0b10);
        assert_eq!(
            delivered(&w, 1, 3),
            (vec![0b100], vec![0, 0, 0b101], vec![0b10], vec![0, 0b10, 0])
        );
        // Nothing written for a while; the ring wraps many times.
        for t in 1..9 {
            w.prepare(t);
        }
        w.wake(9, 0, 0b10);
        assert_eq!(
            delivered(&w, 9, 3),
            (vec![0b1], vec![0b10, 0, 0], vec![0], vec![0; 3])
        );
        for t in 2..9 {
            assert_eq!(
                delivered(&w, t, 3),
                (vec![0], vec![0; 3], vec![0], vec![0; 3]),
                "cycle {t}"
            );
        }
    }

    #[test]
    fn a_send_returns_the_cycle_its_item_is_due() {
        let mut l: Lines<u32> = Lines::default();
        let i = l.push(2);
        assert_eq!(l.send(i, 1u64, &9), 3);
        assert_eq!((l.peek(i, 2u64), l.peek(i, 3u64)), (None, Some(&9)));
        assert_eq!(l.count_in_flight(i, 2), 1);
    }

    #[test]
    fn due_reads_the_item_due_now() {
        let mut l: Lines<u32> = Lines::default();
        let i = l.push(1);
        l.send(i, 4u64, &11);
        assert_eq!(l.due(i, 5u64), &11);
    }

    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "woken for an item not there")]
    fn due_of_a_stale_slot_panics_in_debug_builds() {
        let mut l: Lines<u32> = Lines::default();
        let i = l.push(1);
        l.send(i, 4u64, &11);
        let _ = l.due(i, 7u64);
    }

    #[test]
    #[should_panic(expected = "phase discipline")]
    fn two_items_in_one_cycle_panic() {
        let mut l: Lines<u32> = Lines::default();
        let i = l.push(2);
        l.send(i, 0u64, &0);
        l.send(i, 0u64, &1);
    }
}
