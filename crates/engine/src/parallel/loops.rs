//! The cycle loops: [`run`] picks one. [`single_worker`] is the release path of every
//! one-partition run; [`worker`] runs a partition's parallel cycles (and the one-partition
//! cycles with checks); [`serial_windows`] steps every partition from one thread.

use super::progress::{Next, Plan, Progress};
use super::stop::Stop;
use super::sync::{Gate, PoisonOnPanic, Rendezvous, SpinBarrier};
use super::window::WindowState;
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

/// Every partition's published status, summed in id order.
fn totals(lines: &[&Outbound]) -> Status {
    Status::sum(lines.iter().map(|l| &l.status))
}

/// Runs cycles from `start` until `stop` (or the watchdog fires) with one worker per
/// partition of `net`, in windows whose mode follows `windows` and `min_work` (routers
/// stepped per cycle per worker below which a window runs serially); `checks` runs the
/// conservation check after every cycle.
pub(crate) fn run(
    net: &Network,
    start: Cycle,
    stop: Stop,
    watchdog: &Watchdog,
    windows: WindowState,
    min_work: u64,
    checks: bool,
) -> Progress {
    let plan = Plan {
        start,
        stop,
        workers: net.parts.len(),
        min_work,
        checks,
    };
    let mut progress = Progress {
        now: start,
        watchdog: watchdog.clone(),
        fired: None,
        windows,
    };
    let mut next = {
        let guards = read_lines(net);
        let lines: SmallVec<[&Outbound; 8]> = guards.iter().map(|g| &**g).collect();
        progress.next(&plan, &totals(&lines))
    };
    if next == Next::Serial {
        // Nobody else runs yet: no worker to spawn, none to wake.
        next = serial_windows(net, &plan, &mut progress);
    }
    if next == Next::End {
        return progress;
    }
    let sync = Rendezvous {
        barrier: SpinBarrier::new(plan.workers),
        gate: Gate::new(),
    };
    if plan.workers == 1 {
        if !plan.checks {
            debug_assert!(
                next == Next::Parallel,
                "a lone worker starts a parallel cycle"
            );
            return single_worker(net, &plan, progress);
        }
        return worker(0, net, &plan, progress, next, &sync);
    }
    crossbeam::thread::scope(|s| {
        let (sync, plan) = (&sync, &plan);
        let others: Vec<_> = (1..plan.workers)
            .map(|p| {
                let progress = progress.clone();
                s.spawn(move |_| worker(p, net, plan, progress, next, sync))
            })
            .collect();
        let out = worker(0, net, plan, progress, next, sync);
        for h in others {
            let o = h.join().expect("engine worker panicked");
            assert_eq!(o.now, out.now, "workers stopped at different cycles");
            assert_eq!(o.windows, out.windows, "workers disagree on the windows");
        }
        out
    })
    .expect("engine worker panicked")
}

/// The only worker, without checks between cycles, from `progress` (its cycle decided
/// parallel). It exists because it is the fastest loop of the commonest run: nobody else
/// takes the partition's nodes or sides during the run, so they are locked once, not
/// once per cycle, and each cycle is both phases in one pass ([`cycle::fused_cycle`]).
/// Running one partition through [`worker`] instead costs about 280 instructions per
/// cycle (locks, the status sum): 2.8% of a torus 8x8 cycle at 0.05 flits/terminal/cycle.
/// One worker never opens a serial window.
fn single_worker(net: &Network, plan: &Plan, mut progress: Progress) -> Progress {
    let part = &net.parts[0];
    let mut nodes = part.nodes.try_lock().expect(PHASE_BUG);
    let mut out = part.lines.try_write().expect(PHASE_BUG);
    loop {
        cycle::fused_cycle(progress.now, &mut nodes, &mut out, net.resets);
        progress.now = progress.now.plus(1);
        match progress.next(plan, &out.status) {
            Next::Parallel => {}
            Next::End => return progress,
            Next::Serial => unreachable!("a serial window with one worker"),
        }
    }
}

/// Worker `p` from `progress`, whose cycle's decision `next` is already taken: phase 1
/// of its partition, a barrier, phase 2, a barrier, and the conservation check if asked;
/// in a serial window worker 0 steps every partition while the others sleep at the
/// gate. A lone worker runs here only with checks ([`single_worker`] otherwise).
fn worker(
    p: usize,
    net: &Network,
    plan: &Plan,
    mut progress: Progress,
    next: Next,
    sync: &Rendezvous,
) -> Progress {
    let _poison = PoisonOnPanic(sync);
    let part = &net.parts[p];
    let alone = net.parts.len() == 1;
    let mut decided = Some(next);
    let mut seen = 0;
    loop {
        let next = {
            let guards = read_lines(net);
            let lines: SmallVec<[&Outbound; 8]> = guards.iter().map(|g| &**g).collect();
            let next = match decided.take() {
                Some(n) => n,
                None => progress.next(plan, &totals(&lines)),
            };
            if next == Next::Parallel && !alone {
                let mut nodes = part.nodes.try_lock().expect(PHASE_BUG);
                cycle::compute(progress.now, &mut nodes, &lines, net.resets);
            }
            next
        };
        match next {
            Next::End => break,
            Next::Parallel => {
                if alone {
                    // Nobody else reads the lines: both phases in one pass.
                    let mut nodes = part.nodes.try_lock().expect(PHASE_BUG);
                    let mut out = part.lines.try_write().expect(PHASE_BUG);
                    cycle::fused_cycle(progress.now, &mut nodes, &mut out, net.resets);
                } else {
                    sync.barrier.wait();
                    let mut nodes = part.nodes.try_lock().expect(PHASE_BUG);
                    let mut out = part.lines.try_write().expect(PHASE_BUG);
                    cycle::write(progress.now, &mut nodes, &mut out);
                }
                sync.barrier.wait();
                if plan.checks {
                    if p == 0 {
                        conservation::check(progress.now, &View::new(net));
                    }
                    sync.barrier.wait();
                }
                progress.now = progress.now.plus(1);
            }
            Next::Serial => {
                // Every worker has let go of the lines before worker 0 takes them all.
                sync.barrier.wait();
                let next = if p == 0 {
                    let next = serial_windows(net, plan, &mut progress);
                    sync.gate.open(&progress, next);
                    next
                } else {
                    let (handed, next) = sync.gate.wait(&mut seen);
                    progress = handed;
                    next
                };
                decided = Some(next);
            }
        }
    }
    progress
}

/// Serial windows from `progress.now` (decided serial): the calling thread steps every
/// partition, phase 1 of all in partition order then phase 2 of all, until a window opens
/// in parallel or the run ends; returns which. It exists because a lightly loaded
/// network's cycle is shorter than two barrier round trips between cores.
fn serial_windows(net: &Network, plan: &Plan, progress: &mut Progress) -> Next {
    loop {
        let now = progress.now;
        {
            let guards = read_lines(net);
            let lines: SmallVec<[&Outbound; 8]> = guards.iter().map(|g| &**g).collect();
            for part in &net.parts {
                let mut nodes = part.nodes.try_lock().expect(PHASE_BUG);
                cycle::compute(now, &mut nodes, &lines, net.resets);
            }
        }
        for part in &net.parts {
            let mut nodes = part.nodes.try_lock().expect(PHASE_BUG);
            let mut out = part.lines.try_write().expect(PHASE_BUG);
            cycle::write(now, &mut nodes, &mut out);
        }
        if plan.checks {
            conservation::check(now, &View::new(net));
        }
        progress.now = now.plus(1);
        progress.windows.serial_cycles += 1;
        let guards = read_lines(net);
        let lines: SmallVec<[&Outbound; 8]> = guards.iter().map(|g| &**g).collect();
        let next = progress.next(plan, &totals(&lines));
        if next != Next::Serial {
            return next;
        }
    }
}
