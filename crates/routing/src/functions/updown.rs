//! Up*/down* path tables shared by `table` and `source` routing, from petgraph shortest
//! paths (built once; petgraph never runs in the cycle loop).
//!
//! A breadth-first spanning tree from router 0 gives every router a level. A channel
//! `u -> v` is *up* when `(level(v), v) < (level(u), u)` and *down* otherwise, so every
//! channel has exactly one orientation and the up channels form no cycle (nor do the down
//! ones). A legal path takes zero or more up channels, then zero or more down channels,
//! never an up channel after a down one (Schroeder et al., Autonet, 1991). The tables hold
//! the shortest legal distance from every (router, phase) to every destination, phase 0 =
//! up still allowed, 1 = down only; a packet's phase follows from the channel it arrived
//! on. Deadlock freedom with one VC class: order the up channels by decreasing
//! `(level, id)` of their source, then the down channels by increasing `(level, id)`: a
//! legal path only goes up this order, so the channel dependency graph is acyclic.

use super::candidates::eject;
use crate::table_size::table;
use crate::{Candidate, RouteCtx, RouteSet, RoutingMismatch, VcRange};
use flitsim_netlist::{InPort, Netlist, OutPort, RouterId, RoutingKind, TerminalId, TERMINAL_PORT};
use petgraph::graph::{DiGraph, NodeIndex};
use petgraph::visit::Reversed;
use std::collections::VecDeque;

/// One output channel: port, downstream router, up or down, downstream VCs.
#[derive(Copy, Clone, Debug)]
struct Out {
    port: u8,
    to: u32,
    up: bool,
    vcs: u8,
}

/// Up*/down* distance tables (see the module docs).
#[derive(Clone, Debug)]
pub(crate) struct UpDown {
    n: usize,
    out: Vec<Vec<Out>>,
    /// `arrived_down[r][in_port]`: the channel into that port is a down channel.
    arrived_down: Vec<Vec<bool>>,
    /// `dist[(t * n + u) * 2 + phase]`, `u16::MAX` = unreachable.
    dist: Vec<u16>,
    terminal_vcs: Vec<u8>,
}

impl UpDown {
    /// Builds the tables of `netlist`.
    ///
    /// # Errors
    /// [`RoutingMismatch::TablesTooLarge`] when the distances cannot be allocated.
    pub fn new(netlist: &Netlist, kind: RoutingKind) -> Result<UpDown, RoutingMismatch> {
        let n = netlist.num_routers();
        // Levels: breadth-first from router 0 over each router's output channels.
        let mut level = vec![u32::MAX; n];
        if n > 0 {
            level[0] = 0;
            let mut q = VecDeque::from([0usize]);
            while let Some(u) = q.pop_front() {
                let r = RouterId(u as u32);
                let outs = (0..netlist.router(r).ports.len())
                    .filter_map(|p| netlist.out_channel(r, OutPort(p as u8)));
                for ch in outs.map(|c| netlist.channel(c)) {
                    if level[ch.to.index()] == u32::MAX {
                        level[ch.to.index()] = level[u] + 1;
                        q.push_back(ch.to.index());
                    }
                }
            }
        }
        let key = |r: RouterId| (level[r.index()], r.0);
        let mut out: Vec<Vec<Out>> = vec![Vec::new(); n];
        let mut arrived_down: Vec<Vec<bool>> = netlist
            .routers()
            .map(|r| vec![false; r.ports.len()])
            .collect();
        // State graph: node u*2 + phase.
        let mut g: DiGraph<(), ()> = DiGraph::with_capacity(2 * n, 4 * netlist.num_channels());
        for _ in 0..2 * n {
            g.add_node(());
        }
        for ch in netlist.channels() {
            let up = key(ch.to) < key(ch.from);
            let vcs = netlist.router(ch.to).ports[ch.to_port.index()].vcs;
            out[ch.from.index()].push(Out {
                port: ch.from_port.0,
                to: ch.to.0,
                up,
                vcs,
            });
            arrived_down[ch.to.index()][ch.to_port.index()] = !up;
            let (u, v) = (ch.from.index(), ch.to.index());
            if up {
                g.add_edge(NodeIndex::new(2 * u), NodeIndex::new(2 * v), ());
            } else {
                g.add_edge(NodeIndex::new(2 * u), NodeIndex::new(2 * v + 1), ());
                g.add_edge(NodeIndex::new(2 * u + 1), NodeIndex::new(2 * v + 1), ());
            }
        }
        for o in &mut out {
            o.sort_by_key(|x| x.port);
        }
        let mut dist = table(kind, n * n * 2, u16::MAX)?;
        for t in 0..n {
            // Shortest legal distances to t: Dijkstra on the reversed state graph from
            // both of t's states.
            for phase in 0..2 {
                let d = petgraph::algo::dijkstra(
                    Reversed(&g),
                    NodeIndex::new(2 * t + phase),
                    None,
                    |_| 1u32,
                );
                for (node, len) in d {
                    let slot = &mut dist[t * n * 2 + node.index()];
                    *slot = (*slot).min(len.min(u32::from(u16::MAX - 1)) as u16);
                }
            }
        }
        Ok(UpDown {
            n,
            out,
            arrived_down,
            dist,
            terminal_vcs: netlist
                .routers()
                .map(|r| r.ports.first().map_or(r.config.vcs, |p| p.vcs))
                .collect(),
        })
    }

    /// The phase of a packet at `r` that arrived on `in_port` (1 = down only).
    fn phase(&self, r: RouterId, in_port: InPort) -> usize {
        if in_port.0 == TERMINAL_PORT {
            0
        } else {
            usize::from(self.arrived_down[r.index()][in_port.index()])
        }
    }

    /// Shortest legal distance from `r` in `phase` to `t`.
    pub fn distance(&self, r: RouterId, phase: usize, t: RouterId) -> u16 {
        self.dist[(t.index() * self.n + r.index()) * 2 + phase]
    }

    /// Every output on a shortest legal path toward `dest` (all VCs), or the ejection.
    pub fn candidates(&self, ctx: &RouteCtx, dest: TerminalId, out: &mut RouteSet) {
        out.clear();
        let (here, there) = (ctx.router, RouterId(dest.0));
        if here == there {
            out.push(eject(self.terminal_vcs[here.index()]));
            return;
        }
        let phase = self.phase(here, ctx.in_port);
        let d = self.distance(here, phase, there);
        for o in &self.out[here.index()] {
            if phase == 1 && o.up {
                continue;
            }
            let next = if o.up { phase } else { 1 };
            if d != u16::MAX
                && u32::from(self.distance(RouterId(o.to), next, there)) + 1 == u32::from(d)
            {
                out.push(Candidate {
                    port: OutPort(o.port),
                    vcs: VcRange::new(0, o.vcs),
                    hops: 0,
                });
            }
        }
    }
}
