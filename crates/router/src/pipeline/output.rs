//! Stage 5, output of credits to the upstream routers.
//!
//! - Reads: the credits SA scheduled (one per flit that left an input FIFO at cycle `c`,
//!   at most one per input port per cycle because SA moves at most one flit per input
//!   port per cycle).
//! - Writes: each credit onto the reverse side of its input channel at `c + cd`: `emit`
//!   takes the credits due out of the ring and the engine reads them
//!   ([`CreditReturn::emitted`]); the channel adds its latency L, and the upstream router
//!   may use it in the cycle it arrives.
//! - Knob: `credit_delay` (cd). It does not appear in the zero-load latency; it lengthens
//!   the credit round trip `sd + xd + L + cd + L` (+ the downstream stages) that bounds a
//!   VC's throughput when `buffer_depth` is small.
//!
//! The credits wait in a ring of slots indexed by due cycle, each slot a mask of the
//! input ports with a credit due then and the VC of each. A port has at most one credit
//! due per cycle: a credit whose cycle is taken for its port moves to one cycle after the
//! last one queued (only a timeout reset discards several flits of one port in one cycle);
//! the ring doubles when such a credit falls beyond it.

use crate::flit::Credit;
use flitsim_netlist::{Cycle, VcId};

/// Credits waiting for their `credit_delay`, by due cycle.
#[derive(Clone, Debug)]
pub struct CreditReturn {
    /// Input ports.
    ports: usize,
    /// `credit_delay`.
    delay: u64,
    /// Ring size - 1 (the size is a power of two above the delay).
    mask: u64,
    /// Words of a slot's port mask.
    words: usize,
    /// Slot `s`'s ports with a credit due: bit `p % 64` of `due[s * words + p / 64]`.
    due: Vec<u64>,
    /// VC of port `p`'s credit in slot `s`: `vc[s * ports + p]`.
    vc: Vec<VcId>,
    /// Per port, the first cycle its next credit may be due (one after its last one).
    next_free: Vec<u64>,
    /// Credits in all slots.
    len: usize,
    /// The ports the last `emit` took a credit of (as `due`'s words) and where their VCs
    /// lie in `vc` (the slot takes new credits only from the next step on).
    emitted: Box<[u64]>,
    emitted_vcs: usize,
    /// The last `emit`'s cycle and the credits it left waiting (debug builds check that a
    /// router with credits waiting emits every cycle, which the ring relies on).
    #[cfg(debug_assertions)]
    last_emit: (Cycle, usize),
}

impl CreditReturn {
    /// For `ports` input ports and a delay of `delay` cycles.
    pub fn new(ports: usize, delay: u64) -> CreditReturn {
        let mut c = CreditReturn {
            ports,
            delay,
            mask: 0,
            words: ports.div_ceil(64).max(1),
            due: Vec::new(),
            vc: Vec::new(),
            next_free: vec![0; ports],
            len: 0,
            emitted: vec![0; ports.div_ceil(64).max(1)].into_boxed_slice(),
            emitted_vcs: 0,
            #[cfg(debug_assertions)]
            last_emit: (Cycle(0), 0),
        };
        c.resize((delay + 1).next_power_of_two());
        c
    }

    /// Empties the ring and gives it `slots` slots.
    fn resize(&mut self, slots: u64) {
        self.mask = slots - 1;
        self.due = vec![0; slots as usize * self.words];
        self.vc = vec![VcId(0); slots as usize * self.ports];
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
            self.due[s * self.words..][..self.words]
                .copy_from_slice(&old.due[from * self.words..][..self.words]);
            self.vc[s * self.ports..][..self.ports]
                .copy_from_slice(&old.vc[from * self.ports..][..self.ports]);
        }
    }

    /// The credit of a flit that left (or was discarded from) input `port` at `now`: due
    /// on its channel at `now + credit_delay`, or one cycle after the last credit queued
    /// for that port if that is later (only flits discarded by a timeout reset queue
    /// several credits of one port in one cycle; otherwise SA moves at most one flit per
    /// input port per cycle and the due cycle is always later).
    #[inline(always)]
    pub fn push(&mut self, port: usize, now: Cycle, credit: Credit) {
        let due = (now.0 + self.delay).max(self.next_free[port]);
        self.next_free[port] = due + 1;
        if due - now.0 > self.mask {
            self.grow(now, due);
        }
        let s = (due & self.mask) as usize;
        let w = &mut self.due[s * self.words + port / 64];
        debug_assert_eq!(
            *w >> (port % 64) & 1,
            0,
            "two credits of port {port} due at {due}"
        );
        *w |= 1 << (port % 64);
        self.vc[s * self.ports + port] = credit.vc;
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
            self.last_emit = (now, self.len);
        }
    }

    /// [`CreditReturn::emit`] without the debug check.
    #[inline(always)]
    fn emit_due(&mut self, now: Cycle) {
        if self.len == 0 {
            self.emitted.fill(0);
            return;
        }
        let s = (now.0 & self.mask) as usize;
        self.emitted_vcs = s * self.ports;
        let due = &mut self.due[s * self.words..][..self.words];
        for (e, d) in self.emitted.iter_mut().zip(due) {
            let m = std::mem::take(d);
            *e = m;
            // Counted one by one: cheaper than a popcount without the instruction (the
            // baseline target has none) for the few credits of a cycle.
            let mut bits = m;
            while bits != 0 {
                bits &= bits - 1;
                self.len -= 1;
            }
        }
    }

    /// The credits the last [`CreditReturn::emit`] took out, as (input port, credit), in
    /// ascending port order (valid until the next step pushes a credit).
    #[inline]
    pub fn emitted(&self) -> Emitted<'_> {
        Emitted {
            words: &self.emitted[1..],
            vc: &self.vc[self.emitted_vcs..][..self.ports],
            base: 0,
            m: self.emitted[0],
        }
    }

    /// True when no credit waits.
    pub fn is_empty(&self) -> bool {
        debug_assert_eq!(
            self.len,
            self.due
                .iter()
                .map(|w| w.count_ones() as usize)
                .sum::<usize>()
        );
        self.len == 0
    }

    /// Credits waiting for input `port`'s VC `vc`.
    pub fn pending(&self, port: usize, vc: u8) -> u32 {
        (0..=self.mask as usize)
            .filter(|&s| {
                self.due[s * self.words + port / 64] >> (port % 64) & 1 == 1
                    && self.vc[s * self.ports + port].0 == vc
            })
            .count() as u32
    }
}

/// The credits of one [`CreditReturn::emit`], by ascending input port.
pub struct Emitted<'a> {
    /// The ports' words after the current one.
    words: &'a [u64],
    /// The slot's VC of each port.
    vc: &'a [VcId],
    /// Port of bit 0 of `m`.
    base: usize,
    /// Ports of the current word not yet returned.
    m: u64,
}

impl Iterator for Emitted<'_> {
    type Item = (usize, Credit);

    #[inline]
    fn next(&mut self) -> Option<(usize, Credit)> {
        while self.m == 0 {
            let (&w, rest) = self.words.split_first()?;
            self.words = rest;
            self.base += 64;
            self.m = w;
        }
        let port = self.base + self.m.trailing_zeros() as usize;
        self.m &= self.m - 1;
        Some((port, Credit { vc: self.vc[port] }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn credit(vc: u8) -> Credit {
        Credit { vc: VcId(vc) }
    }

    /// Emits cycles `from..to`; returns (cycle, port, VC) of each credit written.
    fn drain(c: &mut CreditReturn, from: u64, to: u64) -> Vec<(u64, usize, u8)> {
        let mut got = Vec::new();
        for t in from..to {
            c.emit(Cycle(t));
            got.extend(c.emitted().map(|(p, x)| (t, p, x.vc.0)));
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
            c.push(0, Cycle(10), credit(v));
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
}
