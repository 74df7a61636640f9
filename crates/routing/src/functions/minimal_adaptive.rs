//! Minimal adaptive routing over every VC, the routing of paper 004 ("Virtual cut-through
//! routing in toroidal interconnection networks", section 2.2).
//!
//! - Topology: `torus`, `ring`, `mesh` (needs coordinates).
//! - Route: at the destination, eject. Otherwise one candidate per minimal direction of
//!   every dimension with hops left (both directions when the distance is exactly `k/2`),
//!   each with every VC of its port. The paper's rule "the first free minimal port, where
//!   first is the smallest port number; if none is free, the storage buffer of the
//!   largest" is the `first-free-else-highest` selection ([`crate::committed`]); with
//!   `first-free` a blocked head is re-selected every cycle instead.
//! - VC classes: 1. Nothing in the VCs breaks the ring cycles of a torus.
//! - Deadlock freedom: by storage, not by the channel dependency graph (which is cyclic).
//!   Under virtual cut-through or store-and-forward with unbounded network input buffers
//!   and VCs released when the tail leaves, a downstream VC is held only while a packet
//!   streams into it, and a stream always completes because its buffer takes every flit.
//!   No head then waits on a VC held by a blocked packet. The static check
//!   ([`crate::cdg::deadlock_free_by_storage`]) accepts this function under those
//!   conditions only, and reports the dependency cycle otherwise.

use super::candidates::{eject, whole_port};
use crate::{Geometry, RouteCtx, RouteSet, RoutingFunction};
use flitsim_netlist::{OutPort, RouterId, TerminalId};

/// Minimal adaptive routing over every VC (see the module docs).
#[derive(Clone, Debug)]
pub struct MinimalAdaptive {
    geo: Geometry,
}

impl MinimalAdaptive {
    /// Over the geometry of a torus, ring or mesh.
    pub fn new(geo: Geometry) -> MinimalAdaptive {
        MinimalAdaptive { geo }
    }
}

impl RoutingFunction for MinimalAdaptive {
    fn name(&self) -> &'static str {
        "minimal-adaptive"
    }

    fn vc_classes(&self) -> u8 {
        1
    }

    fn route(&self, ctx: &RouteCtx, dest: TerminalId, out: &mut RouteSet) {
        out.clear();
        let (here, there) = (ctx.router, RouterId(dest.0));
        if here == there {
            out.push(eject(self.geo.terminal_vcs(here)));
            return;
        }
        for d in 0..self.geo.dims {
            for dir in self.geo.minimal_dirs(here, there, d).into_iter().flatten() {
                out.push(whole_port(&self.geo, here, self.geo.port(here, d, dir)));
            }
        }
    }

    fn dimension_order_port(&self, router: RouterId, dest: TerminalId) -> Option<OutPort> {
        self.geo.dor_port(router, RouterId(dest.0)).map(OutPort)
    }
}

#[cfg(test)]
mod tests {
    use crate::testutil::*;
    use crate::{build, cdg, RouteCtx, RouteSet, RoutingMismatch};
    use flitsim_netlist::{topology, InPort, RouterId, RoutingKind, TerminalId, VcId};

    #[test]
    fn every_hop_is_minimal() {
        for n in [torus(&[4, 4], 1), torus(&[6, 6], 2), mesh(&[4, 3], 1)] {
            let f = build(RoutingKind::MinimalAdaptive, &n).unwrap();
            assert_minimal(f.as_ref(), &n);
        }
    }

    #[test]
    fn every_minimal_port_with_every_vc() {
        let n = torus(&[6, 6], 2);
        let f = build(RoutingKind::MinimalAdaptive, &n).unwrap();
        let ctx = RouteCtx {
            router: RouterId(0),
            in_port: InPort(0),
            in_vc: VcId(0),
        };
        let mut set = RouteSet::new();
        // (3, 1): X is a tie at k/2 (both directions), Y goes Plus.
        f.route(&ctx, TerminalId(3 + 6), &mut set);
        assert_eq!(set.len(), 3);
        assert!(set.iter().all(|c| (c.vcs.lo, c.vcs.hi) == (0, 2)));
        let mut ports: Vec<u8> = set.iter().map(|c| c.port.0).collect();
        ports.dedup();
        assert_eq!(ports.len(), 3);
    }

    #[test]
    fn the_dependency_graph_is_cyclic_on_a_torus() {
        let n = torus(&[4, 4], 1);
        let f = build(RoutingKind::MinimalAdaptive, &n).unwrap();
        assert!(cdg::dependency_cycle(f.as_ref(), &n).unwrap().is_some());
    }

    #[test]
    fn does_not_fit_a_hypercube() {
        assert!(matches!(
            build(RoutingKind::MinimalAdaptive, &topology::hypercube(3)),
            Err(RoutingMismatch::DoesNotFit { .. })
        ));
    }
}
