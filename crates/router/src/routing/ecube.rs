//! E-cube routing on a binary hypercube (dimension-order routing of hypercubes).
//!
//! - Topology: `hypercube` of dimension n. Router coordinates are address bits; port
//!   `port_toward(d, Plus)` flips bit d.
//! - Route: flip the lowest differing address bit first; eject when the address matches.
//!   Minimal (one hop per differing bit); deterministic.
//! - Deadlock freedom: packets cross dimensions in increasing order only, so every
//!   channel dependency goes from a channel of dimension d to one of a dimension > d; the
//!   channel-dependency graph is acyclic (Sullivan and Bashkow; Dally and Seitz 1987)
//!   with one VC class.
//! - VC classes: 1.

use super::{dor_route, Geometry, RouteCtx, RouteSet, RoutingFunction};
use flitsim_netlist::{OutPort, RouterId, TerminalId};

/// Hypercube e-cube (see the module docs).
#[derive(Clone, Debug)]
pub struct Ecube {
    geo: Geometry,
}

impl Ecube {
    /// Over the geometry of a hypercube netlist.
    pub fn new(geo: Geometry) -> Ecube {
        Ecube { geo }
    }
}

impl RoutingFunction for Ecube {
    fn name(&self) -> &'static str {
        "dor"
    }

    fn vc_classes(&self) -> u8 {
        1
    }

    fn route(&self, ctx: &RouteCtx, dest: TerminalId, out: &mut RouteSet) {
        dor_route(&self.geo, ctx.router, dest, out);
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
    use flitsim_netlist::{RouterId, RoutingKind};

    #[test]
    fn every_hop_is_minimal_on_hypercubes() {
        for dim in 1..=4 {
            let n = hypercube(dim, 2);
            let f = super::super::build(RoutingKind::Dor, &n).unwrap();
            assert_minimal(f.as_ref(), &n);
            // Minimal on a hypercube = Hamming distance.
            for s in 0..n.num_routers() as u32 {
                for t in 0..n.num_routers() as u32 {
                    let h = super::super::route_hops(f.as_ref(), &n, RouterId(s), RouterId(t));
                    assert_eq!(h, (s ^ t).count_ones());
                }
            }
        }
    }

    #[test]
    fn dependency_graph_is_acyclic() {
        let n = hypercube(4, 1);
        let f = super::super::build(RoutingKind::Dor, &n).unwrap();
        assert!(!dependency_graph_is_cyclic(f.as_ref(), &n));
    }
}
