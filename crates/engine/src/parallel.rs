//! The cycle loop over partitions: one long-lived worker per partition inside one
//! `crossbeam::thread::scope`, the two phases separated by a barrier (STYLE.md B.4). The
//! serial engine is the one-partition case of the same code: its single worker runs in the
//! calling thread and its barrier is a no-op.
//!
//! Per cycle, each worker: (phase 1) takes shared access to every partition's lines and
//! exclusive access to its own nodes, sums the statuses every partition published after
//! the previous cycle (the same integers in the same order for every worker, so every
//! worker reaches the same stop decision at the same cycle: no leader, no shared mutable
//! state), and computes; barrier; (phase 2) writes its outboxes into its own lines and
//! publishes its status; barrier. In debug builds worker 0 then checks conservation over
//! the whole network while the others wait at a third barrier.
//!
//! The locks only hand out phase-specific access; they are taken with `try_*` and are never
//! contended, a failure panics as a phase bug. A panicking worker poisons the barrier so
//! the others panic instead of waiting forever.

use crate::assemble::{Network, Outbound, PHASE_BUG};
use crate::conservation;
use crate::cycle::{self, Status, View};
use crate::watchdog::Watchdog;
use crossbeam::utils::Backoff;
use flitsim_netlist::Cycle;
use smallvec::SmallVec;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// When a run of cycles stops (checked before each cycle, after the watchdog has seen the
/// previous one).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Stop {
    /// At this cycle.
    At(Cycle),
    /// When every measured packet is delivered, or at this cycle.
    Drained(Cycle),
    /// When no flit is in the network and no packet queued, or at this cycle.
    Idle(Cycle),
}

impl Stop {
    fn reached(self, now: Cycle, s: &Status) -> bool {
        match self {
            Stop::At(end) => now >= end,
            Stop::Drained(end) => {
                now >= end || s.tally.measured_generated == s.tally.measured_delivered
            }
            Stop::Idle(end) => now >= end || (s.in_network() == 0 && s.tally.queued() == 0),
        }
    }
}

/// How a run of cycles ended.
#[derive(Clone, Debug)]
pub(crate) struct Outcome {
    /// The next cycle to simulate.
    pub now: Cycle,
    /// The watchdog after the run.
    pub watchdog: Watchdog,
    /// The cycle at which the watchdog fired, if it did.
    pub fired: Option<Cycle>,
}

/// A sense-reversing spinning barrier (a cycle of a small network is shorter than a
/// futex round trip). Spins, then yields (the machine may be shared).
pub(crate) struct SpinBarrier {
    n: usize,
    count: AtomicUsize,
    sense: AtomicBool,
    poisoned: AtomicBool,
}

impl SpinBarrier {
    pub fn new(n: usize) -> SpinBarrier {
        SpinBarrier {
            n,
            count: AtomicUsize::new(0),
            sense: AtomicBool::new(false),
            poisoned: AtomicBool::new(false),
        }
    }

    /// Waits for all `n` workers.
    ///
    /// # Panics
    /// If another worker panicked.
    pub fn wait(&self) {
        if self.n == 1 {
            return;
        }
        let sense = !self.sense.load(Ordering::Relaxed);
        if self.count.fetch_add(1, Ordering::AcqRel) + 1 == self.n {
            self.count.store(0, Ordering::Relaxed);
            self.sense.store(sense, Ordering::Release);
            return;
        }
        let backoff = Backoff::new();
        while self.sense.load(Ordering::Acquire) != sense {
            assert!(
                !self.poisoned.load(Ordering::Relaxed),
                "another engine worker panicked"
            );
            backoff.snooze();
        }
    }

    fn poison(&self) {
        self.poisoned.store(true, Ordering::Relaxed);
    }
}

struct PoisonOnPanic<'a>(&'a SpinBarrier);

impl Drop for PoisonOnPanic<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.poison();
        }
    }
}

/// Runs cycles from `start` until `stop` (or the watchdog fires) with one worker per
/// partition of `net`; `checks` runs the conservation check after every cycle.
pub(crate) fn run(
    net: &Network,
    start: Cycle,
    stop: Stop,
    watchdog: &Watchdog,
    checks: bool,
) -> Outcome {
    let parts = net.parts.len();
    let barrier = SpinBarrier::new(parts);
    if parts == 1 {
        return worker(0, net, start, stop, watchdog.clone(), &barrier, checks);
    }
    crossbeam::thread::scope(|s| {
        let barrier = &barrier;
        let others: Vec<_> = (1..parts)
            .map(|p| {
                let wd = watchdog.clone();
                s.spawn(move |_| worker(p, net, start, stop, wd, barrier, checks))
            })
            .collect();
        let out = worker(0, net, start, stop, watchdog.clone(), barrier, checks);
        for h in others {
            let o = h.join().expect("engine worker panicked");
            assert_eq!(o.now, out.now, "workers stopped at different cycles");
        }
        out
    })
    .expect("engine worker panicked")
}

fn worker(
    p: usize,
    net: &Network,
    start: Cycle,
    stop: Stop,
    mut watchdog: Watchdog,
    barrier: &SpinBarrier,
    checks: bool,
) -> Outcome {
    let _poison = PoisonOnPanic(barrier);
    let part = &net.parts[p];
    let mut now = start;
    let mut fired = None;
    loop {
        {
            let guards: SmallVec<[_; 8]> = net
                .parts
                .iter()
                .map(|q| q.lines.try_read().expect(PHASE_BUG))
                .collect();
            let lines: SmallVec<[&Outbound; 8]> = guards.iter().map(|g| &**g).collect();
            let mut totals = Status::default();
            for l in &lines {
                totals.merge(&l.status);
            }
            if now > start {
                let last = Cycle(now.0 - 1);
                if watchdog.observe(last, totals.moved, totals.in_network()) {
                    fired = Some(last);
                    break;
                }
            }
            if stop.reached(now, &totals) {
                break;
            }
            let mut nodes = part.nodes.try_lock().expect(PHASE_BUG);
            cycle::compute(now, &mut nodes, &lines, net.resets);
        }
        barrier.wait();
        {
            let mut nodes = part.nodes.try_lock().expect(PHASE_BUG);
            let mut out = part.lines.try_write().expect(PHASE_BUG);
            cycle::write(now, &mut nodes, &mut out);
        }
        barrier.wait();
        if checks {
            if p == 0 {
                conservation::check(now, &View::new(net));
            }
            barrier.wait();
        }
        now = now.plus(1);
    }
    Outcome {
        now,
        watchdog,
        fired,
    }
}
