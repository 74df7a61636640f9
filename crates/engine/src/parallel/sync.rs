//! The workers' synchronisation primitives: a spinning barrier for the active workers'
//! cycles and a gate the other workers sleep at.

use super::progress::{Next, Progress};
use crossbeam::utils::Backoff;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, PoisonError};

/// A sense-reversing spinning barrier (a cycle of a small network is shorter than a
/// futex round trip). Spins, then yields (the machine may be shared).
pub(super) struct SpinBarrier {
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

/// Where the workers a window leaves idle sleep: at each change of the active workers,
/// worker 0 opens the gate with its [`Progress`] and what to do next; each sleeper takes
/// a copy.
///
/// Generation `g` is the handover of the `g`-th change. Every worker counts the changes
/// it steps through, so it sleeps until a generation newer than the last it knows. A
/// sleeper may miss a generation only when the window it opened leaves it idle (a window
/// that needs it cannot end without it at the barrier); the newer handover then holds
/// everything it needs.
pub(super) struct Gate {
    state: Mutex<GateState>,
    opened: Condvar,
}

struct GateState {
    generation: u64,
    handover: Option<(Progress, Next)>,
    poisoned: bool,
}

impl Gate {
    pub fn new() -> Gate {
        Gate {
            state: Mutex::new(GateState {
                generation: 0,
                handover: None,
                poisoned: false,
            }),
            opened: Condvar::new(),
        }
    }

    /// Worker 0, at a change of the active workers: wakes the sleepers with `progress`.
    pub fn open(&self, progress: &Progress, next: Next) {
        let mut st = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        st.generation += 1;
        st.handover = Some((progress.clone(), next));
        self.opened.notify_all();
    }

    /// Sleeps until a handover newer than generation `seen` (then updates `seen`).
    ///
    /// # Panics
    /// If another worker panicked.
    pub fn wait(&self, seen: &mut u64) -> (Progress, Next) {
        let mut st = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        loop {
            assert!(!st.poisoned, "another engine worker panicked");
            if st.generation > *seen {
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

/// The workers' synchronisation: a spin barrier for each number of active workers (the
/// `k`-th for `k` workers), the gate of the idle ones.
pub(super) struct Rendezvous {
    pub barriers: Vec<SpinBarrier>,
    pub gate: Gate,
}

impl Rendezvous {
    pub fn new(workers: usize) -> Rendezvous {
        Rendezvous {
            barriers: (1..=workers).map(SpinBarrier::new).collect(),
            gate: Gate::new(),
        }
    }

    /// The barrier of `k` active workers.
    pub fn barrier(&self, k: usize) -> &SpinBarrier {
        &self.barriers[k - 1]
    }
}

pub(super) struct PoisonOnPanic<'a>(pub &'a Rendezvous);

impl Drop for PoisonOnPanic<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.barriers.iter().for_each(SpinBarrier::poison);
            self.0.gate.poison();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panicking_worker_wakes_the_sleepers_and_the_spinners() {
        let sync = Rendezvous::new(3);
        let joined = crossbeam::thread::scope(|s| {
            let sync = &sync;
            let sleeper = s.spawn(move |_| sync.gate.wait(&mut 0));
            let spinner = s.spawn(move |_| sync.barrier(3).wait());
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
}
