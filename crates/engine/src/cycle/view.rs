//! Read access to the whole network between cycles (conservation checks, watchdog,
//! reports).

use crate::network::assembled::Network;
use crate::network::partition::{Members, Outbound, PHASE_BUG};
use crate::network::status::Status;
use crate::network::wired::{WiredRouter, WiredTerminal};
use flitsim_netlist::Cycle;
use flitsim_router::{Credit, Flit};
use smallvec::SmallVec;
use std::sync::{MutexGuard, RwLockReadGuard};

/// Read access to the whole network between cycles (conservation checks, watchdog,
/// reports): every partition's members and lines, taken with `try_lock`/`try_read` (nobody
/// else holds them at that point; a failure is a phase bug).
pub(crate) struct View<'a> {
    pub net: &'a Network,
    members: SmallVec<[MutexGuard<'a, Members>; 8]>,
    lines: SmallVec<[RwLockReadGuard<'a, Outbound>; 8]>,
}

impl<'a> View<'a> {
    /// Locks every partition of `net` for reading.
    pub fn new(net: &'a Network) -> View<'a> {
        View {
            net,
            members: net
                .parts
                .iter()
                .map(|p| p.members.try_lock().expect(PHASE_BUG))
                .collect(),
            lines: net
                .parts
                .iter()
                .map(|p| p.lines.try_read().expect(PHASE_BUG))
                .collect(),
        }
    }

    /// Router `i`.
    pub fn router(&self, i: usize) -> &WiredRouter {
        let p = self.net.part_of(i);
        &self.members[p].routers[i - self.members[p].lo]
    }

    /// Terminal `i`.
    pub fn terminal(&self, i: usize) -> &WiredTerminal {
        let p = self.net.part_of_terminal(i);
        &self.members[p].terminals[i - self.members[p].terminal_lo]
    }

    /// All routers in id order.
    pub fn routers(&self) -> impl Iterator<Item = &WiredRouter> + '_ {
        self.members.iter().flat_map(|n| n.routers.iter())
    }

    /// All terminals in id order.
    pub fn terminals(&self) -> impl Iterator<Item = &WiredTerminal> + '_ {
        self.members.iter().flat_map(|n| n.terminals.iter())
    }

    /// Flits travelling on channel `ch` (global index) at the start of cycle `next`.
    pub fn flits_on(&self, ch: usize, next: Cycle) -> impl Iterator<Item = &Flit> + '_ {
        let f = self.net.channels[ch].forward;
        self.lines[f.part as usize].flits.in_flight(f.line, next.0)
    }

    /// Credits travelling on channel `ch`'s reverse side at the start of cycle `next`.
    pub fn credits_on(&self, ch: usize, next: Cycle) -> impl Iterator<Item = &Credit> + '_ {
        let r = self.net.channels[ch].reverse;
        self.lines[r.part as usize]
            .credits
            .in_flight(r.line, next.0)
    }

    /// Resets travelling on channel `ch`'s reverse side at the start of cycle `next`.
    pub fn resets_on(&self, ch: usize, next: Cycle) -> usize {
        if !self.net.resets {
            return 0;
        }
        let r = self.net.channels[ch].reverse;
        self.lines[r.part as usize]
            .resets
            .in_flight(r.line, next.0)
            .count()
    }

    /// The cycle up to which the network makes progress without any flit moving: the
    /// last arrival scheduled on any line (flits, credits, resets, injection and ejection
    /// channels included), or `next` if a router holds a flit or credit in a pipeline
    /// delay. `None` when nothing is scheduled.
    pub fn busy_until(&self, next: Cycle) -> Option<Cycle> {
        let lines = self.lines.iter().flat_map(|l| {
            [
                l.flits.last_due(next.0),
                l.credits.last_due(next.0),
                l.resets.last_due(next.0),
            ]
        });
        let piped = self.routers().any(|n| n.router.in_pipeline(next));
        lines.flatten().max().map(Cycle).max(piped.then_some(next))
    }

    /// Slots of every delay line (flits and credits), empty or not.
    pub fn line_slots(&self) -> u64 {
        self.lines
            .iter()
            .map(|l| (l.flits.slot_count() + l.credits.slot_count()) as u64)
            .sum()
    }

    /// Every partition's published status, summed in id order.
    pub fn totals(&self) -> Status {
        Status::sum(self.lines.iter().map(|l| &l.status))
    }
}
