//! Assembly: turns a [`Netlist`] into partitions of flat per-id vectors the cycle loop
//! indexes directly. petgraph is used here and in the watchdog, never in the cycle loop.
//!
//! Partitions are contiguous id ranges (router `i` and terminal `i` together). Global
//! channel order (`Network::wires`, `Network::ends`): router-to-router channels first
//! (index = `ChannelId`), then one injection channel per terminal (terminal -> router input
//! port 0), then one ejection channel per terminal (router output port 0 -> terminal).
//! Injection and ejection channels have the router's `terminal_latency`. Each channel's
//! forward side lives in its upstream component's partition, its reverse side in its
//! downstream component's ([`crate::channel`]).

use crate::calendar::Calendar;
use crate::channel::{Line, Lines, WakeSpot, Wakes};
use crate::cycle::Status;
use crate::error::ConfigError;
use crate::rng::{self, ComponentKind};
use crate::terminal::{Terminal, TerminalConfig};
use crate::traffic::TrafficPattern;
use flitsim_netlist::{BufferDepth, InPort, Netlist, OutPort, RouterId, TerminalId, TERMINAL_PORT};
use flitsim_router::routing::{self, kind_name, RoutingFunction, RoutingMismatch};
use flitsim_router::{Credit, Flit, OutputPortSpec, Reset, Router};
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, RwLock};

/// Where one channel side lives: the partition that writes it and its line there.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct LineRef {
    pub part: u32,
    pub line: Line,
}

/// A port without a channel.
pub(crate) const NO_LINE: LineRef = LineRef {
    part: u32::MAX,
    line: Line::NONE,
};

/// Whom an item sent on a line wakes: the reader partition and the component's spot in
/// its wake-ups (a router's local index, or [`Wakes::terminal_base`] + a terminal's, and
/// what arrives, as a mask: the router's [`arrival_bit`], or [`TERMINAL_FLIT`] or
/// [`TERMINAL_CREDIT`] for a terminal).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct WakeRef {
    pub part: u32,
    pub spot: WakeSpot,
}

/// Routers with more ports than this read every line when woken (their arrival mask
/// cannot name each port).
pub(crate) const MASK_PORTS: usize = 32;

/// The bit of a router's arrival mask for a flit on input port `p` (`credit`: false) or
/// a credit or reset for output port `p` (true). Bit 31 / 63 stand for every port from
/// [`MASK_PORTS`] - 1 on.
pub(crate) fn arrival_bit(p: usize, credit: bool) -> u32 {
    p.min(MASK_PORTS - 1) as u32 + if credit { 32 } else { 0 }
}

/// A terminal's arrival mask bit for a flit on its ejection channel.
pub(crate) const TERMINAL_FLIT: u64 = 1;

/// A terminal's arrival mask bit for a credit or a reset on its injection channel's
/// reverse side.
pub(crate) const TERMINAL_CREDIT: u64 = 2;

/// A port without a channel: nobody to wake.
pub(crate) const NO_WAKE: WakeRef = WakeRef {
    part: u32::MAX,
    spot: WakeSpot::NONE,
};

/// Where an output side of a port writes: its own line and whom an item on it wakes (one
/// entry, so phase 2 looks both up at once).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Outlet {
    pub line: Line,
    pub wake: WakeRef,
}

/// A port without a channel.
pub(crate) const NO_OUTLET: Outlet = Outlet {
    line: Line::NONE,
    wake: NO_WAKE,
};

/// One side of a router port's channel as the router meets it: the line it reads (the far
/// end's side of the channel), the line it writes (its own side) and the far end's spot in
/// the wake-ups, with the partition of the far end (which holds the line read and is
/// woken by what is written). The two sides of a channel share that partition and the
/// latency, so one entry serves both (a port without a channel: [`NO_LINE`] and
/// [`NO_OUTLET`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Side {
    read: Line,
    write: Line,
    part: u32,
    wake: WakeSpot,
}

impl Side {
    /// The side of a channel read as `src` and written as `to` (the partition `src`
    /// lies in is the one `to` wakes, or both are missing).
    fn new(src: LineRef, to: Outlet) -> Side {
        debug_assert_eq!(src.part, to.wake.part, "two far ends for one channel");
        Side {
            read: src.line,
            write: to.line,
            part: src.part,
            wake: to.wake.spot,
        }
    }

    /// The line read.
    #[inline(always)]
    pub fn src(&self) -> LineRef {
        LineRef {
            part: self.part,
            line: self.read,
        }
    }

    /// The line written and whom it wakes.
    #[inline(always)]
    pub fn outlet(&self) -> Outlet {
        Outlet {
            line: self.write,
            wake: WakeRef {
                part: self.part,
                spot: self.wake,
            },
        }
    }
}

/// The channels of one router port: its input side (flits read from the forward side
/// feeding it, credits and resets written on that channel's reverse side, which is the
/// router's own) and its output side (credits read from the reverse side of its channel,
/// flits written on that channel's forward side, the router's own; for the ejection port,
/// the terminal is woken).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct PortWires {
    pub input: Side,
    pub output: Side,
}

/// Ports of a router whose channels its node holds inline ([`PortTable`]).
pub(crate) const NEAR_PORTS: usize = 8;

/// The channels of a router's ports ([`PortWires`], by port): the first [`NEAR_PORTS`]
/// inline in the router's node (a step finds them without following a pointer), the
/// others of a wider router on the heap.
pub(crate) struct PortTable {
    near: [PortWires; NEAR_PORTS],
    far: Box<[PortWires]>,
    len: usize,
}

impl PortTable {
    /// The table of `wires` (by port).
    pub fn new(wires: &[PortWires]) -> PortTable {
        let none = PortWires {
            input: Side::new(NO_LINE, NO_OUTLET),
            output: Side::new(NO_LINE, NO_OUTLET),
        };
        let mut near = [none; NEAR_PORTS];
        let n = wires.len().min(NEAR_PORTS);
        near[..n].copy_from_slice(&wires[..n]);
        PortTable {
            near,
            far: wires[n..].into(),
            len: wires.len(),
        }
    }

    /// The channels of port `p`.
    #[inline(always)]
    pub fn get(&self, p: usize) -> &PortWires {
        debug_assert!(p < self.len, "port {p} of a router of {} ports", self.len);
        match self.near.get(p) {
            Some(w) => w,
            None => self.far_port(p),
        }
    }

    /// The channels of port `p` from [`NEAR_PORTS`] on (out of the step's straight path).
    #[cold]
    #[inline(never)]
    fn far_port(&self, p: usize) -> &PortWires {
        &self.far[p - NEAR_PORTS]
    }

    /// Every port's channels, by port.
    pub fn iter(&self) -> impl Iterator<Item = &PortWires> + '_ {
        self.near[..self.len.min(NEAR_PORTS)]
            .iter()
            .chain(self.far.iter())
    }
}

/// A router with its channel map and (for a router with more ports than the arrival masks
/// cover) its inbox; what it writes stays inside it until phase 2 reads it
/// ([`Router::flits_out`], [`Router::credits_out`]).
pub(crate) struct RouterNode {
    pub router: Router,
    /// The channels of each port, read on every step.
    pub wires: PortTable,
    /// Inbox of a router wider than the masks (`cycle::read_all`); others get their
    /// inputs from the lines by reference (`cycle::step_arrived`).
    pub flits_in: Box<[Option<Flit>]>,
    pub credits_in: Box<[Option<Credit>]>,
    /// Timeout resets written this cycle, by input port.
    pub resets_out: Box<[Option<Reset>]>,
    /// VCs of each input port (conservation checks).
    pub in_vcs: Box<[u8]>,
    /// FIFO depth of each input port's VCs, `None` = unbounded (conservation checks).
    pub in_depth: Box<[Option<u32>]>,
    /// VCs of the ejection port.
    pub ejection_vcs: u8,
}

/// A terminal with its two channels and its outbox.
pub(crate) struct TerminalNode {
    pub terminal: Terminal,
    /// Forward side of the ejection channel (written by the router).
    pub flit_src: LineRef,
    /// Reverse side of the injection channel (written by the router).
    pub credit_src: LineRef,
    /// Own forward line (the injection channel) and the router input it wakes.
    pub flit_to: Outlet,
    /// Own reverse line (the ejection channel) and the router output it wakes.
    pub credit_to: Outlet,
    pub flit_out: Option<Flit>,
    pub credit_out: Option<Credit>,
    /// Trace events of this cycle (`None`: tracing off).
    pub trace: Option<Vec<crate::trace::TerminalEvent>>,
}

/// The components of one partition (ids `lo..lo + routers.len()`), owned by its worker.
pub(crate) struct Nodes {
    /// Index of the partition.
    pub part: usize,
    pub lo: usize,
    pub routers: Vec<RouterNode>,
    pub terminals: Vec<TerminalNode>,
    /// Bit set of the local routers to step next cycle: the ones not quiescent after
    /// their last step; phase 1 adds the ones something arrives for.
    pub pending: Vec<u64>,
    /// Bit set of the local terminals something arrives for this cycle (the others find
    /// nothing on their lines).
    pub arriving: Vec<u64>,
    /// Per local terminal, what arrives this cycle ([`TERMINAL_FLIT`],
    /// [`TERMINAL_CREDIT`]), padded as `arrivals`; unused by a partition alone on lines of
    /// one latency, as `arrivals`.
    pub terminal_arrivals: Vec<u64>,
    /// Bit set of the local terminals to step next cycle even if nothing arrives: the
    /// ones not idle after their last step (all of them while tracing), and the ones the
    /// calendar names for the cycle.
    pub busy: Vec<u64>,
    /// Idle local terminals by the cycle they must step at (their next generation, or
    /// the end of their drawn trials: [`crate::terminal::Terminal::look_ahead`]).
    pub calendar: Calendar,
    /// Bit set of the local terminals stepped this cycle (their outboxes are written in
    /// phase 2; a partition alone has sent them already).
    pub stepped_terminals: Vec<u64>,
    /// Per local router, the lines something arrives on this cycle ([`arrival_bit`]): a
    /// woken router reads only those (padded to a multiple of 64 entries, one per bit of
    /// the router bit sets). Unused by a partition alone on lines of one latency: it
    /// takes them where the wake-ups lie (`Wakes::take_and_wake`).
    pub arrivals: Vec<u64>,
    /// Bit set of the local routers stepped this cycle (phase 2 copies what they wrote
    /// onto their lines; a partition alone has sent it already).
    pub stepped: Vec<u64>,
    /// The status's flit counters summed at the start of this cycle (did a flit move?).
    pub moved_before: u64,
    /// Counters of this partition, published in phase 2.
    pub status: Status,
    /// Trace events of this partition (`None`: tracing off).
    pub trace: Option<crate::trace::PartTrace>,
    /// The latency of every line when all have the same (every channel's and every
    /// router's `terminal_latency`): what is sent in one cycle is all due in one.
    pub latency: Option<u32>,
    /// Some router of the partition has more ports than the arrival masks cover
    /// ([`MASK_PORTS`]).
    pub wide: bool,
}

/// The channel sides a partition writes (phase 2) and everyone reads (phase 1), and the
/// partition's published counters.
#[derive(Default)]
pub(crate) struct Outbound {
    pub flits: Lines<Flit>,
    pub credits: Lines<Credit>,
    /// Timeout resets on reverse sides, laid out as `credits` (the same [`Line`]s; empty
    /// when no router has a timeout).
    pub resets: Lines<Reset>,
    /// Wake-ups for each reader partition (by partition index).
    pub wakes: Vec<Wakes>,
    pub status: Status,
}

/// One partition. The locks only hand out phase-specific access: they are taken with
/// `try_lock`/`try_read`/`try_write` and never contended (a failure is a phase bug).
pub(crate) struct Part {
    pub nodes: Mutex<Nodes>,
    pub lines: RwLock<Outbound>,
}

/// Message of every lock failure: the phases overlap.
pub(crate) const PHASE_BUG: &str = "partition lock contended: phase discipline broken";

/// Where a channel starts and ends (for conservation checks and reports).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct ChannelEnds {
    /// Upstream router and output port (`None`: a terminal injects).
    pub from: Option<(RouterId, OutPort)>,
    /// Downstream router and input port (`None`: a terminal consumes).
    pub to: Option<(RouterId, InPort)>,
}

/// Netlist names for messages: router names and input-port names.
#[derive(Clone, Debug, Default)]
pub(crate) struct Names {
    pub routers: Vec<String>,
    pub ports: Vec<Vec<String>>,
}

impl Names {
    /// `r3.east vc1`.
    pub fn vc(&self, r: RouterId, p: InPort, vc: flitsim_netlist::VcId) -> String {
        format!(
            "{}.{} vc{}",
            self.routers[r.index()],
            self.ports[r.index()][p.index()],
            vc.0
        )
    }
}

/// The assembled network: partitions of contiguous ids, and what never changes.
pub(crate) struct Network {
    pub parts: Vec<Part>,
    /// Partition `p` holds ids `bounds[p]..bounds[p + 1]`.
    pub bounds: Vec<usize>,
    /// Forward and reverse side of every channel, by global channel index (see the
    /// module docs for the order).
    pub wires: Vec<(LineRef, LineRef)>,
    pub ends: Vec<ChannelEnds>,
    pub names: Names,
    /// Some router has a timeout: resets travel on channels' reverse sides.
    pub resets: bool,
}

impl Network {
    /// Number of routers (= terminals).
    pub fn len(&self) -> usize {
        *self.bounds.last().unwrap_or(&0)
    }

    /// The partition holding id `i`.
    pub fn part_of(&self, i: usize) -> usize {
        self.bounds.partition_point(|&b| b <= i) - 1
    }
}

/// Partition bounds: `parts` contiguous ranges of `n` ids, sizes differing by at most one.
pub(crate) fn bounds(n: usize, parts: usize) -> Vec<usize> {
    let parts = parts.clamp(1, n.max(1));
    (0..=parts).map(|p| p * n / parts).collect()
}

/// The routing functions a netlist's routers use, one per distinct kind. Built once,
/// before the memory check (which sizes the zero-load latency walk by router 0's), and
/// shared by [`assemble`] and the walk.
pub(crate) struct RoutingFunctions {
    /// By `RoutingKind as u8`.
    by_kind: BTreeMap<u8, Arc<dyn RoutingFunction>>,
    /// Router 0's (the zero-load latency walk's); `None` without routers.
    first: Option<Arc<dyn RoutingFunction>>,
}

impl RoutingFunctions {
    /// Builds the routing functions of `netlist`'s routers.
    ///
    /// # Errors
    /// `ConfigError::Routing` for a routing function that does not fit `netlist`.
    pub fn build(netlist: &Netlist) -> Result<RoutingFunctions, ConfigError> {
        let mut by_kind: BTreeMap<u8, Arc<dyn RoutingFunction>> = BTreeMap::new();
        for r in netlist.routers() {
            let key = r.config.routing as u8;
            if by_kind.contains_key(&key) {
                continue;
            }
            let f = routing::build(r.config.routing, netlist)
                .map_err(|e| routing_error(netlist, r.config.routing, &e))?;
            by_kind.insert(key, f);
        }
        let first = netlist
            .routers()
            .next()
            .map(|r| Arc::clone(&by_kind[&(r.config.routing as u8)]));
        Ok(RoutingFunctions { by_kind, first })
    }

    /// Router 0's routing function (the zero-load latency walk's); `None` without routers.
    pub fn first(&self) -> Option<&Arc<dyn RoutingFunction>> {
        self.first.as_ref()
    }
}

fn routing_error(
    netlist: &Netlist,
    kind: flitsim_netlist::RoutingKind,
    e: &RoutingMismatch,
) -> ConfigError {
    ConfigError::Routing {
        routing: kind_name(kind).to_string(),
        netlist: netlist.name.clone(),
        mismatch: e.clone(),
    }
}

/// Assembles `netlist` with its routing functions `routings` (built from it), terminals
/// configured by `tc` and destinations from `pattern`, split into `parts` partitions of
/// contiguous ids.
pub(crate) fn assemble(
    netlist: &Netlist,
    routings: &RoutingFunctions,
    tc: &TerminalConfig,
    pattern: &Arc<dyn TrafficPattern>,
    seed: u64,
    parts: usize,
) -> Network {
    let n = netlist.num_routers();
    let c = netlist.num_channels();
    let bounds = bounds(n, parts);
    let nparts = bounds.len() - 1;
    let part_of = |i: usize| bounds.partition_point(|&b| b <= i) - 1;
    let latencies = || {
        netlist
            .channels()
            .map(|ch| ch.latency)
            .chain(netlist.routers().map(|r| r.terminal_latency))
    };
    let max_latency = latencies().max().unwrap_or(1);
    let latency = (latencies().min() == Some(max_latency)).then_some(max_latency);
    let mut outbound: Vec<Outbound> = (0..nparts)
        .map(|_| Outbound {
            wakes: (0..nparts)
                .map(|q| Wakes::new(max_latency, bounds[q + 1] - bounds[q]))
                .collect(),
            ..Outbound::default()
        })
        .collect();
    let mut wires = Vec::with_capacity(c + 2 * n);
    let mut ends = Vec::with_capacity(c + 2 * n);
    // Forward side with the upstream partition, reverse side with the downstream one.
    let resets = netlist.routers().any(|r| r.config.timeout > 0);
    // (upstream, downstream, latency) of channels, injection and ejection channels, in
    // the order they are wired below; each arena is reserved once at its exact size.
    let sides: Vec<(usize, usize, u32)> = netlist
        .channels()
        .map(|ch| (ch.from.index(), ch.to.index(), ch.latency))
        .chain((0..2).flat_map(|_| {
            netlist
                .routers()
                .map(|r| (r.id.index(), r.id.index(), r.terminal_latency))
        }))
        .collect();
    for (p, out) in outbound.iter_mut().enumerate() {
        let of = |pick: fn(&(usize, usize, u32)) -> usize| {
            sides
                .iter()
                .filter(move |s| part_of(pick(s)) == p)
                .map(|s| s.2)
        };
        out.flits.reserve_exact(of(|s| s.0));
        out.credits.reserve_exact(of(|s| s.1));
        if resets {
            out.resets.reserve_exact(of(|s| s.1));
        }
    }
    let mut wire = |up: usize, down: usize, latency: u32| {
        let f = outbound[part_of(up)].flits.push(latency);
        let r = outbound[part_of(down)].credits.push(latency);
        if resets {
            let same = outbound[part_of(down)].resets.push(latency);
            debug_assert_eq!(same, r, "resets and credits laid out alike");
        }
        (
            LineRef {
                part: part_of(up) as u32,
                line: f,
            },
            LineRef {
                part: part_of(down) as u32,
                line: r,
            },
        )
    };
    for ch in netlist.channels() {
        wires.push(wire(ch.from.index(), ch.to.index(), ch.latency));
        ends.push(ChannelEnds {
            from: Some((ch.from, ch.from_port)),
            to: Some((ch.to, ch.to_port)),
        });
    }
    for r in netlist.routers() {
        wires.push(wire(r.id.index(), r.id.index(), r.terminal_latency));
        ends.push(ChannelEnds {
            from: None,
            to: Some((r.id, InPort(TERMINAL_PORT))),
        });
    }
    for r in netlist.routers() {
        wires.push(wire(r.id.index(), r.id.index(), r.terminal_latency));
        ends.push(ChannelEnds {
            from: Some((r.id, OutPort(TERMINAL_PORT))),
            to: None,
        });
    }
    let injection = |r: usize| wires[c + r];
    let ejection = |r: usize| wires[c + n + r];

    // Every writer's wake-ups for reader partition `p` are laid out alike.
    let readers = &outbound[0].wakes;
    // Whom an item for router `r`'s place wakes: the router, for an arrival bit, or its
    // terminal, for a mask.
    enum Reader {
        Router(u32),
        Terminal(u64),
    }
    let wake_of = |r: RouterId, what: Reader| {
        let p = part_of(r.index());
        let local = (r.index() - bounds[p]) as u32;
        let w = &readers[p];
        WakeRef {
            part: p as u32,
            spot: match what {
                Reader::Router(bit) => w.spot(local, 1 << bit),
                Reader::Terminal(mask) => w.spot(w.terminal_base() + local, mask),
            },
        }
    };
    let mut nodes: Vec<Nodes> = (0..nparts)
        .map(|p| Nodes {
            part: p,
            lo: bounds[p],
            routers: Vec::with_capacity(bounds[p + 1] - bounds[p]),
            terminals: Vec::with_capacity(bounds[p + 1] - bounds[p]),
            pending: vec![0; (bounds[p + 1] - bounds[p]).div_ceil(64)],
            arriving: vec![0; (bounds[p + 1] - bounds[p]).div_ceil(64)],
            busy: vec![0; (bounds[p + 1] - bounds[p]).div_ceil(64)],
            calendar: Calendar::new(bounds[p + 1] - bounds[p]),
            stepped_terminals: vec![0; (bounds[p + 1] - bounds[p]).div_ceil(64)],
            arrivals: vec![0; (bounds[p + 1] - bounds[p]).div_ceil(64) * 64],
            terminal_arrivals: vec![0; (bounds[p + 1] - bounds[p]).div_ceil(64) * 64],
            stepped: vec![0; (bounds[p + 1] - bounds[p]).div_ceil(64)],
            moved_before: 0,
            status: Status::default(),
            trace: None,
            latency,
            wide: false,
        })
        .collect();
    let mut names = Names::default();
    for spec in netlist.routers() {
        let i = spec.id.index();
        let ports = spec.ports.len();
        let mut flit_src = vec![NO_LINE; ports];
        let mut credit_src = vec![NO_LINE; ports];
        let mut flit_to = vec![NO_OUTLET; ports];
        let mut credit_to = vec![NO_OUTLET; ports];
        flit_src[0] = injection(i).0;
        credit_to[0] = Outlet {
            line: injection(i).1.line,
            wake: wake_of(spec.id, Reader::Terminal(TERMINAL_CREDIT)),
        };
        flit_to[0] = Outlet {
            line: ejection(i).0.line,
            wake: wake_of(spec.id, Reader::Terminal(TERMINAL_FLIT)),
        };
        credit_src[0] = ejection(i).1;
        let mut outputs = Vec::with_capacity(ports);
        outputs.push(OutputPortSpec {
            downstream_vcs: spec.config.vcs,
            downstream_depth: BufferDepth::Unbounded,
        });
        for p in 1..ports {
            if let Some(ch) = netlist.in_channel(spec.id, InPort(p as u8)) {
                let (f, r) = wires[ch.index()];
                flit_src[p] = f;
                let ch = netlist.channel(ch);
                credit_to[p] = Outlet {
                    line: r.line,
                    wake: wake_of(
                        ch.from,
                        Reader::Router(arrival_bit(ch.from_port.index(), true)),
                    ),
                };
            }
            match netlist.out_channel(spec.id, OutPort(p as u8)) {
                Some(ch) => {
                    let (f, r) = wires[ch.index()];
                    credit_src[p] = r;
                    let ch = netlist.channel(ch);
                    flit_to[p] = Outlet {
                        line: f.line,
                        wake: wake_of(
                            ch.to,
                            Reader::Router(arrival_bit(ch.to_port.index(), false)),
                        ),
                    };
                    let down = &netlist.router(ch.to).ports[ch.to_port.index()];
                    outputs.push(OutputPortSpec {
                        downstream_vcs: down.vcs,
                        downstream_depth: down.buffer_depth,
                    });
                }
                None => outputs.push(OutputPortSpec {
                    downstream_vcs: 0,
                    downstream_depth: BufferDepth::Flits(1),
                }),
            }
        }
        let routing = Arc::clone(&routings.by_kind[&(spec.config.routing as u8)]);
        let router = Router::new(
            spec,
            outputs,
            routing,
            rng::stream_seed(seed, ComponentKind::Router, spec.id.0),
        );
        let mut router = router;
        if resets {
            router.enable_resets();
        }
        let part = &mut nodes[part_of(i)];
        part.wide |= ports > MASK_PORTS;
        let wires: Vec<PortWires> = (0..ports)
            .map(|p| PortWires {
                input: Side::new(flit_src[p], credit_to[p]),
                output: Side::new(credit_src[p], flit_to[p]),
            })
            .collect();
        part.routers.push(RouterNode {
            router,
            wires: PortTable::new(&wires),
            flits_in: vec![None; ports].into_boxed_slice(),
            credits_in: vec![None; ports].into_boxed_slice(),
            resets_out: vec![None; ports].into_boxed_slice(),
            in_vcs: spec.ports.iter().map(|p| p.vcs).collect(),
            in_depth: spec.ports.iter().map(|p| p.buffer_depth.flits()).collect(),
            ejection_vcs: spec.config.vcs,
        });
        let local = &spec.ports[TERMINAL_PORT as usize];
        let t = TerminalId(spec.id.0);
        part.terminals.push(TerminalNode {
            terminal: Terminal::new(
                t,
                tc,
                Arc::clone(pattern),
                rng::stream(seed, ComponentKind::Terminal, t.0),
                local.vcs,
                local.buffer_depth,
            ),
            flit_src: ejection(i).0,
            credit_src: injection(i).1,
            flit_to: Outlet {
                line: injection(i).0.line,
                wake: wake_of(
                    spec.id,
                    Reader::Router(arrival_bit(TERMINAL_PORT.into(), false)),
                ),
            },
            credit_to: Outlet {
                line: ejection(i).1.line,
                wake: wake_of(
                    spec.id,
                    Reader::Router(arrival_bit(TERMINAL_PORT.into(), true)),
                ),
            },
            flit_out: None,
            credit_out: None,
            trace: None,
        });
        names.routers.push(spec.name.clone());
        names
            .ports
            .push(spec.ports.iter().map(|p| p.name.clone()).collect());
    }
    let parts = nodes
        .into_iter()
        .zip(outbound)
        .map(|(nodes, lines)| Part {
            nodes: Mutex::new(nodes),
            lines: RwLock::new(lines),
        })
        .collect();
    Network {
        parts,
        bounds,
        wires,
        ends,
        names,
        resets,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Distinct channels for port `p` (lines of a test arena, wake spots of a test reader).
    fn wires(p: usize, flits: &mut Lines<Flit>, credits: &mut Lines<Credit>) -> PortWires {
        let wakes = Wakes::new(1, 64);
        let side = |read: Line, write: Line, part: u32, id: u32| Side {
            read,
            write,
            part,
            wake: wakes.spot(id, 1 << (p % 64)),
        };
        let latency = p as u32 % 3 + 1;
        PortWires {
            input: side(
                flits.push(latency),
                credits.push(latency),
                p as u32,
                2 * p as u32,
            ),
            output: side(credits.push(latency), flits.push(latency), p as u32 + 1, 3),
        }
    }

    #[test]
    fn a_port_table_finds_every_port_of_narrow_and_wide_routers() {
        let (mut flits, mut credits) = (Lines::default(), Lines::default());
        for ports in [1, 5, NEAR_PORTS, NEAR_PORTS + 1, 40] {
            let all: Vec<PortWires> = (0..ports)
                .map(|p| wires(p, &mut flits, &mut credits))
                .collect();
            let table = PortTable::new(&all);
            for (p, w) in all.iter().enumerate() {
                assert_eq!(table.get(p), w, "port {p} of {ports}");
            }
            assert!(table.iter().eq(all.iter()), "{ports} ports");
        }
    }

    #[test]
    fn a_side_reads_and_writes_the_lines_of_its_channel() {
        let (mut flits, mut credits) = (Lines::<Flit>::default(), Lines::<Credit>::default());
        let (f, r) = (flits.push(2), credits.push(2));
        let wake = WakeRef {
            part: 3,
            spot: Wakes::new(2, 10).spot(7, 1 << 33),
        };
        let side = Side::new(LineRef { part: 3, line: f }, Outlet { line: r, wake });
        assert_eq!(side.src(), LineRef { part: 3, line: f });
        assert_eq!(side.outlet(), Outlet { line: r, wake });
    }
}
