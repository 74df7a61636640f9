//! The walker: the read-only tables of the uniform walk and the walk by router and by state.

use super::memo::MemoShape;
use super::scratch::Scratch;
use super::sums::UniformSums;
use flitsim_netlist::{
    InPort, Netlist, OutPort, RouterId, Switching, TerminalId, VcId, TERMINAL_PORT,
};
use flitsim_routing::{RouteCtx, RouteSet, RoutingFunction};
use std::ops::Range;

/// What the head spends at a router: the pipeline and the terminal channels.
#[derive(Copy, Clone, Debug)]
struct Stage {
    /// `rd + vd + sd + xd` (less `rd` under lookahead, `vd` under speculation).
    delay: u64,
    /// Terminal latency (injection and ejection channel).
    lt: u32,
    /// 1 when the router stores and forwards.
    saf: u32,
}

/// Where an output port leads: the router at the far end of its channel and the
/// channel's latency; `to` is [`NOWHERE`] for an unconnected port (and the terminal port).
#[derive(Copy, Clone, Debug)]
struct Hop {
    to: u32,
    latency: u32,
}

/// [`Hop::to`] of an unconnected port.
const NOWHERE: u32 = u32::MAX;

/// The read-only tables of [`UniformSums::of_threads`], shared by its workers: petgraph's
/// edge lists folded into flat `(router, output port)` tables, 8 bytes an entry, so that
/// a walk touches little memory.
pub(super) struct Walker<'a> {
    netlist: &'a Netlist,
    routing: &'a dyn RoutingFunction,
    /// By router.
    stage: Vec<Stage>,
    /// `hop[router * ports + out_port]`.
    hop: Vec<Hop>,
    /// `to_port[router * ports + out_port]`: the input port at the far end (read by
    /// [`Walker::sums_by_state`] only).
    to_port: Vec<u8>,
    /// Routers, most ports of any router (the stride of `hop` and `to_port`) and most
    /// VCs of any input port: the sizes of the memo.
    pub(super) shape: MemoShape,
}

impl<'a> Walker<'a> {
    pub(super) fn new(netlist: &'a Netlist, routing: &'a dyn RoutingFunction) -> Walker<'a> {
        let shape = MemoShape::of(netlist);
        let ports = shape.ports;
        let stage = netlist
            .routers()
            .map(|r| {
                let c = &r.config;
                Stage {
                    delay: c.head_latency(),
                    lt: r.terminal_latency,
                    saf: u32::from(c.switching == Switching::Saf),
                }
            })
            .collect();
        let mut hop = vec![
            Hop {
                to: NOWHERE,
                latency: 0,
            };
            netlist.num_routers() * ports
        ];
        let mut to_port = vec![TERMINAL_PORT; hop.len()];
        for r in netlist.routers() {
            for p in 0..ports {
                let Ok(port) = u8::try_from(p) else { break };
                if let Some(ch) = netlist.out_channel(r.id, OutPort(port)) {
                    let ch = netlist.channel(ch);
                    hop[r.id.index() * ports + p] = Hop {
                        to: ch.to.0,
                        latency: ch.latency,
                    };
                    to_port[r.id.index() * ports + p] = ch.to_port.0;
                }
            }
        }
        Walker {
            netlist,
            routing,
            stage,
            hop,
            to_port,
            shape,
        }
    }

    /// The sums over every source and the destinations `dests`, with a memo of its own
    /// ([`Walker::scratch`]).
    pub(super) fn sums(&self, dests: Range<usize>) -> UniformSums {
        let mut scratch = self.scratch();
        if self.routing.is_dimension_order() {
            self.sums_by_router(dests, &mut scratch)
        } else {
            self.sums_by_state(dests, &mut scratch)
        }
    }

    /// A worker's memo and scratch space: its memo by router for a dimension-order
    /// function, else by state ([`MemoShape::entries`]).
    pub(super) fn scratch(&self) -> Scratch {
        Scratch::new(self.shape.entries(self.routing.is_dimension_order()))
    }

    /// Where output `port` of `r` leads (index into `hop` and `to_port`), if connected.
    #[inline(always)]
    fn leads(&self, r: RouterId, port: OutPort) -> Option<(usize, Hop)> {
        let i = r.index() * self.shape.ports + port.index();
        self.hop.get(i).filter(|h| h.to != NOWHERE).map(|&h| (i, h))
    }

    /// A routing function that breaks the contract `build` validated.
    #[cold]
    #[inline(never)]
    fn broken(&self, ctx: &RouteCtx, what: &str) -> ! {
        panic!(
            "routing {} {what} at {} (input port {}, VC {})",
            self.routing.name(),
            ctx.router,
            ctx.in_port,
            ctx.in_vc
        )
    }

    /// [`Walker::sums`] for a dimension-order function. Away from its destination router
    /// a head leaves on [`RoutingFunction::dimension_order_port`] whatever its input port
    /// and VC (the contract of [`RoutingFunction::is_dimension_order`]), and at its
    /// destination router it ejects (the contract of [`RoutingFunction::route`]); the VC
    /// class changes only the VCs taken, which cost nothing at zero load. So the
    /// remaining latency depends on the router alone: one question per (router,
    /// destination), remembered per destination, instead of one per state met.
    /// `scratch` holds a memo by router ([`MemoShape::entries`]).
    pub(super) fn sums_by_router(&self, dests: Range<usize>, scratch: &mut Scratch) -> UniformSums {
        let netlist = self.netlist;
        let n = netlist.num_terminals();
        let mut sums = UniformSums::default();
        for d in dests {
            let dst = TerminalId(d as u32);
            let target = netlist.terminal_router(dst);
            for s in (0..n).filter(|&s| s != d) {
                let src = TerminalId(s as u32);
                let first = netlist.terminal_router(src);
                let (base, saf) = match scratch.recall(first.index(), dst) {
                    Some(rest) => rest,
                    None => self.walk_by_router(first, src, dst, target, scratch),
                };
                sums.pairs += 1;
                sums.base += u64::from(self.stage[first.index()].lt) + base;
                sums.saf += saf;
            }
        }
        sums
    }

    /// Panics when the walk in progress in `scratch` has met more routers than there are:
    /// the routing function loops instead of reaching `dst`.
    fn check_progress(&self, scratch: &Scratch, src: TerminalId, dst: TerminalId) {
        assert!(
            scratch.walk.len() < self.shape.routers,
            "routing {} does not reach {dst} from {src}",
            self.routing.name()
        );
    }

    /// Remaining `(base, saf)` from router `r` toward `dst` (at router `target`), which
    /// `scratch` does not remember: walks on to a remembered router or `target` and
    /// remembers every router met.
    fn walk_by_router(
        &self,
        mut r: RouterId,
        src: TerminalId,
        dst: TerminalId,
        target: RouterId,
        scratch: &mut Scratch,
    ) -> (u64, u64) {
        scratch.walk.clear();
        let mut rest = loop {
            if let Some(rest) = scratch.recall(r.index(), dst) {
                break rest;
            }
            self.check_progress(scratch, src, dst);
            let here = self.stage[r.index()];
            if r == target {
                scratch
                    .walk
                    .push((r.index(), here.delay, u64::from(here.saf)));
                break (u64::from(here.lt), 0);
            }
            let hop = self
                .routing
                .dimension_order_port(r, dst)
                .and_then(|port| self.leads(r, port));
            let Some((_, hop)) = hop else {
                let ctx = RouteCtx {
                    router: r,
                    in_port: InPort(TERMINAL_PORT),
                    in_vc: VcId(0),
                };
                self.broken(
                    &ctx,
                    "has no connected dimension-order port short of the destination",
                );
            };
            let cost = here.delay + u64::from(hop.latency);
            scratch.walk.push((r.index(), cost, u64::from(here.saf)));
            r = RouterId(hop.to);
        };
        scratch.remember_walk(dst, &mut rest);
        rest
    }

    /// [`Walker::sums`] for any routing function: the remaining latency is remembered
    /// per state (router, input port, input VC) met. `scratch` holds a memo by state
    /// ([`MemoShape::entries`]).
    pub(super) fn sums_by_state(&self, dests: Range<usize>, scratch: &mut Scratch) -> UniformSums {
        let netlist = self.netlist;
        let n = netlist.num_terminals();
        let mut sums = UniformSums::default();
        for d in dests {
            let dst = TerminalId(d as u32);
            for s in (0..n).filter(|&s| s != d) {
                let (base, saf) = self.pair(TerminalId(s as u32), dst, scratch);
                sums.pairs += 1;
                sums.base += base;
                sums.saf += saf;
            }
        }
        sums
    }

    /// Moves `ctx` one hop toward `dst` along the first candidate, lowest VC: `None` when
    /// the head ejects (checked to be at `target`), else the memo index of the new state
    /// (one plane of routers per input port and VC) and the latency of the channel
    /// crossed.
    #[inline(always)]
    fn hop(
        &self,
        ctx: &mut RouteCtx,
        dst: TerminalId,
        target: RouterId,
        set: &mut RouteSet,
    ) -> Option<(usize, u64)> {
        self.routing.route(ctx, dst, set);
        let Some(&c) = set.first() else {
            self.broken(ctx, "gave no candidate")
        };
        if self.netlist.router(ctx.router).is_terminal_port(c.port.0) {
            if ctx.router != target {
                self.broken(ctx, "ejected at the wrong router");
            }
            return None;
        }
        let Some((i, hop)) = self.leads(ctx.router, c.port) else {
            self.broken(ctx, "chose an unconnected output port");
        };
        let vc = usize::from(c.vcs.lo);
        if vc >= self.shape.vcs {
            self.broken(ctx, "chose a VC the next input port does not have");
        }
        let in_port = self.to_port[i];
        *ctx = RouteCtx {
            router: RouterId(hop.to),
            in_port: InPort(in_port),
            in_vc: VcId(c.vcs.lo),
        };
        let shape = &self.shape;
        let state = (usize::from(in_port) * shape.vcs + vc) * shape.routers + hop.to as usize;
        Some((state, u64::from(hop.latency)))
    }

    /// `(base, saf)` of the pair `src -> dst` (see [`UniformSums`]), remembering the
    /// states met for `dst` in `scratch`. The injection state is never entered over a
    /// channel, so it is not remembered: the memo starts at the state after it.
    #[inline(always)]
    fn pair(&self, src: TerminalId, dst: TerminalId, scratch: &mut Scratch) -> (u64, u64) {
        let target = self.netlist.terminal_router(dst);
        let mut ctx = RouteCtx {
            router: self.netlist.terminal_router(src),
            in_port: InPort(self.netlist.terminal_port(src)),
            in_vc: VcId(0),
        };
        let at = self.stage[ctx.router.index()];
        let (lt, saf) = (u64::from(at.lt), u64::from(at.saf));
        let Some((st, latency)) = self.hop(&mut ctx, dst, target, &mut scratch.set) else {
            return (2 * lt + at.delay, saf);
        };
        let rest = if let Some(rest) = scratch.recall(st, dst) {
            rest
        } else {
            // Most misses are one state short of a remembered one: take that step here.
            let (first, here) = (st, self.stage[ctx.router.index()]);
            let rest = match self.hop(&mut ctx, dst, target, &mut scratch.set) {
                None => (here.delay + u64::from(here.lt), u64::from(here.saf)),
                Some((st, latency)) => {
                    let rest = match scratch.recall(st, dst) {
                        Some(rest) => rest,
                        None => self.walk_by_state(ctx, st, src, dst, scratch),
                    };
                    (here.delay + latency + rest.0, u64::from(here.saf) + rest.1)
                }
            };
            scratch.remember(first, dst, rest);
            rest
        };
        (lt + at.delay + latency + rest.0, saf + rest.1)
    }

    /// Remaining `(base, saf)` from the state `ctx` (memo index `st`), which `scratch`
    /// does not remember for `dst`: walks on to a remembered state or the ejection and
    /// remembers every state met.
    #[inline(never)]
    fn walk_by_state(
        &self,
        mut ctx: RouteCtx,
        mut st: usize,
        src: TerminalId,
        dst: TerminalId,
        scratch: &mut Scratch,
    ) -> (u64, u64) {
        let target = self.netlist.terminal_router(dst);
        scratch.walk.clear();
        let mut rest = loop {
            if let Some(rest) = scratch.recall(st, dst) {
                break rest;
            }
            self.check_progress(scratch, src, dst);
            let here = self.stage[ctx.router.index()];
            let saf = u64::from(here.saf);
            let Some((next, latency)) = self.hop(&mut ctx, dst, target, &mut scratch.set) else {
                scratch.walk.push((st, here.delay, saf));
                break (u64::from(here.lt), 0);
            };
            scratch.walk.push((st, here.delay + latency, saf));
            st = next;
        };
        scratch.remember_walk(dst, &mut rest);
        rest
    }
}

/// Bytes of the memo one worker of the walk of `netlist` under `routing` allocates (the
/// capacity of [`Walker::scratch`]'s memo), for the tests of [`WalkMemos::bytes`].
#[cfg(test)]
pub(crate) fn worker_memo_bytes(netlist: &Netlist, routing: &dyn RoutingFunction) -> u64 {
    Walker::new(netlist, routing).scratch().memo_bytes()
}
