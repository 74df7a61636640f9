//! Duato's minimal fully adaptive routing (Duato 1993, 1995): adaptive VCs usable in any
//! minimal direction, plus escape VCs running dimension-order routing.
//!
//! - Topology: `torus` (any number of dimensions), `ring`, `mesh`. Needs coordinates.
//! - VCs: every router-to-router port splits its VCs into escape VCs `0..e` and adaptive
//!   VCs `e..V`. `e` = 2 on tori and rings (the two dateline classes, one VC each), 1 on
//!   meshes; with `adaptive_vcs = V1 > 0` (router config, `--set adaptive_vcs=N`) the escape
//!   VCs are `e = V - V1` (of the port with the fewest VCs) split evenly between the two
//!   dateline classes. Needed: `e_min + 1` VCs (3 on tori, 2 on meshes), or `V1 + e_min`.
//! - Route: at the destination, eject. Otherwise one adaptive candidate (VCs `e..V`) per
//!   minimal direction of every dimension with hops left (both directions when the
//!   distance is exactly `k/2`), then one escape candidate: the dimension-order port
//!   (lowest dimension with hops left; at a tie the packet's direction under `dor_tie`,
//!   as [`super::dor_torus_dateline`], and both for [`RoutingFunction::route`], the union
//!   over packets) on escape class 0 or 1. Selection
//!   prefers a free adaptive candidate and falls back to the escape one; a blocked head
//!   waits for whichever frees first (it is re-selected every cycle).
//! - Escape classes on a torus: hop from coordinate `a` toward `b` in direction `dir` uses
//!   class 0 while the wrap-around channel of that dimension still lies *beyond* this hop
//!   on the minimal path (going `Plus`: `b < a` and `a != k-1`), class 1 otherwise (on the
//!   wrap-around channel itself and after it, and for paths that never wrap). The class is
//!   a function of position and destination only, so a packet that crossed the dateline on
//!   adaptive VCs still gets class 1 when it drops to the escape VCs.
//! - Deadlock freedom (Duato's theorem): the escape sub-function is dimension-order with
//!   datelines, connected, and its *extended* channel dependency graph (direct
//!   dependencies plus indirect ones through adaptive hops) is acyclic. Order escape VCs
//!   by (dimension, direction, class, position counted from the dateline). A minimal path
//!   never returns to a lower dimension once it is done, never reverses direction in a
//!   dimension, and its class in a dimension never decreases (the wrap lies ahead, then
//!   behind); within a class positions only advance (class 0 never uses the wrap-around
//!   channel; class 1 starts at it and a minimal path does not reach it again). Adaptive
//!   hops are minimal too, so indirect dependencies go up the same order. The static
//!   check ([`crate::cdg`]) verifies this on each netlist. The theorem assumes an
//!   adaptive VC's queue holds flits of one packet at a time: VA therefore allocates the
//!   adaptive VCs atomically (only when empty) whatever `vc_release` says
//!   (the router's `RouterState::release_for`); the escape VCs follow `vc_release`.
//! - Paper: the "fully adaptive" routing of papers 000 and 001 is this methodology;
//!   Duato, "A new theory of deadlock-free adaptive routing in wormhole networks", IEEE
//!   TPDS 4(12), 1993.

use super::candidates::eject;
use crate::geometry::tie_dir;
use crate::{Candidate, Geometry, RouteCtx, RouteSet, RoutingFunction, VcRange};
use flitsim_netlist::{Dir, DorTie, OutPort, PacketId, RouterId, TerminalId};

/// Duato's minimal fully adaptive routing (see the module docs).
#[derive(Clone, Debug)]
pub struct DuatoMinimal {
    geo: Geometry,
    /// Escape VCs `0..escape` on every router-to-router port.
    escape: u8,
    /// VC classes needed (for the VC-count check).
    classes: u8,
    /// The tie rule of the escape sub-function (`dor_tie`).
    tie: DorTie,
}

/// Escape classes of the dimension-order escape sub-function: 2 with datelines, 1 on meshes.
pub(crate) fn escape_classes(geo: &Geometry) -> u8 {
    if geo.wraps {
        2
    } else {
        1
    }
}

/// The escape VC count and the VCs needed for `adaptive_vcs` (0 = automatic) with
/// `classes` escape classes when the thinnest port has `min_vcs` VCs. With `short`
/// (`deadlock_check = "warn"`) an explicit split keeps the escape VCs it leaves, at least
/// one, even when they are fewer than `classes`.
pub(crate) fn split(classes: u8, adaptive_vcs: u8, min_vcs: u8, short: bool) -> (u8, u8) {
    if adaptive_vcs == 0 {
        (classes, classes + 1)
    } else if short {
        let escape = min_vcs.saturating_sub(adaptive_vcs).max(1);
        (escape, adaptive_vcs.saturating_add(escape))
    } else {
        let escape = min_vcs.saturating_sub(adaptive_vcs).max(classes);
        (escape, adaptive_vcs.saturating_add(classes))
    }
}

impl DuatoMinimal {
    /// Over the geometry of a torus, ring or mesh; `adaptive_vcs` as in the router config;
    /// `min_vcs` = the fewest VCs of any router-to-router port; `tie` the escape VCs'
    /// tie rule.
    pub fn new(geo: Geometry, adaptive_vcs: u8, min_vcs: u8, tie: DorTie) -> DuatoMinimal {
        let (escape, classes) = split(escape_classes(&geo), adaptive_vcs, min_vcs, false);
        DuatoMinimal {
            geo,
            escape,
            classes,
            tie,
        }
    }

    /// The geometry.
    pub fn geometry(&self) -> &Geometry {
        &self.geo
    }

    /// The adaptive candidates toward `there`, in dimension order (X first).
    pub(crate) fn adaptive(&self, here: RouterId, there: RouterId, out: &mut RouteSet) {
        for d in 0..self.geo.dims {
            for dir in self.geo.minimal_dirs(here, there, d).into_iter().flatten() {
                let port = self.geo.port(here, d, dir);
                let vcs = self.geo.out_vcs(here, port);
                if vcs > self.escape {
                    out.push(Candidate {
                        port: OutPort(port),
                        vcs: VcRange::new(self.escape, vcs),
                        hops: 0,
                    });
                }
            }
        }
    }

    /// The escape candidates for `packet` (`None`: the union over packets): the
    /// dimension-order port and dateline class, two ports at a balanced tie; nothing at
    /// the destination.
    pub(crate) fn escapes(
        &self,
        here: RouterId,
        there: RouterId,
        packet: Option<PacketId>,
        out: &mut RouteSet,
    ) {
        let Some((d, a, b)) = self.geo.first_difference(here, there) else {
            return;
        };
        if self.tie == DorTie::Balanced && self.geo.is_tie(d, a, b) {
            match packet {
                Some(p) => out.push(self.escape_hop(here, d, a, b, tie_dir(p, d))),
                None => {
                    out.push(self.escape_hop(here, d, a, b, Dir::Plus));
                    out.push(self.escape_hop(here, d, a, b, Dir::Minus));
                }
            }
        } else {
            let dir = self.geo.step(d, a, b).expect("the coordinates differ");
            out.push(self.escape_hop(here, d, a, b, dir));
        }
    }

    /// The escape hop from coordinate `a` toward `b` in dimension `d`, direction `dir`.
    fn escape_hop(&self, here: RouterId, d: usize, a: u32, b: u32, dir: Dir) -> Candidate {
        let port = self.geo.port(here, d, dir);
        let vcs = if !self.geo.wraps {
            VcRange::new(0, self.escape)
        } else {
            let k = self.geo.radix[d];
            let wrap_ahead = match dir {
                Dir::Plus => b < a && a + 1 != k,
                Dir::Minus => b > a && a != 0,
            };
            let half = self.escape / 2;
            if wrap_ahead {
                VcRange::new(0, half)
            } else {
                VcRange::new(half, self.escape)
            }
        };
        Candidate {
            port: OutPort(port),
            vcs,
            hops: 0,
        }
    }

    /// Adaptive then escape candidates for `packet` (`None`: the union over packets).
    pub(crate) fn candidates(
        &self,
        here: RouterId,
        dest: TerminalId,
        packet: Option<PacketId>,
        out: &mut RouteSet,
    ) {
        out.clear();
        let there = RouterId(dest.0);
        if here == there {
            out.push(eject(self.geo.terminal_vcs(here)));
        } else {
            self.adaptive(here, there, out);
            self.escapes(here, there, packet, out);
        }
    }
}

impl RoutingFunction for DuatoMinimal {
    fn name(&self) -> &'static str {
        "duato"
    }

    fn vc_classes(&self) -> u8 {
        self.classes
    }

    fn route(&self, ctx: &RouteCtx, dest: TerminalId, out: &mut RouteSet) {
        self.candidates(ctx.router, dest, None, out);
    }

    fn route_packet(&self, ctx: &RouteCtx, dest: TerminalId, packet: PacketId, out: &mut RouteSet) {
        self.candidates(ctx.router, dest, Some(packet), out);
    }

    fn escape_vcs(&self) -> Option<u8> {
        Some(self.escape)
    }

    fn dimension_order_port(&self, router: RouterId, dest: TerminalId) -> Option<OutPort> {
        self.geo.dor_port(router, RouterId(dest.0)).map(OutPort)
    }
}

#[cfg(test)]
mod tests {
    use crate::testutil::*;
    use crate::{build, cdg, RoutingMismatch};
    use flitsim_netlist::{topology, RoutingKind};

    #[test]
    fn every_hop_is_minimal() {
        for n in [
            torus(&[4, 4], 3),
            torus(&[5, 3], 4),
            torus(&[6], 3),
            mesh(&[4, 3], 2),
            topology::torus(&[4, 4]),
            topology::mesh(&[3, 4]),
        ] {
            let f = build(RoutingKind::Duato, &n).unwrap();
            assert_minimal(f.as_ref(), &n);
        }
    }

    #[test]
    fn extended_dependency_graph_of_the_escape_vcs_is_acyclic() {
        for n in [
            torus(&[4, 4], 3),
            torus(&[5, 4], 4),
            torus(&[3, 3, 3], 4),
            torus(&[6], 3),
            mesh(&[4, 4], 2),
            topology::torus(&[4, 4]),
            topology::torus(&[8, 8]),
        ] {
            let f = build(RoutingKind::Duato, &n).unwrap();
            assert_eq!(f.escape_vcs(), Some(if n.topology.wraps() { 2 } else { 1 }));
            assert_eq!(
                cdg::dependency_cycle(f.as_ref(), &n).unwrap(),
                None,
                "{}",
                n.name
            );
        }
    }

    #[test]
    fn escape_on_the_adaptive_vcs_would_deadlock() {
        // The same candidates with every VC counted as escape: the adaptive VCs alone
        // have cyclic dependencies on a torus (which is why Duato needs escape VCs).
        struct AllEscape(std::sync::Arc<dyn super::RoutingFunction>);
        impl super::RoutingFunction for AllEscape {
            fn name(&self) -> &'static str {
                "all-escape"
            }
            fn vc_classes(&self) -> u8 {
                1
            }
            fn route(
                &self,
                ctx: &super::RouteCtx,
                dest: super::TerminalId,
                out: &mut super::RouteSet,
            ) {
                self.0.route(ctx, dest, out)
            }
        }
        let n = torus(&[4, 4], 3);
        let f = AllEscape(build(RoutingKind::Duato, &n).unwrap());
        assert!(cdg::dependency_cycle(&f, &n).unwrap().is_some());
    }

    #[test]
    fn vcs_are_checked() {
        assert!(matches!(
            build(RoutingKind::Duato, &torus(&[4, 4], 2)),
            Err(RoutingMismatch::TooFewVcs {
                needed: 3,
                have: 2,
                ..
            })
        ));
        assert!(build(RoutingKind::Duato, &mesh(&[4, 4], 2)).is_ok());
        let mut n = torus(&[4, 4], 4);
        n.set("adaptive_vcs", "3").unwrap();
        assert!(matches!(
            build(RoutingKind::Duato, &n),
            Err(RoutingMismatch::TooFewVcs { needed: 5, .. })
        ));
        n.set("adaptive_vcs", "1").unwrap();
        let f = build(RoutingKind::Duato, &n).unwrap();
        assert_eq!(f.escape_vcs(), Some(3));
        assert_eq!(cdg::dependency_cycle(f.as_ref(), &n).unwrap(), None);
        assert!(matches!(
            build(RoutingKind::Duato, &hypercube(3, 4)),
            Err(RoutingMismatch::DoesNotFit { .. })
        ));
    }
}
