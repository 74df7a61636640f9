//! The walk's memo: its entry, its shape and the bytes of all workers' memos.

use super::workers::workers_of_threads;
use flitsim_netlist::Netlist;

/// The memos the uniform walk ([`UniformSums::of_threads`]) allocates, one per worker,
/// each sized by [`MemoShape::entries`]: what the memory estimate counts for the walk.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct WalkMemos {
    /// Workers, each with its own memo.
    pub workers: usize,
    /// The netlist's routers, ports and VCs.
    pub shape: MemoShape,
    /// The routing function is dimension-order: a memo by router, else by state.
    pub dimension_order: bool,
}

impl WalkMemos {
    /// Bytes of a memo entry.
    pub const ENTRY_BYTES: u64 = std::mem::size_of::<Memo>() as u64;

    /// The memos of the walk of `netlist` with `threads` asked (as
    /// [`UniformSums::of_threads`]), under a routing function that is dimension-order
    /// ([`RoutingFunction::is_dimension_order`]) or not. Costs O(routers + ports).
    pub fn of(netlist: &Netlist, dimension_order: bool, threads: usize) -> WalkMemos {
        WalkMemos {
            workers: workers_of_threads(threads, netlist.num_terminals()),
            shape: MemoShape::of(netlist),
            dimension_order,
        }
    }

    /// Entries of one worker's memo.
    pub fn entries(&self) -> usize {
        self.shape.entries(self.dimension_order)
    }

    /// Bytes of all the memos: workers x entries x [`WalkMemos::ENTRY_BYTES`] (16).
    pub fn bytes(&self) -> u64 {
        (self.workers as u64)
            .saturating_mul(self.entries() as u64)
            .saturating_mul(WalkMemos::ENTRY_BYTES)
    }
}

/// The sizes a walk's memo follows, which are also the strides of [`Walker`]'s tables.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct MemoShape {
    /// Routers: the memo by router, one plane of the memo by state.
    pub routers: usize,
    /// Most ports of any router (at least 1): the stride of [`Walker`]'s
    /// `(router, output port)` tables, and the memo by state's input ports.
    pub ports: usize,
    /// Most VCs of any input port (at least 1): the memo by state's VCs per input port.
    pub vcs: usize,
}

impl MemoShape {
    /// The shape of `netlist`.
    pub fn of(netlist: &Netlist) -> MemoShape {
        let ports = netlist
            .routers()
            .map(|r| r.ports.len())
            .max()
            .unwrap_or(1)
            .max(1);
        let vcs = netlist
            .routers()
            .flat_map(|r| r.ports.iter().map(|p| usize::from(p.vcs)))
            .max()
            .unwrap_or(1)
            .max(1);
        MemoShape {
            routers: netlist.num_routers(),
            ports,
            vcs,
        }
    }

    /// Entries of a memo by router ([`Walker::sums_by_router`]): one per router.
    pub(super) fn by_router(&self) -> usize {
        self.routers
    }

    /// Entries of a memo by state ([`Walker::sums_by_state`]): one per (router, input
    /// port, input VC), a plane of routers per input port and VC.
    pub(super) fn by_state(&self) -> usize {
        self.routers
            .saturating_mul(self.ports)
            .saturating_mul(self.vcs)
    }

    /// Entries of one worker's memo under a routing function that is dimension-order or
    /// not: by router or by state, as [`Walker::sums`] chooses.
    pub fn entries(&self, dimension_order: bool) -> usize {
        if dimension_order {
            self.by_router()
        } else {
            self.by_state()
        }
    }
}

/// Remaining `(base, saf)` from a router or state to the ejection, valid while `stamp`
/// is the current destination's.
#[derive(Copy, Clone, Debug)]
pub(super) struct Memo {
    pub(super) stamp: u32,
    pub(super) saf: u32,
    pub(super) base: u64,
}
