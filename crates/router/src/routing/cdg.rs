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
//! next is stored once and a VC's dependency on it is one edge, so the exploration costs
//! about destinations x routers x ports x VCs x candidate VCs steps and memory linear in
//! channels x VCs x distinct request sets, not the V^3 of one edge per pair of VCs. Netlists above
//! [`MAX_ROUTERS`] routers are not checked (the exploration grows with the square of the
//! router count); check a smaller instance of the same family.

use super::{kind_name, RouteCtx, RouteSet, RoutingFunction};
use flitsim_netlist::{
    BufferDepth, ChannelId, InPort, Netlist, RouterId, RoutingKind, Switching, TerminalId, VcId,
    VcRelease, TERMINAL_PORT,
};
use petgraph::graph::{DiGraph, NodeIndex};
use std::collections::{HashMap, VecDeque};

/// Largest netlist (in routers) the static check explores.
pub const MAX_ROUTERS: usize = 1024;

/// Index arithmetic over states `(router, in_port, in_vc)` and nodes `(channel, vc)`.
struct Space<'a> {
    f: &'a dyn RoutingFunction,
    n: &'a Netlist,
    escape: Option<u8>,
    max_ports: usize,
    max_vcs: usize,
}

impl Space<'_> {
    fn state(&self, r: RouterId, p: InPort, v: VcId) -> usize {
        (r.index() * self.max_ports + p.index()) * self.max_vcs + usize::from(v.0)
    }

    fn node(&self, ch: ChannelId, v: VcId) -> u32 {
        (ch.index() * self.max_vcs + usize::from(v.0)) as u32
    }

    fn is_escape(&self, v: VcId) -> bool {
        self.escape.is_none_or(|e| v.0 < e)
    }

    /// `(node, next state's router, port, vc)` for every router-to-router candidate VC.
    fn successors(
        &self,
        r: RouterId,
        p: InPort,
        v: VcId,
        dest: TerminalId,
        set: &mut RouteSet,
    ) -> Vec<(u32, RouterId, InPort, VcId)> {
        self.f.route(
            &RouteCtx {
                router: r,
                in_port: p,
                in_vc: v,
            },
            dest,
            set,
        );
        let mut out = Vec::new();
        for c in set.iter() {
            if self.n.router(r).is_terminal_port(c.port.0) {
                continue;
            }
            let Some(id) = self.n.out_channel(r, c.port) else {
                continue;
            };
            let ch = self.n.channel(id);
            for w in c.vcs.iter() {
                out.push((self.node(id, w), ch.to, ch.to_port, w));
            }
        }
        out
    }

    /// The set (interned in `sets`) of escape nodes a packet in state `s` may request
    /// next, directly or after adaptive hops (memoised per destination in `memo`).
    fn first_escape(
        &self,
        s: (RouterId, InPort, VcId),
        dest: TerminalId,
        memo: &mut [Option<u32>],
        sets: &mut Sets,
        set: &mut RouteSet,
    ) -> u32 {
        let i = self.state(s.0, s.1, s.2);
        if let Some(m) = memo[i] {
            return m;
        }
        // Guard against adaptive cycles (none for minimal functions): the empty set while
        // this state is being expanded.
        memo[i] = Some(sets.intern(Vec::new()));
        let mut found = Vec::new();
        for (node, r, p, w) in self.successors(s.0, s.1, s.2, dest, set) {
            if self.is_escape(w) {
                found.push(node);
            } else {
                let id = self.first_escape((r, p, w), dest, memo, sets, set);
                found.extend_from_slice(&sets.members[id as usize]);
            }
        }
        found.sort_unstable();
        found.dedup();
        let id = sets.intern(found);
        memo[i] = Some(id);
        id
    }
}

/// Sets of escape nodes, each stored once: a node's dependencies are edges to sets, so a
/// VC that may request any of V VCs costs one edge, not V (the exploration stays
/// near-linear in channels x VCs x destinations instead of growing with V^3).
#[derive(Default)]
struct Sets {
    ids: HashMap<Vec<u32>, u32>,
    members: Vec<Vec<u32>>,
}

impl Sets {
    fn intern(&mut self, set: Vec<u32>) -> u32 {
        if let Some(&id) = self.ids.get(&set) {
            return id;
        }
        let id = self.members.len() as u32;
        self.members.push(set.clone());
        self.ids.insert(set, id);
        id
    }
}

/// The dependencies of `f` on `netlist`, compactly: the sorted, distinct (node, set)
/// pairs (node depends on every member of the set), the sets, and the VCs per channel.
fn dependencies(f: &dyn RoutingFunction, netlist: &Netlist) -> (Vec<u64>, Sets, usize) {
    let max_ports = netlist.routers().map(|r| r.ports.len()).max().unwrap_or(1);
    let max_vcs = netlist
        .routers()
        .flat_map(|r| r.ports.iter().map(|p| usize::from(p.vcs)))
        .max()
        .unwrap_or(1)
        .max(1);
    let space = Space {
        f,
        n: netlist,
        escape: f.escape_vcs(),
        max_ports,
        max_vcs,
    };
    let states = netlist.num_routers() * max_ports * max_vcs;
    let mut edges: Vec<u64> = Vec::new();
    let mut sets = Sets::default();
    let mut set = RouteSet::new();
    let mut memo: Vec<Option<u32>> = vec![None; states];
    let mut seen = vec![false; states];
    // The edge list is deduplicated whenever it has doubled since the last time, so the
    // sorting costs O(E log E) in all, not a sort of the whole list per destination.
    let mut distinct = 1usize << 20;
    for t in 0..netlist.num_routers() {
        // One destination per router: routing depends on the terminal only to eject.
        let dest = netlist.router(RouterId(t as u32)).terminal(0);
        memo.iter_mut().for_each(|m| *m = None);
        seen.iter_mut().for_each(|s| *s = false);
        let mut stack = Vec::new();
        for r in netlist.routers() {
            for v in 0..r.ports[0].vcs {
                stack.push((r.id, InPort(TERMINAL_PORT), VcId(v)));
            }
        }
        while let Some((r, p, v)) = stack.pop() {
            let i = space.state(r, p, v);
            if std::mem::replace(&mut seen[i], true) {
                continue;
            }
            for (node, nr, np, w) in space.successors(r, p, v, dest, &mut set) {
                if space.is_escape(w) {
                    let b = space.first_escape((nr, np, w), dest, &mut memo, &mut sets, &mut set);
                    if !sets.members[b as usize].is_empty() {
                        edges.push(u64::from(node) << 32 | u64::from(b));
                    }
                }
                stack.push((nr, np, w));
            }
        }
        if edges.len() > 2 * distinct {
            edges.sort_unstable();
            edges.dedup();
            distinct = distinct.max(edges.len());
        }
    }
    edges.sort_unstable();
    edges.dedup();
    (edges, sets, max_vcs)
}

/// The (extended) channel dependency graph of `f` on `netlist` (see the module docs):
/// one node per `(channel, VC)` of router-to-router channels, edges sorted.
pub fn dependency_graph(
    f: &dyn RoutingFunction,
    netlist: &Netlist,
) -> DiGraph<(ChannelId, VcId), ()> {
    let (pairs, sets, max_vcs) = dependencies(f, netlist);
    let mut edges: Vec<u64> = pairs
        .iter()
        .flat_map(|&e| {
            let node = e >> 32;
            sets.members[(e & 0xffff_ffff) as usize]
                .iter()
                .map(move |&b| node << 32 | u64::from(b))
        })
        .collect();
    edges.sort_unstable();
    edges.dedup();
    let mut g = DiGraph::with_capacity(netlist.num_channels() * max_vcs, edges.len());
    for c in 0..netlist.num_channels() {
        for v in 0..max_vcs {
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
    g
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
/// dependency order, or `None` when the graph is acyclic (or the netlist is larger than
/// [`MAX_ROUTERS`], which is not checked).
pub fn dependency_cycle(
    f: &dyn RoutingFunction,
    netlist: &Netlist,
) -> Option<Vec<(ChannelId, VcId)>> {
    if netlist.num_routers() > MAX_ROUTERS {
        return None;
    }
    let g = compact_graph(f, netlist);
    let start = petgraph::algo::toposort(&g, None).err()?.node_id();
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
                return Some(cycle.into_iter().flatten().collect());
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
fn compact_graph(
    f: &dyn RoutingFunction,
    netlist: &Netlist,
) -> DiGraph<Option<(ChannelId, VcId)>, ()> {
    let (pairs, sets, max_vcs) = dependencies(f, netlist);
    let vcs = netlist.num_channels() * max_vcs;
    let members: usize = sets.members.iter().map(Vec::len).sum();
    let mut g = DiGraph::with_capacity(vcs + sets.members.len(), pairs.len() + members);
    for c in 0..netlist.num_channels() {
        for v in 0..max_vcs {
            g.add_node(Some((ChannelId(c as u32), VcId(v as u8))));
        }
    }
    for _ in &sets.members {
        g.add_node(None);
    }
    let set_node = |id: usize| NodeIndex::new(vcs + id);
    for e in pairs {
        let set = set_node((e & 0xffff_ffff) as usize);
        g.add_edge(NodeIndex::new((e >> 32) as usize), set, ());
    }
    for (id, m) in sets.members.iter().enumerate() {
        for &b in m {
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
