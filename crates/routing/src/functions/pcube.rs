//! P-cube routing on binary hypercubes (Glass and Ni's turn model for hypercubes; paper
//! 002: Patooghy and Sarbazi-Azad, "Analytical performance modelling of partially
//! adaptive routing in wormhole hypercubes", section 2).
//!
//! - Topology: `hypercube` of dimension n. Coordinates are address bits `c_i` (current)
//!   and `d_i` (destination).
//! - Route: phase 1 routes adaptively along any dimension with `c_i = 1, d_i = 0`; when
//!   none is left, phase 2 routes adaptively along any dimension with `c_i = 0, d_i = 1`;
//!   eject when the address matches. The phase is a function of the current address alone
//!   (no state in the packet). Minimal: each hop corrects one differing bit. A packet has
//!   `a!` x `b!` equally likely minimal paths under random selection when `a` bits go
//!   1 -> 0 and `b` bits go 0 -> 1 (the paths paper 002's eqs (1)-(2) count).
//! - Deadlock freedom: P-cube is the negative-first turn model of the hypercube. Order the
//!   channels: every 1 -> 0 channel before every 0 -> 1 channel; among 1 -> 0 channels by
//!   decreasing number of 1 bits of the source address, among 0 -> 1 channels by
//!   increasing number of 1 bits. A packet only ever moves from a 1 -> 0 channel to
//!   another 1 -> 0 channel (one fewer 1 bit), from a 0 -> 1 to a 0 -> 1 (one more), or
//!   from 1 -> 0 to 0 -> 1: every dependency goes up the order, so the channel
//!   dependency graph is acyclic with one VC class (tested below).
//! - VC classes: 1 (every VC of the output port is a candidate).

use super::candidates::{eject, whole_port};
use crate::{Geometry, RouteCtx, RouteSet, RoutingFunction};
use flitsim_netlist::{Dir, OutPort, RouterId, TerminalId};

/// P-cube (see the module docs).
#[derive(Clone, Debug)]
pub struct Pcube {
    geo: Geometry,
}

impl Pcube {
    /// Over the geometry of a hypercube netlist.
    pub fn new(geo: Geometry) -> Pcube {
        Pcube { geo }
    }
}

impl RoutingFunction for Pcube {
    fn name(&self) -> &'static str {
        "pcube"
    }

    fn vc_classes(&self) -> u8 {
        1
    }

    fn route(&self, ctx: &RouteCtx, dest: TerminalId, out: &mut RouteSet) {
        out.clear();
        let (here, there) = (ctx.router, RouterId(dest.0));
        for (c, d) in [(1, 0), (0, 1)] {
            for i in 0..self.geo.dims {
                if self.geo.coord(here, i) == c && self.geo.coord(there, i) == d {
                    out.push(whole_port(
                        &self.geo,
                        here,
                        self.geo.port(here, i, Dir::Plus),
                    ));
                }
            }
            if !out.is_empty() {
                return;
            }
        }
        out.push(eject(self.geo.terminal_vcs(here)));
    }

    fn dimension_order_port(&self, router: RouterId, dest: TerminalId) -> Option<OutPort> {
        self.geo.dor_port(router, RouterId(dest.0)).map(OutPort)
    }
}

#[cfg(test)]
mod tests {
    use crate::testutil::*;
    use crate::{build, cdg, RouteCtx, RouteSet, RoutingMismatch};
    use flitsim_netlist::{
        topology, InPort, RouterId, RoutingKind, TerminalId, VcId, TERMINAL_PORT,
    };

    #[test]
    fn minimal_and_acyclic() {
        for n in [hypercube(3, 1), hypercube(4, 2), topology::hypercube(5)] {
            let f = build(RoutingKind::Pcube, &n).unwrap();
            assert_minimal(f.as_ref(), &n);
            assert!(!dependency_graph_is_cyclic(f.as_ref(), &n));
            assert_eq!(cdg::dependency_cycle(f.as_ref(), &n).unwrap(), None);
        }
    }

    #[test]
    fn no_zero_to_one_hop_before_every_one_to_zero_hop() {
        // Walk every path of every pair; along each path, once a 0 -> 1 bit was flipped,
        // no 1 -> 0 bit may remain (and none may be flipped later).
        let n = hypercube(5, 1);
        let f = build(RoutingKind::Pcube, &n).unwrap();
        let mut set = RouteSet::new();
        let mut paths = 0u64;
        for s in 0..32u32 {
            for t in 0..32u32 {
                // (router, phase 2 started)
                let mut stack = vec![(s, false)];
                while let Some((r, up)) = stack.pop() {
                    let ctx = RouteCtx {
                        router: RouterId(r),
                        in_port: InPort(TERMINAL_PORT),
                        in_vc: VcId(0),
                    };
                    f.route(&ctx, TerminalId(t), &mut set);
                    for c in set.clone() {
                        if c.port.0 == TERMINAL_PORT {
                            assert_eq!(r, t);
                            paths += 1;
                            continue;
                        }
                        let next = n.channel(n.out_channel(RouterId(r), c.port).unwrap()).to.0;
                        let flipped = r ^ next;
                        assert_eq!(flipped.count_ones(), 1);
                        let one_to_zero = r & flipped != 0;
                        assert!(t & flipped == next & flipped, "non-minimal hop");
                        if up {
                            assert!(!one_to_zero, "1 -> 0 hop after a 0 -> 1 hop: {s} -> {t}");
                        }
                        if !one_to_zero {
                            assert_eq!(r & !t, 0, "0 -> 1 hop with 1 -> 0 bits left: {s} -> {t}");
                        }
                        stack.push((next, up || !one_to_zero));
                    }
                }
            }
        }
        // Paths per pair: a! b! (a bits 1 -> 0, b bits 0 -> 1); summed over all pairs.
        let fact = |k: u32| (1..=u64::from(k)).product::<u64>();
        let expected: u64 = (0..32u32)
            .flat_map(|s| (0..32u32).map(move |t| (s, t)))
            .map(|(s, t)| fact((s & !t).count_ones()) * fact((!s & t).count_ones()))
            .sum();
        assert_eq!(paths, expected);
    }

    #[test]
    fn only_hypercubes_fit() {
        assert!(matches!(
            build(RoutingKind::Pcube, &torus(&[4, 4], 2)),
            Err(RoutingMismatch::DoesNotFit { .. })
        ));
    }
}
