//! North-last routing on 2-D meshes (Glass and Ni's turn model, ISCA 1992).
//!
//! - Topology: 2-D `mesh`. Dimension 0 is X (`east` = Plus, `west` = Minus), dimension 1 is
//!   Y (`north` = Plus, `south` = Minus).
//! - Route: a packet whose destination lies north routes in X first (deterministically)
//!   and goes north last; otherwise it routes adaptively among its minimal directions
//!   (east or west, and south). Minimal.
//! - Forbidden turns: the two turns *out of* north (north -> east, north -> west). Deadlock
//!   freedom: each abstract cycle of the mesh needs one of them (Glass and Ni); with one VC
//!   class the channel dependency graph is acyclic (tested below).
//! - VC classes: 1.

use super::candidates::turn_model_route;
use crate::{Geometry, RouteCtx, RouteSet, RoutingFunction};
use flitsim_netlist::{Dir, OutPort, RouterId, TerminalId};

/// North-last (see the module docs).
#[derive(Clone, Debug)]
pub struct NorthLast {
    geo: Geometry,
}

impl NorthLast {
    /// Over the geometry of a 2-D mesh netlist.
    pub fn new(geo: Geometry) -> NorthLast {
        NorthLast { geo }
    }
}

impl RoutingFunction for NorthLast {
    fn name(&self) -> &'static str {
        "north-last"
    }

    fn vc_classes(&self) -> u8 {
        1
    }

    fn route(&self, ctx: &RouteCtx, dest: TerminalId, out: &mut RouteSet) {
        // North lies ahead: X first, north last (no turn out of north).
        turn_model_route(&self.geo, ctx.router, dest, out, |dx, dy| match (dx, dy) {
            (Some(x), Some(Dir::Plus)) => Some((0, x)),
            _ => None,
        });
    }

    fn dimension_order_port(&self, router: RouterId, dest: TerminalId) -> Option<OutPort> {
        self.geo.dor_port(router, RouterId(dest.0)).map(OutPort)
    }
}

#[cfg(test)]
mod tests {
    use crate::testutil::*;
    use crate::{build, RoutingMismatch};
    use flitsim_netlist::{topology, RoutingKind};

    #[test]
    fn minimal_acyclic_and_never_turns_out_of_north() {
        for n in [mesh(&[4, 4], 1), mesh(&[3, 5], 2), topology::mesh(&[5, 4])] {
            let f = build(RoutingKind::NorthLast, &n).unwrap();
            assert_minimal(f.as_ref(), &n);
            assert!(!dependency_graph_is_cyclic(f.as_ref(), &n));
            let turns = turns_taken(f.as_ref(), &n);
            assert!(
                !turns.contains(&(N, E)) && !turns.contains(&(N, W)),
                "{turns:?}"
            );
            for t in [(E, N), (W, N), (E, S), (W, S), (S, E), (S, W)] {
                assert!(turns.contains(&t), "{t:?} missing");
            }
        }
    }

    #[test]
    fn only_2d_meshes_fit() {
        assert!(matches!(
            build(RoutingKind::NorthLast, &torus(&[4, 4], 2)),
            Err(RoutingMismatch::DoesNotFit { .. })
        ));
    }
}
