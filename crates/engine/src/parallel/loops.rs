//! The cycle loops: [`run`] picks one. [`single_worker`] is the release path of every
//! one-partition run; [`worker`] is one thread of a run with several partitions (or one
//! with checks): it steps its group of partitions in [`active_cycles`] while a window
//! keeps it active, and sleeps at the gate otherwise.

use super::ahead::{ahead_windows, Exchange};
use super::lookahead::{exports, window_length, Cuts};
use super::progress::{Next, Plan, Progress};
use super::stop::Stop;
use super::sync::{PoisonOnPanic, Rendezvous, SpinBarrier};
use super::window::{group, WindowState};
use crate::checks::conservation;
use crate::checks::watchdog::Watchdog;
use crate::cycle::{self, View};
use crate::network::assembled::Network;
use crate::network::partition::{Outbound, PHASE_BUG};
use crate::network::status::Status;
use flitsim_netlist::Cycle;
use smallvec::SmallVec;
use std::sync::RwLockReadGuard;

/// Shared access to every partition's channel sides (phase 1, or between cycles).
fn read_lines(net: &Network) -> SmallVec<[RwLockReadGuard<'_, Outbound>; 8]> {
    net.parts
        .iter()
        .map(|q| q.lines.try_read().expect(PHASE_BUG))
        .collect()
}

/// Cycles between conservation checks of `net` (`conservation::check_every`).
fn check_every(net: &Network) -> u64 {
    let view = View::new(net);
    let components = (view.routers().count() + view.terminals().count()) as u64;
    conservation::check_every(conservation::cost(&view), components)
}

/// Every partition's published status, summed in id order.
fn totals(lines: &[&Outbound]) -> Status {
    Status::sum(lines.iter().map(|l| &l.status))
}

/// How a run of cycles steps the partitions, besides where it starts and stops.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Options<'a> {
    /// Routers stepped per cycle per active worker (the window policy's).
    pub min_work: u64,
    /// Run the conservation check after every cycle.
    pub checks: bool,
    /// The sides crossing partition boundaries.
    pub cuts: &'a Cuts,
    /// Lookahead windows allowed (off: the workers meet every cycle).
    pub lookahead: bool,
}

/// Runs cycles from `start` until `stop` (or the watchdog fires) with one worker per
/// partition of `net`, in windows whose active workers follow `windows` and the
/// options' `min_work`.
pub(crate) fn run(
    net: &Network,
    start: Cycle,
    stop: Stop,
    watchdog: &Watchdog,
    windows: WindowState,
    options: Options<'_>,
) -> Progress {
    let plan = Plan {
        start,
        stop,
        workers: net.parts.len(),
        min_work: options.min_work,
        checks: options.checks,
        check_every: if options.checks { check_every(net) } else { 1 },
        lookahead: if options.lookahead {
            options.cuts.lookahead
        } else {
            1
        },
    };
    let exchange = Exchange {
        cuts: options.cuts,
        exports: exports(if plan.lookahead > 1 { plan.workers } else { 0 }),
    };
    let mut progress = Progress {
        now: start,
        watchdog: watchdog.clone(),
        fired: None,
        windows,
        slot: 0,
    };
    let mut next = {
        let guards = read_lines(net);
        let lines: SmallVec<[&Outbound; 8]> = guards.iter().map(|g| &**g).collect();
        progress.next(&plan, &totals(&lines))
    };
    let sync = Rendezvous::new(plan.workers);
    if next == Next::Step(1) && plan.workers > 1 {
        // Nobody else runs yet: no worker to spawn, none to wake.
        next = active_cycles(0, 1, net, &plan, &mut progress, sync.barrier(1), &exchange);
    }
    if next == Next::End {
        return progress;
    }
    if plan.workers == 1 {
        if !plan.checks {
            return single_worker(net, &plan, progress);
        }
        return worker(0, net, &plan, progress, next, (&sync, &exchange));
    }
    crossbeam::thread::scope(|s| {
        let (sync, plan, exchange) = (&sync, &plan, &exchange);
        let others: Vec<_> = (1..plan.workers)
            .map(|p| {
                let progress = progress.clone();
                s.spawn(move |_| worker(p, net, plan, progress, next, (sync, exchange)))
            })
            .collect();
        let out = worker(0, net, plan, progress, next, (sync, exchange));
        for h in others {
            let o = h.join().expect("engine worker panicked");
            assert_eq!(o.now, out.now, "workers stopped at different cycles");
            assert_eq!(o.windows, out.windows, "workers disagree on the windows");
        }
        out
    })
    .expect("engine worker panicked")
}

/// The only worker, without checks between cycles, from `progress` (its cycle decided).
/// It exists because it is the fastest loop of the commonest run: nobody else takes the
/// partition's members or sides during the run, so they are locked once, not once per
/// cycle, and each cycle is both phases in one pass ([`cycle::fused_cycle`]). Running one
/// partition through [`worker`] instead costs about 280 instructions per cycle (locks,
/// the status sum): 2.8% of a torus 8x8 cycle at 0.05 flits/terminal/cycle.
fn single_worker(net: &Network, plan: &Plan, mut progress: Progress) -> Progress {
    let part = &net.parts[0];
    let mut members = part.members.try_lock().expect(PHASE_BUG);
    let mut out = part.lines.try_write().expect(PHASE_BUG);
    loop {
        cycle::fused_cycle(progress.now, &mut members, &mut out, net.resets);
        progress.now = progress.now.plus(1);
        if progress.next(plan, &out.status) == Next::End {
            return progress;
        }
    }
}

/// Worker `p` from `progress`, whose cycle's decision `next` is already taken. While a
/// window keeps it among the `k` active workers it runs [`active_cycles`]; when the
/// active workers change (or the run ends), the active ones meet at their barrier, so
/// that every one has let go of the channel sides, and worker 0 hands its progress to the
/// sleepers through the gate. An idle worker sleeps at the gate until a handover makes it
/// active or ends the run.
fn worker(
    p: usize,
    net: &Network,
    plan: &Plan,
    mut progress: Progress,
    mut next: Next,
    (sync, exchange): (&Rendezvous, &Exchange<'_>),
) -> Progress {
    let _poison = PoisonOnPanic(sync);
    let mut seen = 0;
    loop {
        match next {
            Next::End => return progress,
            Next::Step(k) if p < k => {
                let barrier = sync.barrier(k);
                let after = active_cycles(p, k, net, plan, &mut progress, barrier, exchange);
                barrier.wait();
                progress.windows.barriers += u64::from(k > 1);
                seen += 1;
                if p == 0 {
                    sync.gate.open(&progress, after);
                }
                next = after;
            }
            Next::Step(_) => {
                let (handed, after) = sync.gate.wait(&mut seen);
                progress = handed;
                next = after;
            }
        }
    }
}

/// Worker `p` of `k` active workers from `progress.now` (decided `Step(k)`), meeting the
/// others at `barrier`: lookahead windows ([`ahead_windows`]) while they are longer than a
/// cycle, else phase 1 of each partition of its [`group`] in id order, a barrier, phase 2
/// of each, a barrier, and the conservation check if asked; until the decision before a
/// cycle is not `Step(k)`, which it returns. One partition alone runs both phases in one
/// pass. With `k` = 1 this is a serial window: the calling thread steps every partition
/// (a lightly loaded network's cycle is shorter than two barrier round trips between
/// cores).
fn active_cycles(
    p: usize,
    k: usize,
    net: &Network,
    plan: &Plan,
    progress: &mut Progress,
    barrier: &SpinBarrier,
    exchange: &Exchange<'_>,
) -> Next {
    let mine = &net.parts[group(p, k, net.parts.len())];
    let alone = net.parts.len() == 1;
    let mut decided = true;
    loop {
        if !decided {
            let guards = read_lines(net);
            let lines: SmallVec<[&Outbound; 8]> = guards.iter().map(|g| &**g).collect();
            let next = progress.next(plan, &totals(&lines));
            if next != Next::Step(k) {
                return next;
            }
        }
        if window_length(plan, progress) > 1 {
            let next = ahead_windows(p, k, net, plan, progress, barrier, exchange);
            if next != Next::Step(k) {
                return next;
            }
            decided = true;
            continue;
        }
        decided = false;
        let now = progress.now;
        {
            let guards = read_lines(net);
            let lines: SmallVec<[&Outbound; 8]> = guards.iter().map(|g| &**g).collect();
            for part in mine.iter().filter(|_| !alone) {
                let mut members = part.members.try_lock().expect(PHASE_BUG);
                cycle::compute(now, &mut members, &lines, net.resets);
            }
        }
        if alone {
            // Nobody else reads the lines: both phases in one pass.
            let mut members = mine[0].members.try_lock().expect(PHASE_BUG);
            let mut out = mine[0].lines.try_write().expect(PHASE_BUG);
            cycle::fused_cycle(now, &mut members, &mut out, net.resets);
        } else {
            barrier.wait();
            progress.windows.barriers += u64::from(k > 1);
            for part in mine {
                let mut members = part.members.try_lock().expect(PHASE_BUG);
                let mut out = part.lines.try_write().expect(PHASE_BUG);
                cycle::write(now, &mut members, &mut out);
            }
        }
        barrier.wait();
        progress.windows.barriers += u64::from(k > 1 && !alone);
        if plan.checks && now.0 % plan.check_every == 0 {
            if p == 0 {
                conservation::check(now, &View::new(net));
            }
            barrier.wait();
            progress.windows.barriers += u64::from(k > 1);
        }
        progress.now = now.plus(1);
        if !alone {
            progress.windows.worker_cycles += k as u64;
            progress.windows.serial_cycles += u64::from(k == 1);
        }
    }
}
