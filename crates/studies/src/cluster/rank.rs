//! This process's place in the MPI job: started once by `main`, read anywhere.

use mpi::topology::Communicator;
use std::sync::atomic::{AtomicI32, Ordering};

/// Ranks in the job (0 before [`start`]).
static RANKS: AtomicI32 = AtomicI32::new(0);
/// This process's rank.
static RANK: AtomicI32 = AtomicI32::new(0);

/// The MPI environment; MPI is finalised when it is dropped, at the end of `main`.
pub struct Membership {
    _universe: mpi::environment::Universe,
}

/// Initialises MPI, records this process's rank, and silences every rank but 0: their
/// standard output and error go to `/dev/null`, so only rank 0 prints. `None` when MPI
/// cannot be initialised (the run goes on as one process).
pub fn start() -> Option<Membership> {
    let universe = mpi::initialize()?;
    let world = universe.world();
    RANKS.store(world.size(), Ordering::Relaxed);
    RANK.store(world.rank(), Ordering::Relaxed);
    if world.rank() == 0 {
        super::held::report_when_stopped();
    } else {
        silence();
    }
    Some(Membership {
        _universe: universe,
    })
}

/// Points standard output and error at `/dev/null`.
fn silence() {
    if let Ok(null) = std::fs::OpenOptions::new().write(true).open("/dev/null") {
        // A rank that cannot be silenced prints a copy of rank 0's output, nothing worse.
        let _ = rustix::stdio::dup2_stdout(&null);
        let _ = rustix::stdio::dup2_stderr(&null);
    }
}

/// Ranks in the job: 1 for a process not started by `mpirun`.
pub fn ranks() -> i32 {
    RANKS.load(Ordering::Relaxed).max(1)
}

/// Whether this process is rank 0, the one that prints and writes files.
pub fn is_root() -> bool {
    RANK.load(Ordering::Relaxed) == 0
}
