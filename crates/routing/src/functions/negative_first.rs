//! Negative-first routing on meshes (Glass and Ni's turn model, ISCA 1992), any number of
//! dimensions.
//!
//! - Topology: `mesh` of any dimension (`Minus` = the negative direction of a dimension).
//! - Route: phase 1 routes adaptively among the dimensions whose destination coordinate is
//!   lower (negative directions); when none is left, phase 2 routes adaptively among the
//!   dimensions whose destination coordinate is higher. Minimal. The phase follows from
//!   the coordinates alone.
//! - Forbidden turns: every turn from a positive direction to a negative one. Deadlock
//!   freedom: order channels with all negative-direction channels first (by decreasing
//!   coordinate sum of their source) and then all positive ones (by increasing coordinate
//!   sum); a packet's consecutive channels always go up this order, so the channel
//!   dependency graph is acyclic with one VC class (tested below). On a hypercube the same
//!   rule is P-cube (`pcube.rs`).
//! - VC classes: 1.

use super::candidates::{eject, whole_port};
use crate::{Geometry, RouteCtx, RouteSet, RoutingFunction};
use flitsim_netlist::{Dir, OutPort, RouterId, TerminalId};

/// Negative-first (see the module docs).
#[derive(Clone, Debug)]
pub struct NegativeFirst {
    geo: Geometry,
}

impl NegativeFirst {
    /// Over the geometry of a mesh netlist.
    pub fn new(geo: Geometry) -> NegativeFirst {
        NegativeFirst { geo }
    }
}

impl RoutingFunction for NegativeFirst {
    fn name(&self) -> &'static str {
        "negative-first"
    }

    fn vc_classes(&self) -> u8 {
        1
    }

    fn route(&self, ctx: &RouteCtx, dest: TerminalId, out: &mut RouteSet) {
        out.clear();
        let (here, there) = (ctx.router, RouterId(dest.0));
        for phase in [Dir::Minus, Dir::Plus] {
            for d in 0..self.geo.dims {
                if self.geo.offset(here, there, d) == Some(phase) {
                    out.push(whole_port(&self.geo, here, self.geo.port(here, d, phase)));
                }
            }
            if !out.is_empty() {
                return;
            }
        }
        out.push(eject(self.geo.terminal_vcs(here)));
    }

    fn dimension_order_port(&self, router: RouterId, dest: TerminalId) -> Option<OutPort> {
        self.geo.dor_port(router, RouterId(dest.0)).map(OutPort)
    }
}

#[cfg(test)]
mod tests {
    use crate::testutil::*;
    use crate::{build, RoutingMismatch};
    use flitsim_netlist::{topology, Dir, RoutingKind};

    #[test]
    fn minimal_acyclic_and_never_turns_from_positive_to_negative() {
        for n in [
            mesh(&[4, 4], 1),
            mesh(&[3, 3, 3], 1),
            topology::mesh(&[4, 5]),
        ] {
            let f = build(RoutingKind::NegativeFirst, &n).unwrap();
            assert_minimal(f.as_ref(), &n);
            assert!(!dependency_graph_is_cyclic(f.as_ref(), &n));
            let turns = turns_taken(f.as_ref(), &n);
            for &(a, b) in &turns {
                assert!(
                    !(a.1 == Dir::Plus && b.1 == Dir::Minus),
                    "positive -> negative turn {a:?} -> {b:?}"
                );
            }
            // Both negative -> positive and negative -> negative turns occur.
            assert!(turns.contains(&((0, Dir::Minus), (1, Dir::Plus))));
            assert!(turns.contains(&((0, Dir::Minus), (1, Dir::Minus))));
            assert!(turns.contains(&((1, Dir::Minus), (0, Dir::Minus))));
        }
    }

    #[test]
    fn only_meshes_fit() {
        assert!(matches!(
            build(RoutingKind::NegativeFirst, &torus(&[4, 4], 2)),
            Err(RoutingMismatch::DoesNotFit { .. })
        ));
    }
}
