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
use flitsim_netlist::{OutPort, RouterId, TerminalId};

/// Torus DOR with datelines (see the module docs).
#[derive(Clone, Debug)]
pub struct DorTorusDateline {
    geo: Geometry,
}

impl DorTorusDateline {
    /// Over the geometry of a torus or ring netlist.
    pub fn new(geo: Geometry) -> DorTorusDateline {
        DorTorusDateline { geo }
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

    fn route(&self, ctx: &RouteCtx, dest: TerminalId, out: &mut RouteSet) {
        out.clear();
        let here = ctx.router;
        let there = RouterId(dest.0);
        for d in 0..self.geo.dims {
            let (a, b) = (self.geo.coord(here, d), self.geo.coord(there, d));
            let Some(dir) = self.geo.step(d, a, b) else {
                continue;
            };
            let port = self.geo.port(here, d, dir);
            // Already past the dateline of this dimension: arrived travelling the same
            // dimension and direction on a class-1 VC.
            let in_port = ctx.in_port.0;
            let past = self.geo.travel(here, in_port) == Some((d as u8, dir))
                && !class_range(self.geo.in_vcs(here, in_port), 0).contains(ctx.in_vc);
            let class = u8::from(past || self.geo.crosses_dateline(d, a, dir));
            out.push(Candidate {
                port: OutPort(port),
                vcs: class_range(self.geo.out_vcs(here, port), class),
            });
            return;
        }
        out.push(eject(self.geo.terminal_vcs(here)));
    }

    fn dimension_order_port(&self, router: RouterId, dest: TerminalId) -> Option<OutPort> {
        self.geo.dor_port(router, RouterId(dest.0)).map(OutPort)
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::*;
    use super::super::{build, RoutingMismatch};
    use flitsim_netlist::RoutingKind;

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
