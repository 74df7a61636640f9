//! What a stepped component wrote, sent onto its own channel sides with its readers woken.

use crate::channel::{DelayLine, DelayLines, Land, WakeRef, Wakes, WriteSide};
use crate::network::wired::{WiredRouter, WiredTerminal};
use flitsim_router::{Credit, Flit, Reset};

/// Where the outputs of a partition's components go: its own channel sides, at `at`
/// (a [`Landing`] when every side has one latency, else the cycle), and the wake-ups of
/// whom each item reaches (`wake`). One component at a time: all of a router's or a
/// terminal's outputs of the cycle, each copied once.
pub(super) struct Sender<'o, A, W> {
    pub at: A,
    pub flits: &'o mut DelayLines<Flit>,
    pub credits: &'o mut DelayLines<Credit>,
    pub resets: &'o mut DelayLines<Reset>,
    pub wake: W,
}

impl<A: Land, W: FnMut(WakeRef, u64)> Sender<'_, A, W> {
    /// Sends what router `wired` wrote in its last step, read where its step left it (its
    /// resets too if `resets`: some router has a timeout); returns the number of flits.
    #[inline(always)]
    pub fn router(&mut self, wired: &mut WiredRouter, resets: bool) -> u64 {
        let out = wired.router.flits_out();
        let sent = out.len() as u64;
        for (o, f) in out {
            let to = wired.ports.get(o.index()).output.write();
            let due = self.flits.send(to.line, self.at, f);
            (self.wake)(to.wake, due);
        }
        for (p, c) in wired.router.credits_out() {
            let to = wired.ports.get(p.index()).input.write();
            let due = self.credits.send(to.line, self.at, &c);
            (self.wake)(to.wake, due);
        }
        if resets {
            for (slot, w) in wired.resets_out.iter_mut().zip(wired.ports.iter()) {
                if let Some(r) = slot.take() {
                    let to = w.input.write();
                    let due = self.resets.send(to.line, self.at, &r);
                    (self.wake)(to.wake, due);
                }
            }
        }
        sent
    }

    /// Sends what terminal `wired` wrote in its last step (its outbox is emptied);
    /// returns the number of flits.
    #[inline(always)]
    pub fn terminal(&mut self, wired: &mut WiredTerminal) -> u64 {
        // The flit is sent from the outbox (not moved out of it first: one copy).
        let sent = if let Some(f) = &wired.flit_out {
            self.item(wired.write_flits, |s, to, at| s.flits.send(to, at, f));
            1
        } else {
            0
        };
        wired.flit_out = None;
        if let Some(c) = wired.credit_out.take() {
            self.item(wired.write_credits, |s, to, at| s.credits.send(to, at, &c));
        }
        sent
    }

    /// One item sent (by `send`) on `to`'s line, and its reader woken.
    #[inline(always)]
    fn item(&mut self, to: WriteSide, send: impl FnOnce(&mut Self, DelayLine, A) -> u64) {
        let due = send(self, to.line, self.at);
        (self.wake)(to.wake, due);
    }
}

/// Phase 2: wakes `w` (nobody for a port without a channel) for an item due at `due`.
#[inline(always)]
pub(super) fn wake(wakes: &mut [Wakes], w: WakeRef, due: u64) {
    if let Some(reader) = wakes.get_mut(w.part as usize) {
        reader.wake_spot(due, w.spot);
    }
}
