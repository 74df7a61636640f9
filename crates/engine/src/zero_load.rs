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
//! Both give the integers of [`zero_load_latency_pair`] summed over the pairs (unit tests
//! compare them on every routing function), and the destinations split over threads
//! without changing them.

use flitsim_netlist::{
    InPort, Netlist, OutPort, RouterId, Switching, TerminalId, VcId, TERMINAL_PORT,
};
use flitsim_router::routing::{RouteCtx, RouteSet, RoutingFunction};
use std::ops::Range;

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

/// Fewest destinations worth a worker of [`UniformSums::of_threads`] (a 16x16 torus walks
/// its 256 in about a millisecond, less than starting threads is worth).
const DESTINATIONS_PER_WORKER: usize = 256;

/// Zero-load latencies summed over every ordered pair of distinct terminals, split so the
/// sum for any packet length follows: a pair's latency is `base + (M - 1)(1 + saf)` with
/// `saf` the store-and-forward routers on its route.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct UniformSums {
    /// Pairs counted.
    pub pairs: u64,
    /// Sum of the pairs' latencies of a one-flit packet.
    pub base: u64,
    /// Sum of the pairs' store-and-forward routers.
    pub saf: u64,
}

impl UniformSums {
    /// The sums for `netlist` under `routing`, on one thread.
    ///
    /// # Panics
    /// As [`zero_load_route`], for a broken routing function.
    pub fn of(netlist: &Netlist, routing: &dyn RoutingFunction) -> UniformSums {
        UniformSums::of_threads(netlist, routing, 1)
    }

    /// The sums for `netlist` under `routing`, the destinations split over up to
    /// `threads` workers (at most one per 256 destinations; 0 counts as 1). The sums are
    /// integers, so they are the same for any `threads`.
    ///
    /// Cost: per destination, the remaining latency of every router or state met is
    /// remembered, so each source's walk stops at the first one seen before (see the
    /// module docs); a routing function is asked about every pair at least once, so this
    /// is O(pairs) with a small constant: about 11 ns a pair on one core for a
    /// dimension-order function (3 s for the 268 M pairs of a 128x128 torus), about three
    /// times that for others. The sums are the same integers as adding
    /// [`zero_load_latency_pair`] over all pairs.
    ///
    /// Memory: each worker has its own memo, 16 bytes per router for a dimension-order
    /// function and per (router, input port, input VC) for others (`WalkMemos`, which
    /// the memory estimate counts).
    ///
    /// # Panics
    /// As [`zero_load_route`], for a broken routing function.
    pub fn of_threads(
        netlist: &Netlist,
        routing: &dyn RoutingFunction,
        threads: usize,
    ) -> UniformSums {
        let workers = workers_of_threads(threads, netlist.num_terminals());
        UniformSums::of_workers(netlist, routing, workers)
    }

    /// [`UniformSums::of_threads`] with exactly `workers` workers (0 counts as 1), each
    /// taking a contiguous range of destinations.
    fn of_workers(netlist: &Netlist, routing: &dyn RoutingFunction, workers: usize) -> UniformSums {
        let walker = Walker::new(netlist, routing);
        let n = netlist.num_terminals();
        let workers = running_workers(workers, n);
        if workers == 1 {
            return walker.sums(0..n);
        }
        let chunk = n.div_ceil(workers);
        let walker = &walker;
        let parts: Vec<UniformSums> = crossbeam::thread::scope(|scope| {
            let handles: Vec<_> = (0..workers)
                .map(|i| {
                    let dests = (i * chunk).min(n)..((i + 1) * chunk).min(n);
                    scope.spawn(move |_| walker.sums(dests))
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
                .collect()
        })
        .unwrap_or_else(|e| std::panic::resume_unwind(e));
        parts
            .into_iter()
            .fold(UniformSums::default(), |a, b| UniformSums {
                pairs: a.pairs + b.pairs,
                base: a.base + b.base,
                saf: a.saf + b.saf,
            })
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

/// The workers [`UniformSums::of_threads`] runs for `threads` asked on `terminals`
/// destinations: at most one per [`DESTINATIONS_PER_WORKER`] destinations, then as
/// [`running_workers`].
fn workers_of_threads(threads: usize, terminals: usize) -> usize {
    running_workers(threads.min(terminals / DESTINATIONS_PER_WORKER), terminals)
}

/// The workers [`UniformSums::of_workers`] runs for `workers` asked on `terminals`
/// destinations: at least 1, at most one per destination.
fn running_workers(workers: usize, terminals: usize) -> usize {
    workers.clamp(1, terminals.max(1))
}

/// The memos the uniform walk ([`UniformSums::of_threads`]) allocates, one per worker,
/// each sized by [`MemoShape::entries`]: what the memory estimate counts for the walk.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct WalkMemos {
    /// Workers, each with its own memo.
    pub workers: usize,
    /// The netlist's routers, ports and VCs.
    pub shape: MemoShape,
    /// The routing function is dimension-order: a memo by router, else by state.
    pub dimension_order: bool,
}

impl WalkMemos {
    /// Bytes of a memo entry.
    pub const ENTRY_BYTES: u64 = std::mem::size_of::<Memo>() as u64;

    /// The memos of the walk of `netlist` with `threads` asked (as
    /// [`UniformSums::of_threads`]), under a routing function that is dimension-order
    /// ([`RoutingFunction::is_dimension_order`]) or not. Costs O(routers + ports).
    pub fn of(netlist: &Netlist, dimension_order: bool, threads: usize) -> WalkMemos {
        WalkMemos {
            workers: workers_of_threads(threads, netlist.num_terminals()),
            shape: MemoShape::of(netlist),
            dimension_order,
        }
    }

    /// Entries of one worker's memo.
    pub fn entries(&self) -> usize {
        self.shape.entries(self.dimension_order)
    }

    /// Bytes of all the memos: workers x entries x [`WalkMemos::ENTRY_BYTES`] (16).
    pub fn bytes(&self) -> u64 {
        (self.workers as u64)
            .saturating_mul(self.entries() as u64)
            .saturating_mul(WalkMemos::ENTRY_BYTES)
    }
}

/// The sizes a walk's memo follows, which are also the strides of [`Walker`]'s tables.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct MemoShape {
    /// Routers: the memo by router, one plane of the memo by state.
    pub routers: usize,
    /// Most ports of any router (at least 1): the stride of [`Walker`]'s
    /// `(router, output port)` tables, and the memo by state's input ports.
    pub ports: usize,
    /// Most VCs of any input port (at least 1): the memo by state's VCs per input port.
    pub vcs: usize,
}

impl MemoShape {
    /// The shape of `netlist`.
    pub fn of(netlist: &Netlist) -> MemoShape {
        let ports = netlist
            .routers()
            .map(|r| r.ports.len())
            .max()
            .unwrap_or(1)
            .max(1);
        let vcs = netlist
            .routers()
            .flat_map(|r| r.ports.iter().map(|p| usize::from(p.vcs)))
            .max()
            .unwrap_or(1)
            .max(1);
        MemoShape {
            routers: netlist.num_routers(),
            ports,
            vcs,
        }
    }

    /// Entries of a memo by router ([`Walker::sums_by_router`]): one per router.
    fn by_router(&self) -> usize {
        self.routers
    }

    /// Entries of a memo by state ([`Walker::sums_by_state`]): one per (router, input
    /// port, input VC), a plane of routers per input port and VC.
    fn by_state(&self) -> usize {
        self.routers
            .saturating_mul(self.ports)
            .saturating_mul(self.vcs)
    }

    /// Entries of one worker's memo under a routing function that is dimension-order or
    /// not: by router or by state, as [`Walker::sums`] chooses.
    pub fn entries(&self, dimension_order: bool) -> usize {
        if dimension_order {
            self.by_router()
        } else {
            self.by_state()
        }
    }
}

/// What the head spends at a router: the pipeline and the terminal channels.
#[derive(Copy, Clone, Debug)]
struct Stage {
    /// `rd + vd + sd + xd`.
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

/// Remaining `(base, saf)` from a router or state to the ejection, valid while `stamp`
/// is the current destination's.
#[derive(Copy, Clone, Debug)]
struct Memo {
    stamp: u32,
    saf: u32,
    base: u64,
}

/// The read-only tables of [`UniformSums::of_threads`], shared by its workers: petgraph's
/// edge lists folded into flat `(router, output port)` tables, 8 bytes an entry, so that
/// a walk touches little memory.
struct Walker<'a> {
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
    shape: MemoShape,
}

/// One worker's memo and scratch space.
struct Scratch {
    /// By router ([`Walker::sums_by_router`]) or by state ([`Walker::sums_by_state`]).
    memo: Vec<Memo>,
    /// The memo indices of the walk in progress with their own `(base, saf)`.
    walk: Vec<(usize, u64, u64)>,
    set: RouteSet,
}

impl<'a> Walker<'a> {
    fn new(netlist: &'a Netlist, routing: &'a dyn RoutingFunction) -> Walker<'a> {
        let shape = MemoShape::of(netlist);
        let ports = shape.ports;
        let stage = netlist
            .routers()
            .map(|r| {
                let c = &r.config;
                Stage {
                    delay: u64::from(
                        c.routing_delay
                            + c.vc_alloc_delay
                            + c.switch_alloc_delay
                            + c.crossbar_delay,
                    ),
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
    fn sums(&self, dests: Range<usize>) -> UniformSums {
        let mut scratch = self.scratch();
        if self.routing.is_dimension_order() {
            self.sums_by_router(dests, &mut scratch)
        } else {
            self.sums_by_state(dests, &mut scratch)
        }
    }

    /// A worker's memo and scratch space: its memo by router for a dimension-order
    /// function, else by state ([`MemoShape::entries`]).
    fn scratch(&self) -> Scratch {
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
    fn sums_by_router(&self, dests: Range<usize>, scratch: &mut Scratch) -> UniformSums {
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
    fn sums_by_state(&self, dests: Range<usize>, scratch: &mut Scratch) -> UniformSums {
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
        if c.port.0 == TERMINAL_PORT {
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
            in_port: InPort(TERMINAL_PORT),
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

impl Scratch {
    /// Bytes its memo holds on the heap (its capacity).
    #[cfg(test)]
    fn memo_bytes(&self) -> u64 {
        (self.memo.capacity() * std::mem::size_of::<Memo>()) as u64
    }

    /// A memo of `states` routers or states, none remembered.
    fn new(states: usize) -> Scratch {
        let memo = Memo {
            stamp: u32::MAX,
            saf: 0,
            base: 0,
        };
        Scratch {
            memo: vec![memo; states],
            walk: Vec::new(),
            set: RouteSet::new(),
        }
    }

    /// The `(base, saf)` remembered for memo index `st` toward `dst`, if any.
    #[inline(always)]
    fn recall(&self, st: usize, dst: TerminalId) -> Option<(u64, u64)> {
        let m = self.memo[st];
        (m.stamp == dst.0).then_some((m.base, u64::from(m.saf)))
    }

    /// Remembers `(base, saf)` for memo index `st` toward `dst`.
    #[inline(always)]
    fn remember(&mut self, st: usize, dst: TerminalId, (base, saf): (u64, u64)) {
        self.memo[st] = Memo {
            stamp: dst.0,
            saf: u32::try_from(saf).expect("at most one per router"),
            base,
        };
    }

    /// Adds the walk's entries to `rest`, last first, remembering each sum.
    fn remember_walk(&mut self, dst: TerminalId, rest: &mut (u64, u64)) {
        for i in (0..self.walk.len()).rev() {
            let (st, base, saf) = self.walk[i];
            *rest = (rest.0 + base, rest.1 + saf);
            self.remember(st, dst, *rest);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use flitsim_netlist::topology::{hypercube, mesh, ring, torus};
    use flitsim_netlist::{Dir, RoutingKind, Topology};
    use flitsim_router::routing::{Candidate, VcRange};

    /// A ring routing whose port depends on the input VC: the first hop goes Plus on VC
    /// 1 from even routers and on VC 2 from odd ones; a head on VC 1 keeps going Plus, on
    /// VC 2 it turns Minus. Heads toward one destination thus meet the same input port
    /// on both VCs and leave it on different ports (the memo must tell states by VC).
    struct ByVc {
        /// `ports[r]`: the (Plus, Minus) output ports of router r.
        ports: Vec<(u8, u8)>,
    }

    impl RoutingFunction for ByVc {
        fn name(&self) -> &'static str {
            "by-vc"
        }

        fn vc_classes(&self) -> u8 {
            3
        }

        fn route(&self, ctx: &RouteCtx, dest: TerminalId, out: &mut RouteSet) {
            out.clear();
            let r = ctx.router;
            if r.0 == dest.0 {
                out.push(Candidate {
                    port: OutPort(TERMINAL_PORT),
                    vcs: VcRange::new(0, 1),
                });
                return;
            }
            let (plus, minus) = self.ports[r.index()];
            let (port, vc) = if ctx.in_port.0 == TERMINAL_PORT {
                (plus, 1 + (r.0 % 2) as u8)
            } else if ctx.in_vc.0 == 1 {
                (plus, 1)
            } else {
                (minus, 2)
            };
            out.push(Candidate {
                port: OutPort(port),
                vcs: VcRange::new(vc, vc + 1),
            });
        }
    }

    /// The sums of `zero_load_latency_pair` over every ordered pair of distinct
    /// terminals, for packets of `length` flits: the straightforward per-pair walk.
    fn pair_by_pair(n: &Netlist, f: &dyn RoutingFunction, length: u32) -> u64 {
        let t = n.num_terminals() as u32;
        let mut sum = 0;
        for s in 0..t {
            for d in (0..t).filter(|&d| d != s) {
                sum += zero_load_latency_pair(n, f, TerminalId(s), TerminalId(d), length);
            }
        }
        sum
    }

    /// Delays and latencies that differ from router to router and from channel to
    /// channel, and a store-and-forward router every fifth.
    fn varied(mut n: Netlist) -> Netlist {
        n.name = format!("varied {}", n.name);
        for r in 0..n.num_routers() as u32 {
            let spec = n.router_mut(RouterId(r));
            spec.terminal_latency = 1 + (r * 7) % 3;
            spec.config.routing_delay = r % 2;
            spec.config.crossbar_delay = 1 + (r * 5) % 4;
            if r % 5 == 2 {
                spec.config.switching = Switching::Saf;
            }
        }
        for (i, c) in n.graph.edge_weights_mut().enumerate() {
            c.latency = 1 + (i as u32 * 13) % 5;
        }
        n
    }

    /// `n` with its generator geometry dropped (routed by tables only).
    fn explicit(mut n: Netlist) -> Netlist {
        n.name = format!("explicit {}", n.name);
        n.topology = Topology::Explicit;
        for r in 0..n.num_routers() as u32 {
            n.router_mut(RouterId(r)).coord = None;
        }
        n
    }

    /// Every way of computing the sums (by router for the dimension-order family, by
    /// state for any function, with 1 to 4 workers) gives the integers of routing every
    /// pair from scratch, on uniform and varied delays, every switching mode and the
    /// routing functions of every family (dimension order, adaptive with escape VCs,
    /// turn models, tables and source routes on a netlist without geometry).
    #[test]
    fn uniform_sums_equal_the_pairs_summed_one_by_one() {
        let mut saf = torus(&[3, 3]);
        saf.set("switching", "saf").unwrap();
        saf.set("channel_latency", "2").unwrap();
        let mut nbc = varied(torus(&[5, 3]));
        nbc.set("vcs", "6").unwrap();
        let mut vct = mesh(&[3, 3]);
        vct.set("switching", "vct").unwrap();
        vct.set("terminal_latency", "3").unwrap();
        let cases = [
            (torus(&[4, 4]), RoutingKind::Dor),
            (torus(&[5, 3]), RoutingKind::Dor),
            (torus(&[2, 3, 4]), RoutingKind::Dor),
            (ring(7), RoutingKind::Dor),
            (mesh(&[4, 3]), RoutingKind::Dor),
            (hypercube(4), RoutingKind::Dor),
            (torus(&[4, 5]), RoutingKind::DorNoDateline),
            (saf, RoutingKind::Dor),
            (vct, RoutingKind::Dor),
            (varied(torus(&[5, 4])), RoutingKind::Dor),
            (varied(mesh(&[4, 4])), RoutingKind::Dor),
            (varied(hypercube(4)), RoutingKind::Dor),
            (hypercube(4), RoutingKind::Pcube),
            (varied(hypercube(3)), RoutingKind::Pcube),
            (torus(&[4, 4]), RoutingKind::Duato),
            (nbc, RoutingKind::DuatoNbc),
            (torus(&[4, 4]), RoutingKind::Quaglia),
            (mesh(&[4, 3]), RoutingKind::WestFirst),
            (varied(mesh(&[4, 3])), RoutingKind::NorthLast),
            (mesh(&[3, 2, 3]), RoutingKind::NegativeFirst),
            (explicit(torus(&[3, 4])), RoutingKind::Table),
            (explicit(varied(mesh(&[4, 3]))), RoutingKind::Source),
        ];
        for (n, kind) in cases {
            let f = flitsim_router::routing::build(kind, &n)
                .unwrap_or_else(|e| panic!("{kind:?} on {}: {e}", n.name));
            let what = format!("{} on {}", f.name(), n.name);
            let sums = UniformSums::of(&n, f.as_ref());
            let any_saf = n.routers().any(|r| r.config.switching == Switching::Saf);
            assert_eq!(sums.saf > 0, any_saf, "{what}");
            let t = n.num_terminals() as u64;
            assert_eq!(sums.pairs, t * (t - 1), "{what}");
            for len in [1, 2, 7] {
                assert_eq!(
                    sums.total(len),
                    pair_by_pair(&n, f.as_ref(), len),
                    "{what}, {len}"
                );
            }
            let walker = Walker::new(&n, f.as_ref());
            let all = 0..n.num_terminals();
            let mut by_state = Scratch::new(walker.shape.by_state());
            let by_state = walker.sums_by_state(all.clone(), &mut by_state);
            assert_eq!(by_state, sums, "{what}: by state");
            if f.is_dimension_order() {
                let mut by_router = Scratch::new(walker.shape.by_router());
                let by_router = walker.sums_by_router(all, &mut by_router);
                assert_eq!(by_router, sums, "{what}: by router");
            }
            for workers in 2..=4 {
                let split = UniformSums::of_workers(&n, f.as_ref(), workers);
                assert_eq!(split, sums, "{what}: {workers} workers");
            }
        }
    }

    /// The memo tells states apart by input VC: a routing function that leaves one
    /// input port on different ports depending on the VC still gives the per-pair sums.
    #[test]
    fn uniform_sums_follow_a_route_that_depends_on_the_vc() {
        for n in [ring(6), varied(ring(7))] {
            let ports = n
                .routers()
                .map(|r| {
                    let p = |dir| r.port_toward(0, dir).expect("a ring port");
                    (p(Dir::Plus), p(Dir::Minus))
                })
                .collect();
            let f = ByVc { ports };
            let sums = UniformSums::of(&n, &f);
            for len in [1, 4] {
                assert_eq!(sums.total(len), pair_by_pair(&n, &f, len), "{}", n.name);
            }
            // from router 3 the head goes Plus on VC 2 and turns back at router 4
            let route = zero_load_route(&n, &f, TerminalId(3), TerminalId(1));
            let visited: Vec<u32> = route.routers.iter().map(|r| r.0).collect();
            assert_eq!(visited, [3, 4, 3, 2, 1], "{}", n.name);
        }
    }
}
