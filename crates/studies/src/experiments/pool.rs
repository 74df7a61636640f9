//! The job pool: maps a function over items on scoped worker threads, with results in
//! item order whatever the thread count.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// Maps `f` over `items` on `threads` scoped threads, or over the ranks of an MPI job
/// ([`crate::cluster`]); results in input order.
pub fn parallel_map<T: Sync, R: Send + crate::cluster::Portable>(
    items: &[T],
    threads: usize,
    f: impl Fn(&T) -> R + Sync,
) -> Vec<R> {
    #[cfg(feature = "mpi")]
    if crate::cluster::ranks() > 1 {
        return crate::cluster::map(items, f);
    }
    map_on_threads(items, threads, f)
}

/// Maps `f` over `items` on `threads` scoped threads of this process; results in input
/// order. For results that cannot travel between MPI ranks.
pub fn map_on_threads<T: Sync, R: Send>(
    items: &[T],
    threads: usize,
    f: impl Fn(&T) -> R + Sync,
) -> Vec<R> {
    let next = AtomicUsize::new(0);
    let results: Vec<Mutex<Option<R>>> = items.iter().map(|_| Mutex::new(None)).collect();
    std::thread::scope(|s| {
        for _ in 0..threads.max(1).min(items.len().max(1)) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(item) = items.get(i) else { break };
                let r = f(item);
                *results[i].lock().expect("result slot") = Some(r);
            });
        }
    });
    results
        .into_iter()
        .map(|m| {
            m.into_inner()
                .expect("result slot")
                .expect("every item mapped")
        })
        .collect()
}

/// Told what an experiment is doing (a progress display); `()` ignores it.
pub trait Progress: Sync {
    /// The current step, in words.
    fn step(&self, _what: &str) {}
    /// `jobs` more simulations were queued.
    fn queued(&self, _jobs: u64) {}
    /// One queued simulation finished.
    fn finished(&self) {}
}

impl Progress for () {}

#[cfg(test)]
mod tests {
    use super::parallel_map;

    #[test]
    fn results_come_in_item_order_for_any_thread_count() {
        let items: Vec<u64> = (0..37).collect();
        let want: Vec<u64> = items.iter().map(|x| x * x).collect();
        for threads in [0, 1, 2, 5, 64] {
            assert_eq!(parallel_map(&items, threads, |x| x * x), want, "{threads}");
        }
        assert!(parallel_map(&[] as &[u64], 3, |x| *x).is_empty());
    }
}
