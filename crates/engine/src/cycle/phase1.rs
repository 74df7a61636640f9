//! Phase 1: the components woken or busy now step, reading what their channel sides
//! deliver.

use super::pass::Deferred;
use super::read::AllSides;
use super::routers::step_routers;
use super::terminals::step_terminals;
use crate::network::partition::{Members, Outbound};
use crate::terminal::Tally;
use flitsim_netlist::Cycle;

/// Before the first cycle of a run (serially, from the simulation): the routers to step
/// are exactly the non-quiescent ones (router state may have been read or changed between
/// runs), the terminals' counts are taken afresh, and they draw no generation trial ahead
/// for a cycle from `end` on ([`crate::terminal::Terminal::draw_until`]).
pub(crate) fn start(members: &mut Members, end: Cycle) {
    members.pending.fill(0);
    debug_assert!(members.arriving.iter().all(|&w| w == 0));
    for (i, wired) in members.routers.iter().enumerate() {
        if !wired.router.is_quiescent() {
            members.pending[i / 64] |= 1 << (i % 64);
        }
    }
    let mut tally = Tally::default();
    for t in &mut members.terminals {
        tally.merge(&Tally::of(&t.terminal));
        t.terminal.draw_until(end);
    }
    members.status.tally = tally;
    // Every terminal steps in the first cycle (it may have been given a packet).
    members.calendar.clear();
    for (w, word) in members.busy.iter_mut().enumerate() {
        let n = (members.terminals.len() - w * 64).min(64);
        *word = if n == 64 { u64::MAX } else { (1 << n) - 1 };
    }
}

/// Phase 1 at `now` for the partition `members`; `lines` are every partition's outbound
/// lines, by partition index.
///
/// Only routers that are not quiescent or receive something now are visited: the
/// pending set carries the first kind from the previous cycle, every writer's wake-ups
/// for this partition the second. Terminals: see `step_terminals`.
pub(crate) fn compute(now: Cycle, members: &mut Members, lines: &[&Outbound], resets: bool) {
    let (t, part) = (now.0, members.part);
    begin(members, |routers, terminals| {
        for l in lines {
            l.wakes[part].deliver(
                t,
                (&mut *routers.0, &mut *routers.1),
                (&mut *terminals.0, &mut *terminals.1),
            );
        }
    });
    let mut pass = Deferred(AllSides { lines, now: t });
    step_routers(now, members, None, &mut pass, resets);
    step_terminals(now, members, None, &mut pass, resets);
}

/// Bit set of components and their arrival masks (padded to 64 per word).
pub(super) type WokenSet<'a> = (&'a mut [u64], &'a mut [u64]);

/// The start of phase 1: the flit counters noted (did a flit move?), and through
/// `deliver` the components woken now added to the ones to step (the routers' bit set
/// and arrival masks, the terminals').
#[inline(always)]
pub(super) fn begin(members: &mut Members, deliver: impl FnOnce(WokenSet<'_>, WokenSet<'_>)) {
    let st = &members.status;
    members.moved_before = st.router_flits + st.injected + st.consumed + st.discarded;
    deliver(
        (&mut members.pending, &mut members.arrivals),
        (&mut members.arriving, &mut members.terminal_arrivals),
    );
}
