//! Message classes (`message_classes = C`): every port's VCs split into `C` equal ranges,
//! and the routing function run inside each range.
//!
//! The inner function is built on a copy of the netlist whose ports have `w = vcs / C`
//! VCs. A head on input VC `v` of a port of width `w` is in class `c = v / w`; it is routed
//! as if on VC `v - c*w`, and each candidate's VC range is moved up by `c*w'` (`w'` the
//! width of the candidate's output port). Dateline classes and every other VC class of the
//! inner function thus sit inside each message class's range, and no class ever requests
//! another class's VCs.

use crate::describe::kind_name;
use crate::{RouteCtx, RouteSet, RoutingFunction, RoutingMismatch, VcRange};
use flitsim_netlist::{Netlist, OutPort, PacketId, RouterId, RoutingKind, TerminalId, VcId};
use std::sync::Arc;

/// A routing function confined to per-class VC ranges.
pub struct ClassRanges {
    inner: Arc<dyn RoutingFunction>,
    /// Per router, per input port: the class width `w` (VCs of the port / `C`).
    in_width: Vec<Vec<u8>>,
    /// Per router, per output port: the class width of the VCs downstream.
    out_width: Vec<Vec<u8>>,
}

impl ClassRanges {
    /// `kind` on `netlist` with `classes` (> 1) message classes, each in its own range;
    /// `inner` builds `kind` on the netlist of one class (the registry passes its `build`).
    pub fn build(
        kind: RoutingKind,
        netlist: &Netlist,
        classes: u8,
        inner: impl FnOnce(&Netlist) -> Result<Arc<dyn RoutingFunction>, RoutingMismatch>,
    ) -> Result<ClassRanges, RoutingMismatch> {
        check_widths(kind, netlist, classes)?;
        let mut narrow = netlist.clone();
        for id in 0..narrow.num_routers() {
            let r = narrow.router_mut(RouterId(id as u32));
            r.config.vcs /= classes;
            r.config.message_classes = 1;
            r.ports.iter_mut().for_each(|p| p.vcs /= classes);
        }
        let inner = inner(&narrow).map_err(|e| per_class(e, classes))?;
        if inner.escape_vcs().is_some() {
            return Err(RoutingMismatch::ClassVcs {
                detail: format!(
                    "routing `{}` has escape VCs, which message classes do not split",
                    kind_name(kind)
                ),
                help: "use `message_classes = 1` with this routing, or `dor` and the turn models"
                    .to_string(),
            });
        }
        let in_width = narrow
            .routers()
            .map(|r| r.ports.iter().map(|p| p.vcs).collect())
            .collect();
        let out_width = narrow
            .routers()
            .map(|r| {
                (0..r.ports.len())
                    .map(|o| out_vcs(&narrow, r.id, o))
                    .collect()
            })
            .collect();
        Ok(ClassRanges {
            inner,
            in_width,
            out_width,
        })
    }

    /// The class of the head at `ctx` and the context the inner function sees.
    #[inline]
    fn narrow(&self, ctx: &RouteCtx) -> (u8, RouteCtx) {
        let w = self.in_width[ctx.router.index()][ctx.in_port.index()];
        let class = ctx.in_vc.0 / w;
        let inner = RouteCtx {
            in_vc: VcId(ctx.in_vc.0 - class * w),
            ..*ctx
        };
        (class, inner)
    }

    /// Moves every candidate in `out` into class `class`'s range at `router`.
    #[inline]
    fn widen(&self, router: RouterId, class: u8, out: &mut RouteSet) {
        let widths = &self.out_width[router.index()];
        for c in out.iter_mut() {
            let lo = class * widths[c.port.index()];
            c.vcs = VcRange::new(c.vcs.lo + lo, c.vcs.hi + lo);
        }
    }
}

/// VCs downstream of output port `o` of `router` (port 0: the ejection channel, the
/// router's `vcs`).
fn out_vcs(netlist: &Netlist, router: RouterId, o: usize) -> u8 {
    if o == 0 {
        return netlist.router(router).config.vcs;
    }
    netlist
        .out_channel(router, OutPort(o as u8))
        .map_or(0, |c| {
            let c = netlist.channel(c);
            netlist.router(c.to).ports[c.to_port.index()].vcs
        })
}

/// Every router has `classes` classes, and every port's VCs (and the ejection channel's,
/// the router's `vcs`) are a multiple of it.
fn check_widths(kind: RoutingKind, netlist: &Netlist, classes: u8) -> Result<(), RoutingMismatch> {
    let err = |detail: String, help: &str| RoutingMismatch::ClassVcs {
        detail: format!("routing `{}`: {detail}", kind_name(kind)),
        help: help.to_string(),
    };
    for r in netlist.routers() {
        if r.config.message_classes != classes {
            return Err(err(
                format!(
                    "router {} has message_classes = {}, another router {classes}",
                    r.name, r.config.message_classes
                ),
                "set message_classes under [defaults] (or `--set message_classes=C`)",
            ));
        }
        let ports = r.ports.iter().map(|p| (p.name.as_str(), p.vcs));
        for (port, vcs) in ports.chain([("(ejection)", r.config.vcs)]) {
            if vcs % classes != 0 {
                return Err(err(
                    format!(
                        "router {} port {port} has {vcs} VCs, not a multiple of \
                         message_classes = {classes}",
                        r.name
                    ),
                    "give every port a multiple of message_classes VCs (`--set vcs=N`)",
                ));
            }
        }
    }
    Ok(())
}

/// A mismatch of the per-class function, said per class.
fn per_class(e: RoutingMismatch, classes: u8) -> RoutingMismatch {
    match e {
        RoutingMismatch::TooFewVcs {
            routing,
            router,
            port,
            needed,
            have,
        } => RoutingMismatch::ClassVcs {
            detail: format!(
                "each of the {classes} message classes gets {have} VC{} of router {router} \
                 port {port}, and routing `{routing}` needs {needed}",
                if have == 1 { "" } else { "s" }
            ),
            help: format!(
                "use at least {} VCs per port",
                u32::from(needed) * u32::from(classes)
            ),
        },
        e => e,
    }
}

impl RoutingFunction for ClassRanges {
    fn name(&self) -> &'static str {
        self.inner.name()
    }

    fn vc_classes(&self) -> u8 {
        self.inner.vc_classes()
    }

    fn route(&self, ctx: &RouteCtx, dest: TerminalId, out: &mut RouteSet) {
        let (class, inner) = self.narrow(ctx);
        self.inner.route(&inner, dest, out);
        self.widen(ctx.router, class, out);
    }

    fn route_packet(&self, ctx: &RouteCtx, dest: TerminalId, packet: PacketId, out: &mut RouteSet) {
        let (class, inner) = self.narrow(ctx);
        self.inner.route_packet(&inner, dest, packet, out);
        self.widen(ctx.router, class, out);
    }

    fn dimension_order_port(&self, router: RouterId, dest: TerminalId) -> Option<OutPort> {
        self.inner.dimension_order_port(router, dest)
    }

    fn is_dimension_order(&self) -> bool {
        self.inner.is_dimension_order()
    }
}

#[cfg(test)]
mod tests {
    use crate::testutil::{mesh, torus};
    use crate::{build, cdg, RouteCtx, RouteSet, RoutingMismatch};
    use flitsim_netlist::{InPort, Netlist, RouterId, RoutingKind, TerminalId, VcId};

    fn with_classes(mut n: Netlist, classes: u8) -> Netlist {
        for id in 0..n.num_routers() {
            n.router_mut(RouterId(id as u32)).config.message_classes = classes;
        }
        n
    }

    #[test]
    fn each_class_routes_as_the_narrow_network_moved_into_its_range() {
        let wide = with_classes(torus(&[4, 4], 4), 2);
        let narrow = torus(&[4, 4], 2);
        let (f, g) = (
            build(RoutingKind::Dor, &wide).unwrap(),
            build(RoutingKind::Dor, &narrow).unwrap(),
        );
        let (mut a, mut b) = (RouteSet::new(), RouteSet::new());
        let mut used_high_vc = false;
        for r in wide.routers() {
            for p in 0..r.ports.len() {
                for v in 0..4u8 {
                    for d in 0..wide.num_terminals() as u32 {
                        let ctx = |vc| RouteCtx {
                            router: r.id,
                            in_port: InPort(p as u8),
                            in_vc: VcId(vc),
                        };
                        f.route(&ctx(v), TerminalId(d), &mut a);
                        g.route(&ctx(v % 2), TerminalId(d), &mut b);
                        let lo = (v / 2) * 2;
                        let moved: Vec<_> = b
                            .iter()
                            .map(|c| (c.port, c.vcs.lo + lo, c.vcs.hi + lo))
                            .collect();
                        let got: Vec<_> = a.iter().map(|c| (c.port, c.vcs.lo, c.vcs.hi)).collect();
                        assert_eq!(got, moved, "router {} port {p} vc {v} dest {d}", r.id);
                        used_high_vc |= a.iter().any(|c| c.vcs.hi == 4 && c.vcs.lo == 3);
                    }
                }
            }
        }
        assert!(
            used_high_vc,
            "class 1's dateline class (vc3) is never offered"
        );
        assert!(cdg::dependency_cycle(f.as_ref(), &wide).unwrap().is_none());
    }

    #[test]
    fn classes_that_do_not_fit_the_vcs_are_typed_errors() {
        let err = |n: Netlist, kind| match build(kind, &n) {
            Err(RoutingMismatch::ClassVcs { detail, .. }) => detail,
            other => panic!("{:?}", other.map(|f| f.name())),
        };
        // Two dateline classes do not fit in one VC per message class.
        assert!(err(with_classes(torus(&[4, 4], 2), 2), RoutingKind::Dor).contains("needs 2"));
        assert!(err(with_classes(mesh(&[3, 3], 3), 2), RoutingKind::Dor).contains("multiple"));
        assert!(err(with_classes(mesh(&[3, 3], 4), 2), RoutingKind::Duato).contains("escape"));
        assert!(err(with_classes(mesh(&[3, 3], 2), 0), RoutingKind::Dor).contains("range"));
        let mut mixed = with_classes(mesh(&[3, 3], 4), 2);
        mixed.router_mut(RouterId(4)).config.message_classes = 1;
        assert!(err(mixed, RoutingKind::Dor).contains("another router"));
        assert!(build(RoutingKind::Dor, &with_classes(mesh(&[3, 3], 2), 2)).is_ok());
    }
}
