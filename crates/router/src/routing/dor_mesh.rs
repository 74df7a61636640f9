//! Dimension-order routing (DOR) on a mesh.
//!
//! - Topology: `mesh` (any number of dimensions). Needs router coordinates and the ports
//!   `port_toward(d, Plus/Minus)` wherever a neighbour exists.
//! - Route: correct dimension 0 first, then 1, ...; within a dimension move toward the
//!   destination; eject at the destination. Minimal; deterministic.
//! - Deadlock freedom: on a mesh DOR only makes turns from a lower to a higher dimension
//!   and never reverses within a dimension, so channel dependencies go from (dimension d,
//!   direction, position) to a channel further along d or to a higher dimension: the
//!   channel-dependency graph is acyclic (Dally and Seitz 1987) with one VC class.
//! - VC classes: 1 (every VC of the output port is a candidate).

use super::{dor_route, Geometry, RouteCtx, RouteSet, RoutingFunction};
use flitsim_netlist::{OutPort, RouterId, TerminalId};

/// Mesh DOR (see the module docs).
#[derive(Clone, Debug)]
pub struct DorMesh {
    geo: Geometry,
}

impl DorMesh {
    /// Over the geometry of a mesh netlist.
    pub fn new(geo: Geometry) -> DorMesh {
        DorMesh { geo }
    }
}

impl RoutingFunction for DorMesh {
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
    use flitsim_netlist::RoutingKind;

    #[test]
    fn every_hop_is_minimal_on_meshes() {
        for radix in [vec![4, 4], vec![3, 5], vec![2, 3, 2], vec![6]] {
            let n = mesh(&radix, 2);
            let f = super::super::build(RoutingKind::Dor, &n).unwrap();
            assert_minimal(f.as_ref(), &n);
        }
    }

    #[test]
    fn dependency_graph_is_acyclic() {
        for radix in [vec![4, 4], vec![3, 3, 3]] {
            let n = mesh(&radix, 2);
            let f = super::super::build(RoutingKind::Dor, &n).unwrap();
            assert!(!dependency_graph_is_cyclic(f.as_ref(), &n));
        }
    }
}
