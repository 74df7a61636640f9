//! Fat tree (k-ary n-tree) routing: up to the nearest common ancestor, then down.
//!
//! - Topology: the `fat-tree` generator (leaves first, ports `0..k` down, `k..2k` up; see
//!   `flitsim_netlist::topology::fat_tree`). Terminal `t` hangs off leaf `t / k` on port
//!   `t % k`. The function routes on the terminal itself (it is not wrapped by the
//!   concentration layer): it ejects on the terminal's own port.
//! - A router `(l, w)` reaches the terminals whose leaf index agrees with `w` in digits
//!   `l..`. A head whose destination is below goes down the one port toward it (digit
//!   `l - 1` of the destination's leaf, or the terminal's port on the leaf); otherwise it
//!   goes up. Every up port leads to a common ancestor at the same height, so every path
//!   is minimal: `2 L` router-to-router hops for a nearest common ancestor at level `L`.
//! - `minimal`: the up port is digit `l` of the destination terminal (d-mod-k), so the
//!   packets bound for one terminal share one top router and one down path.
//! - `minimal-adaptive`: every up port is a candidate; `selection` picks among them.
//!
//! Deadlock freedom: every path climbs, then descends. An up channel at level `l` waits
//! only on up channels of higher levels or on down channels; a down channel waits only on
//! down channels of lower levels or on a terminal. Ordering the channels up by level, then
//! down by decreasing level, every dependency goes forward, so the channel dependency
//! graph is acyclic with one VC class; the static check ([`crate::cdg`]) confirms it.

use crate::{Candidate, RouteCtx, RouteSet, RoutingFunction, VcRange};
use flitsim_netlist::{Netlist, OutPort, RouterId, TerminalId};

/// k-ary n-tree routing tables (see the module docs).
#[derive(Clone, Debug)]
pub struct FatTree {
    k: u32,
    /// Routers per level.
    width: u32,
    /// Offer every up port (`minimal-adaptive`) rather than the destination's digit.
    adaptive: bool,
    /// `vcs[r][p]`: VCs of what output port `p` of router `r` feeds (the next router's
    /// input port, or the terminal's ejection buffer).
    vcs: Vec<Vec<u8>>,
}

impl FatTree {
    /// Builds the tables of `netlist`, a k-ary n-tree.
    pub fn new(netlist: &Netlist, k: u32, n: u32, adaptive: bool) -> FatTree {
        let mut vcs: Vec<Vec<u8>> = netlist
            .routers()
            .map(|r| r.ports.iter().map(|p| p.vcs).collect())
            .collect();
        for c in netlist.channels() {
            vcs[c.from.index()][c.from_port.index()] =
                netlist.router(c.to).ports[c.to_port.index()].vcs;
        }
        FatTree {
            k,
            width: k.pow(n - 1),
            adaptive,
            vcs,
        }
    }

    /// Every VC of `port` of `router`.
    fn whole(&self, router: u32, port: u32) -> Candidate {
        Candidate {
            port: OutPort(port as u8),
            vcs: VcRange::new(0, self.vcs[router as usize][port as usize]),
            hops: 0,
        }
    }

    /// Digit `i` (base `k`, least significant first) of `x`.
    fn digit(&self, x: u32, i: u32) -> u32 {
        x / self.k.pow(i) % self.k
    }

    /// The down port toward `dest` if it is below `router`, else `None`.
    fn down_port(&self, router: u32, dest: TerminalId) -> Option<u32> {
        let (l, w) = (router / self.width, router % self.width);
        let leaf = dest.0 / self.k;
        if w / self.k.pow(l) != leaf / self.k.pow(l) {
            return None;
        }
        Some(if l == 0 {
            dest.0 % self.k
        } else {
            self.digit(leaf, l - 1)
        })
    }

    /// The deterministic up port toward `dest` from level `l`: digit `l` of the terminal.
    fn up_port(&self, l: u32, dest: TerminalId) -> u32 {
        self.k + self.digit(dest.0, l)
    }
}

impl RoutingFunction for FatTree {
    fn name(&self) -> &'static str {
        if self.adaptive {
            "minimal-adaptive"
        } else {
            "minimal"
        }
    }

    fn vc_classes(&self) -> u8 {
        1
    }

    fn route(&self, ctx: &RouteCtx, dest: TerminalId, out: &mut RouteSet) {
        out.clear();
        let r = ctx.router.0;
        if let Some(p) = self.down_port(r, dest) {
            out.push(self.whole(r, p));
        } else if self.adaptive {
            out.extend((self.k..2 * self.k).map(|p| self.whole(r, p)));
        } else {
            out.push(self.whole(r, self.up_port(r / self.width, dest)));
        }
    }

    fn dimension_order_port(&self, router: RouterId, dest: TerminalId) -> Option<OutPort> {
        let r = router.0;
        let p = self
            .down_port(r, dest)
            .unwrap_or_else(|| self.up_port(r / self.width, dest));
        Some(OutPort(p as u8))
    }
}

#[cfg(test)]
mod tests {
    use crate::{build, cdg, RouteCtx, RouteSet, RoutingFunction};
    use flitsim_netlist::topology::fat_tree;
    use flitsim_netlist::{InPort, OutPort, RouterId, RoutingKind, TerminalId, VcId};

    /// The deterministic route from terminal `s` to terminal `d`: the routers visited and
    /// the ejection port (the walk checks that the function ejects on `d`'s).
    fn walk(n: &flitsim_netlist::Netlist, kind: RoutingKind, s: u32, d: u32) -> (Vec<u32>, u8) {
        let f = build(kind, n).unwrap();
        let mut path = vec![n.terminal_router(TerminalId(s)).0];
        crate::walk(f.as_ref(), n, TerminalId(s), TerminalId(d), None, |hop| {
            path.push(hop.channel.to.0)
        });
        (path, n.terminal_port(TerminalId(d)))
    }

    #[test]
    fn every_pair_goes_up_to_its_nearest_common_ancestor_and_down() {
        let (k, levels) = (3u32, 3u32);
        let n = fat_tree(k, levels);
        let width = k.pow(levels - 1);
        let terminals = k.pow(levels);
        for s in 0..terminals {
            for d in 0..terminals {
                let (path, eject) = walk(&n, RoutingKind::Minimal, s, d);
                assert_eq!(u32::from(eject), d % k);
                assert_eq!(*path.last().unwrap(), d / k);
                // The nearest common ancestor's level: the highest differing leaf digit + 1.
                let (a, b) = (s / k, d / k);
                let nca = (0..levels).find(|&l| a / k.pow(l) == b / k.pow(l)).unwrap();
                assert_eq!(path.len() as u32, 2 * nca + 1, "{s} -> {d}: {path:?}");
                let levels_seen: Vec<u32> = path.iter().map(|r| r / width).collect();
                let up: Vec<u32> = (0..=nca).collect();
                let down: Vec<u32> = (0..nca).rev().collect();
                assert_eq!(levels_seen, [up, down].concat(), "{s} -> {d}");
            }
        }
    }

    #[test]
    fn the_packets_for_one_terminal_share_its_down_path() {
        // d-mod-k: every source reaches terminal d through the top router of its digits.
        let n = fat_tree(4, 2);
        for d in 0..16 {
            let tops: std::collections::BTreeSet<u32> = (0..16)
                .filter(|s| s / 4 != d / 4)
                .map(|s| walk(&n, RoutingKind::Minimal, s, d).0[1])
                .collect();
            assert_eq!(tops.into_iter().collect::<Vec<_>>(), [4 + d % 4]);
        }
    }

    #[test]
    fn adaptive_offers_every_up_port_and_one_down_port() {
        let n = fat_tree(4, 3);
        let f = build(RoutingKind::MinimalAdaptive, &n).unwrap();
        let mut set = RouteSet::new();
        let ctx = |r: u32, p: u8| RouteCtx {
            router: RouterId(r),
            in_port: InPort(p),
            in_vc: VcId(0),
        };
        f.route(&ctx(0, 0), TerminalId(63), &mut set);
        let ports: Vec<u8> = set.iter().map(|c| c.port.0).collect();
        assert_eq!(ports, [4, 5, 6, 7]);
        // A top router (level 2) only goes down: toward leaf 15, digit 1 of 15 is 3.
        f.route(&ctx(32, 0), TerminalId(63), &mut set);
        assert_eq!(set.iter().map(|c| c.port.0).collect::<Vec<_>>(), [3]);
    }

    /// A broken variant: a middle router sends a head that came from below and must
    /// climb back down to the next leaf instead, so up and down channels wait on each
    /// other in a ring.
    struct DownThenUp(std::sync::Arc<dyn RoutingFunction>);

    impl RoutingFunction for DownThenUp {
        fn name(&self) -> &'static str {
            "down-then-up"
        }

        fn vc_classes(&self) -> u8 {
            1
        }

        fn route(&self, ctx: &RouteCtx, dest: TerminalId, out: &mut RouteSet) {
            self.0.route(ctx, dest, out);
            // 2-ary 3-tree: 4 routers per level, ports 0-1 down, 2-3 up.
            let middle = ctx.router.0 / 4 == 1;
            if middle && ctx.in_port.0 < 2 && out[0].port.0 >= 2 {
                out[0].port = OutPort((ctx.in_port.0 + 1) % 2);
            }
        }
    }

    #[test]
    fn the_static_check_refuses_a_down_then_up_variant() {
        let n = fat_tree(2, 3);
        let f = build(RoutingKind::Minimal, &n).unwrap();
        assert_eq!(cdg::dependency_cycle(f.as_ref(), &n).unwrap(), None);
        let broken = DownThenUp(f);
        assert!(cdg::dependency_cycle(&broken, &n).unwrap().is_some());
    }

    #[test]
    fn both_routings_pass_the_static_check_and_other_routings_are_refused() {
        for (k, levels) in [(4, 2), (2, 4), (4, 3)] {
            let n = fat_tree(k, levels);
            for kind in [RoutingKind::Minimal, RoutingKind::MinimalAdaptive] {
                let f = build(kind, &n).unwrap();
                assert_eq!(cdg::dependency_cycle(f.as_ref(), &n).unwrap(), None);
            }
        }
        let n = fat_tree(4, 2);
        for kind in [RoutingKind::Table, RoutingKind::Source, RoutingKind::Dor] {
            assert!(build(kind, &n).is_err(), "{kind:?}");
        }
    }

    #[test]
    fn the_check_counts_every_terminal_as_a_destination() {
        // 4-ary 3-tree: 64 terminals x 48 routers x 8 ports x 4 VCs.
        let n = fat_tree(4, 3);
        assert_eq!(cdg::work(&n), 64 * 48 * 8 * 4);
    }
}
