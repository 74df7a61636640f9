//! Wake-ups: what one writer partition sent to one reader partition, bucketed by the
//! cycle it is due, so a reader visits only the components something arrives for.

use super::delay_line::NEVER;
use super::ring::ring_size;

/// A component's place in a [`Wakes`] bucket and what it receives ([`Wakes::spot`]).
/// Aligned to 4 bytes (its masks are read whole all the same), so that a router's port
/// sides, which hold one each, pack without padding.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[repr(C, packed(4))]
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

    /// Adds this wake-up to a reader's router bit set and arrival masks (`routers`) or
    /// its terminals' (`terminals`), as [`Wakes::deliver`] adds a bucket's; the router
    /// bit set has as many words as the reader's wake-ups.
    #[inline]
    pub fn add_to(&self, routers: (&mut [u64], &mut [u64]), terminals: (&mut [u64], &mut [u64])) {
        let rw = routers.0.len();
        let (word, index) = (self.word as usize, self.index as usize - 2 * rw);
        if word < rw {
            routers.0[word] |= self.bit;
            routers.1[index] |= self.what;
        } else {
            terminals.0[word - rw] |= self.bit;
            terminals.1[index - 64 * rw] |= self.what;
        }
    }
}

/// Wake-ups: what one writer partition sent to one reader partition, as arrival masks of
/// the reader's components bucketed by the cycle the items are due. The reader visits only
/// the components woken for `now` instead of peeking every line (cost follows activity).
///
/// A bucket holds a bit set of the woken components (the reader's routers in the first
/// [`Wakes::terminal_base`] / 64 words, then its terminals) and, per component, the mask of
/// what arrives (a router's `arrival_bit`s, a terminal's
/// `TERMINAL_FLIT` and `TERMINAL_CREDIT`): a
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
    /// The latest cycle whose bucket [`Wakes::prepare`] readied (0: none).
    prepared: u64,
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
            prepared: 0,
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
    /// `now + 1..=now + max_latency` (a stale one was read already: it is emptied). Those
    /// up to the last one readied before still are (a bucket is reused only for a cycle
    /// beyond every window readied so far), so a cycle costs O(1), not O(max_latency).
    #[inline(always)]
    pub fn prepare(&mut self, now: u64) {
        let last = now + u64::from(self.max_latency);
        for due in (now + 1).max(self.prepared + 1)..=last {
            self.ready(now, due);
        }
        self.prepared = self.prepared.max(last);
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
}
