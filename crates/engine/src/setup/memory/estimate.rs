//! The estimate: the bytes of each part of a network, counted from the netlist without
//! allocating anything.

use super::part::{routing_kinds, Part};
use super::sizes::{max_latency, router_vcs, DistinctLayouts, Walk};
use crate::channel::{DelayLines, Wakes};
use crate::network::{bounds, WiredRouter, WiredTerminal};
use flitsim_netlist::Netlist;
use flitsim_router::buffer::InputBuffer;
use flitsim_router::pipeline::credit_return::CreditReturn;
use flitsim_router::pipeline::crossbar::Crossbar;
use flitsim_router::{Credit, Flit, Reset, Router, StepScratch};
use flitsim_routing as routing;

/// Bytes a network's large arrays take once assembled, by part (see the module docs).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Estimate {
    /// Input FIFOs: slots, occupancy levels, positions.
    pub fifos: u64,
    /// Channel delay lines, both sides, router-to-router channels and terminal links.
    pub lines: u64,
    /// Crossbar and credit-return rings.
    pub pipelines: u64,
    /// VC and switch allocation: allocators, their scratch matrices, arbiters.
    pub allocators: u64,
    /// Wake-up buckets.
    pub wakes: u64,
    /// Routers and terminals with their channel maps, and per-VC state.
    pub members: u64,
    /// The zero-load latency walk's memos, one per worker.
    pub walk: u64,
    /// Routing tables that grow with the square of the routers (`routing::table_bytes`).
    pub routing: u64,
    /// The netlist itself, already loaded (it shares the process's memory).
    pub netlist: u64,
}

impl Estimate {
    /// The parts and their bytes, in the order of [`Part`].
    fn parts(&self) -> [(Part, u64); 9] {
        [
            (Part::Fifos, self.fifos),
            (Part::Lines, self.lines),
            (Part::Pipelines, self.pipelines),
            (Part::Allocators, self.allocators),
            (Part::Wakes, self.wakes),
            (Part::Members, self.members),
            (Part::ZeroLoadWalk, self.walk),
            (Part::Routing, self.routing),
            (Part::Netlist, self.netlist),
        ]
    }

    /// The sum of the parts.
    pub fn total(&self) -> u64 {
        self.parts()
            .iter()
            .fold(0u64, |a, &(_, b)| a.saturating_add(b))
    }

    /// The largest part and its bytes (the first of equal ones).
    pub fn largest(&self) -> (Part, u64) {
        self.parts()
            .into_iter()
            .rev()
            .max_by_key(|&(_, b)| b)
            .unwrap_or((Part::Fifos, 0))
    }
}

/// Bytes of the routing tables of `netlist`'s routing functions that grow faster than
/// the netlist (`routing::table_bytes` of each distinct one).
pub(crate) fn routing_bytes(netlist: &Netlist) -> u64 {
    routing_kinds(netlist)
        .into_iter()
        .map(|k| routing::table_bytes(k, netlist))
        .fold(0, u64::saturating_add)
}

/// Bytes of the large arrays of `netlist` assembled in `parts` partitions and of the
/// zero-load latency walk `walk`, computed without allocating them (two vectors of a
/// router's ports are reused; a key per distinct port/VC layout is kept), in
/// O(routers + channels + VCs), plus per router its ports
/// times its channels (finding each output port's channel, as assembly does).
pub(crate) fn estimate(netlist: &Netlist, parts: usize, walk: Walk) -> Estimate {
    let mut e = Estimate {
        walk: walk.memos(netlist).bytes(),
        routing: routing_bytes(netlist),
        netlist: netlist.heap_bytes(),
        ..Estimate::default()
    };
    let resets = netlist.routers().any(|r| r.config.timeout > 0);
    let line = |latency: u32| {
        DelayLines::<Flit>::line_bytes(latency)
            + DelayLines::<Credit>::line_bytes(latency)
            + if resets {
                DelayLines::<Reset>::line_bytes(latency)
            } else {
                0
            }
    };
    let (wired_router, wired_terminal) = (
        std::mem::size_of::<WiredRouter>() as u64,
        std::mem::size_of::<WiredTerminal>() as u64,
    );
    let (mut in_vcs, mut out_vcs, mut scratch) = (0usize, 0usize, 0u64);
    let (mut router_in, mut router_out) = (Vec::new(), Vec::new());
    let mut layouts = DistinctLayouts::default();
    for r in netlist.routers() {
        for p in &r.ports {
            let fifo = InputBuffer::bytes_per_fifo(p.buffer_depth);
            e.fifos = e
                .fifos
                .saturating_add(u64::from(p.vcs).saturating_mul(fifo));
            in_vcs += usize::from(p.vcs);
        }
        let ports = r.ports.len();
        let c = &r.config;
        e.pipelines = e.pipelines.saturating_add(
            Crossbar::bytes(
                ports,
                u64::from(c.switch_alloc_delay) + u64::from(c.crossbar_delay),
                c.output_speedup,
            ) + CreditReturn::bytes(ports, u64::from(c.credit_delay)),
        );
        router_vcs(netlist, r, &mut router_in, &mut router_out);
        e.allocators =
            e.allocators
                .saturating_add(Router::allocator_bytes(c, &router_in, &router_out));
        e.members = e
            .members
            .saturating_add(Router::bookkeeping_bytes(&router_in, &router_out, resets))
            .saturating_add(layouts.bytes_if_new(&router_in, &router_out));
        scratch = scratch.max(StepScratch::bytes(c, &router_in, &router_out));
        // Its terminals' injection and ejection channels, routers and terminals.
        let terminals = u64::from(r.terminals);
        e.lines = e
            .lines
            .saturating_add((2 * terminals).saturating_mul(line(r.terminal_latency)));
        e.members = e
            .members
            .saturating_add(wired_router + terminals * wired_terminal);
        // The ejection ports' VCs (the terminals').
        out_vcs += usize::from(r.terminals) * usize::from(c.vcs);
    }
    for ch in netlist.channels() {
        e.lines = e.lines.saturating_add(line(ch.latency));
        out_vcs += usize::from(netlist.router(ch.to).ports[ch.to_port.index()].vcs);
    }
    e.members = e
        .members
        .saturating_add(Router::vc_state_bytes(in_vcs, out_vcs));
    // Each partition's step scratch, shaped in turn for each of its routers.
    e.allocators = e
        .allocators
        .saturating_add(scratch.saturating_mul(parts as u64));
    let max_latency = max_latency(netlist);
    let b = bounds(netlist.num_routers(), parts);
    let writers = (b.len() - 1) as u64;
    let m = netlist.terminal_map();
    for q in b.windows(2) {
        let terminals = (m.first(q[1]) - m.first(q[0])) as usize;
        let components = (q[1] - q[0]).max(terminals);
        e.wakes = e
            .wakes
            .saturating_add(writers.saturating_mul(Wakes::bytes(max_latency, components)));
    }
    e
}
