//! Zero-load hop counts: a route followed from source to destination, first candidate
//! each hop.

use super::{build, RouteCtx, RouteSet, RoutingFunction, RoutingMismatch};
use flitsim_netlist::{InPort, Netlist, RouterId, RoutingKind, TerminalId, VcId, TERMINAL_PORT};

/// Router-to-router hops `routing` takes from `src` to `dst` at zero load (always taking
/// the first candidate, which is the selection of an idle network).
///
/// # Panics
/// If the route does not reach `dst` within as many hops as the netlist has routers (a
/// broken routing function).
pub fn route_hops(
    routing: &dyn RoutingFunction,
    netlist: &Netlist,
    src: RouterId,
    dst: RouterId,
) -> u32 {
    let dest = TerminalId(dst.0);
    let mut ctx = RouteCtx {
        router: src,
        in_port: InPort(TERMINAL_PORT),
        in_vc: VcId(0),
    };
    let mut set = RouteSet::new();
    for hops in 0..=netlist.num_routers() as u32 {
        routing.route(&ctx, dest, &mut set);
        let c = set[0];
        if c.port.0 == TERMINAL_PORT {
            assert_eq!(
                ctx.router,
                dst,
                "routing {} ejected at the wrong router",
                routing.name()
            );
            return hops;
        }
        let ch = netlist
            .out_channel(ctx.router, c.port)
            .unwrap_or_else(|| panic!("routing {} chose an unconnected port", routing.name()));
        let ch = netlist.channel(ch);
        ctx = RouteCtx {
            router: ch.to,
            in_port: ch.to_port,
            in_vc: VcId(c.vcs.lo),
        };
    }
    panic!("routing {} does not reach {dst} from {src}", routing.name());
}

/// Zero-load router-to-router hops of routing `kind` from `src` to `dst` (for the
/// zero-load latency formula). Builds the routing function; for many pairs build it once
/// with [`build`] and call [`route_hops`].
///
/// # Errors
/// `kind` does not fit the netlist (as [`build`]).
pub fn hops(
    kind: RoutingKind,
    netlist: &Netlist,
    src: RouterId,
    dst: RouterId,
) -> Result<u32, RoutingMismatch> {
    let f = build(kind, netlist)?;
    Ok(route_hops(f.as_ref(), netlist, src, dst))
}
