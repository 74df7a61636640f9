//! Table routing for any netlist: routing tables from petgraph shortest paths, restricted
//! to up*/down* paths for deadlock freedom.
//!
//! - Topology: any netlist (explicit ones included); needs every terminal reachable from
//!   every router over legal up*/down* paths (true for any strongly connected netlist
//!   whose channels come in opposite pairs, as all generators and usual explicit netlists).
//! - Tables: per (router, phase, destination) the shortest legal up*/down* distance
//!   (`updown.rs`, Dijkstra on the phase graph); the candidates are every output port on a
//!   shortest legal path (all its VCs), and the selection function picks among the free
//!   ones, so the table is a multi-path table. Every hop shortens the legal distance by
//!   one; on trees and meshes rooted at a corner legal paths are shortest paths of the
//!   netlist, elsewhere (tori, hypercubes) some pairs take a longer legal path.
//! - Deadlock freedom: up*/down* (Schroeder et al., "Autonet", IEEE JSAC 9(8), 1991) with
//!   one VC class: the channel dependency graph is acyclic (argument in `updown.rs`;
//!   verified by the static check).
//! - VC classes: 1.

use super::updown::UpDown;
use crate::geometry::Geometry;
use crate::{RouteCtx, RouteSet, RoutingFunction, RoutingMismatch};
use flitsim_netlist::{Netlist, OutPort, RouterId, RoutingKind, TerminalId};

/// Up*/down* table routing (see the module docs).
#[derive(Clone, Debug)]
pub struct TableRouting {
    tables: UpDown,
    geo: Option<Geometry>,
}

impl TableRouting {
    /// Builds the tables of `netlist`.
    ///
    /// # Errors
    /// [`RoutingMismatch::TablesTooLarge`] when the tables cannot be allocated.
    pub fn new(netlist: &Netlist) -> Result<TableRouting, RoutingMismatch> {
        Ok(TableRouting {
            tables: UpDown::new(netlist, RoutingKind::Table)?,
            geo: Geometry::new(netlist, RoutingKind::Table).ok(),
        })
    }
}

impl RoutingFunction for TableRouting {
    fn name(&self) -> &'static str {
        "table"
    }

    fn vc_classes(&self) -> u8 {
        1
    }

    fn route(&self, ctx: &RouteCtx, dest: TerminalId, out: &mut RouteSet) {
        self.tables.candidates(ctx, dest, out);
    }

    fn dimension_order_port(&self, router: RouterId, dest: TerminalId) -> Option<OutPort> {
        self.geo
            .as_ref()?
            .dor_port(router, RouterId(dest.0))
            .map(OutPort)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::*;
    use crate::{build, cdg, RouteCtx, RouteSet};
    use flitsim_netlist::{topology, InPort, Topology, VcId, TERMINAL_PORT};

    /// Every hop shortens the up*/down* distance by one and ends at the destination; on a
    /// mesh the paths are shortest paths of the netlist.
    #[test]
    fn hops_are_productive_and_acyclic() {
        let mut explicit = torus(&[3, 4], 1);
        explicit.topology = Topology::Explicit;
        for n in [
            mesh(&[4, 4], 1),
            torus(&[4, 4], 1),
            hypercube(4, 1),
            explicit,
            topology::ring(6),
        ] {
            let f = build(RoutingKind::Table, &n).unwrap();
            let t = UpDown::new(&n, RoutingKind::Table).unwrap();
            let mut set = RouteSet::new();
            for s in 0..n.num_routers() as u32 {
                for d in 0..n.num_routers() as u32 {
                    let mut stack = vec![(RouterId(s), InPort(TERMINAL_PORT), 0usize)];
                    while let Some((r, p, phase)) = stack.pop() {
                        let ctx = RouteCtx {
                            router: r,
                            in_port: p,
                            in_vc: VcId(0),
                        };
                        f.route(&ctx, TerminalId(d), &mut set);
                        assert!(!set.is_empty());
                        for c in set.clone() {
                            if c.port.0 == TERMINAL_PORT {
                                assert_eq!(r, RouterId(d));
                                continue;
                            }
                            let ch = n.channel(n.out_channel(r, c.port).unwrap());
                            let up = (t.distance(r, phase, RouterId(d))) as u32;
                            let next_phase = if t.distance(ch.to, 0, RouterId(d)) as u32 + 1 == up
                                && phase == 0
                            {
                                0
                            } else {
                                1
                            };
                            assert_eq!(
                                t.distance(ch.to, next_phase, RouterId(d)) as u32 + 1,
                                up,
                                "unproductive hop"
                            );
                            stack.push((ch.to, ch.to_port, next_phase));
                        }
                    }
                }
            }
            assert!(!dependency_graph_is_cyclic(f.as_ref(), &n));
            assert_eq!(cdg::dependency_cycle(f.as_ref(), &n).unwrap(), None);
        }
        // On a mesh the legal paths are shortest paths.
        let n = mesh(&[4, 3], 1);
        assert_minimal(build(RoutingKind::Table, &n).unwrap().as_ref(), &n);
    }
}
