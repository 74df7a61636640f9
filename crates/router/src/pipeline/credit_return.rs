//! Stage 5, output of credits to the upstream routers.
//!
//! - Reads: the credits SA scheduled (one per flit that left an input FIFO at cycle `c`,
//!   at most one per input port per cycle without input speedup; with `input_speedup`
//!   si, up to si, which leave one per cycle: see [`CreditReturn::queue_every_credit`]).
//! - Writes: each credit onto the reverse side of its input channel at `c + cd`: `emit`
//!   takes the credits due out of the ring and the engine reads them where they are
//!   ([`CreditReturn::emitted`]); the channel adds its latency L, and the upstream router
//!   may use it in the cycle it arrives.
//! - Knob: `credit_delay` (cd). It does not appear in the zero-load latency; it lengthens
//!   the credit round trip `sd + xd + L + cd + L` (+ the downstream stages) that bounds a
//!   VC's throughput when `buffer_depth` is small.
//!
//! The credits wait in a ring of slots indexed by due cycle, each slot a list of the
//! (input port, VC) credits due then, as the crossbar keeps its flits. A port has at most
//! one credit due per cycle (so a slot holds at most one per port): a credit whose cycle
//! is taken for its port moves to the first later cycle free for it, which is one cycle
//! after the last one queued for the port (only discards queue several credits of one
//! port in one cycle: a timeout reset drops a whole packet, and a discarded flit's credit
//! may share its cycle with the credit of a flit SA moves); the ring doubles when such a
//! credit falls beyond it. SA's credits look for a taken cycle only while a credit queued
//! that way is still waiting, so they need no per-port state.

use super::crossbar::{ring_slots, SlotCounts};
use crate::flit::Credit;
use flitsim_netlist::{Cycle, VcId};

/// Credits waiting for their `credit_delay`, by due cycle.
#[derive(Clone, Debug)]
pub struct CreditReturn {
    /// Input ports (the capacity of a slot).
    ports: usize,
    /// `credit_delay` (bounded by netlist validation).
    delay: u32,
    /// Ring size - 1 (the size is a power of two above the delay).
    mask: u64,
    /// Slot `s` holds its credits (input port, VC) in `credits[s * ports..][..count[s]]`.
    credits: Vec<(u32, VcId)>,
    /// Credits in each slot.
    count: SlotCounts,
    /// One cycle after the last credit queued behind another of its port, or pushed for
    /// a discarded flit (0: none yet): before it, a credit's cycle may be taken.
    queued_until: u64,
    /// Credits in all slots.
    len: u32,
    /// Every credit SA pushes looks for a cycle free for its port (input speedup).
    queue_all: bool,
    /// Where the credits of the last `emit` lie in `credits` (start, count): their slot
    /// takes new credits only from the next step on, so they stay there until then. Both
    /// below 2^32 (checked in `resize`), so that the slice's end needs no overflow test.
    emitted: (u32, u32),
    /// The last `emit`'s cycle and the credits it left waiting (debug builds check that a
    /// router with credits waiting emits every cycle, which the ring relies on).
    #[cfg(debug_assertions)]
    last_emit: (Cycle, usize),
}

impl CreditReturn {
    /// Bytes [`CreditReturn::new`] allocates for `ports` input ports and a delay of
    /// `delay` cycles, computed without allocating: the ring's credit slots and their
    /// counts (before any growth: only discarded flits' credits make the ring grow).
    pub fn bytes(ports: usize, delay: u64) -> u64 {
        let slots = ring_slots(delay);
        slots * std::mem::size_of::<(u32, VcId)>() as u64 * ports as u64 + SlotCounts::bytes(slots)
    }

    /// For `ports` input ports and a delay of `delay` cycles.
    pub fn new(ports: usize, delay: u64) -> CreditReturn {
        let mut c = CreditReturn {
            ports,
            delay: u32::try_from(delay).expect("credit_delay below 2^32"),
            mask: 0,
            credits: Vec::new(),
            count: SlotCounts::new(0),
            queued_until: 0,
            len: 0,
            queue_all: false,
            emitted: (0, 0),
            #[cfg(debug_assertions)]
            last_emit: (Cycle(0), 0),
        };
        c.resize(ring_slots(delay));
        c
    }

    /// Empties the ring and gives it `slots` slots.
    fn resize(&mut self, slots: u64) {
        assert!(
            u32::try_from(slots as usize * self.ports).is_ok(),
            "credit return exceeds 2^32 credits (netlist validation bounds credit_delay by MAX_PIPELINE_DELAY)"
        );
        self.mask = slots - 1;
        self.credits = vec![(u32::MAX, VcId(0)); slots as usize * self.ports];
        self.count = SlotCounts::new(slots as usize);
    }

    /// Doubles the ring until cycle `due` fits in it (the credits inside are due from `now`
    /// on).
    #[cold]
    #[inline(never)]
    fn grow(&mut self, now: Cycle, due: u64) {
        let old = self.clone();
        let mut slots = self.mask + 1;
        while due - now.0 > slots - 1 {
            slots *= 2;
        }
        self.resize(slots);
        for k in 0..=old.mask {
            let t = now.0 + k;
            let (s, from) = ((t & self.mask) as usize, (t & old.mask) as usize);
            let n = old.count[from] as usize;
            self.credits[s * self.ports..][..n]
                .copy_from_slice(&old.credits[from * self.ports..][..n]);
            self.count[s] = n as u32;
        }
    }

    /// The first cycle from `due` on with no credit of `port` (growing the ring if it
    /// falls beyond it); moves `queued_until` past it. Credits of a port due from
    /// `now + credit_delay` on are due in consecutive cycles from there (each was queued
    /// at that cycle or one after the port's last), so this is one cycle after the last
    /// one queued for the port, or `due` with none.
    #[cold]
    #[inline(never)]
    fn first_free(&mut self, port: usize, now: Cycle, mut due: u64) -> u64 {
        while due - now.0 <= self.mask && self.holds(due, port) {
            due += 1;
        }
        if due - now.0 > self.mask {
            self.grow(now, due);
        }
        self.queued_until = self.queued_until.max(due + 1);
        due
    }

    /// True when the credits due at `due` (within the ring) include one of `port`.
    fn holds(&self, due: u64, port: usize) -> bool {
        let s = (due & self.mask) as usize;
        self.credits[s * self.ports..][..self.count[s] as usize]
            .iter()
            .any(|&(p, _)| p as usize == port)
    }

    /// The credit of a flit that SA moved out of input `port` at `now`: due on its channel
    /// at `now + credit_delay`, or at the first later cycle free for its port if a
    /// discard took that one (SA moves at most one flit per input port per cycle).
    #[inline(always)]
    pub fn push(&mut self, port: usize, now: Cycle, credit: Credit) {
        debug_assert!(
            u64::from(self.delay) <= self.mask,
            "the ring covers credit_delay"
        );
        let mut due = now.0 + u64::from(self.delay);
        if due < self.queued_until || self.queue_all {
            due = self.first_free(port, now, due);
        }
        self.push_at(port, due, credit);
    }

    /// Input speedup: SA may move several flits of one input port in a cycle, and the
    /// port's channel carries one credit per cycle, so every credit SA pushes takes the
    /// first cycle from `now + credit_delay` on that is free for its port.
    pub fn queue_every_credit(&mut self) {
        self.queue_all = true;
    }

    /// The credit of a flit discarded from input `port` at `now` (by a timeout reset or
    /// on arrival, as part of a reset packet): like [`CreditReturn::push`], and later
    /// credits of the port look for a taken cycle until it has left.
    pub fn push_discarded(&mut self, port: usize, now: Cycle, credit: Credit) {
        let due = self.first_free(port, now, now.0 + u64::from(self.delay));
        self.push_at(port, due, credit);
    }

    /// Queues the credit of input `port` at `due` (within the ring, free for the port).
    #[inline(always)]
    fn push_at(&mut self, port: usize, due: u64, credit: Credit) {
        let s = (due & self.mask) as usize;
        debug_assert!(
            !self.holds(due, port),
            "two credits of port {port} due at {due}"
        );
        let count = &mut self.count[s];
        let n = *count as usize;
        *count += 1;
        self.credits[s * self.ports + n] = (port as u32, credit.vc);
        self.len += 1;
    }

    /// Takes the credits due at `now` out of the ring; they stay readable through
    /// [`CreditReturn::emitted`] until the next step.
    #[inline]
    pub fn emit(&mut self, now: Cycle) {
        #[cfg(debug_assertions)]
        {
            let (last, left) = self.last_emit;
            assert!(
                left == 0 || now.0 == last.0 + 1,
                "credit return skipped cycles {}..{now} with {left} credits waiting",
                last.0 + 1
            );
        }
        self.emit_due(now);
        #[cfg(debug_assertions)]
        {
            self.last_emit = (now, self.len as usize);
        }
    }

    /// [`CreditReturn::emit`] without the debug check.
    #[inline(always)]
    fn emit_due(&mut self, now: Cycle) {
        if self.len == 0 {
            self.emitted.1 = 0;
            return;
        }
        let s = (now.0 & self.mask) as usize;
        let n = std::mem::take(&mut self.count[s]) as usize;
        self.len -= n as u32;
        self.emitted = ((s * self.ports) as u32, n as u32);
    }

    /// The credits the last [`CreditReturn::emit`] took out, as (input port, VC), at most
    /// one per port, in no particular order (valid until the next step pushes a credit).
    #[inline]
    pub fn emitted(&self) -> &[(u32, VcId)] {
        let (start, n) = (self.emitted.0 as usize, self.emitted.1 as usize);
        &self.credits[start..start + n]
    }

    /// True when no credit waits.
    pub fn is_empty(&self) -> bool {
        debug_assert_eq!(self.len, self.count.iter().sum::<u32>());
        self.len == 0
    }

    /// Credits waiting for input `port`'s VC `vc`.
    pub fn pending(&self, port: usize, vc: u8) -> u32 {
        self.count
            .iter()
            .enumerate()
            .flat_map(|(s, &n)| &self.credits[s * self.ports..][..n as usize])
            .filter(|&&(p, v)| p as usize == port && v.0 == vc)
            .count() as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn credit(vc: u8) -> Credit {
        Credit { vc: VcId(vc) }
    }

    /// Emits cycles `from..to`; returns (cycle, port, VC) of each credit written, by port
    /// within a cycle.
    fn drain(c: &mut CreditReturn, from: u64, to: u64) -> Vec<(u64, usize, u8)> {
        let mut got = Vec::new();
        for t in from..to {
            c.emit(Cycle(t));
            let mut now: Vec<_> = c
                .emitted()
                .iter()
                .map(|&(p, v)| (t, p as usize, v.0))
                .collect();
            now.sort_unstable();
            got.extend(now);
        }
        got
    }

    #[test]
    fn credits_leave_after_the_delay() {
        let mut c = CreditReturn::new(3, 2);
        for t in 0..10u64 {
            c.push((t % 3) as usize, Cycle(t), credit((t % 4) as u8));
            let got = drain(&mut c, t, t + 1);
            if t >= 2 {
                assert_eq!(got, vec![(t, ((t - 2) % 3) as usize, ((t - 2) % 4) as u8)]);
            }
        }
        assert_eq!(c.pending(2, 0) + c.pending(0, 1), 2);
        assert_eq!(drain(&mut c, 10, 12).len(), 2);
        assert!(c.is_empty());
    }

    /// A timeout reset discards a whole packet of one port in one cycle: its credits go
    /// out one per cycle, beyond the ring's first size, and a later credit of the same
    /// port queues behind them.
    #[test]
    fn a_taken_cycle_moves_the_credit_one_cycle_after_the_last() {
        let mut c = CreditReturn::new(2, 1);
        for v in 0..6 {
            c.push_discarded(0, Cycle(10), credit(v));
        }
        c.push(1, Cycle(10), credit(7));
        assert_eq!(drain(&mut c, 10, 12), vec![(11, 0, 0), (11, 1, 7)]);
        c.push(0, Cycle(12), credit(9));
        assert_eq!(c.pending(0, 9), 1);
        let got: Vec<_> = drain(&mut c, 12, 20);
        assert_eq!(
            got,
            vec![
                (12, 0, 1),
                (13, 0, 2),
                (14, 0, 3),
                (15, 0, 4),
                (16, 0, 5),
                (17, 0, 9)
            ]
        );
        // Once the queue is empty, a credit takes the plain delay again.
        c.push(0, Cycle(20), credit(1));
        assert_eq!(drain(&mut c, 20, 22), vec![(21, 0, 1)]);
    }

    #[test]
    fn more_than_64_ports() {
        let mut c = CreditReturn::new(70, 0);
        c.push(69, Cycle(3), credit(2));
        c.push(1, Cycle(3), credit(1));
        assert_eq!(drain(&mut c, 3, 4), vec![(3, 1, 1), (3, 69, 2)]);
    }

    /// A flit discarded on arrival and a flit SA moves from the same port in one cycle:
    /// the second credit takes the next cycle.
    #[test]
    fn a_discard_and_a_move_of_one_port_leave_in_consecutive_cycles() {
        let mut c = CreditReturn::new(2, 1);
        c.push_discarded(1, Cycle(4), credit(3));
        c.push(1, Cycle(4), credit(2));
        c.push(0, Cycle(4), credit(1));
        c.push(1, Cycle(5), credit(0));
        assert_eq!(
            drain(&mut c, 4, 8),
            vec![(5, 0, 1), (5, 1, 3), (6, 1, 2), (7, 1, 0)]
        );
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

        /// Any pattern of discards (any number per port and cycle, before SA) and moves
        /// (at most one per port and cycle): every credit leaves at `now + credit_delay`
        /// or one cycle after the last one queued for its port, whichever is later.
        #[test]
        fn credits_leave_as_a_per_port_queue_says(
            delay in 0u64..4,
            cycles in proptest::collection::vec(
                proptest::collection::vec((0u8..3, proptest::bool::ANY), 3), 1..60),
        ) {
            let mut c = CreditReturn::new(3, delay);
            let mut next_free = [0u64; 3];
            let mut expected = Vec::new();
            let mut queue = |p: usize, now: u64, v: u8, expected: &mut Vec<_>| {
                let due = (now + delay).max(next_free[p]);
                next_free[p] = due + 1;
                expected.push((due, p, v));
            };
            let mut got = Vec::new();
            let end = cycles.len() as u64 + 200;
            for (t, ports) in cycles.iter().enumerate() {
                let now = t as u64;
                for (p, &(discards, moved)) in ports.iter().enumerate() {
                    for k in 0..discards {
                        c.push_discarded(p, Cycle(now), credit(k));
                        queue(p, now, k, &mut expected);
                    }
                    if moved {
                        c.push(p, Cycle(now), credit(9));
                        queue(p, now, 9, &mut expected);
                    }
                }
                got.extend(drain(&mut c, now, now + 1));
            }
            got.extend(drain(&mut c, cycles.len() as u64, end));
            expected.sort_unstable();
            proptest::prop_assert_eq!(got, expected);
            proptest::prop_assert!(c.is_empty());
        }
    }
}
