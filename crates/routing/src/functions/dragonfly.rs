//! Dragonfly routing (Kim, Dally, Scott, Abts 2008): `minimal`, `valiant` and `ugal-l`.
//!
//! - Topology: a dragonfly (generator or an explicit netlist declaring one). Groups are
//!   router id / `a`; which port leads where is read from the channels.
//! - `minimal`: at most one local hop to the router holding the global channel to the
//!   destination group, that channel, at most one local hop to the destination.
//! - `valiant`: minimal to an intermediate group, then minimal to the destination. The
//!   intermediate group is drawn per packet from a hash of the packet id (as `source`
//!   routing draws its path) among the groups other than the source's and the
//!   destination's; a packet within one group, or in a network of two groups, goes
//!   minimally.
//! - `ugal-l`: at the source router, the minimal first hop and the first hop toward the
//!   packet's Valiant intermediate group, each carrying its path length; VC allocation
//!   takes the one with the smaller output queue times hops (`pipeline/ugal.rs`). The
//!   choice is recorded in the VC class of the first local hop; a packet leaving on a
//!   global channel is recognised by the group it lands in.
//!
//! Deadlock freedom: one VC class per hop class, ordered along every path (Kim et al.,
//! section 4.2). Local channels: `minimal` [source, destination] groups, `valiant`
//! [source, intermediate, destination], `ugal-l` [source minimal, source non-minimal,
//! intermediate, destination]; global channels: first and second global hop (`minimal`
//! uses the first only). Every path climbs this order (local source classes < first global
//! < intermediate local < second global < destination local), so the channel dependency
//! graph is acyclic; the static check ([`crate::cdg`]) confirms it on each netlist. A
//! class is an even share of a port's VCs (`vcs` >= the classes, [`RoutingFunction::vc_classes`]).

use super::candidates::eject;
use super::source::path_hash;
use crate::table_size::table;
use crate::{Candidate, RouteCtx, RouteSet, RoutingFunction, RoutingMismatch, VcRange};
use flitsim_netlist::{
    Netlist, OutPort, PacketId, RouterId, RoutingKind, TerminalId, TERMINAL_PORT,
};
#[cfg(test)]
use std::sync::Arc;

/// Which dragonfly or HyperX routing.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Variant {
    /// Minimal paths.
    Minimal,
    /// Valiant's randomised routing through an intermediate group.
    Valiant,
    /// UGAL with local queue information at the source router.
    UgalL,
}

impl Variant {
    /// The routing's name in netlists and messages.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Minimal => "minimal",
            Variant::Valiant => "valiant",
            Variant::UgalL => "ugal-l",
        }
    }
}

/// Where a packet is on its path: the hop class of the channel it takes next.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Hop {
    /// Local hop in the source group toward the minimal global channel.
    SourceMin,
    /// Local hop in the source group toward the intermediate group.
    SourceNonMin,
    /// The first global hop.
    FirstGlobal,
    /// Local hop in the intermediate group.
    Intermediate,
    /// The second global hop (after an intermediate group).
    SecondGlobal,
    /// Local hop in the destination group.
    Destination,
}

/// The global channel from one group to another: its router (index in the group), its
/// port, and the router (index in the other group) it lands on.
#[derive(Copy, Clone, Debug, Default)]
struct Gateway {
    router: u32,
    port: u8,
    lands: u32,
}

/// Dragonfly routing tables (see the module docs).
#[derive(Clone, Debug)]
pub struct Dragonfly {
    variant: Variant,
    a: u32,
    g: u32,
    /// `local[r * a + j]`: the port of router `r` toward router `j` of its group.
    local: Vec<u8>,
    /// `gateway[from * g + to]`.
    gateway: Vec<Gateway>,
    /// `global_in[r][p]`: port `p` of router `r` is the end of a global channel.
    global_in: Vec<Vec<bool>>,
    /// `vcs[r][p]`: VCs of the input port a packet leaving on port `p` of `r` enters.
    vcs: Vec<Vec<u8>>,
    /// `in_vcs[r][p]`: VCs of input port `p` of router `r`.
    in_vcs: Vec<Vec<u8>>,
    terminal_vcs: Vec<u8>,
}

impl Dragonfly {
    /// Builds the tables of `netlist`, a dragonfly of `a` routers per group and `h`
    /// global channels per router, `kind` its routing.
    ///
    /// # Errors
    /// [`RoutingMismatch::TablesTooLarge`] when the per-group tables cannot be allocated.
    pub fn new(
        netlist: &Netlist,
        a: u32,
        h: u32,
        variant: Variant,
        kind: RoutingKind,
    ) -> Result<Dragonfly, RoutingMismatch> {
        let g = a * h + 1;
        let n = netlist.num_routers();
        let mut d = Dragonfly {
            variant,
            a,
            g,
            local: table(kind, n * a as usize, 0)?,
            gateway: table(kind, (g * g) as usize, Gateway::default())?,
            global_in: netlist
                .routers()
                .map(|r| vec![false; r.ports.len()])
                .collect(),
            vcs: netlist.routers().map(|r| vec![0; r.ports.len()]).collect(),
            in_vcs: netlist
                .routers()
                .map(|r| r.ports.iter().map(|p| p.vcs).collect())
                .collect(),
            terminal_vcs: netlist
                .routers()
                .map(|r| r.ports.first().map_or(r.config.vcs, |p| p.vcs))
                .collect(),
        };
        for c in netlist.channels() {
            let (from, to) = (c.from.0, c.to.0);
            d.vcs[c.from.index()][c.from_port.index()] =
                netlist.router(c.to).ports[c.to_port.index()].vcs;
            if from / a == to / a {
                d.local[(from * a + to % a) as usize] = c.from_port.0;
            } else {
                d.global_in[c.to.index()][c.to_port.index()] = true;
                d.gateway[(from / a * g + to / a) as usize] = Gateway {
                    router: from % a,
                    port: c.from_port.0,
                    lands: to % a,
                };
            }
        }
        Ok(d)
    }

    /// Local VC classes (the largest class count, [`RoutingFunction::vc_classes`]).
    fn local_classes(&self) -> u8 {
        match self.variant {
            Variant::Minimal => 2,
            Variant::Valiant => 3,
            Variant::UgalL => 4,
        }
    }

    /// Global VC classes: the first and the second global hop (`minimal` has no second).
    fn global_classes(&self) -> u8 {
        if self.variant == Variant::Minimal {
            1
        } else {
            2
        }
    }

    /// (class, classes) of a hop class on its kind of channel.
    fn class(&self, hop: Hop) -> (u8, u8) {
        let (l, globals) = (self.local_classes(), self.global_classes());
        match (self.variant, hop) {
            (_, Hop::FirstGlobal) => (0, globals),
            (_, Hop::SecondGlobal) => (1, globals),
            (_, Hop::SourceMin) => (0, l),
            (Variant::UgalL, Hop::SourceNonMin) => (1, l),
            (_, Hop::SourceNonMin) => (0, l),
            (_, Hop::Intermediate) => (l - 2, l),
            (_, Hop::Destination) => (l - 1, l),
        }
    }

    /// The VCs of class `hop` on port `port` of router `r`: an even share of its VCs.
    fn range(&self, r: RouterId, port: u8, hop: Hop) -> VcRange {
        let (k, classes) = self.class(hop);
        let vcs = u16::from(self.vcs[r.index()][usize::from(port)]);
        VcRange::new(
            share(k, classes, vcs) as u8,
            share(k + 1, classes, vcs) as u8,
        )
    }

    /// The hop class of the channel a packet arrived on (`None`: injected here).
    fn arrived(&self, ctx: &RouteCtx) -> Option<Hop> {
        if ctx.in_port.0 == TERMINAL_PORT {
            return None;
        }
        let r = ctx.router.index();
        let global = self.global_in[r][ctx.in_port.index()];
        // The class of the VC, on the port it arrived on (input VCs as the upstream saw them).
        let vcs = u16::from(self.in_vcs[r][ctx.in_port.index()]);
        let classes = if global {
            self.global_classes()
        } else {
            self.local_classes()
        };
        let k = (0..classes)
            .rev()
            .find(|&k| share(k, classes, vcs) <= u16::from(ctx.in_vc.0))
            .unwrap_or(0);
        Some(match (global, self.variant, k) {
            (true, _, 0) => Hop::FirstGlobal,
            (true, _, _) => Hop::SecondGlobal,
            (false, _, 0) => Hop::SourceMin,
            (false, Variant::UgalL, 1) => Hop::SourceNonMin,
            (false, _, k) if k + 1 == classes => Hop::Destination,
            (false, _, _) => Hop::Intermediate,
        })
    }
}

impl Dragonfly {
    /// The group of router `r`.
    fn group(&self, r: u32) -> u32 {
        r / self.a
    }

    /// The Valiant intermediate group of packet `(source, seq)` from group `from` to group
    /// `to`; `None` when no third group exists or the packet stays in its group.
    fn intermediate(&self, source: u32, seq: u32, from: u32, to: u32) -> Option<u32> {
        if from == to || self.g < 3 {
            return None;
        }
        let k = (path_hash(source, seq, RouterId(0)) % u64::from(self.g - 2)) as u32;
        (0..self.g)
            .filter(|&x| x != from && x != to)
            .nth(k as usize)
    }

    /// The next hop from `here` toward group `to` (`here`'s group differs): the local hop
    /// of class `local` to the gateway, or the global channel of class `global`; with the
    fn toward(&self, here: u32, to: u32, local: Hop, global: Hop) -> Candidate {
        let gw = self.gateway[(self.group(here) * self.g + to) as usize];
        let r = RouterId(here);
        if gw.router == here % self.a {
            self.hop(r, gw.port, global)
        } else {
            self.hop(r, self.local[(here * self.a + gw.router) as usize], local)
        }
    }

    /// Candidate `port` of router `r` with the VCs of hop class `hop`.
    fn hop(&self, r: RouterId, port: u8, hop: Hop) -> Candidate {
        Candidate {
            port: OutPort(port),
            vcs: self.range(r, port, hop),
            hops: 0,
        }
    }

    /// Hops from router `here` to router `dest` via group `via` (minimal when `via` is the
    /// destination group): local and global hops, the last local hop included.
    fn path_hops(&self, here: u32, via: u32, dest: u32) -> u32 {
        let (a, g) = (self.a, self.g);
        let leg = |from: u32, to_group: u32| -> (u32, u32) {
            let gw = self.gateway[(self.group(from) * g + to_group) as usize];
            let hops = u32::from(gw.router != from % a) + 1;
            (hops, to_group * a + gw.lands)
        };
        let (h1, mut at) = leg(here, via);
        let mut hops = h1;
        if via != self.group(dest) {
            let (h2, next) = leg(at, self.group(dest));
            hops += h2;
            at = next;
        }
        hops + u32::from(at != dest)
    }

    /// The candidates for a packet from group `src_group` (sequence `seq` of terminal
    /// `source`) at `ctx` bound for router `dest`; `None` for the packet id routes the
    /// union over every intermediate group (the static check's view).
    fn candidates(
        &self,
        ctx: &RouteCtx,
        dest: u32,
        packet: Option<(u32, u32)>,
        out: &mut RouteSet,
    ) {
        out.clear();
        let here = ctx.router.0;
        if here == dest {
            out.push(eject(self.terminal_vcs[ctx.router.index()]));
            return;
        }
        let (gh, gd) = (self.group(here), self.group(dest));
        if gh == gd {
            let port = self.local[(here * self.a + dest % self.a) as usize];
            out.push(self.hop(ctx.router, port, Hop::Destination));
            return;
        }
        let src = packet.map_or(gh, |(s, _)| self.group(s));
        let before = out.len();
        match (self.variant, self.arrived(ctx)) {
            // Toward the destination group, first leg.
            (Variant::Minimal, _) | (Variant::UgalL, Some(Hop::SourceMin)) => {
                out.push(self.toward(here, gd, Hop::SourceMin, Hop::FirstGlobal));
            }
            (Variant::Valiant, None) => {
                for via in self.vias(packet, gh, gd, None) {
                    push_new(
                        out,
                        self.toward(here, via, Hop::SourceMin, Hop::FirstGlobal),
                    );
                }
            }
            // Still in the source group, at the gateway toward the intermediate group.
            (Variant::Valiant, Some(Hop::SourceMin))
            | (Variant::UgalL, Some(Hop::SourceNonMin)) => {
                let class = if self.variant == Variant::UgalL {
                    Hop::SourceNonMin
                } else {
                    Hop::SourceMin
                };
                for via in self.vias(packet, src, gd, Some(here)) {
                    push_new(out, self.toward(here, via, class, Hop::FirstGlobal));
                }
            }
            (Variant::UgalL, None) => self.ugal(here, dest, packet, out),
            // In the intermediate group: toward the destination group, second leg.
            (_, Some(_)) => {
                out.push(self.toward(here, gd, Hop::Intermediate, Hop::SecondGlobal));
            }
        }
        // No intermediate group (within reach): minimal.
        if out.len() == before {
            out.push(self.toward(here, gd, Hop::SourceMin, Hop::FirstGlobal));
        }
    }

    /// The intermediate groups of a packet from group `from` to group `to`: the packet's
    /// own (`packet` = its id), or without an id every group but `from` and `to` (the
    /// union the static check explores); with `at`, only those whose gateway is router
    /// `at` (a packet takes one local hop in its source group, to its gateway).
    fn vias(
        &self,
        packet: Option<(u32, u32)>,
        from: u32,
        to: u32,
        at: Option<u32>,
    ) -> impl Iterator<Item = u32> + '_ {
        let own = packet.and_then(|(s, q)| self.intermediate(s, q, from, to));
        let every = packet.is_none();
        own.into_iter().chain((0..self.g).filter(move |&x| {
            every
                && x != from
                && match at {
                    None => x != to,
                    Some(r) => self.gateway[(from * self.g + x) as usize].router == r % self.a,
                }
        }))
    }

    /// UGAL at the source router: the minimal first hop and the first hop toward the
    /// intermediate group (each, without a packet id), each with the hops of its path.
    fn ugal(&self, here: u32, dest: u32, packet: Option<(u32, u32)>, out: &mut RouteSet) {
        let (gh, gd) = (self.group(here), self.group(dest));
        let mut min = self.toward(here, gd, Hop::SourceMin, Hop::FirstGlobal);
        min.hops = self.path_hops(here, gd, dest) as u8;
        out.push(min);
        for via in self.vias(packet, gh, gd, None) {
            let mut c = self.toward(here, via, Hop::SourceNonMin, Hop::FirstGlobal);
            c.hops = self.path_hops(here, via, dest) as u8;
            push_new(out, c);
        }
    }
}

/// The first VC of class `k` of `classes` on a port of `vcs` VCs (class `k` holds VCs
/// `share(k)..share(k + 1)`).
pub(super) fn share(k: u8, classes: u8, vcs: u16) -> u16 {
    u16::from(k) * vcs / u16::from(classes)
}

/// Appends `c` unless `out` holds it (the union over intermediate groups repeats ports).
pub(super) fn push_new(out: &mut RouteSet, c: Candidate) {
    if !out.contains(&c) {
        out.push(c);
    }
}

impl RoutingFunction for Dragonfly {
    fn name(&self) -> &'static str {
        self.variant.name()
    }

    fn vc_classes(&self) -> u8 {
        self.local_classes()
    }

    fn route(&self, ctx: &RouteCtx, dest: TerminalId, out: &mut RouteSet) {
        self.candidates(ctx, dest.0, None, out);
    }

    fn route_packet(&self, ctx: &RouteCtx, dest: TerminalId, packet: PacketId, out: &mut RouteSet) {
        self.candidates(ctx, dest.0, Some((packet.source.0, packet.seq)), out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::{packet, path};
    use crate::{build, cdg, RoutingRegistry};
    use flitsim_netlist::topology::generate;
    use flitsim_netlist::{
        InPort, RouterConfig, RoutingKind, RoutingRequirements, Topology, VcId, TERMINAL_PORT,
    };

    const KINDS: [RoutingKind; 3] = [
        RoutingKind::Minimal,
        RoutingKind::Valiant,
        RoutingKind::UgalL,
    ];

    fn net(a: u32, h: u32, kind: RoutingKind) -> Netlist {
        let config = RouterConfig {
            vcs: 4,
            routing: kind,
            ..RouterConfig::default()
        };
        generate(&Topology::Dragonfly { a, h }, &config, 1, 1).unwrap()
    }

    #[test]
    fn the_static_check_accepts_each_routing() {
        for (a, h) in [(4, 2), (2, 1), (3, 1)] {
            for kind in KINDS {
                let n = net(a, h, kind);
                let f = build(kind, &n).unwrap();
                assert_eq!(
                    cdg::dependency_cycle(f.as_ref(), &n).unwrap(),
                    None,
                    "{kind:?} a={a} h={h}"
                );
                assert!(RoutingRegistry.check(&n).is_empty(), "{kind:?} a={a} h={h}");
            }
        }
    }

    /// A routing that offers every VC wherever the wrapped one offers a class.
    struct OneClass(Arc<dyn RoutingFunction>);

    impl RoutingFunction for OneClass {
        fn name(&self) -> &'static str {
            "one-class"
        }
        fn vc_classes(&self) -> u8 {
            1
        }
        fn route(&self, ctx: &RouteCtx, dest: TerminalId, out: &mut RouteSet) {
            self.0.route(ctx, dest, out);
            for c in out.iter_mut() {
                c.vcs = VcRange::new(0, 4);
            }
        }
    }

    #[test]
    fn the_static_check_rejects_one_class_for_every_hop() {
        // Valiant's hop classes collapsed into one (the class decoding still sees VC 0).
        let n = net(4, 2, RoutingKind::Valiant);
        let f = OneClass(build(RoutingKind::Valiant, &n).unwrap());
        assert!(cdg::dependency_cycle(&f, &n).unwrap().is_some());
    }

    #[test]
    fn minimal_paths_take_one_global_channel_and_at_most_one_local_hop_per_group() {
        let n = net(4, 2, RoutingKind::Minimal);
        let f = build(RoutingKind::Minimal, &n).unwrap();
        for s in 0..36u32 {
            for t in (0..36u32).filter(|&t| t != s) {
                let path = path(f.as_ref(), &n, t, packet(s, 0), 0);
                assert_eq!(path.last(), Some(&t));
                let groups: Vec<u32> = path.iter().map(|r| r / 4).collect();
                let globals = groups.windows(2).filter(|w| w[0] != w[1]).count();
                assert_eq!(globals, usize::from(s / 4 != t / 4), "{path:?}");
                // Not more than two routers of a group on the path.
                for g in [s / 4, t / 4] {
                    assert!(groups.iter().filter(|&&x| x == g).count() <= 2, "{path:?}");
                }
            }
        }
    }

    #[test]
    fn valiant_passes_through_a_third_group() {
        let n = net(4, 2, RoutingKind::Valiant);
        let f = build(RoutingKind::Valiant, &n).unwrap();
        let mut groups = std::collections::BTreeSet::new();
        for seq in 0..64 {
            let path = path(f.as_ref(), &n, 30, packet(1, seq), 0);
            assert_eq!(path.last(), Some(&30));
            let via: Vec<u32> = path
                .iter()
                .map(|r| r / 4)
                .filter(|&g| g != 0 && g != 7)
                .collect();
            assert!(
                !via.is_empty() && via.iter().all(|&g| g == via[0]),
                "{path:?}"
            );
            groups.insert(via[0]);
        }
        // 64 packets spread over the 7 other groups.
        assert_eq!(groups.len(), 7);
        // Within a group: one local hop.
        assert_eq!(path(f.as_ref(), &n, 3, packet(1, 0), 0), [1, 3]);
    }

    #[test]
    fn ugal_offers_the_minimal_path_first_and_each_candidate_its_length() {
        let n = net(4, 2, RoutingKind::UgalL);
        let f = build(RoutingKind::UgalL, &n).unwrap();
        let min = build(RoutingKind::Minimal, &net(4, 2, RoutingKind::Minimal)).unwrap();
        let mut set = RouteSet::new();
        for s in 0..36u32 {
            for t in (0..36u32).filter(|t| t / 4 != s / 4) {
                let h = packet(s, t);
                let ctx = RouteCtx {
                    router: RouterId(s),
                    in_port: InPort(TERMINAL_PORT),
                    in_vc: VcId(0),
                };
                f.route_packet(&ctx, TerminalId(t), h, &mut set);
                assert_eq!(set.len(), 2, "{s} -> {t}");
                let minimal = path(min.as_ref(), &n, t, h, 0);
                assert_eq!(usize::from(set[0].hops), minimal.len() - 1);
                assert!(set[1].hops > 0);
                for (k, c) in set.clone().iter().enumerate() {
                    let path = path(f.as_ref(), &n, t, h, k);
                    assert_eq!(path.last(), Some(&t));
                    assert_eq!(path.len() - 1, usize::from(c.hops), "{s} -> {t}: {path:?}");
                }
            }
        }
    }
}
