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
//! the path, `L` the channel latencies. With uniform delays this is CONTRACT.md's
//! `T0 = 2 Lt + (H + 1)(rd + vd + sd + xd) + H L + (M - 1)`: the head is written onto the
//! injection channel in its generation cycle, spends `rd + vd + sd + xd` in each router,
//! and the tail follows `M - 1` cycles behind it; `credit_delay` does not appear because an
//! idle network has credits everywhere.
//!
//! Switching. Virtual cut-through has the same zero-load latency as wormhole (a free VC
//! always has room in an idle network). Store-and-forward waits in every router until the
//! tail has arrived, `M - 1` cycles after the head, so each router on the path adds
//! `M - 1`: `T0 = 2 Lt + (H + 1)(rd + vd + sd + xd + M - 1) + H L + (M - 1)`.
//!
//! The route is the one the routing function gives an idle network: from input port 0,
//! VC 0, always the first candidate and the lowest VC of its range.

use flitsim_netlist::{InPort, Netlist, RouterId, Switching, TerminalId, VcId, TERMINAL_PORT};
use flitsim_router::routing::{RouteCtx, RouteSet, RoutingFunction};

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

/// The route `routing` takes from terminal `src` to terminal `dst` in an idle network.
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
    let target = netlist.terminal_router(dst);
    let mut ctx = RouteCtx {
        router: netlist.terminal_router(src),
        in_port: InPort(TERMINAL_PORT),
        in_vc: VcId(0),
    };
    let mut route = ZeroLoadRoute {
        routers: vec![ctx.router],
        channel_latencies: Vec::new(),
    };
    let mut set = RouteSet::new();
    for _ in 0..=netlist.num_routers() {
        routing.route(&ctx, dst, &mut set);
        let c = *set.first().unwrap_or_else(|| {
            panic!(
                "routing {} gave no candidate at {}",
                routing.name(),
                ctx.router
            )
        });
        if c.port.0 == TERMINAL_PORT {
            assert_eq!(
                ctx.router,
                target,
                "routing {} ejected at the wrong router",
                routing.name()
            );
            return route;
        }
        let ch = netlist.out_channel(ctx.router, c.port).unwrap_or_else(|| {
            panic!(
                "routing {} chose unconnected port {} of {}",
                routing.name(),
                c.port,
                ctx.router
            )
        });
        let ch = netlist.channel(ch);
        route.routers.push(ch.to);
        route.channel_latencies.push(ch.latency);
        ctx = RouteCtx {
            router: ch.to,
            in_port: ch.to_port,
            in_vc: VcId(c.vcs.lo),
        };
    }
    panic!("routing {} does not reach {dst} from {src}", routing.name());
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
            u64::from(c.routing_delay + c.vc_alloc_delay + c.switch_alloc_delay + c.crossbar_delay)
                + store
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

/// Zero-load latencies summed over every ordered pair of distinct terminals, split so the
/// sum for any packet length follows: a pair's latency is `base + (M - 1)(1 + saf)` with
/// `saf` the store-and-forward routers on its route.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct UniformSums {
    /// Pairs counted.
    pub pairs: u64,
    /// Sum of the pairs' latencies of a one-flit packet.
    pub base: u64,
    /// Sum of the pairs' store-and-forward routers.
    pub saf: u64,
}

impl UniformSums {
    /// The sums for `netlist` under `routing`.
    ///
    /// Cost: a route only depends on where the head is (router, input port, input VC) and
    /// its destination, so for each destination the remaining latency of every state met
    /// is remembered and each source's walk stops at the first state seen before: about
    /// (routers x states per router) per destination instead of (routers x hops), which
    /// keeps a 128x128 torus at seconds, not hours. The sums are the same integers as
    /// adding [`zero_load_latency_pair`] over all pairs.
    ///
    /// # Panics
    /// As [`zero_load_route`], for a broken routing function.
    pub fn of(netlist: &Netlist, routing: &dyn RoutingFunction) -> UniformSums {
        let n = netlist.num_terminals();
        let ports = netlist.routers().map(|r| r.ports.len()).max().unwrap_or(1);
        let vcs = netlist
            .routers()
            .flat_map(|r| r.ports.iter().map(|p| usize::from(p.vcs)))
            .max()
            .unwrap_or(1)
            .max(1);
        let state =
            |c: &RouteCtx| (c.router.index() * ports + c.in_port.index()) * vcs + c.in_vc.index();
        // Per router: pipeline delay and whether it stores and forwards.
        let stage: Vec<(u64, u64)> = netlist
            .routers()
            .map(|r| {
                let c = &r.config;
                let delay = u64::from(
                    c.routing_delay + c.vc_alloc_delay + c.switch_alloc_delay + c.crossbar_delay,
                );
                (delay, u64::from(c.switching == Switching::Saf))
            })
            .collect();
        let lt = |r: RouterId| u64::from(netlist.router(r).terminal_latency);
        // Remaining (base, saf) from a state to the ejection, valid when its stamp is the
        // current destination's.
        let mut memo: Vec<(u32, u64, u64)> =
            vec![(u32::MAX, 0, 0); netlist.num_routers() * ports * vcs];
        let mut walk: Vec<(usize, u64, u64)> = Vec::new();
        let mut set = RouteSet::new();
        let mut sums = UniformSums {
            pairs: 0,
            base: 0,
            saf: 0,
        };
        for d in 0..n {
            let dst = TerminalId(d as u32);
            let target = netlist.terminal_router(dst);
            let stamp = d as u32;
            for s in (0..n).filter(|&s| s != d) {
                let src = TerminalId(s as u32);
                let mut ctx = RouteCtx {
                    router: netlist.terminal_router(src),
                    in_port: InPort(TERMINAL_PORT),
                    in_vc: VcId(0),
                };
                walk.clear();
                let mut rest = loop {
                    let m = memo[state(&ctx)];
                    if m.0 == stamp {
                        break (m.1, m.2);
                    }
                    assert!(
                        walk.len() <= netlist.num_routers(),
                        "routing {} does not reach {dst} from {src}",
                        routing.name()
                    );
                    let (delay, saf) = stage[ctx.router.index()];
                    routing.route(&ctx, dst, &mut set);
                    let c = *set.first().unwrap_or_else(|| {
                        panic!(
                            "routing {} gave no candidate at {}",
                            routing.name(),
                            ctx.router
                        )
                    });
                    if c.port.0 == TERMINAL_PORT {
                        assert_eq!(
                            ctx.router,
                            target,
                            "routing {} ejected at the wrong router",
                            routing.name()
                        );
                        walk.push((state(&ctx), delay, saf));
                        break (lt(ctx.router), 0);
                    }
                    let ch = netlist.out_channel(ctx.router, c.port).unwrap_or_else(|| {
                        panic!(
                            "routing {} chose unconnected port {} of {}",
                            routing.name(),
                            c.port,
                            ctx.router
                        )
                    });
                    let ch = netlist.channel(ch);
                    walk.push((state(&ctx), delay + u64::from(ch.latency), saf));
                    ctx = RouteCtx {
                        router: ch.to,
                        in_port: ch.to_port,
                        in_vc: VcId(c.vcs.lo),
                    };
                };
                for &(st, base, saf) in walk.iter().rev() {
                    rest = (rest.0 + base, rest.1 + saf);
                    memo[st] = (stamp, rest.0, rest.1);
                }
                sums.pairs += 1;
                sums.base += lt(netlist.terminal_router(src)) + rest.0;
                sums.saf += rest.1;
            }
        }
        sums
    }

    /// Sum of the pairs' latencies for packets of `length` flits.
    pub fn total(&self, length: u32) -> u64 {
        self.base + u64::from(length.saturating_sub(1)) * (self.pairs + self.saf)
    }

    /// Mean latency for packets of `length` flits (0 without pairs).
    pub fn mean(&self, length: u32) -> f64 {
        if self.pairs == 0 {
            0.0
        } else {
            self.total(length) as f64 / self.pairs as f64
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use flitsim_netlist::topology::{hypercube, mesh, torus};
    use flitsim_netlist::RoutingKind;

    /// The remembered walks give the same sums as routing every pair from scratch.
    #[test]
    fn uniform_sums_equal_the_pairs_summed_one_by_one() {
        let mut saf = torus(&[3, 3]);
        saf.set("switching", "saf").unwrap();
        saf.set("channel_latency", "2").unwrap();
        let cases = [
            (torus(&[4, 4]), RoutingKind::Dor),
            (mesh(&[4, 3]), RoutingKind::WestFirst),
            (hypercube(4), RoutingKind::Pcube),
            (saf, RoutingKind::Dor),
        ];
        for (n, kind) in cases {
            let f = flitsim_router::routing::build(kind, &n).unwrap();
            let sums = UniformSums::of(&n, f.as_ref());
            let any_saf = n.routers().any(|r| r.config.switching == Switching::Saf);
            assert_eq!(sums.saf > 0, any_saf, "{}", n.name);
            let t = n.num_terminals() as u32;
            for len in [1, 2, 7] {
                let mut naive = 0;
                for s in 0..t {
                    for d in (0..t).filter(|&d| d != s) {
                        naive += zero_load_latency_pair(
                            &n,
                            f.as_ref(),
                            TerminalId(s),
                            TerminalId(d),
                            len,
                        );
                    }
                }
                assert_eq!(sums.total(len), naive, "{} length {len}", n.name);
                assert_eq!(sums.pairs, u64::from(t * (t - 1)));
            }
        }
    }
}
