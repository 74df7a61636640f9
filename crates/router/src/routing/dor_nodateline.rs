//! Dimension-order routing on a torus WITHOUT datelines: deliberately deadlock-prone.
//!
//! - Topology: `torus` or `ring`.
//! - Route: the same minimal dimension-order path as `dor_torus_dateline.rs` (ties at
//!   distance k/2 go Plus), but every VC of the output port is a candidate: one class.
//! - Deadlock: NOT deadlock-free. The wrap-around channels close each ring of each
//!   dimension into a cycle of channel dependencies, and with one VC class nothing breaks
//!   it; under load packets holding VCs around a ring wait for each other forever. This
//!   function exists so that the watchdog test has a routing known to deadlock.
//! - VC classes: 1.

use super::{dor_route, Geometry, RouteCtx, RouteSet, RoutingFunction};
use flitsim_netlist::{OutPort, RouterId, TerminalId};

/// Torus DOR with a single VC class (see the module docs).
#[derive(Clone, Debug)]
pub struct DorNoDateline {
    geo: Geometry,
}

impl DorNoDateline {
    /// Over the geometry of a torus or ring netlist.
    pub fn new(geo: Geometry) -> DorNoDateline {
        DorNoDateline { geo }
    }
}

impl RoutingFunction for DorNoDateline {
    fn name(&self) -> &'static str {
        "dor-nodateline"
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
    fn every_hop_is_minimal() {
        for radix in [vec![4, 4], vec![5, 3], vec![6]] {
            let n = torus(&radix, 1);
            let f = super::super::build(RoutingKind::DorNoDateline, &n).unwrap();
            assert_minimal(f.as_ref(), &n);
        }
    }

    #[test]
    fn dependency_graph_is_cyclic_on_rings_and_tori() {
        for radix in [vec![4], vec![5], vec![4, 4]] {
            let n = torus(&radix, 2);
            let f = super::super::build(RoutingKind::DorNoDateline, &n).unwrap();
            assert!(dependency_graph_is_cyclic(f.as_ref(), &n), "{radix:?}");
        }
    }

    #[test]
    fn does_not_fit_a_mesh() {
        let n = mesh(&[4, 4], 2);
        assert!(matches!(
            super::super::build(RoutingKind::DorNoDateline, &n),
            Err(super::super::RoutingMismatch::DoesNotFit { .. })
        ));
    }
}
