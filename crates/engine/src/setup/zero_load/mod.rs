//! Zero-load latency from the timing contract, computed without simulating.
//!
//! For a packet of `M` flits whose zero-load route visits routers `r_0 .. r_H` over
//! router-to-router channels `c_1 .. c_H`:
//!
//! ```text
//! T0 = Lt(r_0) + sum_i (rd + vd + sd + xd)(r_i) + sum_j L(c_j) + Lt(r_H) + (M - 1)
//! ```
//!
//! `Lt` is a router's terminal latency (injection and ejection channel), `rd`, `vd`, `sd`,
//! `xd` the routing, VC allocation, switch allocation and crossbar delays of each router on
//! the path, `L` the channel latencies. With uniform delays this is the timing contract's
//! `T0 = 2 Lt + (H + 1)(rd + vd + sd + xd) + H L + (M - 1)`: the head is written onto the
//! injection channel in its generation cycle, spends `rd + vd + sd + xd` in each router,
//! and the tail follows `M - 1` cycles behind it; `credit_delay` does not appear because an
//! idle network has credits everywhere.
//!
//! Pipeline organisation. A router's term is its head latency
//! ([`RouterConfig::head_latency`](flitsim_netlist::RouterConfig::head_latency)): `rd`
//! leaves it under `lookahead_routing` (the route was computed one hop ahead) and `vd`
//! under `speculative` (VA runs beside SA). With one-cycle stages: 4 (RC, VA, SA, ST), 3
//! (speculative, or lookahead), 2 (both), 1 (both, and `crossbar_delay = 0`).
//!
//! Switching. Virtual cut-through has the same zero-load latency as wormhole (a free VC
//! always has room in an idle network). Store-and-forward waits in every router until the
//! tail has arrived, `M - 1` cycles after the head, so each router on the path adds
//! `M - 1`: `T0 = 2 Lt + (H + 1)(rd + vd + sd + xd + M - 1) + H L + (M - 1)`.
//!
//! The route is the one the routing function gives an idle network: from input port 0,
//! VC 0, always the first candidate and the lowest VC of its range.
//!
//! The uniform mean ([`UniformSums`]) needs every ordered pair: 268 M on a 128x128 torus.
//! It walks the pairs destination by destination and remembers, for the current
//! destination, the remaining latency from every point met, so a source's walk stops at
//! the first point an earlier walk passed:
//! - for a dimension-order function ([`RoutingFunction::is_dimension_order`]) the point
//!   is the router: such a function leaves every router on its
//!   [`RoutingFunction::dimension_order_port`] whatever the input port and VC, so the
//!   walk asks that port once per (router, destination);
//! - for any other function it is the state (router, input port, input VC), and the walk
//!   asks [`RoutingFunction::route`] once per (injection state, destination) and once
//!   per other state met.
//!
//! [`RoutingFunction::is_dimension_order`]: flitsim_routing::RoutingFunction::is_dimension_order
//! [`RoutingFunction::dimension_order_port`]: flitsim_routing::RoutingFunction::dimension_order_port
//! [`RoutingFunction::route`]: flitsim_routing::RoutingFunction::route
//!
//! A generated torus, mesh, ring or hypercube under a dimension-order function, with one
//! timing throughout, skips the walk: `closed_form` gives the same integers in
//! O(routers).
//!
//! Without a closed form, above [`sample::EXACT_MAX_TERMINALS`] terminals, the uniform
//! mean comes from a random sample of pairs with its 95% confidence interval ([`sample`]).
//!
//! Both walks give the integers of [`zero_load_latency_pair`] summed over the pairs (unit tests
//! compare them on every routing function), and the destinations split over threads
//! without changing them.

mod closed_form;
pub mod mean;
mod memo;
mod route;
pub mod sample;
mod scratch;
mod sums;
mod uniform;
mod walker;
mod workers;

pub(crate) use memo::WalkMemos;
pub use route::{
    zero_load_latency_pair, zero_load_latency_uniform, zero_load_route, ZeroLoadRoute,
};
pub use sample::{SampledSums, UniformMean};
pub use sums::UniformSums;
#[cfg(test)]
pub(crate) use walker::worker_memo_bytes;

#[cfg(test)]
mod tests;
