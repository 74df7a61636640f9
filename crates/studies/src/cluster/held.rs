//! Which job each worker rank holds, so that rank 0 can say what was lost when `mpirun`
//! stops the job (a rank died, or the user pressed Ctrl-C).

use signal_hook::consts::{SIGINT, SIGTERM};
use signal_hook::iterator::Signals;
use std::sync::Mutex;

/// For each rank, the job it is running and how many jobs the current map has.
static HELD: Mutex<Vec<Option<(usize, usize)>>> = Mutex::new(Vec::new());

/// Records that `rank` now runs job `job` of `of`.
pub fn hand(rank: i32, job: usize, of: usize) {
    set(rank, Some((job, of)));
}

/// Records that `rank` holds no job.
pub fn release(rank: i32) {
    set(rank, None);
}

fn set(rank: i32, value: Option<(usize, usize)>) {
    let mut held = HELD.lock().unwrap_or_else(|e| e.into_inner());
    let r = rank as usize;
    if held.len() <= r {
        held.resize(r + 1, None);
    }
    held[r] = value;
}

/// Rank 0: when `mpirun` stops the job (it sends SIGTERM to the surviving ranks when one
/// dies), prints the jobs the workers held and exits; no output file has been written.
pub fn report_when_stopped() {
    let Ok(mut signals) = Signals::new([SIGTERM, SIGINT]) else {
        return;
    };
    std::thread::spawn(move || {
        if let Some(signal) = signals.forever().next() {
            let held = HELD.lock().unwrap_or_else(|e| e.into_inner());
            let jobs: Vec<String> = held
                .iter()
                .enumerate()
                .filter_map(|(rank, h)| {
                    h.map(|(job, of)| format!("rank {rank} held job {} of {of}", job + 1))
                })
                .collect();
            eprintln!(
                "error: the MPI job was stopped (a rank died or was interrupted) while {}",
                if jobs.is_empty() {
                    "no rank held a job".to_string()
                } else {
                    jobs.join(", ")
                }
            );
            eprintln!("help: no output file was written; `mpirun` names the rank that died");
            std::process::exit(128 + signal);
        }
    });
}
