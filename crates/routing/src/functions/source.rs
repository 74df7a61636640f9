//! Source routing for any netlist: each packet's path is fixed at its source and carried
//! by its head flit.
//!
//! - Topology: any netlist (as `table`).
//! - Paths: shortest legal up*/down* paths (`updown.rs`, from petgraph shortest paths),
//!   one per packet, chosen at random among them: at each router of the path the next hop
//!   is the `h(packet, router) mod m`-th of the `m` ports on a shortest legal path, where
//!   `h` is a fixed hash of the packet id `(source terminal, sequence number)`. The head
//!   flit carries the packet id, so the whole path is a deterministic function of what the
//!   head carries, decided when the source generates the packet: any router recomputes
//!   its hop of the same path (the packet id acts as a compact path index, like the route
//!   field of a real source-routed header; no per-hop adaptivity). On meshes rooted at a
//!   corner these are shortest paths of the netlist.
//! - Deadlock freedom: up*/down* with one VC class (see `updown.rs`; the static check
//!   covers the union of all packets' paths, [`RoutingFunction::route`]).
//! - VC classes: 1.
//! - Paper 003 (Hu and Kleinrock) assumes source routing with timeouts; this is the
//!   deadlock-free variant.

use super::updown::UpDown;
use crate::geometry::Geometry;
use crate::{RouteCtx, RouteSet, RoutingFunction, RoutingMismatch};
use flitsim_netlist::{Netlist, OutPort, PacketId, RouterId, RoutingKind, TerminalId};

/// Source routing (see the module docs).
#[derive(Clone, Debug)]
pub struct SourceRouting {
    tables: UpDown,
    geo: Option<Geometry>,
}

impl SourceRouting {
    /// Builds the path tables of `netlist`.
    ///
    /// # Errors
    /// [`RoutingMismatch::TablesTooLarge`] when the tables cannot be allocated.
    pub fn new(netlist: &Netlist) -> Result<SourceRouting, RoutingMismatch> {
        Ok(SourceRouting {
            tables: UpDown::new(netlist, RoutingKind::Source)?,
            geo: Geometry::new(netlist, RoutingKind::Source).ok(),
        })
    }
}

/// The path hash of packet `(source, seq)` at router `r` (splitmix64 finaliser).
pub fn path_hash(source: u32, seq: u32, r: RouterId) -> u64 {
    let mut z =
        (u64::from(source) << 32 | u64::from(seq)) ^ (u64::from(r.0) << 17) ^ 0x9e37_79b9_7f4a_7c15;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl RoutingFunction for SourceRouting {
    fn name(&self) -> &'static str {
        "source"
    }

    fn vc_classes(&self) -> u8 {
        1
    }

    /// The union of every packet's hop here (what any packet might take).
    fn route(&self, ctx: &RouteCtx, dest: TerminalId, out: &mut RouteSet) {
        self.tables.candidates(ctx, dest, out);
    }

    fn route_packet(&self, ctx: &RouteCtx, dest: TerminalId, packet: PacketId, out: &mut RouteSet) {
        self.tables.candidates(ctx, dest, out);
        if out.len() > 1 {
            let h = path_hash(packet.source.0, packet.seq, ctx.router);
            let keep = out[(h % out.len() as u64) as usize];
            out.clear();
            out.push(keep);
        }
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
    use crate::{build, cdg, RouteSet};

    /// Follows packet `(s, seq)` to `d`: one candidate per hop, minimal on a mesh.
    fn path(f: &dyn RoutingFunction, n: &Netlist, s: u32, seq: u32, d: u32) -> Vec<u32> {
        let (p, dest) = (packet(s, seq), TerminalId(d));
        let mut set = RouteSet::new();
        let mut path = vec![s];
        crate::walk(f, n, p.source, dest, Some(p), |hop| {
            f.route_packet(&hop.at, dest, p, &mut set);
            assert_eq!(set.len(), 1, "a source route has one hop per router");
            path.push(hop.channel.to.0);
        });
        path
    }

    #[test]
    fn paths_are_fixed_per_packet_shortest_and_varied() {
        let n = mesh(&[4, 4], 1);
        let f = build(RoutingKind::Source, &n).unwrap();
        let dist = distances(&n);
        let mut distinct = std::collections::BTreeSet::new();
        for seq in 0..64 {
            let p = path(f.as_ref(), &n, 0, seq, 15);
            assert_eq!(p.len() as u32 - 1, dist[0][15]);
            assert_eq!(
                p,
                path(f.as_ref(), &n, 0, seq, 15),
                "same packet, same path"
            );
            distinct.insert(p);
        }
        // 6 hops (3 east, 3 north): several of the 20 minimal paths are drawn.
        assert!(distinct.len() >= 5, "{}", distinct.len());
        assert_minimal(f.as_ref(), &n);
        assert_eq!(cdg::dependency_cycle(f.as_ref(), &n).unwrap(), None);
        let t = torus(&[4, 4], 1);
        assert_eq!(
            cdg::dependency_cycle(build(RoutingKind::Source, &t).unwrap().as_ref(), &t).unwrap(),
            None
        );
    }
}
