//! Lookahead: the channel sides crossing partition boundaries, the smallest latency
//! among them (how many cycles the partitions may run apart), and the length of each
//! lookahead window.

use super::progress::{Plan, Progress};
use super::stop::Stop;
use super::window::WINDOW_CYCLES;
use crate::channel::{CutSide, Inbox, Lines, WriteSide};
use crate::network::assembled::Network;
use crate::network::partition::{Members, Outbound, PHASE_BUG};
use crate::network::status::Status;
use flitsim_netlist::Cycle;
use std::sync::RwLock;

/// The sides crossing partition boundaries, by writer then reader partition, each list
/// sorted by line; and the lookahead: the smallest latency among them.
#[derive(Clone, Debug, Default)]
pub(crate) struct Cuts {
    by_writer: Vec<Vec<Vec<CutSide>>>,
    /// Cycles the partitions may run without meeting: the smallest latency of a side
    /// crossing a boundary (at most [`WINDOW_CYCLES`]; 1 with one partition).
    pub lookahead: u64,
}

impl Cuts {
    /// The cut sides of `net` (between runs: every partition's members unlocked).
    pub fn of(net: &mut Network) -> Cuts {
        let parts = net.parts.len();
        let mut lookahead = WINDOW_CYCLES;
        let by_writer: Vec<Vec<Vec<CutSide>>> = net
            .parts
            .iter_mut()
            .map(|p| {
                let members = p.members.get_mut().expect(PHASE_BUG);
                let mut to = vec![Vec::new(); parts];
                for c in cut_sides(members) {
                    lookahead = lookahead.min(u64::from(c.side.line.latency()));
                    to[c.side.wake.part as usize].push(c);
                }
                to.iter_mut().for_each(CutSide::sort);
                to
            })
            .collect();
        Cuts {
            by_writer,
            lookahead: if parts > 1 { lookahead } else { 1 },
        }
    }

    /// The sides partition `writer` writes and partition `reader` reads.
    pub fn between(&self, writer: usize, reader: usize) -> &[CutSide] {
        &self.by_writer[writer][reader]
    }
}

/// Every side the components of `members` write that another partition reads.
fn cut_sides(members: &Members) -> impl Iterator<Item = CutSide> + '_ {
    let part = members.part as u32;
    let routers = members.routers.iter().flat_map(|r| {
        r.ports.iter().flat_map(|p| {
            [
                CutSide {
                    side: p.output.write(),
                    forward: true,
                },
                CutSide {
                    side: p.input.write(),
                    forward: false,
                },
            ]
        })
    });
    let terminals = members.terminals.iter().flat_map(|t| {
        [
            CutSide {
                side: t.write_flits,
                forward: true,
            },
            CutSide {
                side: t.write_credits,
                forward: false,
            },
        ]
    });
    routers
        .chain(terminals)
        .filter(move |c| c.side.wake.part != part && c.side != WriteSide::NONE)
}

/// What a partition hands the others at the end of a lookahead window: what its cut
/// sides deliver to each in the next window, and its status after each cycle of the
/// window just simulated.
#[derive(Debug, Default)]
pub(super) struct Export {
    /// By reader partition.
    pub to: Vec<Inbox>,
    pub statuses: Vec<Status>,
}

impl Export {
    /// Refills the export of partition `writer` (its lines `out`) with what its cut sides
    /// deliver in `from..from + cycles`.
    pub fn fill(&mut self, cuts: &Cuts, writer: usize, out: &Outbound, from: u64, cycles: u64) {
        let readers = cuts.by_writer[writer].len();
        self.to.resize_with(readers, Inbox::default);
        let lines = Lines {
            flits: &out.flits,
            credits: &out.credits,
            resets: &out.resets,
        };
        for (reader, inbox) in self.to.iter_mut().enumerate() {
            inbox.fill(cuts.between(writer, reader), lines, from, from + cycles);
        }
    }
}

/// Each partition's two exports: the one read during a window and the one filled for
/// the next (a window's parity picks them).
pub(super) type Exports = Vec<[RwLock<Export>; 2]>;

/// Empty exports for `parts` partitions.
pub(super) fn exports(parts: usize) -> Exports {
    (0..parts).map(|_| Default::default()).collect()
}

/// The length of the lookahead window from `progress.now` (its decision taken): as many
/// cycles as the lookahead allows, within the window of the active-worker decision and
/// before the stop cycle, such that no cycle inside it could end the run (a stop other
/// than at a cycle, checks after each cycle, or the watchdog could fire inside: 1).
pub(super) fn window_length(plan: &Plan, progress: &Progress) -> u64 {
    let now = progress.now.0;
    if plan.lookahead < 2 || plan.checks || plan.workers < 2 {
        return 1;
    }
    let Stop::At(end) = plan.stop else {
        return 1;
    };
    let mut w = plan
        .lookahead
        .min(WINDOW_CYCLES - now % WINDOW_CYCLES)
        .min(end.0.saturating_sub(now));
    // The watchdog sees cycle `now + w - 2` before the window's last cycle.
    while w > 1 && progress.watchdog.could_fire(Cycle(now + w - 2)) {
        w -= 1;
    }
    w.max(1)
}
