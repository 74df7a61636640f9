//! HyperX and flattened-butterfly routing: `minimal`, `valiant` and `ugal-l`.
//!
//! - Topology: a HyperX (generator or an explicit netlist declaring one). Coordinates are
//!   the routers' `coord`; which port leads where is read from the channels.
//! - `minimal`: dimension order. Each dimension whose coordinate differs is corrected in
//!   one hop, lowest dimension first.
//! - `valiant`: dimension order to an intermediate router, then dimension order to the
//!   destination. The intermediate router is drawn per packet from a hash of the packet
//!   id, uniformly among the routers other than the source and the destination.
//! - `ugal-l`: at the source router, the minimal first hop and the first hop toward the
//!   packet's Valiant router, each carrying its path length; VC allocation takes the one
//!   with the smaller output queue times hops (`pipeline/ugal.rs`).
//!
//! A packet passing its destination router on the way to its intermediate router
//! ejects there.
//!
//! Deadlock freedom: `minimal` needs one VC class, since a hop in dimension `d` only
//! waits on hops in higher dimensions. `valiant` and `ugal-l` use two: class 0 on the way
//! to the intermediate router, class 1 after it (and for the whole of a minimal path).
//! Each class alone is dimension order, and class 0 only waits on class 1, so the channel
//! dependency graph is acyclic; the static check ([`crate::cdg`]) confirms it on each
//! netlist. A class is an even share of a port's VCs.

use super::candidates::eject;
use super::dragonfly::{push_new, share, Variant};
use super::source::path_hash;
use crate::{Candidate, RouteCtx, RouteSet, RoutingFunction, VcRange};
use flitsim_netlist::{Netlist, OutPort, PacketId, RouterId, TerminalId, TERMINAL_PORT};

/// No port: the coordinate is the router's own.
const NO_PORT: u8 = u8::MAX;

/// HyperX routing tables (see the module docs).
#[derive(Clone, Debug)]
pub struct HyperX {
    variant: Variant,
    /// Routers per dimension.
    radix: Vec<u32>,
    /// `offset[d]`: the radices of the dimensions below `d`, summed; `offset[dims]` is
    /// a router's row in `port`.
    offset: Vec<usize>,
    /// `coord[r * dims + d]`.
    coord: Vec<u32>,
    /// `port[r * offset[dims] + offset[d] + j]`: the port of router `r` toward coordinate
    /// `j` of dimension `d`.
    port: Vec<u8>,
    /// `in_dim[r][p]`: the dimension of the channel arriving on input port `p` of `r`.
    in_dim: Vec<Vec<u8>>,
    /// `vcs[r][p]`: VCs of the input port a packet leaving on port `p` of `r` enters.
    vcs: Vec<Vec<u8>>,
    /// `in_vcs[r][p]`: VCs of input port `p` of router `r`.
    in_vcs: Vec<Vec<u8>>,
    terminal_vcs: Vec<u8>,
}

impl HyperX {
    /// Builds the tables of `netlist`, a HyperX of `radix[d]` routers along dimension `d`.
    pub fn new(netlist: &Netlist, radix: &[u32], variant: Variant) -> HyperX {
        let dims = radix.len();
        let offset: Vec<usize> = std::iter::once(0)
            .chain(radix.iter().scan(0, |sum, &k| {
                *sum += k as usize;
                Some(*sum)
            }))
            .collect();
        let row = offset[dims];
        let n = netlist.num_routers();
        let per_port = |f: &dyn Fn(&flitsim_netlist::PortSpec) -> u8| -> Vec<Vec<u8>> {
            netlist
                .routers()
                .map(|r| r.ports.iter().map(f).collect())
                .collect()
        };
        let mut coord = Vec::with_capacity(n * dims);
        for r in netlist.routers() {
            let c = r.coord.clone().unwrap_or_default();
            coord.extend((0..dims).map(|d| c.get(d).copied().unwrap_or(0)));
        }
        let mut x = HyperX {
            variant,
            radix: radix.to_vec(),
            offset,
            coord,
            port: vec![NO_PORT; n * row],
            in_dim: per_port(&|_| 0),
            vcs: per_port(&|_| 0),
            in_vcs: per_port(&|p| p.vcs),
            terminal_vcs: netlist
                .routers()
                .map(|r| r.ports.first().map_or(r.config.vcs, |p| p.vcs))
                .collect(),
        };
        for c in netlist.channels() {
            let (from, to) = (c.from.index(), c.to.index());
            x.vcs[from][c.from_port.index()] = netlist.router(c.to).ports[c.to_port.index()].vcs;
            let Some(d) = (0..dims).find(|&d| x.at(from, d) != x.at(to, d)) else {
                continue;
            };
            x.in_dim[to][c.to_port.index()] = d as u8;
            let j = x.at(to, d) as usize;
            x.port[from * row + x.offset[d] + j] = c.from_port.0;
        }
        x
    }

    /// Coordinate `d` of router `r`.
    fn at(&self, r: usize, d: usize) -> u32 {
        self.coord[r * self.radix.len() + d]
    }

    /// The router a terminal hangs off.
    fn router_of(dest: TerminalId) -> u32 {
        dest.0
    }

    /// VC classes: 1 for `minimal`, 2 for `valiant` and `ugal-l`.
    fn classes(&self) -> u8 {
        if self.variant == Variant::Minimal {
            1
        } else {
            2
        }
    }

    /// The class of the VC a packet arrived on (`None`: injected here).
    fn arrived(&self, ctx: &RouteCtx) -> Option<u8> {
        if ctx.in_port.0 == TERMINAL_PORT {
            return None;
        }
        let vcs = u16::from(self.in_vcs[ctx.router.index()][ctx.in_port.index()]);
        let classes = self.classes();
        Some(
            (0..classes)
                .rev()
                .find(|&k| share(k, classes, vcs) <= u16::from(ctx.in_vc.0))
                .unwrap_or(0),
        )
    }

    /// Candidate `port` of router `r` with the VCs of class `k`.
    fn hop(&self, r: RouterId, port: u8, k: u8) -> Candidate {
        let vcs = u16::from(self.vcs[r.index()][usize::from(port)]);
        let classes = self.classes();
        Candidate {
            port: OutPort(port),
            vcs: VcRange::new(
                share(k, classes, vcs) as u8,
                share(k + 1, classes, vcs) as u8,
            ),
            hops: 0,
        }
    }

    /// The lowest dimension where routers `a` and `b` differ.
    fn first_difference(&self, a: u32, b: u32) -> Option<usize> {
        (0..self.radix.len()).find(|&d| self.at(a as usize, d) != self.at(b as usize, d))
    }

    /// The port of router `r` toward coordinate `j` of dimension `d`.
    fn port_toward(&self, r: u32, d: usize, j: u32) -> u8 {
        let row = self.offset[self.radix.len()];
        self.port[r as usize * row + self.offset[d] + j as usize]
    }

    /// The dimension-order hop of class `k` from `here` toward router `to` (`to` differs).
    fn dor(&self, here: u32, to: u32, k: u8) -> Option<Candidate> {
        let d = self.first_difference(here, to)?;
        let port = self.port_toward(here, d, self.at(to as usize, d));
        Some(self.hop(RouterId(here), port, k))
    }

    /// Router-to-router hops from `a` to `b` in dimension order.
    fn distance(&self, a: u32, b: u32) -> u32 {
        (0..self.radix.len())
            .filter(|&d| self.at(a as usize, d) != self.at(b as usize, d))
            .count() as u32
    }

    /// Whether the dimension-order path from `a` to `b` passes router `x`: `x` agrees with
    /// `b` up to some dimension and with `a` from there on.
    fn passes(&self, a: u32, b: u32, x: u32) -> bool {
        let dims = self.radix.len();
        let (a, b, x) = (a as usize, b as usize, x as usize);
        (0..=dims).any(|k| {
            (0..k).all(|d| self.at(x, d) == self.at(b, d))
                && (k..dims).all(|d| self.at(x, d) == self.at(a, d))
        })
    }

    /// Hops of a Valiant path from `here` through `via` to `dest`, ejecting early when
    /// the first leg passes the destination.
    fn valiant_hops(&self, here: u32, via: u32, dest: u32) -> u32 {
        if self.passes(here, via, dest) {
            self.distance(here, dest)
        } else {
            self.distance(here, via) + self.distance(via, dest)
        }
    }

    /// The Valiant intermediate router of packet `(source, seq)` from router `from` to
    /// router `to`; `None` without a third router.
    fn intermediate(&self, source: u32, seq: u32, from: u32, to: u32) -> Option<u32> {
        let n = self.terminal_vcs.len() as u32;
        if n < 3 {
            return None;
        }
        let mut x = (path_hash(source, seq, RouterId(0)) % u64::from(n - 2)) as u32;
        // The k-th router skipping `from` and `to`, the lower first.
        for skip in [from.min(to), from.max(to)] {
            x += u32::from(x >= skip);
        }
        Some(x)
    }
}

impl HyperX {
    /// The candidates at `ctx` for a packet bound for router `dest` with id `packet`
    /// (`(source terminal, seq)`); `None` routes the union over every intermediate
    /// router (the static check's view).
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
        // The last class: minimal paths and the second Valiant leg.
        let last = self.classes() - 1;
        let src = packet.map_or(here, |(s, _)| Self::router_of(TerminalId(s)));
        let via = packet.and_then(|(s, q)| self.intermediate(s, q, src, dest));
        match (self.variant, self.arrived(ctx)) {
            (Variant::Minimal, _) => out.extend(self.dor(here, dest, 0)),
            (Variant::UgalL, None) => self.ugal(here, dest, packet.is_some(), via, out),
            (Variant::Valiant, None) => match (packet, via) {
                (Some(_), Some(via)) => out.extend(self.dor(here, via, 0)),
                (Some(_), None) => out.extend(self.dor(here, dest, last)),
                (None, _) => self.every_first_hop(here, dest, 0, out),
            },
            (_, Some(0)) => match (packet, via) {
                (Some(_), Some(via)) if via != here => out.extend(self.dor(here, via, 0)),
                (Some(_), _) => out.extend(self.dor(here, dest, last)),
                (None, _) => self.onward(ctx, dest, out),
            },
            (_, Some(_)) => out.extend(self.dor(here, dest, last)),
        }
    }

    /// UGAL at the source router: the minimal first hop, then the first hop toward the
    /// intermediate router (each, without a packet id), each with the hops of its path.
    fn ugal(&self, here: u32, dest: u32, packet: bool, via: Option<u32>, out: &mut RouteSet) {
        if let Some(mut min) = self.dor(here, dest, 1) {
            min.hops = self.distance(here, dest) as u8;
            out.push(min);
        }
        if !packet {
            self.every_first_hop(here, dest, 0, out);
        } else if let Some(mut c) = via.and_then(|x| self.dor(here, x, 0)) {
            c.hops = via.map_or(0, |x| self.valiant_hops(here, x, dest)) as u8;
            out.push(c);
        }
    }

    /// Every first hop of class `k` toward a router other than `here` and `dest`: every
    /// network port, but the one toward `dest` when `dest` is the only router behind it
    /// (a hop in the last dimension).
    fn every_first_hop(&self, here: u32, dest: u32, k: u8, out: &mut RouteSet) {
        let last = self.radix.len() - 1;
        let only_dest = |d: usize, j: u32| {
            d == last
                && self.first_difference(here, dest) == Some(d)
                && self.at(dest as usize, d) == j
        };
        for (d, &radix) in self.radix.iter().enumerate() {
            for j in (0..radix).filter(|&j| j != self.at(here as usize, d)) {
                if !only_dest(d, j) {
                    out.push(self.hop(RouterId(here), self.port_toward(here, d, j), k));
                }
            }
        }
    }

    /// The union for a packet on its first leg without its id: `here` as the intermediate
    /// router (the second leg's first hop), or a hop on toward an intermediate router
    /// that agrees with `here` up to the dimension it arrived on.
    fn onward(&self, ctx: &RouteCtx, dest: u32, out: &mut RouteSet) {
        let here = ctx.router.0;
        out.extend(self.dor(here, dest, 1));
        let arrived = usize::from(self.in_dim[ctx.router.index()][ctx.in_port.index()]);
        for d in arrived + 1..self.radix.len() {
            for j in (0..self.radix[d]).filter(|&j| j != self.at(here as usize, d)) {
                push_new(out, self.hop(ctx.router, self.port_toward(here, d, j), 0));
            }
        }
    }
}

impl RoutingFunction for HyperX {
    fn name(&self) -> &'static str {
        self.variant.name()
    }

    fn vc_classes(&self) -> u8 {
        self.classes()
    }

    fn route(&self, ctx: &RouteCtx, dest: TerminalId, out: &mut RouteSet) {
        self.candidates(ctx, Self::router_of(dest), None, out);
    }

    fn route_packet(&self, ctx: &RouteCtx, dest: TerminalId, packet: PacketId, out: &mut RouteSet) {
        self.candidates(
            ctx,
            Self::router_of(dest),
            Some((packet.source.0, packet.seq)),
            out,
        );
    }
}

#[cfg(test)]
#[path = "hyperx_tests.rs"]
mod tests;
