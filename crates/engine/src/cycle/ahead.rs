//! A cycle of a lookahead window: one partition, both phases in one pass, its own
//! channel sides read and written in place and the other partitions' read from inboxes
//! copied before the window (see [`crate::parallel`]).

use super::pass::Pass;
use super::phase1::begin;
use super::phase2::publish;
use super::read::ReadSides;
use super::routers::step_routers;
use super::send::{wake, Sender};
use super::terminals::step_terminals;
use crate::channel::{Arrival, ChannelSide, DelayLines, Due, Inbox, Land, Landing, WakeRef};
use crate::network::partition::{Members, Outbound};
use crate::network::wired::{WiredRouter, WiredTerminal};
use flitsim_netlist::Cycle;
use flitsim_router::{Credit, Flit, Reset};

/// Partition `part` at cycle `now`: reads its own sides at `at` (an [`Arrival`] when every
/// line has one latency, else the cycle), the other partitions' in `inboxes` (by writer
/// partition), and sends each component's outputs right after its step.
struct Ahead<'o, 'i, D, A, W> {
    at: D,
    now: u64,
    part: u32,
    inboxes: &'i [&'i Inbox],
    send: Sender<'o, A, W>,
}

impl<D: Due, A: Land, W: FnMut(WakeRef, u64)> Pass for Ahead<'_, '_, D, A, W> {
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

/// An item an inbox was woken for but does not hold: the window's lookahead is broken.
const MISSING: &str = "woken for an item of another partition not in its inbox";

impl<'a, D: Due, A, W> ReadSides<'a> for &'a Ahead<'_, '_, D, A, W> {
    #[inline(always)]
    fn flit(&self, side: ChannelSide) -> &'a Flit {
        if side.part == self.part {
            let flits: &'a DelayLines<Flit> = self.send.flits;
            return flits.due(side.line, self.at);
        }
        self.inboxes[side.part as usize]
            .flit(self.now, side.line)
            .expect(MISSING)
    }
    #[inline(always)]
    fn credit(&self, side: ChannelSide) -> Credit {
        if side.part == self.part {
            return *self.send.credits.due(side.line, self.at);
        }
        self.inboxes[side.part as usize]
            .credit(self.now, side.line)
            .expect(MISSING)
    }
    #[inline]
    fn peek_flit(&self, side: ChannelSide) -> Option<&'a Flit> {
        if side.part == self.part {
            let flits: &'a DelayLines<Flit> = self.send.flits;
            return flits.peek(side.line, self.at);
        }
        let inbox: &'a Inbox = self.inboxes.get(side.part as usize)?;
        inbox.flit(self.now, side.line)
    }
    #[inline]
    fn peek_credit(&self, side: ChannelSide) -> Option<Credit> {
        if side.part == self.part {
            return self.send.credits.peek(side.line, self.at).copied();
        }
        self.inboxes
            .get(side.part as usize)?
            .credit(self.now, side.line)
    }
    #[inline]
    fn peek_reset(&self, side: ChannelSide) -> Option<Reset> {
        if side.part == self.part {
            return self.send.resets.peek(side.line, self.at).copied();
        }
        self.inboxes
            .get(side.part as usize)?
            .reset(self.now, side.line)
    }
}

/// Both phases at `now` for partition `members` inside a lookahead window: the components
/// its own wake-ups and the `inboxes` (by writer partition; its own is never read) name
/// for `now` step, reading their inputs where they lie, and send their outputs onto `out`
/// at once (as [`super::fused_cycle`] does; the wake-ups of other partitions are written
/// too, for the cycles after the window); then the status is published.
pub(crate) fn ahead_cycle(
    now: Cycle,
    members: &mut Members,
    out: &mut Outbound,
    inboxes: &[&Inbox],
    resets: bool,
) {
    let (t, part) = (now.0, members.part);
    let Outbound {
        flits,
        credits,
        resets: reset_lines,
        wakes,
        status,
    } = out;
    begin(
        members,
        |(routers, arrivals), (terminals, terminal_arrivals)| {
            wakes[part].deliver(
                t,
                (&mut *routers, &mut *arrivals),
                (&mut *terminals, &mut *terminal_arrivals),
            );
            for (q, inbox) in inboxes.iter().enumerate().filter(|(q, _)| *q != part) {
                debug_assert!(q < wakes.len(), "an inbox of no partition");
                inbox.wake(
                    t,
                    (&mut *routers, &mut *arrivals),
                    (&mut *terminals, &mut *terminal_arrivals),
                );
            }
        },
    );
    for w in wakes.iter_mut() {
        w.prepare(t);
    }
    let part = part as u32;
    match members.latency {
        Some(l) => {
            let mut pass = Ahead {
                at: Arrival::new(t, l),
                now: t,
                part,
                inboxes,
                send: Sender {
                    at: Landing::new(t, l),
                    flits,
                    credits,
                    resets: reset_lines,
                    wake: |w, due| wake(wakes, w, due),
                },
            };
            step_routers(now, members, None, &mut pass, resets);
            step_terminals(now, members, None, &mut pass, resets);
        }
        None => {
            let mut pass = Ahead {
                at: t,
                now: t,
                part,
                inboxes,
                send: Sender {
                    at: t,
                    flits,
                    credits,
                    resets: reset_lines,
                    wake: |w, due| wake(wakes, w, due),
                },
            };
            step_routers(now, members, None, &mut pass, resets);
            step_terminals(now, members, None, &mut pass, resets);
        }
    }
    publish(now, members, status);
}
