//! The cycle loop over partitions: one long-lived worker per partition inside one
//! `crossbeam::thread::scope`, the two phases separated by a barrier. The
//! serial engine is the one-partition case of the same code: its single worker runs in the
//! calling thread, its barrier is a no-op, and as nobody else reads its lines it runs both
//! phases of a cycle in one pass ([`cycle::alone`]).
//!
//! Per cycle of a parallel window, each worker: (phase 1) takes shared access to every
//! partition's lines and exclusive access to its own nodes, sums the statuses every
//! partition published after the previous cycle (the same integers in the same order for
//! every worker, so every worker reaches the same stop decision at the same cycle: no
//! leader, no shared mutable state), and computes; barrier; (phase 2) writes what its
//! components wrote into its own lines and publishes its status; barrier. In debug builds worker 0 then
//! checks conservation over the whole network while the others wait at a third barrier.
//!
//! **Serial windows.** Cycles are grouped into windows of [`WINDOW_CYCLES`] cycles
//! (aligned to cycle 0). When a window opens, every worker takes the same decision from
//! the same integers ([`WindowState::open`]): if the routers stepped per cycle per worker
//! in the previous window fell below `SimConfig::min_parallel_work`, the window runs
//! serially. Worker 0 then steps every partition itself, cycle by cycle, phase 1 of every
//! partition then phase 2 of every partition (the same phase discipline, without
//! barriers), while the other workers block on a [`Gate`] (they sleep, they do not spin).
//! When a window opens in parallel again, or the run ends (stop rule or watchdog, at any
//! cycle of the window), worker 0 hands its [`Progress`] (cycle, watchdog, window state,
//! how the run ended) to the others through the gate, so they continue from exactly its
//! state. The partitions are never changed, and which worker steps a partition carries no
//! meaning, so results do not depend on the windows' modes either; only speed does (a
//! lightly loaded small network's cycle is shorter than two barrier round trips between
//! cores).
//!
//! The locks only hand out phase-specific access; they are taken with `try_*` and are never
//! contended, a failure panics as a phase bug. A panicking worker poisons the barrier and
//! the gate so the others panic instead of waiting forever.

use crate::assemble::{Network, Outbound, PHASE_BUG};
use crate::checks::conservation;
use crate::checks::watchdog::Watchdog;
use crate::cycle::{self, Status, View};
use crossbeam::utils::Backoff;
use flitsim_netlist::Cycle;
use smallvec::SmallVec;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, PoisonError, RwLockReadGuard};

/// Cycles per window of the serial/parallel decision. Long enough that a switch (one
/// barrier and one wake-up of the sleeping workers, tens of microseconds) costs little
/// against the window (256 cycles of even a small network are about a millisecond), short
/// enough to follow a load that changes (a warm-up, a drain going quiet).
pub const WINDOW_CYCLES: u64 = 256;

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
    /// The cycle the run stops at at the latest (none from it on is simulated).
    pub fn end(self) -> Cycle {
        match self {
            Stop::At(end) | Stop::Drained(end) | Stop::Idle(end) => end,
        }
    }

    /// This stop with its cycle brought back to `last`, if it is later (`None`: it is not).
    pub fn capped(self, last: Cycle) -> Option<Stop> {
        (self.end() > last).then_some(match self {
            Stop::At(_) => Stop::At(last),
            Stop::Drained(_) => Stop::Drained(last),
            Stop::Idle(_) => Stop::Idle(last),
        })
    }

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

/// The mode of the current window and what the next decision needs; the simulation keeps
/// it from one run of cycles to the next (a window may span several runs).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct WindowState {
    /// The current window runs serially (worker 0 steps every partition).
    pub serial: bool,
    /// The cycle the current window opened.
    pub opened: Cycle,
    /// Routers stepped in the whole network (`Status::stepped`, since cycle 0) when it
    /// opened.
    pub stepped: u64,
    /// Cycles simulated in serial windows so far (for `Perf`; one worker counts none).
    pub serial_cycles: u64,
}

impl WindowState {
    /// The state at cycle 0 of `routers` routers on `workers` workers. The first window
    /// has no history: it runs serially only if even every router stepped every cycle
    /// would fall below `min_work` per worker.
    pub fn new(routers: usize, workers: usize, min_work: u64) -> WindowState {
        WindowState {
            serial: workers > 1 && (routers as u64) < min_work.saturating_mul(workers as u64),
            opened: Cycle(0),
            stepped: 0,
            serial_cycles: 0,
        }
    }

    /// Opens the window starting at `now` (a multiple of [`WINDOW_CYCLES`]) given the
    /// network's `stepped` count: serial if the previous window stepped fewer than
    /// `min_work` routers per cycle per worker. Integers only, the same on every worker.
    fn open(&mut self, now: Cycle, stepped: u64, workers: usize, min_work: u64) {
        if now <= self.opened {
            return;
        }
        let cycles = now.0 - self.opened.0;
        let work = stepped.saturating_sub(self.stepped);
        self.serial = workers > 1
            && work
                < min_work
                    .saturating_mul(workers as u64)
                    .saturating_mul(cycles);
        self.opened = now;
        self.stepped = stepped;
    }
}

/// What every worker carries from cycle to cycle (all workers hold equal copies; after a
/// serial window worker 0 hands its copy to the others), and at the end of a run how it
/// ended.
#[derive(Clone, Debug)]
pub(crate) struct Progress {
    /// The next cycle to simulate.
    pub now: Cycle,
    /// The watchdog (it has seen every cycle before `now`).
    pub watchdog: Watchdog,
    /// The cycle at which the watchdog fired, if it did.
    pub fired: Option<Cycle>,
    /// The windows' modes.
    pub windows: WindowState,
}

/// What does not change during a run.
#[derive(Copy, Clone, Debug)]
struct Plan {
    start: Cycle,
    stop: Stop,
    workers: usize,
    min_work: u64,
    /// Run the conservation check after every cycle.
    checks: bool,
}

/// What to do at the current cycle.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Next {
    /// The run is over (stop rule reached, or the watchdog fired).
    End,
    /// Every worker steps its own partition.
    Parallel,
    /// Worker 0 steps every partition; the others sleep.
    Serial,
}

impl Progress {
    /// Before cycle `now`, from every partition's status summed in id order: the
    /// watchdog's verdict on the previous cycle, the stop rule, then at a window boundary
    /// the window's mode.
    fn next(&mut self, plan: &Plan, totals: &Status) -> Next {
        if self.now > plan.start {
            let last = Cycle(self.now.0 - 1);
            if self
                .watchdog
                .observe(last, totals.moved, totals.in_network())
            {
                self.fired = Some(last);
                return Next::End;
            }
        }
        if plan.stop.reached(self.now, totals) {
            return Next::End;
        }
        if self.now.0 % WINDOW_CYCLES == 0 {
            self.windows
                .open(self.now, totals.stepped, plan.workers, plan.min_work);
        }
        if self.windows.serial {
            Next::Serial
        } else {
            Next::Parallel
        }
    }
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

/// Where the workers other than 0 sleep during serial windows: worker 0 opens the gate
/// with its [`Progress`] and what to do next; each sleeper takes a copy.
///
/// A sleeper waits for a generation it has not seen. Worker 0 cannot open the gate twice
/// before every sleeper has taken the first handover: a serial stretch only ends in a
/// parallel cycle (which needs every worker at the barrier) or at the end of the run.
struct Gate {
    state: Mutex<GateState>,
    opened: Condvar,
}

struct GateState {
    generation: u64,
    handover: Option<(Progress, Next)>,
    poisoned: bool,
}

impl Gate {
    fn new() -> Gate {
        Gate {
            state: Mutex::new(GateState {
                generation: 0,
                handover: None,
                poisoned: false,
            }),
            opened: Condvar::new(),
        }
    }

    /// Worker 0, at the end of a serial stretch: wakes the sleepers with `progress`.
    fn open(&self, progress: &Progress, next: Next) {
        let mut st = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        st.generation += 1;
        st.handover = Some((progress.clone(), next));
        self.opened.notify_all();
    }

    /// Sleeps until a handover newer than generation `seen` (then updates `seen`).
    ///
    /// # Panics
    /// If another worker panicked.
    fn wait(&self, seen: &mut u64) -> (Progress, Next) {
        let mut st = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        loop {
            assert!(!st.poisoned, "another engine worker panicked");
            if st.generation != *seen {
                *seen = st.generation;
                return st
                    .handover
                    .clone()
                    .expect("a handover with each generation");
            }
            st = self.opened.wait(st).unwrap_or_else(PoisonError::into_inner);
        }
    }

    fn poison(&self) {
        let mut st = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        st.poisoned = true;
        self.opened.notify_all();
    }
}

/// The workers' synchronisation: the spin barrier of parallel cycles, the gate of serial
/// windows.
struct Rendezvous {
    barrier: SpinBarrier,
    gate: Gate,
}

struct PoisonOnPanic<'a>(&'a Rendezvous);

impl Drop for PoisonOnPanic<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.barrier.poison();
            self.0.gate.poison();
        }
    }
}

/// Shared access to every partition's lines (phase 1, or between cycles).
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
        next = serial(net, &plan, &mut progress);
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
            return alone(net, &plan, progress);
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
/// parallel): nobody else takes the partition's nodes or lines during the run, so they are
/// locked once, not once per cycle, and each cycle is both phases in one pass
/// ([`cycle::alone`]). One worker never opens a serial window ([`WindowState::open`]).
fn alone(net: &Network, plan: &Plan, mut progress: Progress) -> Progress {
    let part = &net.parts[0];
    let mut nodes = part.nodes.try_lock().expect(PHASE_BUG);
    let mut out = part.lines.try_write().expect(PHASE_BUG);
    loop {
        cycle::alone(progress.now, &mut nodes, &mut out, net.resets);
        progress.now = progress.now.plus(1);
        match progress.next(plan, &out.status) {
            Next::Parallel => {}
            Next::End => return progress,
            Next::Serial => unreachable!("a serial window with one worker"),
        }
    }
}

/// Worker `p` from `progress`, whose cycle's decision `next` is already taken.
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
                    cycle::alone(progress.now, &mut nodes, &mut out, net.resets);
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
                    let next = serial(net, plan, &mut progress);
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
/// in parallel or the run ends; returns which.
fn serial(net: &Network, plan: &Plan, progress: &mut Progress) -> Next {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panicking_worker_wakes_the_sleepers_and_the_spinners() {
        let sync = Rendezvous {
            barrier: SpinBarrier::new(3),
            gate: Gate::new(),
        };
        let joined = crossbeam::thread::scope(|s| {
            let sync = &sync;
            let sleeper = s.spawn(move |_| sync.gate.wait(&mut 0));
            let spinner = s.spawn(move |_| sync.barrier.wait());
            let failing = s.spawn(move |_| {
                let _poison = PoisonOnPanic(sync);
                std::thread::sleep(std::time::Duration::from_millis(20));
                panic!("worker 0 fails in a serial window");
            });
            [
                sleeper.join().is_err(),
                spinner.join().is_err(),
                failing.join().is_err(),
            ]
        })
        .expect("every thread joined");
        assert_eq!(joined, [true; 3]);
    }

    #[test]
    fn the_mode_follows_the_previous_window() {
        // 64 routers on 2 workers at 24 per worker: the first window can reach 32.
        let mut w = WindowState::new(64, 2, 24);
        assert!(!w.serial);
        w.open(Cycle(256), 256 * 47, 2, 24);
        assert!(w.serial);
        w.open(Cycle(512), 256 * 47 + 256 * 48, 2, 24);
        assert!(!w.serial);
        // Deciding twice at the same cycle changes nothing.
        w.open(Cycle(512), 0, 2, 24);
        assert!(!w.serial);
        assert!(WindowState::new(64, 2, 33).serial);
        assert!(!WindowState::new(64, 1, u64::MAX).serial);
        let mut one = WindowState::new(64, 1, u64::MAX);
        one.open(Cycle(256), 0, 1, u64::MAX);
        assert!(!one.serial, "one worker has nobody to hand work to");
    }
}
