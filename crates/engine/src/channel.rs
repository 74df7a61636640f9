//! A channel: a delay line of latency `L >= 1` carrying flits downstream on its forward
//! side and credits upstream on its reverse side, with the same latency.
//!
//! Both sides are ring buffers of `L + 1` slots indexed by `cycle mod (L + 1)`. What is
//! sent at cycle `t` sits in the slot of cycle `t + L`; the reader of cycle `t + L` takes
//! it out. A reader empties only the slot due now (phase 1 of a cycle), a writer fills
//! only a slot due later (phase 2), so the two never touch the same slot in one cycle
//! and a slot is always empty when it is written (checked: a full slot is a
//! phase-discipline bug and panics).
//!
//! At most one flit and one credit enter each side per cycle: a channel moves one flit
//! per cycle (flit = phit), and the contract allows at most one credit per channel per cycle.

use flitsim_netlist::Cycle;
use flitsim_router::{Credit, Flit, Reset};

/// One channel's two delay lines.
#[derive(Clone, Debug)]
pub struct Channel {
    latency: u64,
    flits: Box<[Option<Flit>]>,
    credits: Box<[Option<Credit>]>,
    /// Timeout resets on the reverse side (allocated only when resets are enabled).
    resets: Box<[Option<Reset>]>,
    flits_in_flight: u32,
    credits_in_flight: u32,
}

impl Channel {
    /// A channel of `latency >= 1` cycles.
    ///
    /// # Panics
    /// If `latency` is 0 (netlist validation rejects it before the engine sees it).
    pub fn new(latency: u32) -> Channel {
        assert!(latency >= 1, "channel latency must be >= 1, got 0");
        let slots = latency as usize + 1;
        Channel {
            latency: u64::from(latency),
            flits: vec![None; slots].into_boxed_slice(),
            credits: vec![None; slots].into_boxed_slice(),
            resets: Box::new([]),
            flits_in_flight: 0,
            credits_in_flight: 0,
        }
    }

    /// Cycles from send to receive (on both sides).
    pub fn latency(&self) -> u32 {
        self.latency as u32
    }

    #[inline]
    fn slot(&self, t: u64) -> usize {
        (t % (self.latency + 1)) as usize
    }

    /// Phase 1 at `now`: the flit due now, if any (the slot is emptied).
    #[inline]
    pub fn recv_flit(&mut self, now: Cycle) -> Option<Flit> {
        let s = self.slot(now.0);
        let f = self.flits[s].take();
        self.flits_in_flight -= u32::from(f.is_some());
        f
    }

    /// Phase 1 at `now`: the credit due now, if any (the slot is emptied).
    #[inline]
    pub fn recv_credit(&mut self, now: Cycle) -> Option<Credit> {
        let s = self.slot(now.0);
        let c = self.credits[s].take();
        self.credits_in_flight -= u32::from(c.is_some());
        c
    }

    /// Phase 2 at `now`: sends `flit`, readable downstream at `now + latency`.
    ///
    /// # Panics
    /// If a flit was already sent this cycle (two writers, or one writer twice).
    #[inline]
    pub fn send_flit(&mut self, now: Cycle, flit: Flit) {
        let s = self.slot(now.0 + self.latency);
        assert!(
            self.flits[s].is_none(),
            "two flits sent on one channel at cycle {now} (phase discipline broken)"
        );
        self.flits[s] = Some(flit);
        self.flits_in_flight += 1;
    }

    /// Phase 2 at `now`: sends `credit` upstream, readable at `now + latency`.
    ///
    /// # Panics
    /// If a credit was already sent this cycle.
    #[inline]
    pub fn send_credit(&mut self, now: Cycle, credit: Credit) {
        let s = self.slot(now.0 + self.latency);
        assert!(
            self.credits[s].is_none(),
            "two credits sent on one channel at cycle {now} (phase discipline broken)"
        );
        self.credits[s] = Some(credit);
        self.credits_in_flight += 1;
    }

    /// Gives the reverse side a lane for timeout resets (same latency as credits).
    pub fn enable_resets(&mut self) {
        self.resets = vec![None; self.latency as usize + 1].into_boxed_slice();
    }

    /// Phase 1 at `now`: the reset due now, if any.
    #[inline]
    pub fn recv_reset(&mut self, now: Cycle) -> Option<Reset> {
        if self.resets.is_empty() {
            return None;
        }
        let s = self.slot(now.0);
        self.resets[s].take()
    }

    /// Phase 2 at `now`: sends `reset` upstream, readable at `now + latency`.
    ///
    /// # Panics
    /// If resets are not enabled or a reset was already sent this cycle.
    #[inline]
    pub fn send_reset(&mut self, now: Cycle, reset: Reset) {
        let s = self.slot(now.0 + self.latency);
        assert!(
            self.resets[s].is_none(),
            "two resets sent on one channel at cycle {now} (phase discipline broken)"
        );
        self.resets[s] = Some(reset);
    }

    /// Resets on the reverse side (sent, not yet received).
    pub fn resets_in_flight(&self) -> usize {
        self.resets.iter().flatten().count()
    }

    /// Flits on the forward side (sent, not yet received).
    #[inline]
    pub fn flits_in_flight(&self) -> u32 {
        self.flits_in_flight
    }

    /// Credits on the reverse side (sent, not yet received).
    #[inline]
    pub fn credits_in_flight(&self) -> u32 {
        self.credits_in_flight
    }

    /// The flits in flight (any order).
    pub fn flits(&self) -> impl Iterator<Item = &Flit> + '_ {
        self.flits.iter().flatten()
    }

    /// The credits in flight (any order).
    pub fn credits(&self) -> impl Iterator<Item = &Credit> + '_ {
        self.credits.iter().flatten()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use flitsim_netlist::{TerminalId, VcId};
    use flitsim_router::{FlitKind, PacketId};

    fn flit(seq: u32) -> Flit {
        Flit {
            packet: PacketId {
                source: TerminalId(0),
                seq,
            },
            index: 0,
            len: 1,
            kind: FlitKind::HeadTail,
            vc: VcId(0),
            dest: TerminalId(1),
            created: Cycle(0),
            injected: Cycle(0),
            hops: 0,
        }
    }

    #[test]
    fn a_flit_arrives_exactly_latency_cycles_later() {
        for lat in 1..5u32 {
            let mut ch = Channel::new(lat);
            // Send one flit every cycle; receive every cycle (receive before send, as the
            // two phases do).
            for t in 0..20u64 {
                let got = ch.recv_flit(Cycle(t));
                if t >= u64::from(lat) {
                    assert_eq!(got.map(|f| f.packet.seq), Some((t - u64::from(lat)) as u32));
                } else {
                    assert!(got.is_none());
                }
                ch.send_flit(Cycle(t), flit(t as u32));
                assert_eq!(ch.flits_in_flight(), lat.min(t as u32 + 1));
            }
        }
    }

    #[test]
    fn credits_take_the_same_latency() {
        let mut ch = Channel::new(3);
        ch.send_credit(Cycle(5), Credit { vc: VcId(2) });
        for t in 6..8 {
            assert!(ch.recv_credit(Cycle(t)).is_none());
        }
        assert_eq!(ch.recv_credit(Cycle(8)), Some(Credit { vc: VcId(2) }));
        assert_eq!(ch.credits_in_flight(), 0);
    }

    #[test]
    #[should_panic(expected = "phase discipline")]
    fn two_flits_in_one_cycle_panic() {
        let mut ch = Channel::new(2);
        ch.send_flit(Cycle(0), flit(0));
        ch.send_flit(Cycle(0), flit(1));
    }
}
