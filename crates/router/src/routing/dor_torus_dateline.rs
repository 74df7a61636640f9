//! Dimension-order routing on a torus (or ring) with dateline VC classes.
//!
//! - Topology: `torus` (any number of dimensions) or `ring`. Needs coordinates and both
//!   `port_toward(d, Plus)` and `port_toward(d, Minus)` on every router.
//! - Route: correct dimension 0 first, then 1, ...; within dimension d take the minimal
//!   direction (ties at distance k/2 go Plus, so the route is deterministic); eject at
//!   the destination. Minimal.
//! - VC classes: 2. The VCs of every router-to-router input port are split evenly:
//!   class 0 = `0..V/2`, class 1 = `V/2..V` (V >= 2 is required). In dimension d a packet
//!   uses class 0 until it crosses the dateline of d (the wrap-around channel,
//!   `k-1 -> 0` going Plus and `0 -> k-1` going Minus) and class 1 on the wrap-around
//!   channel itself and after it. The class resets to 0 when the packet turns into the
//!   next dimension (and at injection). The router knows the class from the VC the head
//!   occupies and the direction it arrived from (per-router tables from the netlist).
//! - Deadlock freedom (Dally and Seitz 1987): order the virtual channels by (dimension,
//!   class, position along the direction of travel, counted from the dateline). Within a
//!   ring of dimension d and direction dir, class 0 is never used on the wrap-around
//!   channel, so class-0 dependencies form a chain that ends before the dateline; the
//!   wrap-around hop moves the packet to class 1, and a minimal route crosses the
//!   dateline at most once, so class-1 dependencies form a chain that starts at the
//!   wrap-around channel and never reaches it again. Class 1 never depends on class 0 of
//!   the same dimension, and dimensions are only ever taken in increasing order. Every
//!   dependency therefore goes up in this total order, the channel-dependency graph is
//!   acyclic (tested below with `petgraph::algo::is_cyclic_directed`), and the routing is
//!   deadlock-free under wormhole switching.

use super::{eject, Candidate, Geometry, RouteCtx, RouteSet, RoutingFunction, VcRange};
use flitsim_netlist::{Dir, OutPort, RouterId, TerminalId};

/// Torus DOR with datelines (see the module docs). The geometry's per-port lookups are
/// folded at build time into flat per-router tables, so a route computation reads two
/// coordinate slices, one [`Hop`] and one [`Arrival`].
#[derive(Clone, Debug)]
pub struct DorTorusDateline {
    geo: Geometry,
    /// `hops[r * dims + d][dir]` (dir 0 = Plus, 1 = Minus): the output port of router r
    /// along dimension d in that direction, with its two VC classes.
    hops: Vec<[Hop; 2]>,
    /// `arrivals[r * ports + in_port]` (`ports`: the most input ports of any router).
    arrivals: Vec<Arrival>,
    /// Stride of `arrivals`.
    ports: usize,
    /// The ejection candidate of each router.
    eject: Vec<Candidate>,
}

/// One output port of a router toward a (dimension, direction), with its VC classes.
#[derive(Copy, Clone, Debug)]
struct Hop {
    port: OutPort,
    /// `classes[c]`: the VCs of class c of the downstream input port.
    classes: [VcRange; 2],
}

/// What the router knows of a head arriving on one input port.
#[derive(Copy, Clone, Debug)]
struct Arrival {
    /// The (dimension, direction) the head was travelling (`None`: the terminal port,
    /// an unconnected port).
    travel: Option<(u8, Dir)>,
    /// The first class-1 VC of the port: a head on a VC at or above it has crossed the
    /// dateline of its dimension.
    class1: u8,
}

impl DorTorusDateline {
    /// Over the geometry of a torus or ring netlist.
    pub fn new(geo: Geometry) -> DorTorusDateline {
        let ports = (0..geo.routers())
            .map(|r| geo.in_ports(RouterId(r as u32)))
            .max()
            .unwrap_or(0);
        let mut hops = Vec::with_capacity(geo.routers() * geo.dims);
        let mut arrivals = Vec::with_capacity(geo.routers() * ports);
        let mut ejects = Vec::with_capacity(geo.routers());
        for r in (0..geo.routers()).map(|r| RouterId(r as u32)) {
            for d in 0..geo.dims {
                hops.push([Dir::Plus, Dir::Minus].map(|dir| {
                    let port = geo.port(r, d, dir);
                    let vcs = geo.out_vcs(r, port);
                    Hop {
                        port: OutPort(port),
                        classes: [class_range(vcs, 0), class_range(vcs, 1)],
                    }
                }));
            }
            for p in 0..ports {
                arrivals.push(if p < geo.in_ports(r) {
                    let p = p as u8;
                    Arrival {
                        travel: geo.travel(r, p),
                        class1: class_range(geo.in_vcs(r, p), 0).hi,
                    }
                } else {
                    Arrival {
                        travel: None,
                        class1: 0,
                    }
                });
            }
            ejects.push(eject(geo.terminal_vcs(r)));
        }
        DorTorusDateline {
            geo,
            hops,
            arrivals,
            ports,
            eject: ejects,
        }
    }
}

/// The VCs of class `class` (0 or 1) on a port with `vcs` VCs.
fn class_range(vcs: u8, class: u8) -> VcRange {
    let half = vcs / 2;
    if class == 0 {
        VcRange::new(0, half)
    } else {
        VcRange::new(half, vcs)
    }
}

impl RoutingFunction for DorTorusDateline {
    fn name(&self) -> &'static str {
        "dor"
    }

    fn vc_classes(&self) -> u8 {
        2
    }

    #[inline]
    fn route(&self, ctx: &RouteCtx, dest: TerminalId, out: &mut RouteSet) {
        out.clear();
        let here = ctx.router;
        // Correct the lowest differing dimension first.
        let Some((d, a, b)) = self.geo.first_difference(here, RouterId(dest.0)) else {
            out.push(self.eject[here.index()]);
            return;
        };
        let dir = self.geo.step(d, a, b).expect("the coordinates differ");
        let hop = &self.hops[here.index() * self.geo.dims + d][match dir {
            Dir::Plus => 0,
            Dir::Minus => 1,
        }];
        // Already past the dateline of this dimension: arrived travelling the same
        // dimension and direction on a class-1 VC.
        let in_port = usize::from(ctx.in_port.0);
        let past = in_port < self.ports && {
            let arrival = self.arrivals[here.index() * self.ports + in_port];
            arrival.travel == Some((d as u8, dir)) && ctx.in_vc.0 >= arrival.class1
        };
        let class = past || self.geo.crosses_dateline(d, a, dir);
        out.push(Candidate {
            port: hop.port,
            vcs: hop.classes[usize::from(class)],
        });
    }

    fn dimension_order_port(&self, router: RouterId, dest: TerminalId) -> Option<OutPort> {
        self.geo.dor_port(router, RouterId(dest.0)).map(OutPort)
    }

    fn is_dimension_order(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::*;
    use super::super::{build, RoutingMismatch};
    use super::*;
    use flitsim_netlist::{InPort, RoutingKind, VcId};

    #[test]
    fn every_hop_is_minimal_on_tori_and_rings() {
        for radix in [vec![4, 4], vec![5, 3], vec![2, 4], vec![3, 3, 3], vec![8]] {
            let n = torus(&radix, 2);
            let f = build(RoutingKind::Dor, &n).unwrap();
            assert_minimal(f.as_ref(), &n);
        }
    }

    #[test]
    fn dependency_graph_is_acyclic_with_datelines() {
        for radix in [vec![4], vec![5], vec![4, 4], vec![5, 3], vec![3, 3, 3]] {
            for vcs in [2, 3, 4] {
                let n = torus(&radix, vcs);
                let f = build(RoutingKind::Dor, &n).unwrap();
                assert!(
                    !dependency_graph_is_cyclic(f.as_ref(), &n),
                    "{radix:?} with {vcs} VCs"
                );
            }
        }
    }

    /// The route as the module docs define it, read from the geometry at each call (the
    /// tables of `DorTorusDateline` must give the same candidates).
    fn reference_route(geo: &Geometry, ctx: &RouteCtx, dest: TerminalId) -> Candidate {
        let (here, there) = (ctx.router, RouterId(dest.0));
        for d in 0..geo.dims {
            let (a, b) = (geo.coord(here, d), geo.coord(there, d));
            let Some(dir) = geo.step(d, a, b) else {
                continue;
            };
            let port = geo.port(here, d, dir);
            let in_port = ctx.in_port.0;
            let past = geo.travel(here, in_port) == Some((d as u8, dir))
                && !class_range(geo.in_vcs(here, in_port), 0).contains(ctx.in_vc);
            let class = u8::from(past || geo.crosses_dateline(d, a, dir));
            return Candidate {
                port: OutPort(port),
                vcs: class_range(geo.out_vcs(here, port), class),
            };
        }
        eject(geo.terminal_vcs(here))
    }

    #[test]
    fn tables_give_the_geometry_route_from_every_port_and_vc() {
        for (radix, vcs) in [
            (vec![4, 4], 2),
            (vec![5, 3], 4),
            (vec![3, 3, 3], 3),
            (vec![8], 4),
        ] {
            let n = torus(&radix, vcs);
            let geo = Geometry::new(&n, RoutingKind::Dor).unwrap();
            let f = DorTorusDateline::new(geo.clone());
            let mut out = RouteSet::new();
            for r in n.routers() {
                for p in 0..=r.ports.len() as u8 {
                    for v in 0..vcs {
                        for t in 0..n.num_routers() as u32 {
                            let ctx = RouteCtx {
                                router: r.id,
                                in_port: InPort(p),
                                in_vc: VcId(v),
                            };
                            f.route(&ctx, TerminalId(t), &mut out);
                            let want = reference_route(&geo, &ctx, TerminalId(t));
                            assert_eq!(out.as_slice(), [want], "{radix:?} {ctx:?} to {t}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn one_vc_is_too_few() {
        let n = torus(&[4, 4], 1);
        assert!(matches!(
            build(RoutingKind::Dor, &n),
            Err(RoutingMismatch::TooFewVcs {
                needed: 2,
                have: 1,
                ..
            })
        ));
    }
}
