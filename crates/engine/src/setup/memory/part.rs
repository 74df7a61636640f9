//! The parts of an estimate: their names, what sizes each in a netlist, and the settings
//! that make it smaller.

use super::sizes::{max_latency, router_vcs, Walk};
use crate::network::bounds;
use crate::setup::zero_load::WalkMemos;
use flitsim_netlist::{ArbiterKind, BufferDepth, Netlist, RoutingKind};
use flitsim_router::buffer::UNBOUNDED_START;
use flitsim_routing as routing;

/// A part of an [`Estimate`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Part {
    Fifos,
    Lines,
    Pipelines,
    Allocators,
    Wakes,
    Members,
    ZeroLoadWalk,
    Routing,
    Netlist,
}

impl Part {
    /// Its name in messages.
    pub fn name(self) -> &'static str {
        match self {
            Part::Fifos => "input FIFOs",
            Part::Lines => "channel delay lines",
            Part::Pipelines => "router pipelines",
            Part::Allocators => "allocators",
            Part::Wakes => "wake-ups",
            Part::Members => "router and terminal state",
            Part::ZeroLoadWalk => "zero-load latency walk",
            Part::Routing => "routing tables",
            Part::Netlist => "the netlist",
        }
    }

    /// The settings that make it smaller in `netlist`, walked as `walk`.
    pub fn help(self, netlist: &Netlist, walk: Walk) -> &'static str {
        match self {
            Part::Fifos => "lower buffer_depth or vcs (--set), or use a smaller netlist",
            Part::Lines => {
                "lower channel_latency or terminal_latency (--set), or use a smaller netlist"
            }
            Part::Pipelines => "lower switch_alloc_delay, crossbar_delay or credit_delay (--set)",
            Part::Allocators if matrix_arbiters(netlist) => {
                "use round-robin arbiters (--set arbiter=round-robin) or lower vcs (--set)"
            }
            Part::Allocators => "lower vcs (--set), or use routers with fewer ports",
            Part::Wakes => {
                "lower channel_latency or terminal_latency (--set), or run with fewer --threads"
            }
            Part::Members | Part::Netlist => "use a smaller netlist",
            Part::Routing => {
                "use a generator's own routing (--routing dor on a torus, mesh or hypercube) instead of table or source routing, or a smaller netlist"
            }
            Part::ZeroLoadWalk if walk.dimension_order => "run with fewer --threads",
            Part::ZeroLoadWalk => {
                "run with fewer --threads, or use dimension-order routing (--routing dor) or lower vcs (--set)"
            }
        }
    }

    /// What sizes it in `netlist` assembled in `parts` partitions and walked as `walk`
    /// (`16 routers x 5 ports x 255 VCs x 65536 flits`).
    pub fn detail(self, netlist: &Netlist, parts: usize, walk: Walk) -> String {
        let n = netlist.num_routers();
        let lines = || {
            format!(
                "{} channels and {} terminal links, latency up to {} cycles",
                netlist.num_channels(),
                2 * netlist.num_terminals(),
                max_latency(netlist)
            )
        };
        let most = |f: &dyn Fn(&flitsim_netlist::RouterConfig) -> u64| {
            netlist.routers().map(|r| f(&r.config)).max().unwrap_or(0)
        };
        match self {
            Part::Fifos => fifo_detail(netlist),
            Part::Lines => lines(),
            Part::Wakes => {
                let p = bounds(n, parts).len() - 1;
                format!("{p} x {p} partitions, {}", lines())
            }
            Part::Pipelines => format!(
                "{n} routers, switch_alloc_delay + crossbar_delay up to {} cycles, credit_delay up to {}",
                most(&|c| u64::from(c.switch_alloc_delay) + u64::from(c.crossbar_delay)),
                most(&|c| u64::from(c.credit_delay))
            ),
            Part::Allocators => allocator_detail(netlist),
            Part::Members => format!("{n} routers and {} terminals", netlist.num_terminals()),
            Part::ZeroLoadWalk => walk_detail(walk.memos(netlist)),
            Part::Routing => routing_detail(netlist),
            Part::Netlist => format!("{n} routers and {} channels", netlist.num_channels()),
        }
    }
}

/// `2 workers x 16 routers x 5 ports x 255 VCs x 16 B` (a memo by state) or `2 workers x
/// 16 routers x 16 B` (by router): what sizes the walk's memos.
fn walk_detail(m: WalkMemos) -> String {
    let workers = match m.workers {
        1 => "1 worker".to_string(),
        w => format!("{w} workers"),
    };
    let entry = WalkMemos::ENTRY_BYTES;
    let shape = m.shape;
    if m.dimension_order {
        format!("{workers} x {} routers x {entry} B", shape.routers)
    } else {
        format!(
            "{workers} x {} routers x {} ports x {} VCs x {entry} B",
            shape.routers, shape.ports, shape.vcs
        )
    }
}

/// `table: 65536 routers x 65536 destinations`: the routing functions whose tables grow
/// with the square of the routers or groups.
fn routing_detail(netlist: &Netlist) -> String {
    let kinds = routing_kinds(netlist)
        .into_iter()
        .filter(|&k| routing::table_bytes(k, netlist) > 0)
        .map(routing::kind_name)
        .collect::<Vec<_>>()
        .join(", ");
    let n = netlist.num_routers();
    format!("{kinds}: {n} routers x {n} destinations")
}

/// The distinct routing functions of `netlist`'s routers, in order of first use.
pub(super) fn routing_kinds(netlist: &Netlist) -> Vec<RoutingKind> {
    let mut kinds = Vec::new();
    for r in netlist.routers() {
        if !kinds.contains(&r.config.routing) {
            kinds.push(r.config.routing);
        }
    }
    kinds
}

/// Does a router of `netlist` use matrix arbiters?
fn matrix_arbiters(netlist: &Netlist) -> bool {
    netlist
        .routers()
        .any(|r| r.config.arbiter == ArbiterKind::Matrix)
}

/// `16 routers, up to 1275 input VCs x 1275 output VCs, matrix arbiters`: the most VCs
/// a router allocates on each side and the arbiter kinds.
fn allocator_detail(netlist: &Netlist) -> String {
    let (mut in_vcs, mut out_vcs) = (Vec::new(), Vec::new());
    let (mut most_in, mut most_out) = (0u64, 0u64);
    for r in netlist.routers() {
        router_vcs(netlist, r, &mut in_vcs, &mut out_vcs);
        let total = |vcs: &[u8]| vcs.iter().map(|&v| u64::from(v)).sum::<u64>();
        most_in = most_in.max(total(&in_vcs));
        most_out = most_out.max(total(&out_vcs));
    }
    let round_robin = netlist
        .routers()
        .any(|r| r.config.arbiter != ArbiterKind::Matrix);
    let arbiters = match (round_robin, matrix_arbiters(netlist)) {
        (true, true) => "round-robin and matrix arbiters",
        (false, true) => "matrix arbiters",
        _ => "round-robin arbiters",
    };
    format!(
        "{} routers, up to {most_in} input VCs x {most_out} output VCs, {arbiters}",
        netlist.num_routers()
    )
}

/// `16 routers x 5 ports x 255 VCs x 65536 flits` when every router has the same ports
/// and every port the same VCs and depth, else the VC count and the deepest FIFO.
fn fifo_detail(netlist: &Netlist) -> String {
    let depth = |d: BufferDepth| match d.flits() {
        Some(d) => format!("{d} flits"),
        None => format!("unbounded ({UNBOUNDED_START} flits to start)"),
    };
    let first = netlist.routers().next().and_then(|r| {
        r.ports
            .first()
            .map(|p| (r.ports.len(), p.vcs, p.buffer_depth))
    });
    let Some((ports, vcs, d)) = first else {
        return String::new();
    };
    let uniform = netlist.routers().all(|r| {
        r.ports.len() == ports && r.ports.iter().all(|p| p.vcs == vcs && p.buffer_depth == d)
    });
    if uniform {
        return format!(
            "{} routers x {ports} ports x {vcs} VCs x {}",
            netlist.num_routers(),
            depth(d)
        );
    }
    let all = || netlist.routers().flat_map(|r| r.ports.iter());
    let total: u64 = all().map(|p| u64::from(p.vcs)).sum();
    let deepest = if all().any(|p| p.buffer_depth.flits().is_none()) {
        depth(BufferDepth::Unbounded)
    } else {
        depth(BufferDepth::Flits(
            all()
                .filter_map(|p| p.buffer_depth.flits())
                .max()
                .unwrap_or(0),
        ))
    };
    format!(
        "{total} VCs on {} routers, up to {deepest} each",
        netlist.num_routers()
    )
}
