//! The adaptive routing of paper 000 (Quaglia, Ciciani, Colajanni, "Performance analysis
//! of adaptive wormhole routing in a two-dimensional torus", Parallel Computing 28, 2002).
//!
//! - Topology: 2-D `torus` only (the paper's k x k tori).
//! - Route (the paper's section 2, the rule its model's eqs (1)-(46) assume): a head
//!   continues in X while X hops remain; when the X channel has no free VC it takes the Y
//!   channel (if Y hops remain); when both are busy it waits for whichever frees first.
//!   The candidates are therefore the minimal X port, then the minimal Y port (adaptive
//!   VCs), and the selection function picks the first free one in that order: `x-first`,
//!   or `first-free` on generated tori, whose X ports (`east`, `west`) are numbered below
//!   the Y ports. A blocked head is re-selected every cycle, so it takes whichever
//!   candidate frees first. Minimal.
//! - VCs: the paper's simulations use 4 VCs per channel and do not spell out the
//!   deadlock-avoidance rule; flitsim uses them as Duato's methodology does: 2 escape VCs
//!   (VC 0 and VC 1, the two dateline classes of dimension-order routing) and 2 adaptive
//!   VCs (VCs 2 and 3) on which the rule above runs. A packet falls back to the escape
//!   candidate (dimension-order port, dateline class) only when no adaptive candidate is
//!   free. Needed: 3 VCs (2 escape + 1 adaptive); the paper presets use 4.
//! - Deadlock freedom: exactly that of [`super::duato_minimal`] (the escape sub-function
//!   is dateline dimension-order routing, its extended channel dependency graph is
//!   acyclic; the static check verifies it), with the same atomic allocation of
//!   the adaptive VCs. Without the escape VCs the rule alone can
//!   deadlock (four packets turning around a square each hold an X channel and wait for a
//!   Y channel, or the ring cycles of each dimension).

use super::duato_minimal::DuatoMinimal;
use crate::{Geometry, RouteCtx, RouteSet, RoutingFunction};
use flitsim_netlist::{DorTie, OutPort, PacketId, RouterId, TerminalId};

/// Paper 000's adaptive routing (see the module docs).
#[derive(Clone, Debug)]
pub struct Quaglia {
    inner: DuatoMinimal,
}

impl Quaglia {
    /// Over the geometry of a 2-D torus; `adaptive_vcs` and `min_vcs` as for
    /// [`DuatoMinimal::new`], `tie` the escape VCs' tie rule.
    pub fn new(geo: Geometry, adaptive_vcs: u8, min_vcs: u8, tie: DorTie) -> Quaglia {
        Quaglia {
            inner: DuatoMinimal::new(geo, adaptive_vcs, min_vcs, tie),
        }
    }
}

impl RoutingFunction for Quaglia {
    fn name(&self) -> &'static str {
        "quaglia"
    }

    fn vc_classes(&self) -> u8 {
        self.inner.vc_classes()
    }

    fn route(&self, ctx: &RouteCtx, dest: TerminalId, out: &mut RouteSet) {
        // X candidates before Y candidates, then the escape candidate (DuatoMinimal keeps
        // dimension order; on a 2-D torus it is exactly the paper's X-then-Y rule).
        self.inner.route(ctx, dest, out);
    }

    fn route_packet(&self, ctx: &RouteCtx, dest: TerminalId, packet: PacketId, out: &mut RouteSet) {
        self.inner.route_packet(ctx, dest, packet, out);
    }

    fn escape_vcs(&self) -> Option<u8> {
        self.inner.escape_vcs()
    }

    fn dimension_order_port(&self, router: RouterId, dest: TerminalId) -> Option<OutPort> {
        self.inner.dimension_order_port(router, dest)
    }
}

#[cfg(test)]
mod tests {
    use crate::testutil::*;
    use crate::{build, cdg, RouteCtx, RouteSet, RoutingMismatch};
    use flitsim_netlist::{topology, InPort, RouterId, RoutingKind, TerminalId, VcId};

    #[test]
    fn x_comes_first_then_y_then_escape() {
        let n = topology::torus(&[8, 8]);
        let f = build(RoutingKind::Quaglia, &n).unwrap();
        // r0 -> r(2 + 8*3): X east and Y north adaptive (VCs 2..4), then escape east.
        let mut set = RouteSet::new();
        let ctx = RouteCtx {
            router: RouterId(0),
            in_port: InPort(0),
            in_vc: VcId(0),
        };
        f.route(&ctx, TerminalId(2 + 8 * 3), &mut set);
        let r = n.router(RouterId(0));
        let east = r.port_toward(0, flitsim_netlist::Dir::Plus).unwrap();
        let north = r.port_toward(1, flitsim_netlist::Dir::Plus).unwrap();
        let got: Vec<(u8, u8, u8)> = set.iter().map(|c| (c.port.0, c.vcs.lo, c.vcs.hi)).collect();
        // The escape hop never wraps on this path: dateline class 1 (VC 1).
        assert_eq!(got, vec![(east, 2, 4), (north, 2, 4), (east, 1, 2)]);
        // No X hops left: only Y.
        f.route(&ctx, TerminalId(8 * 5), &mut set);
        assert!(set
            .iter()
            .all(|c| n.router(RouterId(0)).ports[c.port.index()]
                .direction
                .is_some_and(|d| d.0 == 1)));
    }

    #[test]
    fn minimal_and_escape_acyclic() {
        for n in [
            topology::torus(&[4, 4]),
            topology::torus(&[5, 6]),
            torus(&[8, 8], 4),
        ] {
            let f = build(RoutingKind::Quaglia, &n).unwrap();
            assert_minimal(f.as_ref(), &n);
            assert_eq!(cdg::dependency_cycle(f.as_ref(), &n).unwrap(), None);
        }
    }

    #[test]
    fn only_2d_tori_fit() {
        for n in [
            torus(&[4, 4, 4], 4),
            torus(&[8], 4),
            mesh(&[4, 4], 4),
            hypercube(3, 4),
        ] {
            assert!(matches!(
                build(RoutingKind::Quaglia, &n),
                Err(RoutingMismatch::DoesNotFit { .. })
            ));
        }
    }
}
