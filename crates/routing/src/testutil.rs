//! Test helpers: small generated netlists (built with `Netlist::add_router`/`add_channel`
//! so these tests do not depend on the generators) and routing checks.

use crate::{walk, RouteCtx, RouteSet, RoutingFunction};
use flitsim_netlist::{
    BufferDepth, Dir, InPort, Netlist, OutPort, PacketId, PortSpec, RouterConfig, RouterId,
    RouterSpec, TerminalId, Topology, VcId, TERMINAL_PORT,
};
use petgraph::graph::DiGraph;
use std::collections::{BTreeMap, BTreeSet, VecDeque};

fn port(name: String, direction: Option<(u8, Dir)>, vcs: u8) -> PortSpec {
    PortSpec {
        name,
        direction,
        vcs,
        buffer_depth: BufferDepth::Flits(4),
    }
}

fn router(coord: Vec<u32>, ports: Vec<PortSpec>, vcs: u8) -> RouterSpec {
    RouterSpec {
        id: RouterId(0),
        name: String::new(),
        coord: Some(coord),
        config: RouterConfig {
            vcs,
            ..RouterConfig::default()
        },
        ports,
        terminal_latency: 1,
        terminals: 1,
    }
}

/// k-ary n-cube style grid: port 0 local, port `1 + 2d` toward (d, Plus), `2 + 2d` toward
/// (d, Minus). Wrap-around channels when `wraps`.
fn grid(radix: &[u32], vcs: u8, wraps: bool, topology: Topology) -> Netlist {
    let mut n = Netlist::new("test", topology);
    let count: u32 = radix.iter().product();
    let coord_of = |mut i: u32| {
        radix
            .iter()
            .map(|&k| {
                let c = i % k;
                i /= k;
                c
            })
            .collect::<Vec<u32>>()
    };
    let id_of = |c: &[u32]| {
        c.iter()
            .zip(radix)
            .rev()
            .fold(0u32, |acc, (&x, &k)| acc * k + x)
    };
    for i in 0..count {
        let mut ports = vec![port("local".into(), None, vcs)];
        for d in 0..radix.len() as u8 {
            ports.push(port(format!("d{d}p"), Some((d, Dir::Plus)), vcs));
            ports.push(port(format!("d{d}m"), Some((d, Dir::Minus)), vcs));
        }
        let id = n.add_router(router(coord_of(i), ports, vcs));
        n.router_mut(id).name = format!("r{i}");
    }
    for i in 0..count {
        let c = coord_of(i);
        for (d, &k) in radix.iter().enumerate() {
            let mut next = c.clone();
            if c[d] + 1 < k {
                next[d] += 1;
            } else if wraps && k > 1 {
                next[d] = 0;
            } else {
                continue;
            }
            let j = id_of(&next);
            let (pp, pm) = (1 + 2 * d as u8, 2 + 2 * d as u8);
            n.add_channel(RouterId(i), OutPort(pp), RouterId(j), InPort(pm), 1);
            n.add_channel(RouterId(j), OutPort(pm), RouterId(i), InPort(pp), 1);
        }
    }
    n
}

/// A mesh with `vcs` VCs per port.
pub fn mesh(radix: &[u32], vcs: u8) -> Netlist {
    grid(
        radix,
        vcs,
        false,
        Topology::Mesh {
            radix: radix.to_vec(),
        },
    )
}

/// A torus (a ring when `radix` has one entry) with `vcs` VCs per port.
pub fn torus(radix: &[u32], vcs: u8) -> Netlist {
    let topology = if radix.len() == 1 {
        Topology::Ring { n: radix[0] }
    } else {
        Topology::Torus {
            radix: radix.to_vec(),
        }
    };
    grid(radix, vcs, true, topology)
}

/// A binary hypercube: port `1 + d` flips bit d (direction `(d, Plus)`).
pub fn hypercube(dim: u32, vcs: u8) -> Netlist {
    let mut n = Netlist::new("test", Topology::Hypercube { dim });
    for i in 0..(1u32 << dim) {
        let mut ports = vec![port("local".into(), None, vcs)];
        for d in 0..dim as u8 {
            ports.push(port(format!("d{d}"), Some((d, Dir::Plus)), vcs));
        }
        let coord = (0..dim).map(|d| (i >> d) & 1).collect();
        n.add_router(router(coord, ports, vcs));
    }
    for i in 0..(1u32 << dim) {
        for d in 0..dim {
            let p = 1 + d as u8;
            n.add_channel(
                RouterId(i),
                OutPort(p),
                RouterId(i ^ (1 << d)),
                InPort(p),
                1,
            );
        }
    }
    n
}

/// BFS hop distances between all routers over the netlist's channels.
pub fn distances(n: &Netlist) -> Vec<Vec<u32>> {
    let count = n.num_routers();
    (0..count)
        .map(|s| {
            let mut dist = vec![u32::MAX; count];
            dist[s] = 0;
            let mut q = VecDeque::from([s]);
            while let Some(u) = q.pop_front() {
                for ch in n.channels().filter(|c| c.from.index() == u) {
                    if dist[ch.to.index()] == u32::MAX {
                        dist[ch.to.index()] = dist[u] + 1;
                        q.push_back(ch.to.index());
                    }
                }
            }
            dist
        })
        .collect()
}

/// Every hop of every candidate brings the packet one step closer (shortest-path
/// distance), the ejection happens exactly at the destination, and the walked route's
/// hops equal the distance.
#[allow(clippy::needless_range_loop)] // s and t are router ids, not just indices
pub fn assert_minimal(f: &dyn RoutingFunction, n: &Netlist) {
    let dist = distances(n);
    let mut set = RouteSet::new();
    for s in 0..n.num_routers() {
        for t in 0..n.num_routers() {
            let dest = TerminalId(t as u32);
            let mut frontier = vec![RouteCtx {
                router: RouterId(s as u32),
                in_port: InPort(TERMINAL_PORT),
                in_vc: VcId(0),
            }];
            while let Some(ctx) = frontier.pop() {
                f.route(&ctx, dest, &mut set);
                assert!(!set.is_empty(), "no candidate at {} for {t}", ctx.router);
                for c in set.iter() {
                    assert!(!c.vcs.is_empty(), "empty VC range at {}", ctx.router);
                    if c.port.0 == TERMINAL_PORT {
                        assert_eq!(ctx.router.index(), t, "ejected early");
                        continue;
                    }
                    let ch = n.channel(n.out_channel(ctx.router, c.port).expect("connected"));
                    assert_eq!(
                        dist[ch.to.index()][t] + 1,
                        dist[ctx.router.index()][t],
                        "non-minimal hop {} -> {} toward {t}",
                        ctx.router,
                        ch.to
                    );
                    frontier.push(RouteCtx {
                        router: ch.to,
                        in_port: ch.to_port,
                        in_vc: VcId(c.vcs.lo),
                    });
                }
            }
            let h = walk(
                f,
                n,
                TerminalId(s as u32),
                TerminalId(t as u32),
                None,
                |_| (),
            );
            assert_eq!(h, dist[s][t]);
        }
    }
}

/// Builds the channel-dependency graph over (channel, VC) pairs: an edge from (c1, v1) to
/// (c2, v2) when a packet holding v1 on c1 may request v2 on c2 (every candidate VC, every
/// source/destination pair, every injection VC). Returns whether it has a cycle.
pub fn dependency_graph_is_cyclic(f: &dyn RoutingFunction, n: &Netlist) -> bool {
    let mut g: DiGraph<(u32, u8), ()> = DiGraph::new();
    let mut nodes = BTreeMap::new();
    let mut edges = BTreeSet::new();
    let mut node = |g: &mut DiGraph<(u32, u8), ()>, key: (u32, u8)| {
        *nodes.entry(key).or_insert_with(|| g.add_node(key))
    };
    let mut set = RouteSet::new();
    for t in 0..n.num_routers() {
        let dest = TerminalId(t as u32);
        // State: (router, in_port, in_vc, the (channel, vc) held, if any).
        let mut seen = BTreeSet::new();
        let mut stack = Vec::new();
        for s in 0..n.num_routers() {
            for v in 0..n.router(RouterId(s as u32)).ports[0].vcs {
                stack.push((RouterId(s as u32), InPort(0), VcId(v), None));
            }
        }
        while let Some((r, in_port, in_vc, held)) = stack.pop() {
            if !seen.insert((r, in_port, in_vc)) {
                continue;
            }
            f.route(
                &RouteCtx {
                    router: r,
                    in_port,
                    in_vc,
                },
                dest,
                &mut set,
            );
            for c in set.clone() {
                if c.port.0 == TERMINAL_PORT {
                    continue;
                }
                let ch = n.channel(n.out_channel(r, c.port).expect("connected"));
                for v in c.vcs.iter() {
                    let to = node(&mut g, (ch.id.0, v.0));
                    if let Some(from) = held {
                        if edges.insert((from, to)) {
                            g.add_edge(from, to, ());
                        }
                    }
                    stack.push((ch.to, ch.to_port, v, Some(to)));
                }
            }
        }
    }
    petgraph::algo::is_cyclic_directed(&g)
}

/// 2-D mesh directions as `turns_taken` reports them: east, west, north, south.
pub const E: (u8, Dir) = (0, Dir::Plus);
/// West.
pub const W: (u8, Dir) = (0, Dir::Minus);
/// North.
pub const N: (u8, Dir) = (1, Dir::Plus);
/// South.
pub const S: (u8, Dir) = (1, Dir::Minus);

/// Every turn any packet takes under `f` on `n` (every source, destination and candidate):
/// pairs (direction travelled into a router, direction of the output port taken there),
/// straight-through pairs included. Directions are the netlist ports' `(dim, dir)`.
pub fn turns_taken(f: &dyn RoutingFunction, n: &Netlist) -> BTreeSet<((u8, Dir), (u8, Dir))> {
    let mut turns = BTreeSet::new();
    let mut set = RouteSet::new();
    for t in 0..n.num_routers() {
        let dest = TerminalId(t as u32);
        let mut seen = BTreeSet::new();
        let mut stack: Vec<(RouteCtx, Option<(u8, Dir)>)> = (0..n.num_routers())
            .map(|s| {
                (
                    RouteCtx {
                        router: RouterId(s as u32),
                        in_port: InPort(TERMINAL_PORT),
                        in_vc: VcId(0),
                    },
                    None,
                )
            })
            .collect();
        while let Some((ctx, came)) = stack.pop() {
            if !seen.insert((ctx.router, ctx.in_port, ctx.in_vc)) {
                continue;
            }
            f.route(&ctx, dest, &mut set);
            for c in set.clone() {
                if c.port.0 == TERMINAL_PORT {
                    continue;
                }
                let dir = n.router(ctx.router).ports[c.port.index()]
                    .direction
                    .expect("network port has a direction");
                if let Some(prev) = came {
                    turns.insert((prev, dir));
                }
                let ch = n.channel(n.out_channel(ctx.router, c.port).expect("connected"));
                stack.push((
                    RouteCtx {
                        router: ch.to,
                        in_port: ch.to_port,
                        in_vc: VcId(c.vcs.lo),
                    },
                    Some(dir),
                ));
            }
        }
    }
    turns
}

/// Packet `seq` of terminal `source`.
pub fn packet(source: u32, seq: u32) -> PacketId {
    PacketId {
        source: TerminalId(source),
        seq,
    }
}

/// The routers packet `packet` visits from terminal `src` to terminal `dst` (one terminal
/// per router), taking candidate `pick` at the source and the first one after.
pub fn path(
    f: &dyn RoutingFunction,
    n: &Netlist,
    dst: u32,
    packet: PacketId,
    pick: usize,
) -> Vec<u32> {
    let src = packet.source;
    let mut path = vec![n.terminal_router(src).0];
    let f = PickAtSource { inner: f, pick };
    walk(&f, n, src, TerminalId(dst), Some(packet), |hop| {
        path.push(hop.channel.to.0)
    });
    path
}

/// A routing function whose candidate `pick` comes first where a packet is injected.
struct PickAtSource<'a> {
    inner: &'a dyn RoutingFunction,
    pick: usize,
}

impl RoutingFunction for PickAtSource<'_> {
    fn name(&self) -> &'static str {
        self.inner.name()
    }

    fn vc_classes(&self) -> u8 {
        self.inner.vc_classes()
    }

    fn route(&self, ctx: &RouteCtx, dest: TerminalId, out: &mut RouteSet) {
        self.inner.route(ctx, dest, out);
        if ctx.in_port.0 == TERMINAL_PORT {
            out.swap(0, self.pick);
        }
    }

    fn route_packet(&self, ctx: &RouteCtx, dest: TerminalId, packet: PacketId, out: &mut RouteSet) {
        self.inner.route_packet(ctx, dest, packet, out);
        if ctx.in_port.0 == TERMINAL_PORT {
            out.swap(0, self.pick);
        }
    }
}
