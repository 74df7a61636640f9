//! How many workers the uniform walk runs.

/// Fewest destinations worth a worker of [`UniformSums::of_threads`] (a 16x16 torus walks
/// its 256 in about a millisecond, less than starting threads is worth).
const DESTINATIONS_PER_WORKER: usize = 256;

/// The workers [`UniformSums::of_threads`] runs for `threads` asked on `terminals`
/// destinations: at most one per [`DESTINATIONS_PER_WORKER`] destinations, then as
/// [`running_workers`].
pub(super) fn workers_of_threads(threads: usize, terminals: usize) -> usize {
    running_workers(threads.min(terminals / DESTINATIONS_PER_WORKER), terminals)
}

/// The workers [`UniformSums::of_workers`] runs for `workers` asked on `terminals`
/// destinations: at least 1, at most one per destination.
pub(super) fn running_workers(workers: usize, terminals: usize) -> usize {
    workers.clamp(1, terminals.max(1))
}
