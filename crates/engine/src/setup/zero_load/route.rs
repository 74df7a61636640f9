//! The zero-load route of one pair and its latency, and the uniform mean.

use super::sums::UniformSums;
use flitsim_netlist::{Netlist, RouterId, Switching, TerminalId};
use flitsim_routing::{walk, RoutingFunction};

/// The zero-load route from `src` to `dst`: routers visited and channel latencies.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ZeroLoadRoute {
    /// Routers visited, source first, destination last.
    pub routers: Vec<RouterId>,
    /// Latency of each router-to-router channel crossed, in order.
    pub channel_latencies: Vec<u32>,
}

impl ZeroLoadRoute {
    /// Router-to-router hops.
    pub fn hops(&self) -> u32 {
        self.channel_latencies.len() as u32
    }
}

/// The route `routing` takes from terminal `src` to terminal `dst` in an idle network
/// ([`flitsim_routing::walk`]).
///
/// # Panics
/// If the routing function does not reach `dst` within as many hops as there are routers,
/// or picks an unconnected port (a broken routing function; `build` validated it).
pub fn zero_load_route(
    netlist: &Netlist,
    routing: &dyn RoutingFunction,
    src: TerminalId,
    dst: TerminalId,
) -> ZeroLoadRoute {
    let mut route = ZeroLoadRoute {
        routers: vec![netlist.terminal_router(src)],
        channel_latencies: Vec::new(),
    };
    walk(routing, netlist, src, dst, None, |hop| {
        route.routers.push(hop.channel.to);
        route.channel_latencies.push(hop.channel.latency);
    });
    route
}

/// Zero-load latency (cycles) of one packet of `length` flits from `src` to `dst`.
pub fn zero_load_latency_pair(
    netlist: &Netlist,
    routing: &dyn RoutingFunction,
    src: TerminalId,
    dst: TerminalId,
    length: u32,
) -> u64 {
    let route = zero_load_route(netlist, routing, src, dst);
    let lt = |r: RouterId| u64::from(netlist.router(r).terminal_latency);
    let first = route.routers[0];
    let last = *route
        .routers
        .last()
        .expect("a route visits at least one router");
    let pipeline: u64 = route
        .routers
        .iter()
        .map(|&r| {
            let c = &netlist.router(r).config;
            let store = match c.switching {
                Switching::Saf => u64::from(length) - 1,
                Switching::Wormhole | Switching::Vct => 0,
            };
            c.head_latency() + store
        })
        .sum();
    let channels: u64 = route.channel_latencies.iter().map(|&l| u64::from(l)).sum();
    lt(first) + pipeline + channels + lt(last) + u64::from(length) - 1
}

/// Mean zero-load latency over uniform traffic (every ordered pair of distinct terminals
/// equally likely), in cycles. `NaN`-free: with fewer than 2 terminals it is 0.
pub fn zero_load_latency_uniform(
    netlist: &Netlist,
    routing: &dyn RoutingFunction,
    length: u32,
) -> f64 {
    UniformSums::of(netlist, routing).mean(length)
}
