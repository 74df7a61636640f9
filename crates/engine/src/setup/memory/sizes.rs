//! What sizes a network's memory beyond its own arrays: the zero-load latency walk that
//! follows assembly, each router's VC counts and the longest channel latency.

use crate::setup::zero_load::WalkMemos;
use flitsim_netlist::{Netlist, OutPort, RouterSpec};

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

/// The largest latency of a channel or terminal link (1 without any).
pub(super) fn max_latency(netlist: &Netlist) -> u32 {
    netlist
        .channels()
        .map(|ch| ch.latency)
        .chain(netlist.routers().map(|r| r.terminal_latency))
        .max()
        .unwrap_or(1)
}
