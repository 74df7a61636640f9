//! Dimension-order routing on a torus (or ring) with dateline VC classes.
//!
//! - Topology: `torus` (any number of dimensions) or `ring`. Needs coordinates and both
//!   `port_toward(d, Plus)` and `port_toward(d, Minus)` on every router.
//! - Route: correct dimension 0 first, then 1, ...; within dimension d take the minimal
//!   direction; eject at the destination. Minimal. When both directions are minimal (the
//!   destination exactly `k/2` hops away, even `k`) the router parameter `dor_tie` decides:
//!   `balanced` (default) lets each packet pick from a hash of its packet id
//!   (`tie_dir` in `geometry.rs`), so half the tie traffic takes each direction; `plus`
//!   always goes `Plus`. A tie only occurs where the packet turns into the dimension.
//! - Routing contract: [`RoutingFunction::route_packet`] gives the packet's own hop;
//!   [`RoutingFunction::route`] (destination only) gives the union over packets, both tie
//!   directions `Plus` first, so the static deadlock check sees every route and the
//!   zero-load walk, which takes the first candidate, sees one of the equally long routes.
//! - VC classes: 2. The VCs of every router-to-router input port are split evenly:
//!   class 0 = `0..V/2`, class 1 = `V/2..V` (V >= 2 is required). The router parameter
//!   `dateline` picks the class of a hop in dimension d:
//!   - `entry` (default): fixed where the packet turns into the dimension (class 1 iff its
//!     coordinate there is above the destination's) and kept to the end of the dimension.
//!     Going `Plus`, class 1 holds exactly the packets that cross the wrap-around channel
//!     `k-1 -> 0`; going `Minus`, class 0 holds exactly those that cross `0 -> k-1`.
//!   - `wrap`: class 0 until the packet crosses the dateline of d (the wrap-around
//!     channel), class 1 on the wrap-around channel itself and after it.
//!
//!   The class restarts when the packet turns into the next dimension. The router knows
//!   the class from the VC the head occupies and the direction it arrived from
//!   (per-router tables from the netlist).
//! - Deadlock freedom (Dally and Seitz 1987), per ring of dimension d and direction dir;
//!   dimensions are only ever taken in increasing order, so cycles can only lie within
//!   one ring. `wrap`: order the virtual channels by (class, position counted from the
//!   dateline). Class 0 is never used on the wrap-around channel, so its dependencies
//!   form a chain that ends before the dateline; a minimal route crosses the dateline at
//!   most once, so class-1 dependencies start at the wrap-around channel and never reach
//!   it again; class 1 never depends on class 0. `entry`: a class never changes within
//!   the ring. The class that never wraps forms chains. The class that always wraps holds
//!   routes of at most `k/2` hops, each through the wrap-around channel, so no route
//!   joins the two channels on either side of the router opposite the dateline
//!   (`k/2 - 1 -> k/2 -> k/2 + 1` going `Plus`): that would take at least `k/2 + 1` hops
//!   and the wrap-around channel. Its dependency graph is a chain cut there. Both rules
//!   need minimal routes; the static check ([`crate::cdg`], `netlist check`) verifies the
//!   acyclic graph on each netlist, and the tests below show it rejects a rule without the
//!   class switch and the entry rule with non-minimal routes.

use super::candidates::eject;
use crate::geometry::tie_dir;
use crate::{Candidate, Geometry, RouteCtx, RouteSet, RoutingFunction, VcRange};
use flitsim_netlist::{DatelineRule, Dir, DorTie, OutPort, PacketId, RouterId, TerminalId};

/// Torus DOR with datelines (see the module docs). The geometry's per-port lookups are
/// folded at build time into flat per-router tables, so a route computation reads two
/// coordinate slices, one `Hop` and one `Arrival`.
#[derive(Clone, Debug)]
pub struct DorTorusDateline {
    geo: Geometry,
    /// `hops[r * dims + d][dir]` (dir 0 = Plus, 1 = Minus): the output port of router r
    /// along dimension d in that direction, with its two VC classes.
    hops: Vec<[Hop; 2]>,
    /// `arrivals[r * ports + in_port]` (`ports`: the most input ports of any router).
    arrivals: Vec<Arrival>,
    /// Stride of `arrivals`.
    ports: usize,
    /// The ejection candidate of each router.
    eject: Vec<Candidate>,
    /// The tie rule (`dor_tie`).
    tie: DorTie,
    /// The dateline class rule (`dateline`).
    dateline: DatelineRule,
}

/// One output port of a router toward a (dimension, direction), with its VC classes.
#[derive(Copy, Clone, Debug)]
struct Hop {
    port: OutPort,
    /// `classes[c]`: the VCs of class c of the downstream input port.
    classes: [VcRange; 2],
}

/// What the router knows of a head arriving on one input port.
#[derive(Copy, Clone, Debug)]
struct Arrival {
    /// The (dimension, direction) the head was travelling (`None`: the terminal port,
    /// an unconnected port).
    travel: Option<(u8, Dir)>,
    /// The first class-1 VC of the port: a head on a VC at or above it has crossed the
    /// dateline of its dimension.
    class1: u8,
}

impl DorTorusDateline {
    /// Over the geometry of a torus or ring netlist, with the tie and dateline rules.
    pub fn new(geo: Geometry, tie: DorTie, dateline: DatelineRule) -> DorTorusDateline {
        let ports = (0..geo.routers())
            .map(|r| geo.in_ports(RouterId(r as u32)))
            .max()
            .unwrap_or(0);
        let mut hops = Vec::with_capacity(geo.routers() * geo.dims);
        let mut arrivals = Vec::with_capacity(geo.routers() * ports);
        let mut ejects = Vec::with_capacity(geo.routers());
        for r in (0..geo.routers()).map(|r| RouterId(r as u32)) {
            for d in 0..geo.dims {
                hops.push([Dir::Plus, Dir::Minus].map(|dir| {
                    let port = geo.port(r, d, dir);
                    let vcs = geo.out_vcs(r, port);
                    Hop {
                        port: OutPort(port),
                        classes: [class_range(vcs, 0), class_range(vcs, 1)],
                    }
                }));
            }
            for p in 0..ports {
                arrivals.push(if p < geo.in_ports(r) {
                    let p = p as u8;
                    Arrival {
                        travel: geo.travel(r, p),
                        class1: class_range(geo.in_vcs(r, p), 0).hi,
                    }
                } else {
                    Arrival {
                        travel: None,
                        class1: 0,
                    }
                });
            }
            ejects.push(eject(geo.terminal_vcs(r)));
        }
        DorTorusDateline {
            geo,
            hops,
            arrivals,
            ports,
            eject: ejects,
            tie,
            dateline,
        }
    }

    /// The candidate of the hop from coordinate `a` toward `b` in dimension `d`,
    /// direction `dir`, for a head at `ctx`.
    #[inline]
    fn hop(&self, ctx: &RouteCtx, d: usize, a: u32, b: u32, dir: Dir) -> Candidate {
        let here = ctx.router;
        let hop = &self.hops[here.index() * self.geo.dims + d][match dir {
            Dir::Plus => 0,
            Dir::Minus => 1,
        }];
        // Arrived travelling this dimension and direction: the VC held gives the class.
        let in_port = usize::from(ctx.in_port.0);
        let (along, held) = if in_port < self.ports {
            let arrival = self.arrivals[here.index() * self.ports + in_port];
            (
                arrival.travel == Some((d as u8, dir)),
                ctx.in_vc.0 >= arrival.class1,
            )
        } else {
            (false, false)
        };
        let class = match self.dateline {
            DatelineRule::Wrap => (along && held) || self.geo.crosses_dateline(d, a, dir),
            DatelineRule::Entry if along => held,
            DatelineRule::Entry => a > b,
        };
        Candidate {
            port: hop.port,
            vcs: hop.classes[usize::from(class)],
            hops: 0,
        }
    }

    /// The candidates at `ctx` toward `dest` for `packet` (`None`: the union over packets,
    /// both directions at a tie).
    #[inline]
    fn candidates(
        &self,
        ctx: &RouteCtx,
        dest: TerminalId,
        packet: Option<PacketId>,
        out: &mut RouteSet,
    ) {
        out.clear();
        let here = ctx.router;
        // Correct the lowest differing dimension first.
        let Some((d, a, b)) = self.geo.first_difference(here, RouterId(dest.0)) else {
            out.push(self.eject[here.index()]);
            return;
        };
        if self.tie == DorTie::Balanced && self.geo.is_tie(d, a, b) {
            match packet {
                Some(p) => out.push(self.hop(ctx, d, a, b, tie_dir(p, d))),
                None => {
                    out.push(self.hop(ctx, d, a, b, Dir::Plus));
                    out.push(self.hop(ctx, d, a, b, Dir::Minus));
                }
            }
            return;
        }
        let dir = self.geo.step(d, a, b).expect("the coordinates differ");
        out.push(self.hop(ctx, d, a, b, dir));
    }
}

/// The VCs of class `class` (0 or 1) on a port with `vcs` VCs.
fn class_range(vcs: u8, class: u8) -> VcRange {
    let half = vcs / 2;
    if class == 0 {
        VcRange::new(0, half)
    } else {
        VcRange::new(half, vcs)
    }
}

impl RoutingFunction for DorTorusDateline {
    fn name(&self) -> &'static str {
        "dor"
    }

    fn vc_classes(&self) -> u8 {
        2
    }

    #[inline]
    fn route(&self, ctx: &RouteCtx, dest: TerminalId, out: &mut RouteSet) {
        self.candidates(ctx, dest, None, out);
    }

    #[inline]
    fn route_packet(&self, ctx: &RouteCtx, dest: TerminalId, packet: PacketId, out: &mut RouteSet) {
        self.candidates(ctx, dest, Some(packet), out);
    }

    fn dimension_order_port(&self, router: RouterId, dest: TerminalId) -> Option<OutPort> {
        self.geo.dor_port(router, RouterId(dest.0)).map(OutPort)
    }

    fn is_dimension_order(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::*;
    use crate::{build, cdg, RoutingMismatch};
    use flitsim_netlist::{InPort, Netlist, RoutingKind, VcId, TERMINAL_PORT};

    /// Every (tie, dateline) rule pair.
    const RULES: [(DorTie, DatelineRule); 4] = [
        (DorTie::Balanced, DatelineRule::Entry),
        (DorTie::Balanced, DatelineRule::Wrap),
        (DorTie::Plus, DatelineRule::Entry),
        (DorTie::Plus, DatelineRule::Wrap),
    ];

    /// `n` with the rules `(tie, dateline)` set on every router.
    fn with_rules(mut n: Netlist, (tie, dateline): (DorTie, DatelineRule)) -> Netlist {
        for r in 0..n.num_routers() {
            let c = &mut n.router_mut(RouterId(r as u32)).config;
            c.dor_tie = tie;
            c.dateline = dateline;
        }
        n
    }

    #[test]
    fn every_hop_is_minimal_on_tori_and_rings() {
        for radix in [vec![4, 4], vec![5, 3], vec![2, 4], vec![3, 3, 3], vec![8]] {
            for rules in RULES {
                let n = with_rules(torus(&radix, 2), rules);
                let f = build(RoutingKind::Dor, &n).unwrap();
                assert_minimal(f.as_ref(), &n);
            }
        }
    }

    #[test]
    fn dependency_graph_is_acyclic_under_every_rule() {
        for radix in [
            vec![2],
            vec![4],
            vec![5],
            vec![8],
            vec![4, 4],
            vec![5, 3],
            vec![3, 3, 3],
        ] {
            for vcs in [2, 3, 4] {
                for rules in RULES {
                    let n = with_rules(torus(&radix, vcs), rules);
                    let f = build(RoutingKind::Dor, &n).unwrap();
                    assert!(
                        !dependency_graph_is_cyclic(f.as_ref(), &n),
                        "{radix:?} with {vcs} VCs, {rules:?}"
                    );
                    assert_eq!(cdg::dependency_cycle(f.as_ref(), &n).unwrap(), None);
                }
            }
        }
    }

    /// A broken variant of the shipped function: `no_switch` keeps class 0 everywhere, or
    /// `detour` sends a packet entering a dimension `k/2 - 1` hops from its destination the
    /// long way round (`k/2 + 1` hops, non-minimal).
    struct Broken {
        inner: DorTorusDateline,
        no_switch: bool,
        detour: bool,
    }

    impl RoutingFunction for Broken {
        fn name(&self) -> &'static str {
            "broken"
        }
        fn vc_classes(&self) -> u8 {
            2
        }
        fn route(&self, ctx: &RouteCtx, dest: TerminalId, out: &mut RouteSet) {
            self.inner.route(ctx, dest, out);
            let here = ctx.router;
            let geo = &self.inner.geo;
            if let Some((d, a, b)) = geo.first_difference(here, RouterId(dest.0)) {
                if self.detour {
                    // Take the other direction whenever the destination is k/2 - 1 away:
                    // k/2 + 1 hops, still through one class.
                    let k = geo.radix[d];
                    if 2 * (a.abs_diff(b).min(k - a.abs_diff(b))) + 2 == k {
                        let dir = match geo.step(d, a, b).unwrap() {
                            Dir::Plus => Dir::Minus,
                            Dir::Minus => Dir::Plus,
                        };
                        let along = geo.travel(here, ctx.in_port.0).map(|t| t.0) == Some(d as u8);
                        if !along {
                            out.clear();
                            out.push(self.inner.hop(ctx, d, a, b, dir));
                        }
                    }
                }
            }
            if self.no_switch {
                for c in out.iter_mut().filter(|c| c.port.0 != TERMINAL_PORT) {
                    c.vcs = VcRange::new(0, 1);
                }
            }
        }
    }

    #[test]
    fn the_check_rejects_a_rule_without_class_switch_or_with_detours() {
        let n = with_rules(torus(&[8, 8], 2), (DorTie::Balanced, DatelineRule::Entry));
        let geo = Geometry::new(&n, RoutingKind::Dor).unwrap();
        let inner = DorTorusDateline::new(geo, DorTie::Balanced, DatelineRule::Entry);
        for (no_switch, detour) in [(true, false), (false, true)] {
            let f = Broken {
                inner: inner.clone(),
                no_switch,
                detour,
            };
            let cycle = cdg::dependency_cycle(&f, &n).unwrap();
            assert!(cycle.is_some(), "no_switch {no_switch}, detour {detour}");
        }
        // The same wrapper with neither change is the shipped function: acyclic.
        let f = Broken {
            inner,
            no_switch: false,
            detour: false,
        };
        assert_eq!(cdg::dependency_cycle(&f, &n).unwrap(), None);
    }

    /// The classes of the hops of the route from `src` to `dst` (a ring of 8, 4 VCs).
    fn ring_classes(dateline: DatelineRule, src: u32, dst: u32) -> Vec<u8> {
        let n = with_rules(torus(&[8], 4), (DorTie::Plus, dateline));
        let f = build(RoutingKind::Dor, &n).unwrap();
        let mut classes = Vec::new();
        crate::walk(
            f.as_ref(),
            &n,
            TerminalId(src),
            TerminalId(dst),
            None,
            |hop| classes.push(hop.taken.vcs.lo / 2),
        );
        classes
    }

    #[test]
    fn entry_fixes_the_class_at_the_turn_and_wrap_switches_at_the_wrap() {
        // 6 -> 1 goes Plus over the wrap: 6 > 1, so entry uses class 1 throughout.
        assert_eq!(ring_classes(DatelineRule::Wrap, 6, 1), [0, 1, 1]);
        assert_eq!(ring_classes(DatelineRule::Entry, 6, 1), [1, 1, 1]);
        // 2 -> 7 goes Minus over the wrap: 2 < 7, class 0 throughout under entry.
        assert_eq!(ring_classes(DatelineRule::Wrap, 2, 7), [0, 0, 1]);
        assert_eq!(ring_classes(DatelineRule::Entry, 2, 7), [0, 0, 0]);
        // Paths that never wrap: Plus 1 -> 3 and Minus 5 -> 3.
        assert_eq!(ring_classes(DatelineRule::Wrap, 1, 3), [0, 0]);
        assert_eq!(ring_classes(DatelineRule::Entry, 1, 3), [0, 0]);
        assert_eq!(ring_classes(DatelineRule::Wrap, 5, 3), [0, 0]);
        assert_eq!(ring_classes(DatelineRule::Entry, 5, 3), [1, 1]);
    }

    #[test]
    fn balanced_ties_follow_the_packet_and_plus_ties_go_plus() {
        let n = torus(&[8], 4);
        let ctx = RouteCtx {
            router: RouterId(1),
            in_port: InPort(TERMINAL_PORT),
            in_vc: VcId(0),
        };
        let mut set = RouteSet::new();
        let mut plus = 0;
        for rules in RULES {
            let n = with_rules(n.clone(), rules);
            let f = build(RoutingKind::Dor, &n).unwrap();
            let geo = Geometry::new(&n, RoutingKind::Dor).unwrap();
            // Union over packets: both directions at the tie only under `balanced`.
            f.route(&ctx, TerminalId(5), &mut set);
            let both = rules.0 == DorTie::Balanced;
            assert_eq!(set.len(), if both { 2 } else { 1 });
            assert_eq!(set[0].port.0, geo.port(RouterId(1), 0, Dir::Plus));
            for seq in 0..200 {
                f.route_packet(&ctx, TerminalId(5), packet(1, seq), &mut set);
                assert_eq!(set.len(), 1);
                let dir = match rules.0 {
                    DorTie::Balanced => tie_dir(packet(1, seq), 0),
                    DorTie::Plus => Dir::Plus,
                };
                assert_eq!(set[0].port.0, geo.port(RouterId(1), 0, dir));
                plus += usize::from(dir == Dir::Plus && both);
                // No tie: the packet's route is the destination's.
                f.route_packet(&ctx, TerminalId(4), packet(1, seq), &mut set);
                let mut want = RouteSet::new();
                f.route(&ctx, TerminalId(4), &mut want);
                assert_eq!(set, want);
            }
        }
        // Two balanced rule pairs of 200 packets: about half Plus each.
        assert!((160..=240).contains(&plus), "{plus} of 400 Plus");
    }

    /// The route as the module docs define it, read from the geometry at each call (the
    /// tables of `DorTorusDateline` must give the same candidates).
    fn reference_route(
        geo: &Geometry,
        (tie, dateline): (DorTie, DatelineRule),
        ctx: &RouteCtx,
        dest: TerminalId,
    ) -> Vec<Candidate> {
        let (here, there) = (ctx.router, RouterId(dest.0));
        for d in 0..geo.dims {
            let (a, b) = (geo.coord(here, d), geo.coord(there, d));
            let Some(dir) = geo.step(d, a, b) else {
                continue;
            };
            let k = geo.radix[d];
            let dirs = if tie == DorTie::Balanced && 2 * a.abs_diff(b) == k {
                vec![Dir::Plus, Dir::Minus]
            } else {
                vec![dir]
            };
            return dirs
                .into_iter()
                .map(|dir| {
                    let port = geo.port(here, d, dir);
                    let in_port = ctx.in_port.0;
                    let along = geo.travel(here, in_port) == Some((d as u8, dir));
                    let held = || !class_range(geo.in_vcs(here, in_port), 0).contains(ctx.in_vc);
                    let class = match dateline {
                        DatelineRule::Wrap => (along && held()) || geo.crosses_dateline(d, a, dir),
                        DatelineRule::Entry if along => held(),
                        DatelineRule::Entry => a > b,
                    };
                    Candidate {
                        port: OutPort(port),
                        vcs: class_range(geo.out_vcs(here, port), u8::from(class)),
                        hops: 0,
                    }
                })
                .collect();
        }
        vec![eject(geo.terminal_vcs(here))]
    }

    #[test]
    fn tables_give_the_geometry_route_from_every_port_and_vc() {
        for (radix, vcs) in [
            (vec![4, 4], 2),
            (vec![5, 3], 4),
            (vec![3, 3, 3], 3),
            (vec![8], 4),
        ] {
            for rules in RULES {
                let n = with_rules(torus(&radix, vcs), rules);
                let geo = Geometry::new(&n, RoutingKind::Dor).unwrap();
                let f = DorTorusDateline::new(geo.clone(), rules.0, rules.1);
                let mut out = RouteSet::new();
                for r in n.routers() {
                    for p in 0..=r.ports.len() as u8 {
                        for v in 0..vcs {
                            for t in 0..n.num_routers() as u32 {
                                let ctx = RouteCtx {
                                    router: r.id,
                                    in_port: InPort(p),
                                    in_vc: VcId(v),
                                };
                                f.route(&ctx, TerminalId(t), &mut out);
                                let want = reference_route(&geo, rules, &ctx, TerminalId(t));
                                assert_eq!(out.as_slice(), want, "{radix:?} {ctx:?} to {t}");
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn one_vc_is_too_few() {
        let n = torus(&[4, 4], 1);
        assert!(matches!(
            build(RoutingKind::Dor, &n),
            Err(RoutingMismatch::TooFewVcs {
                needed: 2,
                have: 1,
                ..
            })
        ));
    }
}
