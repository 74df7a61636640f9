//! What sizes a network's memory beyond its own arrays: the zero-load latency walk that
//! follows assembly, each router's VC counts and the longest channel latency.

use crate::setup::zero_load::WalkMemos;
use flitsim_netlist::{Netlist, OutPort, RouterSpec};
use flitsim_router::pipeline::Layout;

/// What sizes the zero-load latency walk `Simulation::new` runs after assembly
/// ([`crate::zero_load::UniformSums::of_threads`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Walk {
    /// Router 0's routing function, the walk's, is dimension-order
    /// (`RoutingFunction::is_dimension_order`): a memo by router, else by state.
    pub dimension_order: bool,
    /// The threads asked of the run (before `useful_workers` lowers them to the
    /// partitions): the walk splits its destinations over them.
    pub threads: usize,
}

impl Walk {
    /// Its memos in `netlist`.
    pub(super) fn memos(self, netlist: &Netlist) -> WalkMemos {
        WalkMemos::of(netlist, self.dimension_order, self.threads)
    }
}

/// The VC counts [`Router::new`] builds router `r` of `netlist` with, into `in_vcs` and
/// `out_vcs` (cleared first): per input port its VCs; per output port its downstream
/// side's, the terminal's (the router's `vcs`) for an ejection port, 0 for a port
/// without a channel (as assembly gives them).
pub(super) fn router_vcs(
    netlist: &Netlist,
    r: &RouterSpec,
    in_vcs: &mut Vec<u8>,
    out_vcs: &mut Vec<u8>,
) {
    in_vcs.clear();
    in_vcs.extend(r.ports.iter().map(|p| p.vcs));
    out_vcs.clear();
    out_vcs.extend(std::iter::repeat_n(r.config.vcs, usize::from(r.terminals)));
    out_vcs.extend((usize::from(r.terminals)..r.ports.len()).map(|p| {
        netlist.out_channel(r.id, OutPort(p as u8)).map_or(0, |ch| {
            let ch = netlist.channel(ch);
            netlist.router(ch.to).ports[ch.to_port.index()].vcs
        })
    }));
}

/// The distinct port/VC layouts seen so far: routers with equal VC counts share one
/// ([`flitsim_router::pipeline::Layouts`]), so the estimate counts each once.
#[derive(Default)]
pub(super) struct DistinctLayouts {
    seen: std::collections::HashSet<Box<[u8]>>,
    /// The key being looked up: input VC counts, then output VC counts.
    key: Vec<u8>,
}

impl DistinctLayouts {
    /// Bytes of the layout of a router with these VC counts ([`router_vcs`]) if no
    /// router before had the same, else 0.
    pub fn bytes_if_new(&mut self, in_vcs: &[u8], out_vcs: &[u8]) -> u64 {
        self.key.clear();
        self.key.extend_from_slice(in_vcs);
        self.key.extend_from_slice(out_vcs);
        if self.seen.contains(self.key.as_slice()) {
            return 0;
        }
        self.seen.insert(self.key.as_slice().into());
        Layout::bytes(in_vcs, out_vcs)
    }
}

/// The largest latency of a channel or terminal link (1 without any).
pub(super) fn max_latency(netlist: &Netlist) -> u32 {
    netlist
        .channels()
        .map(|ch| ch.latency)
        .chain(netlist.routers().map(|r| r.terminal_latency))
        .max()
        .unwrap_or(1)
}
