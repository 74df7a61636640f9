//! The uniform walk's drivers: the destinations split over workers, the sums added up.

use super::sums::UniformSums;
use super::walker::Walker;
use super::workers::{running_workers, workers_of_threads};
use flitsim_netlist::Netlist;
use flitsim_routing::RoutingFunction;

impl UniformSums {
    /// The sums for `netlist` under `routing`, on one thread.
    ///
    /// # Panics
    /// As [`zero_load_route`](super::zero_load_route), for a broken routing function.
    pub fn of(netlist: &Netlist, routing: &dyn RoutingFunction) -> UniformSums {
        UniformSums::of_threads(netlist, routing, 1)
    }

    /// The sums for `netlist` under `routing`, the destinations split over up to
    /// `threads` workers (at most one per 256 destinations; 0 counts as 1). The sums are
    /// integers, so they are the same for any `threads`.
    ///
    /// A generated torus, mesh, ring or hypercube under a dimension-order function with one
    /// timing throughout takes a closed form, O(routers) (module docs). Otherwise, cost:
    /// per destination, the remaining latency of every router or state met is remembered, so each source's walk stops at the first one seen before (see the
    /// module docs); a routing function is asked about every pair at least once, so this
    /// is O(pairs) with a small constant: about 11 ns a pair on one core for a
    /// dimension-order function (3 s for the 268 M pairs of a 128x128 torus), about three
    /// times that for others. The sums are the same integers as adding
    /// [`zero_load_latency_pair`](super::zero_load_latency_pair) over all pairs.
    ///
    /// Memory: each worker has its own memo, 16 bytes per router for a dimension-order
    /// function and per (router, input port, input VC) for others (`WalkMemos`, which
    /// the memory estimate counts).
    ///
    /// # Panics
    /// As [`zero_load_route`](super::zero_load_route), for a broken routing function.
    pub fn of_threads(
        netlist: &Netlist,
        routing: &dyn RoutingFunction,
        threads: usize,
    ) -> UniformSums {
        if let Some(sums) = super::closed_form::uniform_sums(netlist, routing) {
            return sums;
        }
        let workers = workers_of_threads(threads, netlist.num_terminals());
        UniformSums::of_workers(netlist, routing, workers)
    }

    /// [`UniformSums::of_threads`] with exactly `workers` workers (0 counts as 1), each
    /// taking a contiguous range of destinations.
    pub(super) fn of_workers(
        netlist: &Netlist,
        routing: &dyn RoutingFunction,
        workers: usize,
    ) -> UniformSums {
        let walker = Walker::new(netlist, routing);
        let n = netlist.num_terminals();
        let workers = running_workers(workers, n);
        if workers == 1 {
            return walker.sums(0..n);
        }
        let chunk = n.div_ceil(workers);
        let walker = &walker;
        let parts: Vec<UniformSums> = crossbeam::thread::scope(|scope| {
            let handles: Vec<_> = (0..workers)
                .map(|i| {
                    let dests = (i * chunk).min(n)..((i + 1) * chunk).min(n);
                    scope.spawn(move |_| walker.sums(dests))
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
                .collect()
        })
        .unwrap_or_else(|e| std::panic::resume_unwind(e));
        parts
            .into_iter()
            .fold(UniformSums::default(), |a, b| UniformSums {
                pairs: a.pairs + b.pairs,
                base: a.base + b.base,
                saf: a.saf + b.saf,
            })
    }
}
