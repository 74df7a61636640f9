//! Concentration around any routing function: with `c` terminals per router, every
//! routing function routes toward the destination's router and ejects on port 0; this
//! layer hands it the destination's router (as the terminal id `router`) and the
//! injection on any terminal port as port 0, and moves the ejection to the
//! destination's own terminal port `dest % c`.

use crate::{RouteCtx, RouteSet, RoutingFunction};
use flitsim_netlist::{InPort, OutPort, PacketId, RouterId, TerminalId, TERMINAL_PORT};
use std::sync::Arc;

/// A routing function for `c > 1` terminals per router, around one for the routers.
pub(crate) struct Concentrated {
    inner: Arc<dyn RoutingFunction>,
    c: u32,
}

impl Concentrated {
    /// `inner` (built for the netlist) with `c` terminals per router.
    pub(crate) fn new(inner: Arc<dyn RoutingFunction>, c: u32) -> Concentrated {
        Concentrated { inner, c }
    }

    /// The context the inner function sees: a head injected on any terminal port came
    /// in on port 0.
    fn narrow(&self, ctx: &RouteCtx) -> RouteCtx {
        let injected = u32::from(ctx.in_port.0) < self.c;
        RouteCtx {
            in_port: if injected {
                InPort(TERMINAL_PORT)
            } else {
                ctx.in_port
            },
            ..*ctx
        }
    }

    /// The destination as the inner function knows it: its router.
    fn router_of(&self, dest: TerminalId) -> TerminalId {
        TerminalId(dest.0 / self.c)
    }

    /// The ejection candidate moved to `dest`'s terminal port.
    fn widen(&self, dest: TerminalId, out: &mut RouteSet) {
        let port = OutPort((dest.0 % self.c) as u8);
        for c in out.iter_mut().filter(|c| c.port.0 == TERMINAL_PORT) {
            c.port = port;
        }
    }
}

impl RoutingFunction for Concentrated {
    fn name(&self) -> &'static str {
        self.inner.name()
    }

    fn vc_classes(&self) -> u8 {
        self.inner.vc_classes()
    }

    fn route(&self, ctx: &RouteCtx, dest: TerminalId, out: &mut RouteSet) {
        self.inner
            .route(&self.narrow(ctx), self.router_of(dest), out);
        self.widen(dest, out);
    }

    fn route_packet(&self, ctx: &RouteCtx, dest: TerminalId, packet: PacketId, out: &mut RouteSet) {
        // The inner function sees routers as terminals, at both ends of the packet.
        let routed = PacketId {
            source: self.router_of(packet.source),
            ..packet
        };
        self.inner
            .route_packet(&self.narrow(ctx), self.router_of(dest), routed, out);
        self.widen(dest, out);
    }

    fn escape_vcs(&self) -> Option<u8> {
        self.inner.escape_vcs()
    }

    fn dimension_order_port(&self, router: RouterId, dest: TerminalId) -> Option<OutPort> {
        self.inner
            .dimension_order_port(router, self.router_of(dest))
    }

    fn is_dimension_order(&self) -> bool {
        self.inner.is_dimension_order()
    }
}

#[cfg(test)]
mod tests {
    use crate::{build, cdg, RouteCtx, RouteSet};
    use flitsim_netlist::topology::{mesh, torus};
    use flitsim_netlist::{InPort, RouterId, RoutingKind, TerminalId, VcId};

    #[test]
    fn ejects_on_the_destination_port_and_routes_by_its_router() {
        let mut n = torus(&[4, 4]);
        n.set("concentration", "3").unwrap();
        let f = build(RoutingKind::Dor, &n).unwrap();
        let mut set = RouteSet::new();
        // Terminal 2 (router 0, port 2) injects toward terminal 16 (router 5, port 1).
        let ctx = |router, in_port| RouteCtx {
            router: RouterId(router),
            in_port: InPort(in_port),
            in_vc: VcId(0),
        };
        f.route(&ctx(0, 2), TerminalId(16), &mut set);
        let east = n.router(RouterId(0)).port_index("east").unwrap();
        assert_eq!(set[0].port.0, east);
        f.route(&ctx(5, 4), TerminalId(16), &mut set);
        assert_eq!((set.len(), set[0].port.0), (1, 1));
        // Another terminal of the same router: ejection without a hop.
        f.route(&ctx(5, 0), TerminalId(17), &mut set);
        assert_eq!(set[0].port.0, 2);
    }

    #[test]
    fn the_static_check_is_unaffected() {
        for c in ["1", "4"] {
            let mut n = torus(&[4, 4]);
            n.set("concentration", c).unwrap();
            let dor = build(RoutingKind::Dor, &n).unwrap();
            assert_eq!(
                cdg::dependency_cycle(dor.as_ref(), &n).unwrap(),
                None,
                "c = {c}"
            );
            let plain = build(RoutingKind::DorNoDateline, &n).unwrap();
            assert!(
                cdg::dependency_cycle(plain.as_ref(), &n).unwrap().is_some(),
                "c = {c}"
            );
            let mut m = mesh(&[3, 3]);
            m.set("concentration", c).unwrap();
            let wf = build(RoutingKind::WestFirst, &m).unwrap();
            assert_eq!(
                cdg::dependency_cycle(wf.as_ref(), &m).unwrap(),
                None,
                "c = {c}"
            );
        }
    }
}
