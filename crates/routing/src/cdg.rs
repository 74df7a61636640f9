//! The static deadlock check: the channel dependency graph of a routing function on a
//! netlist, built with petgraph at load time (never in the cycle loop).
//!
//! Nodes are virtual channels `(channel, VC)` of router-to-router channels. For a function
//! without escape VCs ([`RoutingFunction::escape_vcs`] is `None`) there is an edge from
//! `(c1, v1)` to `(c2, v2)` when a packet holding `v1` on `c1` may request `v2` on `c2` at
//! the next router (Dally and Seitz: wormhole routing is deadlock-free when this graph is
//! acyclic). For a function built on Duato's methodology only the escape VCs are nodes,
//! and the graph is Duato's *extended* channel dependency graph: an edge from escape VC
//! `a` to escape VC `b` when a packet holding `a` may next request `b` either directly or
//! after any number of hops on adaptive VCs (the indirect dependencies). Duato's theorem:
//! a connected escape sub-function whose extended graph is acyclic makes the whole
//! function deadlock-free.
//!
//! The graph is explored from every injection VC of every router, for every destination,
//! over every candidate the function offers (so it covers every selection outcome). A
//! cycle is reported with every virtual channel on it. The set of VCs a packet may request
//! next is stored once as VC ranges of channels, and a VC's dependency on it is one edge
//! (`cdg_explore`): about destinations x routers x ports x VCs route computations
//! and memory linear in channels x VCs x distinct request sets. Above [`WORK_LIMIT`] route
//! computations or [`MEMORY_LIMIT`] bytes the check is not run and says so
//! ([`NotChecked`]).

use crate::cdg_explore::{dependencies, Dependencies};
use crate::describe::kind_name;
use crate::RoutingFunction;
use flitsim_netlist::{
    BufferDepth, ChannelId, InPort, Netlist, RoutingKind, Switching, VcId, VcRelease,
};
use petgraph::graph::{DiGraph, NodeIndex};
use std::collections::VecDeque;

pub use crate::cdg_explore::MEMORY_LIMIT;

/// Route computations the check runs at most (destinations x routers x ports x VCs): a
/// few seconds in a release build.
pub const WORK_LIMIT: u64 = 1 << 27;

/// Why the static check did not run to a verdict.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum NotChecked {
    /// It would run more than [`WORK_LIMIT`] route computations.
    Work {
        /// Route computations it would run.
        steps: u64,
    },
    /// It would hold more than [`MEMORY_LIMIT`] bytes.
    Memory {
        /// Bytes it had asked for when it stopped.
        bytes: usize,
    },
}

/// Route computations the check runs on `netlist`: destinations x routers x ports x VCs.
pub fn work(netlist: &Netlist) -> u64 {
    let max_ports = netlist.routers().map(|r| r.ports.len()).max().unwrap_or(1);
    let max_vcs = netlist
        .routers()
        .flat_map(|r| r.ports.iter().map(|p| usize::from(p.vcs)))
        .max()
        .unwrap_or(1);
    // One destination per router, or every terminal when routers carry different counts
    // (as the exploration walks them).
    let dests = match netlist.concentration() {
        Some(_) => netlist.num_routers(),
        None => netlist.num_terminals(),
    };
    [dests, netlist.num_routers(), max_ports, max_vcs]
        .iter()
        .fold(1u64, |acc, &x| acc.saturating_mul(x as u64))
}

/// The exploration, refused above [`WORK_LIMIT`] or [`MEMORY_LIMIT`] (the graph built from
/// it included).
fn explored(f: &dyn RoutingFunction, netlist: &Netlist) -> Result<Dependencies, NotChecked> {
    let steps = work(netlist);
    if steps > WORK_LIMIT {
        return Err(NotChecked::Work { steps });
    }
    let d = dependencies(f, netlist).map_err(|e| NotChecked::Memory { bytes: e.bytes })?;
    // A petgraph node or edge with its index links: at most 32 bytes.
    let members: usize = d
        .sets
        .iter()
        .flatten()
        .map(|s| usize::from(s.hi - s.lo))
        .sum();
    let nodes = netlist.num_channels() * d.max_vcs + d.sets.len();
    let bytes = (nodes + d.pairs.len() + members).saturating_mul(32);
    if bytes > MEMORY_LIMIT {
        return Err(NotChecked::Memory { bytes });
    }
    Ok(d)
}

/// The VCs of a request set's spans, as node numbers.
fn set_vcs(d: &Dependencies, set: usize) -> impl Iterator<Item = u64> + '_ {
    d.sets[set].iter().flat_map(move |s| {
        (s.lo..s.hi).map(move |v| (s.channel as usize * d.max_vcs + usize::from(v)) as u64)
    })
}

/// The (extended) channel dependency graph of `f` on `netlist` (see the module docs):
/// one node per `(channel, VC)` of router-to-router channels, edges sorted.
pub fn dependency_graph(
    f: &dyn RoutingFunction,
    netlist: &Netlist,
) -> Result<DiGraph<(ChannelId, VcId), ()>, NotChecked> {
    let d = explored(f, netlist)?;
    let mut edges: Vec<u64> = d
        .pairs
        .iter()
        .flat_map(|&e| {
            let node = e >> 32;
            set_vcs(&d, (e & 0xffff_ffff) as usize).map(move |b| node << 32 | b)
        })
        .collect();
    edges.sort_unstable();
    edges.dedup();
    let mut g = DiGraph::with_capacity(netlist.num_channels() * d.max_vcs, edges.len());
    for c in 0..netlist.num_channels() {
        for v in 0..d.max_vcs {
            g.add_node((ChannelId(c as u32), VcId(v as u8)));
        }
    }
    for e in edges {
        g.add_edge(
            NodeIndex::new((e >> 32) as usize),
            NodeIndex::new((e & 0xffff_ffff) as usize),
            (),
        );
    }
    Ok(g)
}

/// Deadlock freedom by storage rather than by the dependency graph: every router switches
/// virtual cut-through or store-and-forward, every network input port is unbounded, VCs
/// are released when the tail leaves, and the function declares no escape VCs (whose
/// adaptive VCs are allocated only when empty). A downstream VC is then held only while a
/// packet streams into it, and the stream always completes, so no wait is ever circular.
pub fn deadlock_free_by_storage(f: &dyn RoutingFunction, netlist: &Netlist) -> bool {
    f.escape_vcs().is_none()
        && netlist.routers().all(|r| {
            matches!(r.config.switching, Switching::Vct | Switching::Saf)
                && r.config.vc_release == VcRelease::Tail
                && r.network_ports().all(|(i, p)| {
                    p.buffer_depth == BufferDepth::Unbounded
                        || netlist.in_channel(r.id, InPort(i as u8)).is_none()
                })
        })
}

/// A cycle of the (extended) channel dependency graph, as the virtual channels on it in
/// dependency order, or `None` when the graph is acyclic; [`NotChecked`] when the check
/// would exceed [`WORK_LIMIT`] or [`MEMORY_LIMIT`].
pub fn dependency_cycle(
    f: &dyn RoutingFunction,
    netlist: &Netlist,
) -> Result<Option<Vec<(ChannelId, VcId)>>, NotChecked> {
    let g = compact_graph(netlist, &explored(f, netlist)?);
    let Err(cycle) = petgraph::algo::toposort(&g, None) else {
        return Ok(None);
    };
    Ok(Some(cycle_through(&g, cycle.node_id())))
}

/// The shortest cycle of `g` through `start`, as its virtual channels.
fn cycle_through(
    g: &DiGraph<Option<(ChannelId, VcId)>, ()>,
    start: NodeIndex,
) -> Vec<(ChannelId, VcId)> {
    // Breadth-first from `start` back to itself: the shortest cycle through it.
    let mut parent = vec![None; g.node_count()];
    let mut queue = VecDeque::from([start]);
    while let Some(u) = queue.pop_front() {
        for w in g.neighbors(u) {
            if w == start {
                let mut cycle = vec![g[u]];
                let mut x = u;
                while x != start {
                    x = parent[x.index()].expect("on the search tree");
                    cycle.push(g[x]);
                }
                cycle.reverse();
                // Set nodes only group dependencies: the cycle is its virtual channels.
                return cycle.into_iter().flatten().collect();
            }
            if parent[w.index()].is_none() && w != start {
                parent[w.index()] = Some(u);
                queue.push_back(w);
            }
        }
    }
    unreachable!("toposort reported a cycle through a node that reaches no cycle")
}

/// The dependencies as a graph whose nodes are the virtual channels (`Some`) followed by
/// the sets of [`dependencies`] (`None`): a VC has an edge to each set it depends on, a
/// set to each of its members. Its cycles are those of [`dependency_graph`], with set
/// nodes between the VCs.
fn compact_graph(netlist: &Netlist, d: &Dependencies) -> DiGraph<Option<(ChannelId, VcId)>, ()> {
    let vcs = netlist.num_channels() * d.max_vcs;
    let members: usize = d
        .sets
        .iter()
        .flatten()
        .map(|s| usize::from(s.hi - s.lo))
        .sum();
    let mut g = DiGraph::with_capacity(vcs + d.sets.len(), d.pairs.len() + members);
    for c in 0..netlist.num_channels() {
        for v in 0..d.max_vcs {
            g.add_node(Some((ChannelId(c as u32), VcId(v as u8))));
        }
    }
    for _ in &d.sets {
        g.add_node(None);
    }
    let set_node = |id: usize| NodeIndex::new(vcs + id);
    for &e in &d.pairs {
        let set = set_node((e & 0xffff_ffff) as usize);
        g.add_edge(NodeIndex::new((e >> 32) as usize), set, ());
    }
    for id in 0..d.sets.len() {
        for b in set_vcs(d, id) {
            g.add_edge(set_node(id), NodeIndex::new(b as usize), ());
        }
    }
    g
}

/// Netlist names of the virtual channels of a cycle: `r3.east -> r4.west vc1`.
pub fn cycle_names(netlist: &Netlist, cycle: &[(ChannelId, VcId)]) -> Vec<String> {
    cycle
        .iter()
        .map(|&(id, v)| {
            let ch = netlist.channel(id);
            let (a, b) = (netlist.router(ch.from), netlist.router(ch.to));
            format!(
                "{}.{} -> {}.{} vc{}",
                a.name,
                a.ports[ch.from_port.index()].name,
                b.name,
                b.ports[ch.to_port.index()].name,
                v.0
            )
        })
        .collect()
}

/// What to do about a dependency cycle of routing `kind`.
pub fn cycle_help(kind: RoutingKind) -> String {
    match kind {
        RoutingKind::DorNoDateline => {
            "use `dor` (dateline VC classes break the ring cycles) or an adaptive routing with escape VCs".into()
        }
        _ => format!(
            "`{}` is not deadlock-free on this netlist; use `table` (up*/down*) or a routing made for this topology",
            kind_name(kind)
        ),
    }
}
