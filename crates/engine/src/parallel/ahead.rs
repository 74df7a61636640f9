//! The loop of lookahead windows: the active workers step their partitions several
//! cycles between two meetings (see the module docs of `parallel`).

use super::lookahead::{window_length, Cuts, Export, Exports};
use super::progress::{Next, Plan, Progress};
use super::sync::SpinBarrier;
use super::window::group;
use crate::channel::Inbox;
use crate::cycle;
use crate::network::assembled::Network;
use crate::network::partition::PHASE_BUG;
use crate::network::status::Status;
use flitsim_netlist::Cycle;
use smallvec::SmallVec;
use std::sync::RwLockReadGuard;

/// What the workers exchange between lookahead windows: the cut sides and each
/// partition's two exports.
pub(super) struct Exchange<'a> {
    pub cuts: &'a Cuts,
    pub exports: Exports,
}

/// Worker `p` of `k` active workers from `progress.now` (decided `Step(k)`, a window of
/// [`window_length`] >= 2 ahead), meeting the others at `barrier`: lookahead windows
/// while their length is >= 2 and the decision `Step(k)`. Returns the decision before
/// `progress.now` (already taken).
pub(super) fn ahead_windows(
    p: usize,
    k: usize,
    net: &Network,
    plan: &Plan,
    progress: &mut Progress,
    barrier: &SpinBarrier,
    exchange: &Exchange<'_>,
) -> Next {
    let mine = group(p, k, net.parts.len());
    // Coming from cycles in two phases (or a start): the first exports, from the lines.
    for q in mine.clone() {
        let out = net.parts[q].lines.try_read().expect(PHASE_BUG);
        let mut export = exchange.exports[q][progress.slot]
            .try_write()
            .expect(PHASE_BUG);
        export.fill(exchange.cuts, q, &out, progress.now.0, plan.lookahead);
        export.statuses.clear();
    }
    meet(k, progress, barrier);
    let mut length = window_length(plan, progress);
    loop {
        let now = progress.now;
        for q in mine.clone() {
            step_window(q, net, progress.slot, (now, length), plan, exchange);
        }
        meet(k, progress, barrier);
        progress.slot ^= 1;
        let next = replay(k, plan, progress, length, &exchange.exports);
        if next != Next::Step(k) {
            return next;
        }
        length = window_length(plan, progress);
        if length < 2 {
            return next;
        }
    }
}

/// The active workers meet (counted when there are several).
fn meet(k: usize, progress: &mut Progress, barrier: &SpinBarrier) {
    barrier.wait();
    progress.windows.barriers += u64::from(k > 1);
}

/// Partition `q` steps the `length` cycles from `now`, reading the others' exports of
/// `slot`, then fills its export of the other slot: what its cut sides deliver in the
/// next window and its status after each cycle.
fn step_window(
    q: usize,
    net: &Network,
    slot: usize,
    (now, length): (Cycle, u64),
    plan: &Plan,
    exchange: &Exchange<'_>,
) {
    let guards: SmallVec<[RwLockReadGuard<'_, Export>; 8]> = exchange
        .exports
        .iter()
        .map(|e| e[slot].try_read().expect(PHASE_BUG))
        .collect();
    let inboxes: SmallVec<[&Inbox; 8]> = guards.iter().map(|g| inbox(g, q)).collect();
    let mut members = net.parts[q].members.try_lock().expect(PHASE_BUG);
    let mut out = net.parts[q].lines.try_write().expect(PHASE_BUG);
    let mut export = exchange.exports[q][slot ^ 1].try_write().expect(PHASE_BUG);
    export.statuses.clear();
    for c in now.0..now.0 + length {
        cycle::ahead_cycle(Cycle(c), &mut members, &mut out, &inboxes, net.resets);
        export.statuses.push(out.status);
    }
    let next = now.0 + length;
    export.fill(exchange.cuts, q, &out, next, plan.lookahead);
}

/// Partition `q`'s inbox in `export` (empty if `export` was never filled).
fn inbox(export: &Export, q: usize) -> &Inbox {
    static EMPTY: Inbox = Inbox::EMPTY;
    export.to.get(q).unwrap_or(&EMPTY)
}

/// After a window of `length` cycles: every decision inside it and the one after it,
/// from every partition's statuses in the exports of `progress.slot` (summed in id
/// order, as between cycles in two phases). The window's length made every decision
/// inside it `Step(k)`; a different one is a bug.
fn replay(k: usize, plan: &Plan, progress: &mut Progress, length: u64, exports: &Exports) -> Next {
    let guards: SmallVec<[RwLockReadGuard<'_, Export>; 8]> = exports
        .iter()
        .map(|e| e[progress.slot].try_read().expect(PHASE_BUG))
        .collect();
    let start = progress.now.0;
    let mut next = Next::Step(k);
    for j in 0..length as usize {
        let totals = Status::sum(guards.iter().map(|g| &g.statuses[j]));
        progress.now = Cycle(start + j as u64 + 1);
        next = progress.next(plan, &totals);
        assert!(
            j + 1 == length as usize || next == Next::Step(k),
            "a lookahead window of {length} cycles from {start} ended inside"
        );
    }
    progress.windows.worker_cycles += k as u64 * length;
    progress.windows.serial_cycles += length * u64::from(k == 1);
    next
}
