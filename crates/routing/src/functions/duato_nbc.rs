//! Duato-Nbc (paper 001: Safaei, Khonsari, Fathy, Ould-Khaoua, ICCS 2007, section 2):
//! Duato's methodology with V1 fully adaptive VCs and V2 escape VCs managed by
//! negative-hop routing with bonus cards (Boppana and Chalasani's negative-hop scheme,
//! "A framework for designing deadlock-free wormhole routing algorithms", IEEE TPDS 7(2),
//! 1996; the bonus cards of Gravano et al.'s "Nbc").
//!
//! - Topology: `torus` (any number of dimensions), `ring`, `mesh`. Needs coordinates.
//! - Labels and negative hops: router `u` has label `(sum of its coordinates) mod 2`. A
//!   hop `u -> v` is *positive* when it goes from label 0 to label 1 and *negative*
//!   otherwise (on tori with even radices and on meshes the labels alternate along every
//!   path, so every other hop is negative; the wrap-around hop of an odd ring joins two
//!   routers of the same label and counts as negative). `maxneg(v, t)` = the most
//!   negative hops any minimal path from `v` to `t` takes (computed by dynamic programming
//!   at build time).
//! - VCs: escape VCs `0..V2` (VC `i` = escape class `i`), adaptive VCs `V2..V` (V1 of
//!   them). With `adaptive_vcs = 0` (automatic) `V2` is the number of classes needed,
//!   `1 + max maxneg` (5 on an 8x8 torus, `ceil(D/2) + 1` with the diameter `D` on even
//!   tori, as `flitsim_analysis::papers::p001_safaei::escape_vcs_needed`), and every other
//!   VC is adaptive; with `adaptive_vcs = V1` the escape VCs are `V - V1`. Needed: `V2 + 1`.
//! - Route: adaptive candidates on every minimal port (VCs `V2..V`), then escape
//!   candidates on every minimal port (negative-hop routing is itself fully adaptive).
//!   Escape classes a hop `u -> v` toward `t` may use, our reading of the bonus cards:
//!   at most `hi = V2 - 1 - maxneg(v, t)` (enough classes stay above for the negative hops
//!   still to come: the paper's "V2 - ceil(Delta/2) + 1 VCs of the deadlock-free class"
//!   for Delta hops left, counted exactly from the labels instead of bounded by
//!   `ceil(Delta/2)`); at least the class the packet holds, plus one when the hop is
//!   negative (classes never go down, and go up on every negative hop). A packet injected
//!   by its terminal starts from class 0 (its bonus card: it may use any class up to `hi`).
//!   A packet arriving on an adaptive VC does not know the classes it used before, so it
//!   may only use `hi` (the highest class, which is at least any class it held earlier
//!   plus the negative hops since).
//! - Deadlock freedom (Duato's theorem): order escape VCs by (class, label of the channel's
//!   downstream router). A direct or indirect (through adaptive VCs) dependency from class
//!   `c` to class `c'` has `c' >= c + (negative hops in between, the last hop included)`,
//!   because `hi` rises by exactly one per negative hop along a minimal path; with
//!   `c' == c` every hop in between is positive, so the downstream label goes from 0 to 1.
//!   Every dependency therefore goes up the order: the extended channel dependency graph is
//!   acyclic (the static check verifies it), and the escape sub-function is connected as
//!   long as `hi >= 0`, i.e. `V2 >= 1 + max maxneg`. Its adaptive VCs are allocated
//!   atomically, like every Duato-style function's (see [`super::duato_minimal`]). On mesh-8x8 labels
//!   alternate along every path, so a minimal path of the diameter, 14 hops, makes 7
//!   negative hops: 8 escape classes, 9 VCs with the adaptive one.

use super::candidates::eject;
use super::duato_minimal::split;
use crate::table_size::table;
use crate::{Candidate, Geometry, RouteCtx, RouteSet, RoutingFunction, RoutingMismatch, VcRange};
use flitsim_netlist::{OutPort, RouterId, RoutingKind, TerminalId, TERMINAL_PORT};

/// Duato-Nbc (see the module docs).
#[derive(Clone, Debug)]
pub struct DuatoNbc {
    geo: Geometry,
    /// `maxneg[v * n + t]`.
    maxneg: Vec<u8>,
    /// Routers.
    n: usize,
    /// `neighbor[(r * dims + d) * 2 + dir]`: router across that port (`u32::MAX`: none).
    neighbor: Vec<u32>,
    /// Escape VCs `0..escape`.
    escape: u8,
    /// Fewer escape VCs than classes needed (`deadlock_check = "warn"`): a packet that
    /// runs out of classes stays on the highest one.
    short: bool,
    classes: u8,
}

fn label(geo: &Geometry, r: RouterId) -> u32 {
    (0..geo.dims).map(|d| geo.coord(r, d)).sum::<u32>() % 2
}

fn negative(geo: &Geometry, u: RouterId, v: RouterId) -> bool {
    !(label(geo, u) == 0 && label(geo, v) == 1)
}

impl DuatoNbc {
    /// Over the geometry of a torus, ring or mesh netlist (`netlist` gives the neighbours);
    /// `adaptive_vcs` as in the router config; `min_vcs` the fewest VCs of any network port.
    ///
    /// # Errors
    /// [`RoutingMismatch::TablesTooLarge`] when its table cannot be allocated.
    pub fn new(
        geo: Geometry,
        netlist: &flitsim_netlist::Netlist,
        adaptive_vcs: u8,
        min_vcs: u8,
        short: bool,
    ) -> Result<DuatoNbc, RoutingMismatch> {
        let n = netlist.num_routers();
        let dims = geo.dims;
        let mut neighbor = vec![u32::MAX; n * dims * 2];
        for r in netlist.routers() {
            for d in 0..dims {
                for (i, dir) in [flitsim_netlist::Dir::Plus, flitsim_netlist::Dir::Minus]
                    .into_iter()
                    .enumerate()
                {
                    if let Some(p) = geo.try_port(r.id, d, dir) {
                        if let Some(c) = netlist.out_channel(r.id, OutPort(p)) {
                            neighbor[(r.id.index() * dims + d) * 2 + i] = netlist.channel(c).to.0;
                        }
                    }
                }
            }
        }
        let mut f = DuatoNbc {
            geo,
            maxneg: table(RoutingKind::DuatoNbc, n * n, 0)?,
            n,
            neighbor,
            escape: 0,
            short: false,
            classes: 0,
        };
        // Dynamic programming per destination, routers in increasing distance.
        for t in 0..n {
            let there = RouterId(t as u32);
            let mut order: Vec<(u32, usize)> = (0..n)
                .map(|u| (f.distance(RouterId(u as u32), there), u))
                .collect();
            order.sort_unstable();
            for &(dist, u) in &order {
                if dist == 0 {
                    continue;
                }
                let here = RouterId(u as u32);
                let mut best = 0u8;
                f.for_each_minimal(here, there, |_, v| {
                    let m = u8::from(negative(&f.geo, here, v)) + f.maxneg[v.index() * n + t];
                    best = best.max(m);
                });
                f.maxneg[u * n + t] = best;
            }
        }
        let needed = 1 + f.maxneg.iter().copied().max().unwrap_or(0);
        let (escape, classes) = split(needed, adaptive_vcs, min_vcs, short);
        f.escape = escape;
        f.short = escape < needed;
        f.classes = classes;
        Ok(f)
    }

    /// Minimal hop count from `a` to `b` (sum over dimensions).
    fn distance(&self, a: RouterId, b: RouterId) -> u32 {
        (0..self.geo.dims)
            .map(|d| {
                let (x, y) = (self.geo.coord(a, d), self.geo.coord(b, d));
                let k = self.geo.radix[d];
                let diff = x.abs_diff(y);
                if self.geo.wraps {
                    diff.min(k - diff)
                } else {
                    diff
                }
            })
            .sum()
    }

    /// Calls `visit(port, next router)` for every minimal port of `here` toward `there`.
    fn for_each_minimal(
        &self,
        here: RouterId,
        there: RouterId,
        mut visit: impl FnMut(u8, RouterId),
    ) {
        for d in 0..self.geo.dims {
            for dir in self.geo.minimal_dirs(here, there, d).into_iter().flatten() {
                let port = self.geo.port(here, d, dir);
                let i = match dir {
                    flitsim_netlist::Dir::Plus => 0,
                    flitsim_netlist::Dir::Minus => 1,
                };
                let v = self.neighbor[(here.index() * self.geo.dims + d) * 2 + i];
                visit(port, RouterId(v));
            }
        }
    }

    /// Escape VCs needed with automatic `adaptive_vcs`: `1 + max maxneg`.
    pub fn escape_classes_needed(&self) -> u8 {
        1 + self.maxneg.iter().copied().max().unwrap_or(0)
    }
}

impl RoutingFunction for DuatoNbc {
    fn name(&self) -> &'static str {
        "duato-nbc"
    }

    fn vc_classes(&self) -> u8 {
        self.classes
    }

    fn route(&self, ctx: &RouteCtx, dest: TerminalId, out: &mut RouteSet) {
        out.clear();
        let (here, there) = (ctx.router, RouterId(dest.0));
        if here == there {
            out.push(eject(self.geo.terminal_vcs(here)));
            return;
        }
        // Adaptive candidates first (selection prefers them), then the escape ones.
        self.for_each_minimal(here, there, |port, _| {
            let vcs = self.geo.out_vcs(here, port);
            if vcs > self.escape {
                out.push(Candidate {
                    port: OutPort(port),
                    vcs: VcRange::new(self.escape, vcs),
                    hops: 0,
                });
            }
        });
        let held = (ctx.in_port.0 != TERMINAL_PORT).then_some(ctx.in_vc.0);
        self.for_each_minimal(here, there, |port, v| {
            let hi =
                (self.escape - 1).saturating_sub(self.maxneg[v.index() * self.n + there.index()]);
            let lo = match held {
                None => 0,
                Some(c) if c < self.escape => c + u8::from(negative(&self.geo, here, v)),
                Some(_) => hi,
            };
            let lo = if self.short { lo.min(hi) } else { lo };
            if lo <= hi {
                out.push(Candidate {
                    port: OutPort(port),
                    vcs: VcRange::new(lo, hi + 1),
                    hops: 0,
                });
            }
        });
    }

    fn escape_vcs(&self) -> Option<u8> {
        Some(self.escape)
    }

    fn dimension_order_port(&self, router: RouterId, dest: TerminalId) -> Option<OutPort> {
        self.geo.dor_port(router, RouterId(dest.0)).map(OutPort)
    }
}

#[cfg(test)]
mod tests {
    use crate::testutil::*;
    use crate::{build, cdg, RouteCtx, RouteSet, RoutingMismatch};
    use flitsim_netlist::{topology, InPort, RouterId, RoutingKind, TerminalId, VcId};

    #[test]
    fn escape_classes_match_paper_001() {
        // ceil(D/2) + 1 on even k x k tori (D = k): paper 001's count.
        for k in [4u32, 6, 8] {
            let n = torus(&[k, k], 16);
            let f = build(RoutingKind::DuatoNbc, &n).unwrap();
            let needed = (k as u8).div_ceil(2) + 1;
            assert_eq!(f.escape_vcs(), Some(needed), "k = {k}");
            assert_eq!(f.vc_classes(), needed + 1);
        }
        assert!(matches!(
            build(RoutingKind::DuatoNbc, &topology::torus(&[8, 8])),
            Err(RoutingMismatch::TooFewVcs {
                needed: 6,
                have: 4,
                ..
            })
        ));
    }

    #[test]
    fn minimal_and_escape_acyclic() {
        for n in [
            torus(&[4, 4], 4),
            torus(&[5, 5], 6),
            torus(&[6], 5),
            torus(&[3, 4], 6),
            mesh(&[4, 4], 6),
            torus(&[8, 8], 6),
        ] {
            let f = build(RoutingKind::DuatoNbc, &n).unwrap_or_else(|e| panic!("{}: {e}", n.name));
            assert_minimal(f.as_ref(), &n);
            assert_eq!(
                cdg::dependency_cycle(f.as_ref(), &n).unwrap(),
                None,
                "{:?}",
                n.topology
            );
        }
        // V1 = 2 of 8 on a 4x4 torus: 6 escape VCs, bonus cards of up to 3 classes.
        let mut n = torus(&[4, 4], 8);
        n.set("adaptive_vcs", "2").unwrap();
        let f = build(RoutingKind::DuatoNbc, &n).unwrap();
        assert_eq!(f.escape_vcs(), Some(6));
        assert_minimal(f.as_ref(), &n);
        assert_eq!(cdg::dependency_cycle(f.as_ref(), &n).unwrap(), None);
    }

    #[test]
    fn injected_packets_hold_bonus_cards() {
        // 8x8 torus, V2 = 5: from r0 (label 0) to r1 (label 1), one positive hop, no
        // negative hop left: classes 0..=4 all allowed at injection.
        let n = torus(&[8, 8], 6);
        let f = build(RoutingKind::DuatoNbc, &n).unwrap();
        let mut set = RouteSet::new();
        let inj = RouteCtx {
            router: RouterId(0),
            in_port: InPort(0),
            in_vc: VcId(0),
        };
        f.route(&inj, TerminalId(1), &mut set);
        let esc: Vec<(u8, u8)> = set
            .iter()
            .filter(|c| c.vcs.hi <= 5)
            .map(|c| (c.vcs.lo, c.vcs.hi))
            .collect();
        assert_eq!(esc, vec![(0, 5)]);
        // From r0 to r(4 + 8*4) (distance 8, both dimensions tied): after the first
        // (positive) hop 7 hops remain, 4 of them negative: only class 0.
        f.route(&inj, TerminalId(4 + 8 * 4), &mut set);
        let esc: Vec<(u8, u8)> = set
            .iter()
            .filter(|c| c.vcs.hi <= 5)
            .map(|c| (c.vcs.lo, c.vcs.hi))
            .collect();
        assert_eq!(esc, vec![(0, 1); 4]);
    }
}
