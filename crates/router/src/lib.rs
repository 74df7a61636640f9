//! flitsim-router: one input-queued virtual-channel router (its routing functions are
//! `flitsim_routing`'s).
//!
//! ```text
//!            ┌──────────────────────── Router ─────────────────────────┐
//!  flits_in ─┼─> input FIFOs ─> RC ─rd─> VA ─vd─> SA ─sd─> crossbar ─xd─┼─> flits_out
//!  (by InPort)   (per VC)     routing   output  port    (one flit per   │  (by OutPort)
//!            │                function  VCs     match   in/out port)    │
//! credits_in ┼─> credit counters per downstream VC (used by VA and SA)  │
//!  (by OutPort)                     credits of departed flits ─cd───────┼─> credits_out
//!            └──────────────────────────────────────────────────────────┘  (by InPort)
//! ```
//!
//! Key types: [`Router`] (built from a netlist [`flitsim_netlist::RouterSpec`], stepped
//! once per cycle: [`Router::begin_step`], the credits and flits delivered, then
//! [`Router::finish_step`]), [`OutputPortSpec`] (what each output drives),
//! the [`flitsim_routing::RoutingFunction`] it is built with, the watchdog's
//! [`VcWait`], and [`RouterStats`]. The stages live in [`pipeline`], one file each, with
//! the timing contract in [`pipeline`]'s docs: a head read at cycle t leaves at
//! t + rd + vd + sd + xd; body flits follow one per cycle.
//!
//! ```
//! use flitsim_netlist::{BufferDepth, Cycle, Dir, InPort, Netlist, OutPort, PortSpec,
//!     RouterConfig, RouterId, RouterSpec, TerminalId, Topology, VcId};
//! use flitsim_router::{Flit, FlitKind, OutputPortSpec, PacketId, Router, Stamp, StepScratch};
//! use flitsim_routing as routing;
//!
//! // A 2-router ring: r0.east -> r1.west and back.
//! let mut net = Netlist::new("pair", Topology::Ring { n: 2 });
//! for i in 0..2u32 {
//!     let port = |name: &str, d| PortSpec { name: name.into(), direction: d, vcs: 2,
//!                                           buffer_depth: BufferDepth::Flits(4) };
//!     net.add_router(RouterSpec { id: RouterId(i), name: format!("r{i}"),
//!         coord: Some(vec![i]), config: RouterConfig { vcs: 2, ..Default::default() },
//!         ports: vec![port("local", None), port("east", Some((0, Dir::Plus))),
//!                     port("west", Some((0, Dir::Minus)))],
//!         terminal_latency: 1, terminals: 1 });
//! }
//! for (a, b) in [(0, 1), (1, 0)] {
//!     net.add_channel(RouterId(a), OutPort(1), RouterId(b), InPort(2), 1);
//!     net.add_channel(RouterId(b), OutPort(2), RouterId(a), InPort(1), 1);
//! }
//! let f = routing::build(flitsim_netlist::RoutingKind::Dor, &net).unwrap();
//! let spec = net.router(RouterId(0));
//! let outputs = (0..3).map(|_| OutputPortSpec { downstream_vcs: 2,
//!     downstream_depth: BufferDepth::Flits(4) }).collect();
//! let mut r = Router::new(spec, outputs, f, 7);
//!
//! // Inject a one-flit packet for terminal 1 at cycle 0; default delays are 1 each.
//! let flit = Flit { packet: PacketId { source: TerminalId(0), seq: 0 }, index: 0, len: 1,
//!     kind: FlitKind::HeadTail, vc: VcId(0), dest: TerminalId(1), created: Stamp(0),
//!     injected: Stamp(0), hops: 0 };
//! let mut sent = None;
//! let mut scratch = StepScratch::new();
//! for t in 0..6 {
//!     r.begin_step(Cycle(t));
//!     if t == 0 {
//!         r.receive_flit(Cycle(t), InPort(0), &flit);
//!     }
//!     r.finish_step(Cycle(t), &mut scratch);
//!     for (o, f) in r.flits_out() {
//!         if o == OutPort(1) { sent = Some((t, f.hops)); }
//!     }
//! }
//! assert_eq!(sent, Some((4, 1))); // rd + vd + sd + xd = 4, one hop east
//! ```
#![warn(missing_docs)]

pub mod alloc;
pub mod arbiter;
pub mod buffer;
pub mod channel_times;
pub mod config;
pub mod flit;
pub mod mask;
pub mod occupancy;
pub mod output_vc;
pub mod pipeline;
pub mod probe;
mod readout;
pub mod reset;
pub mod stats;
mod timeout;
pub mod vc_state;
mod wait;

pub use config::RouterConfig;
pub use flit::{Credit, Flit, FlitKind, Stamp};
pub use flitsim_netlist::PacketId;
pub use pipeline::switch_alloc::StepScratch;
pub use reset::{Reset, ResetStats};
pub use stats::RouterStats;
pub use wait::{VcWait, WaitReason};

use buffer::InputBuffer;
use config::{BufferDepth, Delays};
use flitsim_netlist::{Cycle, InPort, OutPort, RouterId, RouterSpec};
use flitsim_routing::{self as routing, RoutingFunction};
use output_vc::OutputVcState;
use pipeline::credit_return::CreditReturn;
use pipeline::crossbar::Crossbar;
use pipeline::route_compute::RouteCompute;
use pipeline::switch_alloc::SwitchAlloc;
use pipeline::vc_alloc::VcAlloc;
use pipeline::{Layout, Layouts, RouterState};
use rand::SeedableRng;
use std::sync::Arc;
use vc_state::VcPhase;

/// What one output port drives: the downstream input port's VC count and depth.
/// Index 0 is the ejection port (the router's `vcs` VCs, `Unbounded`); a port without a
/// channel has `downstream_vcs = 0` and is never routed to.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct OutputPortSpec {
    /// VCs of the downstream input port.
    pub downstream_vcs: u8,
    /// Depth of each downstream VC FIFO (credits per VC).
    pub downstream_depth: BufferDepth,
}

/// One input-queued virtual-channel router (see the crate docs). `repr(C)` and aligned to
/// a cache line, in this order: the flags every step tests and the trace buffer, the
/// crossbar and credit return, the pipeline state (its per-step fields first), the
/// stages, then what only timeouts and the statistics read; so the fields a step touches
/// share few lines.
#[derive(Debug)]
#[repr(C, align(64))]
pub struct Router {
    /// Tracing is on or the reset trail is kept: a flit delivered may have to be discarded
    /// and every input recorded, so inputs take the watched path
    /// ([`Router::latch_flit_watched`]); otherwise a flit or a credit delivered pays this
    /// one test for both.
    inputs_watched: bool,
    /// Tracing is on or the router has a timeout: its steps take the watched path
    /// ([`Router::finish_step_watched`]); otherwise a step pays this one test for both.
    step_watched: bool,
    /// The routing function is dimension-order ([`RoutingFunction::is_dimension_order`]):
    /// every head leaving on a network port takes the reference port, no need to ask.
    dimension_order: bool,
    /// Trace events of the steps since the last `take_trace` (`None`: tracing off; boxed so
    /// that the per-stage checks for `None` test one pointer).
    #[allow(clippy::box_collection)]
    trace: Option<Box<Vec<probe::RouterEvent>>>,
    crossbar: Crossbar,
    credit_return: CreditReturn,
    state: RouterState,
    rc: RouteCompute,
    va: VcAlloc,
    sa: SwitchAlloc,
    resets: reset::ResetState,
    /// Heads sent on network ports with a dimension-order reference port, and those of
    /// them sent on another port (counted here only when the routing function is not
    /// dimension-order; see [`Router::stats`]).
    adaptive: stats::AdaptiveHops,
}

/// Tags mixed into the router's seed for the random streams of its VC and switch
/// allocators (`pim`), apart from the selection function's stream.
const VA_ALLOC_STREAM: u64 = 0x7661_5f61_6c6c_6f63; // "va_alloc"
const SA_ALLOC_STREAM: u64 = 0x7361_5f61_6c6c_6f63; // "sa_alloc"

impl Router {
    /// Bytes [`Router::new`] allocates per VC outside the input FIFOs, computed without
    /// allocating: each of `in_vcs` input VCs' state and route candidates (inline up to
    /// [`routing::ROUTE_INLINE`]; a longer route's heap room comes with it), and each of
    /// `out_vcs` downstream VCs' credit state and occupancy counters. The allocators'
    /// state, which grows faster, is [`Router::allocator_bytes`].
    pub fn vc_state_bytes(in_vcs: usize, out_vcs: usize) -> u64 {
        use std::mem::size_of;
        // The occupancy counters' port of each output VC, kept for a debug check.
        const PORT_OF: usize = if cfg!(debug_assertions) { 1 } else { 0 };
        (in_vcs * (size_of::<vc_state::InputVcState>() + size_of::<routing::RouteSet>())
            + out_vcs * (size_of::<output_vc::OutputVcState>() + 2 * size_of::<u32>() + PORT_OF))
            as u64
    }

    /// Bytes [`Router::new`] allocates for its bookkeeping beside the per-VC state of
    /// [`Router::vc_state_bytes`], for input ports with `in_vcs` VCs each and output ports
    /// whose downstream sides have `out_vcs` VCs each: the port/VC layout, the per-port
    /// occupancy counters, the reset markers, queues and output VC holders (only with
    /// `resets`: some router of the network has a timeout), and the input VC phase masks.
    /// The port/VC layout, shared by the routers of equal VC counts, is
    /// [`Layout::bytes`], once per distinct layout.
    pub fn bookkeeping_bytes(in_vcs: &[u8], out_vcs: &[u8], resets: bool) -> u64 {
        use std::mem::size_of;
        let total = |vcs: &[u8]| vcs.iter().map(|&v| usize::from(v)).sum::<usize>();
        let (vin, vout) = (total(in_vcs), total(out_vcs));
        let (pin, pout) = (in_vcs.len(), out_vcs.len());
        let occupancy = pout * (occupancy::ChannelOccupancy::PORT_BYTES + size_of::<u32>());
        let resets = if resets {
            (vin + vout) * size_of::<Option<PacketId>>()
                + pin * size_of::<std::collections::VecDeque<Reset>>()
        } else {
            0
        };
        let masks = 3 * mask::words(vin) * size_of::<u64>();
        (occupancy + resets + masks) as u64
    }

    /// Bytes [`Router::new`] allocates for VC and switch allocation under `config`, for a
    /// router whose input ports have `in_vcs` VCs each and whose output ports' downstream
    /// sides have `out_vcs` VCs each (the counts [`Router::new`] reads from its spec and
    /// outputs), computed without allocating ([`VcAlloc::bytes`], [`SwitchAlloc::bytes`]).
    /// VA's allocator matrices grow with the square of the router's
    /// VCs (input VCs x output VCs over all ports), and with matrix arbiters (one per
    /// input VC over the output VCs, and one per output VC over the input VCs) with the
    /// cube.
    pub fn allocator_bytes(config: &RouterConfig, in_vcs: &[u8], out_vcs: &[u8]) -> u64 {
        let total = |vcs: &[u8]| vcs.iter().map(|&v| usize::from(v)).sum::<usize>();
        let widest = out_vcs.iter().map(|&v| usize::from(v)).max().unwrap_or(0);
        VcAlloc::bytes(config, total(in_vcs), (total(out_vcs), widest))
            .saturating_add(SwitchAlloc::bytes(config, in_vcs, out_vcs.len()))
    }

    /// Builds the router described by `spec`. `outputs` has one entry per port of `spec`
    /// (index 0 = ejection); `routing` is shared by all routers; `seed` seeds the router's
    /// own RNG stream (selection `random`).
    ///
    /// # Panics
    /// If `outputs.len()` differs from the number of ports.
    pub fn new(
        spec: &RouterSpec,
        outputs: Vec<OutputPortSpec>,
        routing: Arc<dyn RoutingFunction>,
        seed: u64,
    ) -> Router {
        Router::with_layouts(spec, outputs, routing, seed, &mut Layouts::default())
    }

    /// [`Router::new`], sharing the port/VC layout of the routers built before with the
    /// same `layouts` that have the same VC counts.
    ///
    /// # Panics
    /// If `outputs.len()` differs from the number of ports.
    pub fn with_layouts(
        spec: &RouterSpec,
        outputs: Vec<OutputPortSpec>,
        routing: Arc<dyn RoutingFunction>,
        seed: u64,
        layouts: &mut Layouts,
    ) -> Router {
        assert_eq!(
            outputs.len(),
            spec.ports.len(),
            "router {}: one OutputPortSpec per port",
            spec.name
        );
        let in_vcs: Vec<u8> = spec.ports.iter().map(|p| p.vcs).collect();
        let out_vcs: Vec<u8> = outputs.iter().map(|o| o.downstream_vcs).collect();
        let layout = layouts.share(&in_vcs, &out_vcs);
        let delays = Delays::of(&spec.config);
        let buffers = InputBuffer::new(
            spec.ports
                .iter()
                .flat_map(|p| std::iter::repeat_n(p.buffer_depth, usize::from(p.vcs))),
        );
        let mut out_state = Vec::with_capacity(out_vcs.iter().map(|&v| usize::from(v)).sum());
        out_state.extend(outputs.iter().flat_map(|o| {
            std::iter::repeat_n(
                OutputVcState::new(o.downstream_depth),
                usize::from(o.downstream_vcs),
            )
        }));
        let n_out = outputs.len();
        let mut state = RouterState {
            id: spec.id,
            vcs: vc_state::InputVcs::new(layout.total_in_vcs()),
            layout,
            delays,
            switching: spec.config.switching,
            vc_release: spec.config.vc_release,
            escape_vcs: routing.escape_vcs().unwrap_or(0),
            terminals: spec.terminals,
            trail: None,
            holders: Vec::new(),
            buffers,
            outputs: out_state,
            occupancy: occupancy::ChannelOccupancy::new(&out_vcs),
            channel_times: None,
        };
        if spec.config.timeout > 0 {
            state.keep_trail();
        }
        let port_dim = spec
            .ports
            .iter()
            .map(|p| p.direction.map(|d| d.0))
            .collect();
        let rng = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
        let mut va = VcAlloc::new(&spec.config, &state, port_dim, rng, seed ^ VA_ALLOC_STREAM);
        va.set_escape_vcs(routing.escape_vcs());
        let dimension_order = routing.is_dimension_order();
        let mut credit_return = CreditReturn::new(in_vcs.len(), delays.cd);
        if spec.config.input_speedup > 1 {
            credit_return.queue_every_credit();
        }
        Router {
            rc: RouteCompute::new(routing),
            va,
            sa: SwitchAlloc::new(&spec.config, &state, seed ^ SA_ALLOC_STREAM),
            crossbar: Crossbar::new(n_out, delays.sd + delays.xd, spec.config.output_speedup),
            credit_return,
            resets: Self::reset_state(&spec.config, &state.layout),
            adaptive: stats::AdaptiveHops::default(),
            trace: None,
            inputs_watched: state.trail.is_some(),
            step_watched: spec.config.timeout > 0,
            dimension_order,
            state,
        }
    }

    /// The reset machinery of a router with `config` and `layout`: markers and queues
    /// only with a timeout (others get them from [`Router::enable_resets`]).
    fn reset_state(config: &RouterConfig, layout: &Layout) -> reset::ResetState {
        let mut r = reset::ResetState::new(config.timeout);
        if config.timeout > 0 {
            r.enable(layout.total_in_vcs(), layout.in_ports());
        }
        r
    }

    /// The router's id.
    pub fn id(&self) -> RouterId {
        self.state.id
    }

    /// Speculative switch grants that VA did not make good so far, each a crossbar slot
    /// left unused for a cycle (0 without `speculative`).
    pub fn wasted_speculative_grants(&self) -> u64 {
        self.sa.wasted_speculative_grants()
    }

    /// Starts the step of cycle `now`. A step is `begin_step(now)`, then
    /// [`Router::receive_credit`] for every credit and [`Router::receive_flit`] for every
    /// flit delivered at `now` (credits first: a credit delivered at `now` is usable by SA
    /// at `now`), then [`Router::finish_step`]. Resets ([`Router::receive_reset`]) come
    /// before `begin_step`.
    #[inline(always)]
    pub fn begin_step(&mut self, now: Cycle) {
        self.state.buffers.set_now(now);
    }

    /// A credit delivered at `now` on the reverse side of output port `out`'s channel
    /// (between [`Router::begin_step`] and [`Router::finish_step`]).
    #[inline(always)]
    pub fn receive_credit(&mut self, now: Cycle, out: OutPort, c: Credit) {
        debug_assert!(out.index() < self.state.layout.out_ports());
        self.latch_credit(now, out.index(), c);
    }

    /// A flit delivered at `now` on input port `port` (between [`Router::begin_step`] and
    /// [`Router::finish_step`], after the cycle's credits).
    #[inline(always)]
    pub fn receive_flit(&mut self, now: Cycle, port: InPort, f: &Flit) {
        debug_assert!(port.index() < self.state.layout.in_ports());
        self.latch_flit(now, port.index(), f);
    }

    /// The rest of the step begun by [`Router::begin_step`]: the stages, then the flits
    /// and credits due at `now` taken out of the crossbar and the credit return, where
    /// [`Router::flits_out`] and [`Router::credits_out`] read them until the next step
    /// (the engine copies each once, straight onto its channel). `scratch` is the step's
    /// working space, clear before and after (one serves any number of routers).
    #[inline(always)]
    pub fn finish_step(&mut self, now: Cycle, scratch: &mut StepScratch) {
        debug_assert!(scratch.is_clear(), "step scratch not clear");
        if self.step_watched {
            self.finish_step_watched(now, scratch);
            return;
        }
        // With no flit buffered the stages have nothing to route, allocate or move (a
        // router woken only to emit, or for a credit).
        if self.state.buffers.total() != 0 {
            self.stages(now, scratch);
        }
        self.emit(now);
    }

    /// 2.-4. RC, VA and SA in pipeline order, recording nothing.
    #[inline(always)]
    fn stages(&mut self, now: Cycle, scratch: &mut StepScratch) {
        let s = &mut self.state;
        self.rc.step(now, s);
        self.va.step(now, s, scratch);
        let spec = self.va.speculating();
        let out = (&mut self.crossbar, &mut self.credit_return);
        if spec.is_empty() {
            self.sa.step(now, s, out, scratch);
        } else {
            self.sa.step_speculative(now, s, spec, out, scratch);
        }
    }

    /// [`Router::finish_step`] with tracing on or a timeout: heads that waited too long
    /// are dropped before the stages run.
    #[cold]
    #[inline(never)]
    fn finish_step_watched(&mut self, now: Cycle, scratch: &mut StepScratch) {
        if self.trace.is_some() {
            self.finish_step_traced(now, scratch);
            return;
        }
        if self.state.buffers.total() != 0 {
            self.expire_timers(now);
            self.stages(now, scratch);
        }
        self.emit(now);
    }

    /// [`Router::finish_step`] with tracing on: the same stages, each decision recorded
    /// as it is taken.
    #[cold]
    #[inline(never)]
    fn finish_step_traced(&mut self, now: Cycle, scratch: &mut StepScratch) {
        if self.resets.timeout > 0 {
            self.expire_timers(now);
        }
        let s = &mut self.state;
        let t = self.trace.as_mut().expect("tracing is on");
        self.rc.evaluate(now, s);
        probe::routed(s, self.rc.decisions(), t);
        self.rc.commit(now, s);
        self.va.evaluate(now, s, scratch);
        probe::vc_alloc(now, s, &self.va, self.va.grants(scratch), t);
        self.va.commit(now, s, scratch);
        // The probe sees the winners between allocation and the moves.
        self.sa.evaluate(now, s, self.va.speculating(), scratch);
        probe::switch_alloc(now, s, self.sa.winners(), t);
        self.sa
            .commit(now, s, &mut self.crossbar, &mut self.credit_return);
        self.emit(now);
        let t = self.trace.as_mut().expect("tracing is on");
        probe::outputs(self.crossbar.emitted(), self.credit_return.emitted(), t);
    }

    /// 5.-6. Takes the flits and credits due at `now` out of the crossbar and the credit
    /// return.
    #[inline(always)]
    fn emit(&mut self, now: Cycle) {
        self.crossbar.emit(now);
        self.credit_return.emit(now);
        // Dimension-order routers count their reference hops from the heads sent
        // (`Router::stats`).
        if !self.dimension_order && !self.crossbar.emitted().is_empty() {
            self.count_adaptive_hops();
        }
    }

    /// The flits the last step wrote, as (output port, flit), at most one per port, in
    /// no particular order; valid until the next step.
    #[inline]
    pub fn flits_out(&self) -> impl ExactSizeIterator<Item = (OutPort, &Flit)> + '_ {
        self.crossbar
            .emitted()
            .iter()
            .map(|(o, f)| (OutPort(*o as u8), f))
    }

    /// The credits the last step wrote, as (input port, credit), at most one per port, in
    /// no particular order; valid until the next step.
    #[inline]
    pub fn credits_out(&self) -> impl ExactSizeIterator<Item = (InPort, Credit)> + '_ {
        self.credit_return
            .emitted()
            .iter()
            .map(|&(p, vc)| (InPort(p as u8), Credit { vc }))
    }

    /// A credit delivered at `now` for downstream VC `c.vc` of output port `o`.
    #[inline(always)]
    fn latch_credit(&mut self, now: Cycle, o: usize, c: Credit) {
        let s = &mut self.state;
        let ovc = s.layout.ovc(o, c.vc.0);
        let out = &mut s.outputs[ovc];
        // A credit comes back only with credits out, so the VC was busy: it stops being
        // busy when this was its last credit out and no packet holds it.
        out.credits.restore();
        if out.credits.all_home() && out.owner.is_none() {
            Self::vc_released(s, o, ovc, now);
        }
        if self.inputs_watched {
            self.trace_credit(o, ovc, c);
        }
    }

    /// Flat output VC `ovc` of port `o` stopped being busy at `now` (its last credit came
    /// home with no packet holding it). Out of line: most credits leave others out.
    #[cold]
    #[inline(never)]
    fn vc_released(s: &mut RouterState, o: usize, ovc: usize, now: Cycle) {
        s.occupancy.released(o, ovc, now);
        s.busy_change(o, -1, now);
    }

    /// Records credit `c` delivered for flat output VC `ovc` of port `o` (if tracing).
    #[cold]
    #[inline(never)]
    fn trace_credit(&mut self, o: usize, ovc: usize, c: Credit) {
        let s = &self.state;
        if let Some(t) = &mut self.trace {
            let (out, vc) = (OutPort(o as u8), c.vc);
            t.push(probe::RouterEvent::CreditIn { out, vc });
            if s.outputs[ovc].owner.is_none() && s.outputs[ovc].credits.all_home() {
                t.push(probe::RouterEvent::VcFree { out, vc });
            }
        }
    }

    /// A flit delivered at `now` on input port `p`.
    #[inline(always)]
    fn latch_flit(&mut self, now: Cycle, p: usize, f: &Flit) {
        debug_assert!(
            f.vc.0 < self.state.layout.in_vcs(p),
            "flit on a VC the port lacks"
        );
        if self.inputs_watched {
            self.latch_flit_watched(now, p, f);
        } else {
            self.enter_fifo(now, p, f);
        }
    }

    /// Flit `f` delivered at `now` on input port `p` enters its FIFO (a head arriving at
    /// an idle VC starts it).
    #[inline(always)]
    fn enter_fifo(&mut self, now: Cycle, p: usize, f: &Flit) {
        let s = &mut self.state;
        let i = s.layout.ivc(p, f.vc.0);
        let was_empty = s.buffers.len(i) == 0;
        s.buffers.push(i, f, now);
        if f.kind.is_head() && was_empty && s.vcs[i].phase == VcPhase::Idle {
            s.vcs.head_arrived(i, now);
        }
    }

    /// [`Router::latch_flit`] with the reset trail kept or tracing on: a flit of a
    /// packet being discarded is dropped (its credit returned), and the flit is recorded.
    #[cold]
    #[inline(never)]
    fn latch_flit_watched(&mut self, now: Cycle, p: usize, f: &Flit) {
        let s = &mut self.state;
        let i = s.layout.ivc(p, f.vc.0);
        // Only a router keeping the reset trail ever drops a packet.
        if s.trail.is_some() && self.resets.discard_on_arrival(i, f) {
            self.credit_return
                .push_discarded(p, now, Credit { vc: f.vc });
            if let Some(t) = &mut self.trace {
                t.push(probe::RouterEvent::Discard {
                    port: InPort(p as u8),
                    vc: f.vc,
                    flit: probe::FlitTag::from(f),
                });
            }
            return;
        }
        self.enter_fifo(now, p, f);
        if let Some(t) = &mut self.trace {
            let port = InPort(p as u8);
            t.push(probe::RouterEvent::FlitIn { port, flit: *f });
        }
    }

    /// Turns tracing on (every later step appends [`probe::RouterEvent`]s to the router's
    /// own buffer) or off (drops the buffer). Off by default; off, a step and each input
    /// pay one flag test, shared with timeouts and the reset trail.
    pub fn set_tracing(&mut self, on: bool) {
        self.trace = on.then(Box::default);
        self.inputs_watched = on || self.state.trail.is_some();
        self.step_watched = on || self.resets.timeout > 0;
    }

    /// Appends the trace events recorded since the last call to `out`, in the order they
    /// happened, and forgets them. Nothing when tracing is off.
    pub fn take_trace(&mut self, out: &mut Vec<probe::RouterEvent>) {
        if let Some(t) = &mut self.trace {
            out.append(t);
        }
    }

    /// Nothing buffered, inside the crossbar, or waiting to send a credit: stepping the
    /// router without inputs would change nothing, so the engine may skip it.
    #[inline]
    pub fn is_quiescent(&self) -> bool {
        self.state.buffers.total() == 0
            && self.crossbar.is_empty()
            && self.credit_return.is_empty()
            // Only a router keeping the reset trail ever queues a reset.
            && (self.state.trail.is_none() || self.resets.is_empty())
    }

    /// The routing function's name.
    pub fn routing_name(&self) -> &'static str {
        self.rc.routing().name()
    }
}

#[cfg(test)]
mod tests;
