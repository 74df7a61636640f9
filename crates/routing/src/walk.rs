//! The route of one packet in an idle network, followed from terminal to terminal: the
//! first candidate each hop (the selection of an idle network), on the lowest VC of its
//! range. The zero-load latency, the functions' tests and their hop counts all walk it
//! here; terminals are placed by the netlist's terminal map, so concentrated routers walk
//! like the others.

use crate::{build, Candidate, RouteCtx, RouteSet, RoutingFunction, RoutingMismatch};
use flitsim_netlist::{ChannelSpec, InPort, Netlist, PacketId, RoutingKind, TerminalId, VcId};

/// One router-to-router hop of a walked route.
#[derive(Copy, Clone, Debug)]
pub struct Hop<'n> {
    /// Where the head was routed: the router, the input port and the VC it arrived on.
    pub at: RouteCtx,
    /// The candidate it took.
    pub taken: Candidate,
    /// The channel it crossed (`channel.to` is the next router).
    pub channel: &'n ChannelSpec,
}

/// Walks the route `routing` gives a head from terminal `src` to terminal `dst` in an
/// idle network, calling `hop` on each router-to-router hop in order; returns the hops.
/// With `packet`, each router routes that packet ([`RoutingFunction::route_packet`]);
/// without, the destination alone ([`RoutingFunction::route`], for functions that spread
/// packets the union over them).
///
/// # Panics
/// If the function gives no candidate, picks an unconnected port, ejects at another
/// router or port than `dst`'s, or does not reach `dst` within as many hops as the netlist
/// has routers (a broken routing function: [`build`] validated the netlist).
pub fn walk<'n>(
    routing: &dyn RoutingFunction,
    netlist: &'n Netlist,
    src: TerminalId,
    dst: TerminalId,
    packet: Option<PacketId>,
    mut hop: impl FnMut(Hop<'n>),
) -> u32 {
    let target = (netlist.terminal_router(dst), netlist.terminal_port(dst));
    let mut ctx = RouteCtx {
        router: netlist.terminal_router(src),
        in_port: InPort(netlist.terminal_port(src)),
        in_vc: VcId(0),
    };
    let mut set = RouteSet::new();
    for hops in 0..=netlist.num_routers() as u32 {
        match packet {
            Some(p) => routing.route_packet(&ctx, dst, p, &mut set),
            None => routing.route(&ctx, dst, &mut set),
        }
        let taken = *set.first().unwrap_or_else(|| {
            panic!(
                "routing {} gave no candidate at {}",
                routing.name(),
                ctx.router
            )
        });
        if netlist.router(ctx.router).is_terminal_port(taken.port.0) {
            assert_eq!(
                (ctx.router, taken.port.0),
                target,
                "routing {} ejected at the wrong router or port",
                routing.name()
            );
            return hops;
        }
        let channel = netlist
            .out_channel(ctx.router, taken.port)
            .unwrap_or_else(|| {
                panic!(
                    "routing {} chose unconnected port {} of {}",
                    routing.name(),
                    taken.port,
                    ctx.router
                )
            });
        let channel = netlist.channel(channel);
        hop(Hop {
            at: ctx,
            taken,
            channel,
        });
        ctx = RouteCtx {
            router: channel.to,
            in_port: channel.to_port,
            in_vc: VcId(taken.vcs.lo),
        };
    }
    panic!("routing {} does not reach {dst} from {src}", routing.name());
}

/// Zero-load router-to-router hops of routing `kind` from terminal `src` to terminal
/// `dst`. Builds the routing function; for many pairs build it once with [`build`] and
/// [`walk`].
///
/// # Errors
/// `kind` does not fit the netlist (as [`build`]).
pub fn hops(
    kind: RoutingKind,
    netlist: &Netlist,
    src: TerminalId,
    dst: TerminalId,
) -> Result<u32, RoutingMismatch> {
    let f = build(kind, netlist)?;
    Ok(walk(f.as_ref(), netlist, src, dst, None, |_| ()))
}
