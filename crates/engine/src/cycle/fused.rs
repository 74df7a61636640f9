//! The fused cycle of the only partition: both phases in one pass (see the module docs
//! of `cycle`).

use super::pass::Pass;
use super::phase1::begin;
use super::phase2::publish;
use super::read::ReadSides;
use super::routers::step_routers;
use super::send::Sender;
use super::terminals::step_terminals;
use crate::channel::{Arrival, ChannelSide, DelayLines, Due, Land, Landing, WakeRef};
use crate::network::partition::{Members, Outbound, PHASE_BUG};
use crate::network::wired::{WiredRouter, WiredTerminal};
use flitsim_netlist::Cycle;
use flitsim_router::{Credit, Flit, Reset};

/// The only partition: reads its own channel sides at `at` (an [`Arrival`] when every line has
/// one latency: the slot of the cycle located once for all reads; else the cycle) and
/// sends each component's outputs onto them right after its step.
struct Fused<'o, D, A, W> {
    at: D,
    send: Sender<'o, A, W>,
}

impl<D: Due, A: Land, W: FnMut(WakeRef, u64)> Pass for Fused<'_, D, A, W> {
    #[inline(always)]
    fn read(&self) -> impl ReadSides<'_> {
        self
    }
    #[inline(always)]
    fn router_stepped(&mut self, wired: &mut WiredRouter, resets: bool) -> u64 {
        self.send.router(wired, resets)
    }
    #[inline(always)]
    fn terminal_stepped(&mut self, wired: &mut WiredTerminal) -> u64 {
        self.send.terminal(wired)
    }
}

impl<'a, D: Due, A, W> ReadSides<'a> for &'a Fused<'_, D, A, W> {
    #[inline(always)]
    fn flit(&self, side: ChannelSide) -> &'a Flit {
        debug_assert_eq!(side.part, 0, "a line of another partition");
        let flits: &'a DelayLines<Flit> = self.send.flits;
        flits.due(side.line, self.at)
    }
    #[inline(always)]
    fn credit(&self, side: ChannelSide) -> Credit {
        debug_assert_eq!(side.part, 0, "a line of another partition");
        *self.send.credits.due(side.line, self.at)
    }
    #[inline]
    fn peek_flit(&self, side: ChannelSide) -> Option<&'a Flit> {
        let flits: &'a DelayLines<Flit> = self.send.flits;
        (side.part == 0)
            .then(|| flits.peek(side.line, self.at))
            .flatten()
    }
    #[inline]
    fn peek_credit(&self, side: ChannelSide) -> Option<Credit> {
        (side.part == 0)
            .then(|| self.send.credits.peek(side.line, self.at).copied())
            .flatten()
    }
    #[inline]
    fn peek_reset(&self, side: ChannelSide) -> Option<Reset> {
        (side.part == 0)
            .then(|| self.send.resets.peek(side.line, self.at).copied())
            .flatten()
    }
}

/// Both phases at `now` for the only partition `members`, whose lines are `out` (see the
/// module docs of `cycle`): phase 1 with each component's outputs sent right after its step, then
/// the status published.
pub(crate) fn fused_cycle(now: Cycle, members: &mut Members, out: &mut Outbound, resets: bool) {
    let t = now.0;
    let Outbound {
        flits,
        credits,
        resets: reset_lines,
        wakes,
        status,
    } = out;
    let [own] = &mut wakes[..] else {
        panic!("{PHASE_BUG}: a partition not alone");
    };
    match members.latency {
        // One latency for every line: everything read now lies at one offset of each
        // ring, everything sent now is due in one bucket; the wake-ups of now are taken
        // where they lie.
        Some(l) => {
            let at = Landing::new(t, l);
            let (woken, mut bucket) = own.take_and_wake(t, at.due());
            begin(members, |(pending, _), (arriving, _)| {
                for (to, w) in pending.iter_mut().zip(woken.routers.iter_mut()) {
                    *to |= std::mem::take(w);
                }
                for (to, w) in arriving.iter_mut().zip(woken.terminals.iter_mut()) {
                    *to |= std::mem::take(w);
                }
            });
            let mut pass = Fused {
                at: Arrival::new(t, l),
                send: Sender {
                    at,
                    flits,
                    credits,
                    resets: reset_lines,
                    wake: |w: WakeRef, due| {
                        debug_assert_eq!(w.part, 0, "a wake-up for another partition");
                        bucket.wake_spot(due, w.spot);
                    },
                },
            };
            step_routers(now, members, Some(woken.arrivals), &mut pass, resets);
            step_terminals(
                now,
                members,
                Some(woken.terminal_arrivals),
                &mut pass,
                resets,
            );
        }
        None => {
            begin(members, |routers, terminals| {
                own.deliver(t, routers, terminals)
            });
            own.prepare(t);
            let mut pass = Fused {
                at: t,
                send: Sender {
                    at: t,
                    flits,
                    credits,
                    resets: reset_lines,
                    wake: |w: WakeRef, due| {
                        debug_assert_eq!(w.part, 0, "a wake-up for another partition");
                        own.wake_spot(due, w.spot);
                    },
                },
            };
            step_routers(now, members, None, &mut pass, resets);
            step_terminals(now, members, None, &mut pass, resets);
        }
    }
    publish(now, members, status);
}
