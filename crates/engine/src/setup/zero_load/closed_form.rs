//! The uniform sums of a generated torus, mesh, ring or hypercube under a dimension-order
//! function, in closed form: O(routers + channels) instead of O(pairs).
//!
//! Such a function routes minimally, one dimension after another, so a pair's hops `H`
//! are the sum over dimensions of its distance along each (on a ring of `k`,
//! `min(|a - b|, k - |a - b|)`; on a line, `|a - b|`; a hypercube is a line of 2 per
//! dimension). With one pipeline delay `D`, terminal latency `Lt` and channel latency `L`
//! throughout, a one-flit packet takes `2 Lt + (H + 1) D + H L`, so over the `P` ordered
//! pairs of distinct terminals (one per router):
//!
//! ```text
//! base = P (2 Lt + D) + S (D + L),   saf = P + S (store-and-forward) or 0,
//! S = sum over pairs of H = sum over dimensions d of (N / k_d)^2 * sum_{a,b < k_d} dist_d(a, b)
//! ```
//!
//! These are the walk's integers exactly. The closed form is taken only when every router
//! and channel has the same timing and every router has one terminal; a sample of routes
//! walked with the routing function must then have the hops of the formula, else the
//! walk runs instead.

use super::route::zero_load_route;
use super::sums::UniformSums;
use flitsim_netlist::{Netlist, RouterId, Switching, Topology};
use flitsim_routing::RoutingFunction;

/// Routes walked to confirm the formula's hops: from three sources to up to this many
/// destinations each.
const SAMPLE: usize = 64;

/// The uniform sums of `netlist` under `routing` in closed form, or `None` when the
/// netlist or the function is not of the family it covers.
pub(super) fn uniform_sums(
    netlist: &Netlist,
    routing: &dyn RoutingFunction,
) -> Option<UniformSums> {
    if !routing.is_dimension_order() {
        return None;
    }
    let (radix, wraps) = geometry(&netlist.topology)?;
    let timing = Timing::uniform(netlist)?;
    let n = netlist.num_routers() as u64;
    if radix.iter().map(|&k| u64::from(k)).product::<u64>() != n || n < 2 {
        return None;
    }
    if !sample_agrees(netlist, routing, &radix, wraps) {
        return None;
    }
    let hops: u128 = radix
        .iter()
        .map(|&k| {
            let rest = u128::from(n / u64::from(k));
            rest * rest * line_sum(k, wraps)
        })
        .sum();
    let hops = u64::try_from(hops).ok()?;
    let pairs = n * (n - 1);
    let per_pair = 2 * timing.terminal + timing.delay;
    Some(UniformSums {
        pairs,
        base: pairs * per_pair + hops * (timing.delay + timing.channel),
        saf: if timing.saf { pairs + hops } else { 0 },
    })
}

/// Radix per dimension and whether the dimensions wrap.
fn geometry(topology: &Topology) -> Option<(Vec<u32>, bool)> {
    match topology {
        Topology::Torus { .. } | Topology::Ring { .. } | Topology::Mesh { .. } => {
            Some((topology.radix()?, topology.wraps()))
        }
        Topology::Hypercube { dim } => Some((vec![2; *dim as usize], false)),
        Topology::Dragonfly { .. }
        | Topology::HyperX { .. }
        | Topology::FatTree { .. }
        | Topology::Explicit => None,
    }
}

/// The timing every router and channel shares.
struct Timing {
    delay: u64,
    terminal: u64,
    channel: u64,
    saf: bool,
}

impl Timing {
    /// `None` unless every router has the same pipeline delay, terminal latency and
    /// switching, and every channel the same latency.
    fn uniform(netlist: &Netlist) -> Option<Timing> {
        let of = |id: RouterId| {
            let r = netlist.router(id);
            let c = &r.config;
            (
                c.head_latency(),
                u64::from(r.terminal_latency),
                c.switching == Switching::Saf,
            )
        };
        let first = of(RouterId(0));
        if !(0..netlist.num_routers() as u32).all(|i| of(RouterId(i)) == first) {
            return None;
        }
        let mut channels = netlist.channels().map(|c| c.latency);
        let channel = channels.next().unwrap_or(0);
        if !channels.all(|l| l == channel) {
            return None;
        }
        if netlist.num_terminals() != netlist.num_routers() {
            return None;
        }
        Some(Timing {
            delay: first.0,
            terminal: first.1,
            channel: u64::from(channel),
            saf: first.2,
        })
    }
}

/// Distance between positions `a` and `b` of a line (or a ring) of `k`.
fn distance(a: u32, b: u32, k: u32, wraps: bool) -> u32 {
    let d = a.abs_diff(b);
    if wraps {
        d.min(k - d)
    } else {
        d
    }
}

/// `sum_{a,b < k} distance(a, b)`: `k * sum_i min(i, k - i)` on a ring, `(k^3 - k) / 3`
/// on a line.
fn line_sum(k: u32, wraps: bool) -> u128 {
    let k = u128::from(k);
    if wraps {
        let half = k / 2;
        // sum_{i<k} min(i, k - i): h^2 for k = 2h, h(h + 1) for k = 2h + 1.
        let sum = if k % 2 == 0 {
            half * half
        } else {
            half * (half + 1)
        };
        k * sum
    } else {
        (k * k * k - k) / 3
    }
}

/// The hops of the formula between routers `a` and `b` (their generator coordinates).
fn formula_hops(
    netlist: &Netlist,
    a: RouterId,
    b: RouterId,
    radix: &[u32],
    wraps: bool,
) -> Option<u32> {
    let ca = netlist.router(a).coord.as_deref()?;
    let cb = netlist.router(b).coord.as_deref()?;
    if ca.len() != radix.len() || cb.len() != radix.len() {
        return None;
    }
    Some(
        (0..radix.len())
            .map(|d| distance(ca[d], cb[d], radix[d], wraps))
            .sum(),
    )
}

/// Walks routes from the first, middle and last router to up to [`SAMPLE`] destinations
/// spread over the network: each must have the formula's hops.
fn sample_agrees(
    netlist: &Netlist,
    routing: &dyn RoutingFunction,
    radix: &[u32],
    wraps: bool,
) -> bool {
    let n = netlist.num_routers();
    let stride = (n / SAMPLE).max(1);
    [0, n / 2, n - 1].iter().all(|&s| {
        (0..n).step_by(stride).chain([n - 1]).all(|d| {
            let (a, b) = (RouterId(s as u32), RouterId(d as u32));
            let route = zero_load_route(
                netlist,
                routing,
                netlist.terminal_of(a, 0),
                netlist.terminal_of(b, 0),
            );
            formula_hops(netlist, a, b, radix, wraps) == Some(route.hops())
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::network::RoutingFunctions;
    use flitsim_netlist::topology::{hypercube, mesh, ring, torus};

    /// The closed form equals the walk, and is taken.
    fn same(mut n: Netlist, sets: &[(&str, &str)]) {
        for (k, v) in sets {
            n.set(k, v).unwrap();
        }
        let f = RoutingFunctions::build(&n).unwrap();
        let f = f.first().unwrap().as_ref();
        let walked = UniformSums::of_workers(&n, f, 1);
        assert_eq!(uniform_sums(&n, f), Some(walked), "{}", n.name);
    }

    #[test]
    fn the_closed_form_gives_the_walks_integers() {
        same(torus(&[8, 8]), &[]);
        same(torus(&[5, 3]), &[("dor_tie", "plus")]);
        same(torus(&[4, 6, 3]), &[("channel_latency", "3")]);
        same(
            torus(&[6, 6]),
            &[("switching", "saf"), ("routing_delay", "2")],
        );
        same(mesh(&[4, 7]), &[]);
        same(ring(9), &[("terminal_latency", "2")]);
        same(ring(2), &[]);
        same(hypercube(5), &[]);
    }

    #[test]
    fn other_functions_and_mixed_timing_take_the_walk() {
        let mut n = torus(&[4, 4]);
        n.set("routing", "duato").unwrap();
        let f = RoutingFunctions::build(&n).unwrap();
        assert_eq!(uniform_sums(&n, f.first().unwrap().as_ref()), None);
        let mut n = torus(&[4, 4]);
        n.graph.edge_weights_mut().next().unwrap().latency = 2;
        let f = RoutingFunctions::build(&n).unwrap();
        assert_eq!(uniform_sums(&n, f.first().unwrap().as_ref()), None);
    }

    #[test]
    fn ring_sums_count_every_ordered_pair() {
        for k in 1..12 {
            for wraps in [false, true] {
                let brute: u128 = (0..k)
                    .flat_map(|a| (0..k).map(move |b| u128::from(distance(a, b, k, wraps))))
                    .sum();
                assert_eq!(line_sum(k, wraps), brute, "{k} {wraps}");
            }
        }
    }
}
