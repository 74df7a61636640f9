//! West-first routing on 2-D meshes (Glass and Ni's turn model, "The turn model for
//! adaptive routing", ISCA 1992).
//!
//! - Topology: 2-D `mesh`. Dimension 0 is X (`east` = Plus, `west` = Minus), dimension 1 is
//!   Y (`north` = Plus, `south` = Minus).
//! - Route: a packet whose destination lies west goes west first (deterministically, all
//!   its west hops); otherwise it routes adaptively among its minimal directions (east,
//!   north, south). Minimal.
//! - Forbidden turns: the two turns *into* west (north -> west, south -> west). Deadlock
//!   freedom: each of the two abstract cycles of a mesh (clockwise, counter-clockwise)
//!   needs one of the forbidden turns, and no turn sequence of the remaining six rebuilds
//!   them (Glass and Ni, theorem 1); with one VC class the channel dependency graph is
//!   acyclic (tested below).
//! - VC classes: 1.

use super::candidates::turn_model_route;
use crate::{Geometry, RouteCtx, RouteSet, RoutingFunction};
use flitsim_netlist::{Dir, OutPort, RouterId, TerminalId};

/// West-first (see the module docs).
#[derive(Clone, Debug)]
pub struct WestFirst {
    geo: Geometry,
}

impl WestFirst {
    /// Over the geometry of a 2-D mesh netlist.
    pub fn new(geo: Geometry) -> WestFirst {
        WestFirst { geo }
    }
}

impl RoutingFunction for WestFirst {
    fn name(&self) -> &'static str {
        "west-first"
    }

    fn vc_classes(&self) -> u8 {
        1
    }

    fn route(&self, ctx: &RouteCtx, dest: TerminalId, out: &mut RouteSet) {
        // West lies ahead: all the west hops first (no turn into west later).
        turn_model_route(&self.geo, ctx.router, dest, out, |dx, _| {
            (dx == Some(Dir::Minus)).then_some((0, Dir::Minus))
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
    fn minimal_acyclic_and_never_turns_into_west() {
        for n in [mesh(&[4, 4], 1), mesh(&[5, 3], 2), topology::mesh(&[4, 5])] {
            let f = build(RoutingKind::WestFirst, &n).unwrap();
            assert_minimal(f.as_ref(), &n);
            assert!(!dependency_graph_is_cyclic(f.as_ref(), &n));
            let turns = turns_taken(f.as_ref(), &n);
            assert!(
                !turns.contains(&(N, W)) && !turns.contains(&(S, W)),
                "{turns:?}"
            );
            // Every allowed turn does occur (the routing is adaptive, not DOR).
            for t in [(W, N), (W, S), (E, N), (E, S), (N, E), (S, E)] {
                assert!(turns.contains(&t), "{t:?} missing");
            }
        }
    }

    #[test]
    fn only_2d_meshes_fit() {
        for n in [torus(&[4, 4], 2), mesh(&[3, 3, 3], 1), hypercube(3, 1)] {
            assert!(matches!(
                build(RoutingKind::WestFirst, &n),
                Err(RoutingMismatch::DoesNotFit { .. })
            ));
        }
    }
}
