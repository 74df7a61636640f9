//! One-class dimension-order routing: mesh DOR, hypercube e-cube, and torus DOR without
//! datelines are one function over different geometries.
//!
//! - Route: correct the lowest differing dimension first, moving the minimal way within
//!   it ([`Geometry::dor_port`]; torus ties at distance k/2 go Plus; a hypercube flips
//!   the lowest differing address bit); eject at the destination. Minimal; deterministic.
//!   Every VC of the output port is a candidate: one VC class.
//! - Mesh (`dor`): turns only go from a lower to a higher dimension and never reverse
//!   within one, so the channel-dependency graph is acyclic (Dally and Seitz 1987).
//! - Hypercube (`dor`, e-cube): dimensions are crossed in increasing order only; the
//!   graph is acyclic (Sullivan and Bashkow; Dally and Seitz 1987).
//! - Torus or ring (`dor-nodateline`): NOT deadlock-free. The wrap-around channels close
//!   each ring into a cycle of dependencies that one VC class cannot break; it exists so
//!   that the watchdog has a routing known to deadlock. Deadlock-free torus DOR is
//!   [`super::dor_torus_dateline`].

use super::candidates::dor_route;
use crate::{Geometry, RouteCtx, RouteSet, RoutingFunction};
use flitsim_netlist::{OutPort, RouterId, TerminalId};

/// One-class dimension-order routing (see the module docs).
#[derive(Clone, Debug)]
pub struct DimensionOrder {
    geo: Geometry,
    name: &'static str,
}

impl DimensionOrder {
    /// Over `geo` (a mesh, a hypercube, or a torus or ring), reported under the registry
    /// name `name`.
    pub fn new(geo: Geometry, name: &'static str) -> DimensionOrder {
        DimensionOrder { geo, name }
    }
}

impl RoutingFunction for DimensionOrder {
    fn name(&self) -> &'static str {
        self.name
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
    use crate::testutil::*;
    use flitsim_netlist::{RoutingKind, TerminalId};

    #[test]
    fn every_hop_is_minimal_on_meshes() {
        for radix in [vec![4, 4], vec![3, 5], vec![2, 3, 2], vec![6]] {
            let n = mesh(&radix, 2);
            let f = crate::build(RoutingKind::Dor, &n).unwrap();
            assert_minimal(f.as_ref(), &n);
        }
    }

    #[test]
    fn dependency_graph_is_acyclic_on_meshes() {
        for radix in [vec![4, 4], vec![3, 3, 3]] {
            let n = mesh(&radix, 2);
            let f = crate::build(RoutingKind::Dor, &n).unwrap();
            assert!(!dependency_graph_is_cyclic(f.as_ref(), &n));
        }
    }

    #[test]
    fn every_hop_is_minimal_on_hypercubes() {
        for dim in 1..=4 {
            let n = hypercube(dim, 2);
            let f = crate::build(RoutingKind::Dor, &n).unwrap();
            assert_minimal(f.as_ref(), &n);
            // Minimal on a hypercube = Hamming distance.
            for s in 0..n.num_routers() as u32 {
                for t in 0..n.num_routers() as u32 {
                    let h = crate::walk(f.as_ref(), &n, TerminalId(s), TerminalId(t), None, |_| ());
                    assert_eq!(h, (s ^ t).count_ones());
                }
            }
        }
    }

    #[test]
    fn dependency_graph_is_acyclic_on_hypercubes() {
        let n = hypercube(4, 1);
        let f = crate::build(RoutingKind::Dor, &n).unwrap();
        assert!(!dependency_graph_is_cyclic(f.as_ref(), &n));
    }

    #[test]
    fn every_hop_is_minimal_on_tori_without_datelines() {
        for radix in [vec![4, 4], vec![5, 3], vec![6]] {
            let n = torus(&radix, 1);
            let f = crate::build(RoutingKind::DorNoDateline, &n).unwrap();
            assert_minimal(f.as_ref(), &n);
        }
    }

    #[test]
    fn dependency_graph_is_cyclic_on_rings_and_tori() {
        for radix in [vec![4], vec![5], vec![4, 4]] {
            let n = torus(&radix, 2);
            let f = crate::build(RoutingKind::DorNoDateline, &n).unwrap();
            assert!(dependency_graph_is_cyclic(f.as_ref(), &n), "{radix:?}");
        }
    }

    #[test]
    fn without_datelines_does_not_fit_a_mesh() {
        let n = mesh(&[4, 4], 2);
        assert!(matches!(
            crate::build(RoutingKind::DorNoDateline, &n),
            Err(crate::RoutingMismatch::DoesNotFit { .. })
        ));
    }

    #[test]
    fn names_are_the_registry_names() {
        let n = mesh(&[3, 3], 1);
        assert_eq!(crate::build(RoutingKind::Dor, &n).unwrap().name(), "dor");
        let n = hypercube(3, 1);
        assert_eq!(crate::build(RoutingKind::Dor, &n).unwrap().name(), "dor");
        let n = torus(&[4], 1);
        let f = crate::build(RoutingKind::DorNoDateline, &n).unwrap();
        assert_eq!(f.name(), "dor-nodateline");
    }
}
