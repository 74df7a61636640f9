//! flitsim-router: one input-queued virtual-channel router and its routing functions.
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
//! once per cycle with a [`RouterIo`]), [`OutputPortSpec`] (what each output drives),
//! [`routing::RoutingFunction`] and its registry [`routing::build`], the watchdog's
//! [`VcWait`], and [`RouterStats`]. The stages live in [`pipeline`], one file each, with
//! the timing contract in [`pipeline`]'s docs: a head read at cycle t leaves at
//! t + rd + vd + sd + xd; body flits follow one per cycle.
//!
//! ```
//! use flitsim_netlist::{BufferDepth, Cycle, Dir, InPort, Netlist, OutPort, PortSpec,
//!     RouterConfig, RouterId, RouterSpec, TerminalId, Topology, VcId};
//! use flitsim_router::{Flit, FlitKind, OutputPortSpec, PacketId, Router, RouterIo, Stamp,
//!     routing};
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
//!         terminal_latency: 1 });
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
//! let (mut fo, mut co) = (vec![None; 3], vec![None; 3]);
//! let mut sent = None;
//! for t in 0..6 {
//!     let fi = if t == 0 { vec![Some(flit), None, None] } else { vec![None; 3] };
//!     fo.fill(None);
//!     co.fill(None);
//!     r.step(Cycle(t), &mut RouterIo { flits_in: &fi, credits_in: &[None; 3],
//!                                      flits_out: &mut fo, credits_out: &mut co });
//!     if let Some(f) = fo[1] { sent = Some((t, f.hops)); }
//! }
//! assert_eq!(sent, Some((4, 1))); // rd + vd + sd + xd = 4, one hop east
//! ```
#![warn(missing_docs)]

pub mod alloc;
pub mod arbiter;
pub mod buffer;
pub mod config;
pub mod credit;
pub mod flit;
pub mod mask;
pub mod occupancy;
pub mod pipeline;
pub mod probe;
pub mod reset;
pub mod routing;
pub mod stats;
pub mod vc_state;

pub use config::RouterConfig;
pub use flit::{Credit, Flit, FlitKind, PacketId, Stamp};
pub use reset::{Reset, ResetStats};
pub use routing::{RoutingFunction, RoutingMismatch, RoutingRegistry};
pub use stats::RouterStats;

use buffer::InputBuffer;
use config::{BufferDepth, Delays};
use credit::OutputVcState;
use flitsim_netlist::{Cycle, InPort, OutPort, RouterId, RouterSpec, VcId};
use pipeline::crossbar::Crossbar;
use pipeline::output::CreditReturn;
use pipeline::route_compute::RouteCompute;
use pipeline::switch_alloc::SwitchAlloc;
use pipeline::vc_alloc::VcAlloc;
use pipeline::{Layout, RouterState};
use rand::SeedableRng;
use smallvec::SmallVec;
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

/// The channel slots a router reads and writes in one step ([`Router::step`]): the caller
/// fills the inputs with what the channels deliver at `now` and moves the outputs into
/// slots for `now + latency` (the router never writes anything it reads in the same
/// cycle). The engine instead hands the inputs over one by one ([`Router::begin_step`])
/// and reads the outputs where the step left them ([`Router::flits_out`],
/// [`Router::credits_out`]).
pub struct RouterIo<'a> {
    /// Flits delivered this cycle, by input port.
    pub flits_in: &'a [Option<Flit>],
    /// Credits delivered this cycle, by output port (reverse side of its channel).
    pub credits_in: &'a [Option<Credit>],
    /// Flits written this cycle, by output port (must be `None` on entry).
    pub flits_out: &'a mut [Option<Flit>],
    /// Credits written this cycle, by input port (must be `None` on entry).
    pub credits_out: &'a mut [Option<Credit>],
}

/// Why an input VC cannot advance (for the deadlock watchdog).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
pub enum WaitReason {
    /// Its head waits for an output VC and none of its candidates is free.
    NoFreeVc,
    /// It holds an output VC and that VC has no credit (downstream FIFO full).
    NoCredit,
    /// A resource is free but another VC won the allocation this cycle.
    LostArbitration,
}

/// An input VC that cannot advance, and what it waits for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VcWait {
    /// Input port of the waiting VC.
    pub in_port: InPort,
    /// The waiting VC.
    pub vc: VcId,
    /// The output port it waits on (the first candidate when waiting for a VC).
    pub out_port: OutPort,
    /// The downstream VCs it waits for (its candidate VCs, or the one VC it holds).
    pub out_vcs: SmallVec<[VcId; 8]>,
    /// Why it waits.
    pub reason: WaitReason,
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
    /// More than [`PORT_MASK_PORTS`] ports: `step_masked` reads and reports every port.
    wide: bool,
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
    adaptive: AdaptiveHops,
}

/// Heads sent on network ports for which the routing function knows the dimension-order
/// port, and those of them sent on another port.
#[derive(Copy, Clone, Debug, Default)]
struct AdaptiveHops {
    reference: u64,
    adaptive: u64,
}

/// Ports per side that [`Router::step_masked`]'s 32-bit halves of a port mask cover.
pub const PORT_MASK_PORTS: usize = 32;

impl Router {
    /// Bytes [`Router::new`] allocates per VC outside the input FIFOs, computed without
    /// allocating: each of `in_vcs` input VCs' state and route candidates, and each of
    /// `out_vcs` downstream VCs' credit state and occupancy counters. The allocators'
    /// state, which grows faster, is [`Router::allocator_bytes`].
    pub fn vc_state_bytes(in_vcs: usize, out_vcs: usize) -> u64 {
        use std::mem::size_of;
        (in_vcs * (size_of::<vc_state::InputVcState>() + size_of::<routing::RouteSet>())
            + out_vcs * (size_of::<credit::OutputVcState>() + 3 * size_of::<u64>())) as u64
    }

    /// Bytes [`Router::new`] allocates for VC and switch allocation under `config`, for a
    /// router whose input ports have `in_vcs` VCs each and whose output ports' downstream
    /// sides have `out_vcs` VCs each (the counts [`Router::new`] reads from its spec and
    /// outputs), computed without allocating ([`VcAlloc::bytes`], [`SwitchAlloc::bytes`]).
    /// VA's request, grant and allocator matrices grow with the square of the router's
    /// VCs (input VCs x output VCs over all ports), and with matrix arbiters (one per
    /// input VC over the output VCs, and one per output VC over the input VCs) with the
    /// cube.
    pub fn allocator_bytes(config: &RouterConfig, in_vcs: &[u8], out_vcs: &[u8]) -> u64 {
        let total = |vcs: &[u8]| vcs.iter().map(|&v| usize::from(v)).sum::<usize>();
        VcAlloc::bytes(config, total(in_vcs), total(out_vcs)).saturating_add(SwitchAlloc::bytes(
            config,
            in_vcs,
            out_vcs.len(),
        ))
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
        assert_eq!(
            outputs.len(),
            spec.ports.len(),
            "router {}: one OutputPortSpec per port",
            spec.name
        );
        let in_vcs: Vec<u8> = spec.ports.iter().map(|p| p.vcs).collect();
        let out_vcs: Vec<u8> = outputs.iter().map(|o| o.downstream_vcs).collect();
        let layout = Layout::new(&in_vcs, &out_vcs);
        let layout_total = layout.total_in_vcs();
        let delays = Delays::of(&spec.config);
        let buffers = InputBuffer::new(
            spec.ports
                .iter()
                .flat_map(|p| std::iter::repeat_n(p.buffer_depth, usize::from(p.vcs))),
        );
        let out_state = outputs
            .iter()
            .flat_map(|o| {
                std::iter::repeat_n(
                    OutputVcState::new(o.downstream_depth),
                    usize::from(o.downstream_vcs),
                )
            })
            .collect();
        let n_out = outputs.len();
        let state = RouterState {
            id: spec.id,
            vcs: vc_state::InputVcs::new(layout.total_in_vcs()),
            layout,
            delays,
            switching: spec.config.switching,
            vc_release: spec.config.vc_release,
            escape_vcs: routing.escape_vcs().unwrap_or(0),
            trail: (spec.config.timeout > 0).then(Default::default),
            buffers,
            outputs: out_state,
            occupancy: occupancy::ChannelOccupancy::new(&out_vcs),
        };
        let port_dim = spec
            .ports
            .iter()
            .map(|p| p.direction.map(|d| d.0))
            .collect();
        let rng = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
        let mut va = VcAlloc::new(&spec.config, &state, port_dim, rng);
        va.set_escape_vcs(routing.escape_vcs());
        let dimension_order = routing.is_dimension_order();
        Router {
            rc: RouteCompute::new(routing),
            va,
            sa: SwitchAlloc::new(&spec.config, &state),
            crossbar: Crossbar::new(n_out, delays.sd + delays.xd),
            credit_return: CreditReturn::new(in_vcs.len(), delays.cd),
            resets: reset::ResetState::new(spec.config.timeout, layout_total, in_vcs.len()),
            adaptive: AdaptiveHops::default(),
            trace: None,
            inputs_watched: state.trail.is_some(),
            step_watched: spec.config.timeout > 0,
            wide: n_out > PORT_MASK_PORTS || in_vcs.len() > PORT_MASK_PORTS,
            dimension_order,
            state,
        }
    }

    /// The router's id.
    pub fn id(&self) -> RouterId {
        self.state.id
    }

    /// One cycle: read the inputs delivered at `now`, run RC, VA, SA (each
    /// evaluate-then-commit, in pipeline order so that zero delays chain), write the
    /// flits and credits due at `now` into the outputs. See [`pipeline`] for the timing.
    pub fn step(&mut self, now: Cycle, io: &mut RouterIo<'_>) {
        self.step_masked(now, io, u64::MAX);
    }

    /// [`Router::step`] told which inputs may hold something: bit `p` of `arrived`
    /// (`p < 32`) for `flits_in[p]`, bit `32 + o` for `credits_in[o]`; a slot whose bit is
    /// clear must be `None`. Returns the outputs written, in the same encoding (bit `o`:
    /// `flits_out[o]`, bit `32 + p`: `credits_out[p]`). A router with more than
    /// [`PORT_MASK_PORTS`] ports on a side reads and reports every port (`u64::MAX`).
    #[inline(always)]
    pub fn step_masked(&mut self, now: Cycle, io: &mut RouterIo<'_>, arrived: u64) -> u64 {
        debug_assert_eq!(io.flits_in.len(), self.state.layout.in_ports());
        debug_assert_eq!(io.credits_out.len(), self.state.layout.in_ports());
        debug_assert_eq!(io.credits_in.len(), self.state.layout.out_ports());
        debug_assert_eq!(io.flits_out.len(), self.state.layout.out_ports());
        self.begin_step(now);
        // 1. Inputs. Credits first: a credit delivered at `now` is usable by SA at `now`.
        if self.wide {
            for o in 0..io.credits_in.len() {
                if let Some(c) = io.credits_in[o] {
                    self.latch_credit(now, o, c);
                }
            }
            for p in 0..io.flits_in.len() {
                if let Some(f) = &io.flits_in[p] {
                    self.latch_flit(now, p, f);
                }
            }
        } else {
            let ports = |n: usize| u32::MAX >> (32 - n.max(1));
            let mut m = (arrived >> 32) as u32 & ports(io.credits_in.len());
            while m != 0 {
                let o = m.trailing_zeros() as usize;
                m &= m - 1;
                if let Some(c) = io.credits_in[o] {
                    self.latch_credit(now, o, c);
                }
            }
            debug_assert!(
                (0..io.credits_in.len())
                    .all(|o| io.credits_in[o].is_none() || arrived >> (32 + o) & 1 == 1),
                "a credit arrived outside the arrival mask"
            );
            let mut m = arrived as u32 & ports(io.flits_in.len());
            while m != 0 {
                let p = m.trailing_zeros() as usize;
                m &= m - 1;
                if let Some(f) = &io.flits_in[p] {
                    self.latch_flit(now, p, f);
                }
            }
            debug_assert!(
                (0..io.flits_in.len()).all(|p| io.flits_in[p].is_none() || arrived >> p & 1 == 1),
                "a flit arrived outside the arrival mask"
            );
        }
        self.finish_step(now);
        self.write_outputs(io.flits_out, io.credits_out)
    }

    /// Copies what the last step wrote ([`Router::flits_out`], [`Router::credits_out`])
    /// into `flits_out` (by output port) and `credits_out` (by input port), which must be
    /// all `None`; returns the slots written as [`Router::step_masked`] does.
    fn write_outputs(
        &self,
        flits_out: &mut [Option<Flit>],
        credits_out: &mut [Option<Credit>],
    ) -> u64 {
        let mut written = 0u64;
        for &(o, f) in self.flits_out() {
            debug_assert!(
                flits_out[o as usize].is_none(),
                "output slot already written"
            );
            flits_out[o as usize] = Some(f);
            written |= u64::from(o < 32) << (o % 32);
        }
        for &(p, vc) in self.credits_out() {
            credits_out[p as usize] = Some(Credit { vc });
            written |= u64::from(p < 32) << (32 + p % 32);
        }
        if self.wide {
            u64::MAX
        } else {
            written
        }
    }

    /// The first part of [`Router::step`] split in three, for an engine that hands the
    /// inputs over one by one instead of through [`RouterIo`] slices: `begin_step(now)`,
    /// then [`Router::receive_credit`] for every credit and [`Router::receive_flit`] for
    /// every flit delivered at `now` (credits first, as `step` does), then
    /// [`Router::finish_step`]. The three together are exactly one `step`.
    #[inline(always)]
    pub fn begin_step(&mut self, now: Cycle) {
        self.state.buffers.set_now(now);
    }

    /// A credit delivered at `now` on the reverse side of output port `out`'s channel
    /// (between [`Router::begin_step`] and [`Router::finish_step`]).
    #[inline(always)]
    pub fn receive_credit(&mut self, now: Cycle, out: usize, c: Credit) {
        debug_assert!(out < self.state.layout.out_ports());
        self.latch_credit(now, out, c);
    }

    /// A flit delivered at `now` on input port `port` (between [`Router::begin_step`] and
    /// [`Router::finish_step`], after the cycle's credits).
    #[inline(always)]
    pub fn receive_flit(&mut self, now: Cycle, port: usize, f: &Flit) {
        debug_assert!(port < self.state.layout.in_ports());
        self.latch_flit(now, port, f);
    }

    /// The rest of the step begun by [`Router::begin_step`]: the stages, then the flits
    /// and credits due at `now` taken out of the crossbar and the credit return, where
    /// [`Router::flits_out`] and [`Router::credits_out`] read them until the next step
    /// (the engine copies each once, straight onto its channel).
    #[inline(always)]
    pub fn finish_step(&mut self, now: Cycle) {
        if self.step_watched {
            self.finish_step_watched(now);
            return;
        }
        // With no flit buffered the stages have nothing to route, allocate or move (a
        // router woken only to emit, or for a credit).
        if self.state.buffers.total() != 0 {
            self.stages(now);
        }
        self.emit(now);
    }

    /// 2.-4. RC, VA and SA in pipeline order, recording nothing.
    #[inline(always)]
    fn stages(&mut self, now: Cycle) {
        let s = &mut self.state;
        self.rc.step(now, s);
        self.va.step(now, s);
        self.sa
            .step(now, s, &mut self.crossbar, &mut self.credit_return);
    }

    /// [`Router::finish_step`] with tracing on or a timeout: heads that waited too long
    /// are dropped before the stages run.
    #[cold]
    #[inline(never)]
    fn finish_step_watched(&mut self, now: Cycle) {
        if self.trace.is_some() {
            self.finish_step_traced(now);
            return;
        }
        if self.state.buffers.total() != 0 {
            self.expire_timers(now);
            self.stages(now);
        }
        self.emit(now);
    }

    /// [`Router::finish_step`] with tracing on: the same stages, each decision recorded
    /// as it is taken.
    #[cold]
    #[inline(never)]
    fn finish_step_traced(&mut self, now: Cycle) {
        if self.resets.timeout > 0 {
            self.expire_timers(now);
        }
        let s = &mut self.state;
        let t = self.trace.as_mut().expect("tracing is on");
        self.rc.evaluate(now, s);
        probe::routed(s, self.rc.decisions(), t);
        self.rc.commit(now, s);
        self.va.evaluate(now, s);
        probe::vc_alloc(now, s, self.va.grants(), t);
        self.va.commit(now, s);
        // The probe sees the winners between allocation and the moves.
        self.sa.evaluate(now, s);
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
    pub fn flits_out(&self) -> &[(u32, Flit)] {
        self.crossbar.emitted()
    }

    /// The credits the last step wrote, as (input port, VC of the credit), at most one
    /// per port, in no particular order; valid until the next step.
    #[inline]
    pub fn credits_out(&self) -> &[(u32, VcId)] {
        self.credit_return.emitted()
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
        if s.trail.is_some()
            && self.resets.discarding[i].is_some()
            && self.resets.discard_on_arrival(i, f)
        {
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

    /// `adaptive_hops_fraction`: compares each head leaving on a network port with the
    /// port dimension-order routing would have taken here (called only when a flit left
    /// and the routing function is not itself dimension-order; out of line, since the
    /// one-partition cycle inlines the step).
    #[inline(never)]
    fn count_adaptive_hops(&mut self) {
        for &(o, f) in self.crossbar.emitted() {
            if o == 0 || !f.kind.is_head() {
                continue;
            }
            if let Some(p) = self
                .rc
                .routing()
                .dimension_order_port(self.state.id, f.dest)
            {
                self.adaptive.reference += 1;
                self.adaptive.adaptive += u64::from(p.index() != o as usize);
            }
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

    /// Keeps the trail that timeout resets need (the engine calls it on every router when
    /// any router of the network has a timeout, before the first step).
    pub fn enable_resets(&mut self) {
        self.state.trail.get_or_insert_with(Default::default);
        self.inputs_watched = true;
    }

    /// No output VC owned and every credit home (a drained network's routers).
    pub fn all_credits_home(&self) -> bool {
        self.state
            .outputs
            .iter()
            .all(|o| o.owner.is_none() && o.credits.all_home())
    }

    /// Timeout-reset counters since cycle 0.
    pub fn reset_counters(&self) -> ResetStats {
        self.resets.stats
    }

    /// A reset delivered at `now` on the reverse side of output port `out`'s channel.
    /// Call it before [`Router::step`] of the same cycle. See [`reset`].
    pub fn receive_reset(&mut self, now: Cycle, out: OutPort, r: Reset) {
        let s = &mut self.state;
        // The flits it discards leave their FIFO at `now` (the step of `now` has not begun).
        s.buffers.set_now(now);
        let Some((ip, iv)) = s.trail.as_mut().and_then(|t| t.remove(&r.packet)) else {
            panic!(
                "router {}: reset for packet {} that never passed here (cycle {now})",
                s.id, r.packet
            );
        };
        let i = s.layout.ivc(usize::from(ip), iv);
        let ovc = s.layout.ovc(out.index(), r.vc.0);
        if s.outputs[ovc].owner == Some(i as u32) && s.outputs[ovc].packet == Some(r.packet) {
            self.drop_front(now, i, r.packet);
            let s = &mut self.state;
            s.outputs[ovc].owner = None;
            s.outputs[ovc].packet = None;
            if !s.outputs[ovc].is_busy() {
                s.busy_change(out.index(), -1, now);
            }
        }
        if let Some(t) = &mut self.trace {
            t.push(probe::RouterEvent::ResetIn {
                out,
                vc: r.vc,
                packet: r.packet,
            });
        }
        self.resets.out[usize::from(ip)].push_back(Reset { vc: VcId(iv), ..r });
        self.resets.stats.resets_sent += 1;
    }

    /// Writes the resets due at `now` (at most one per input port), by input port.
    pub fn emit_resets(&mut self, out: &mut [Option<Reset>]) {
        for (p, q) in self.resets.out.iter_mut().enumerate() {
            if let Some(r) = q.pop_front() {
                if let Some(t) = &mut self.trace {
                    t.push(probe::RouterEvent::ResetOut {
                        port: InPort(p as u8),
                        vc: r.vc,
                        packet: r.packet,
                    });
                }
                out[p] = Some(r);
            }
        }
    }

    /// Drops every head that has waited `timeout` cycles for an output VC.
    fn expire_timers(&mut self, now: Cycle) {
        let timeout = self.resets.timeout;
        // Ascending over the waiting VCs; dropping VC i changes no other VC's phase.
        let mut next = 0;
        while let Some(i) = mask::first_one_from(self.state.vcs.waiting(), next) {
            next = i + 1;
            let vc = &self.state.vcs[i];
            if vc.ready_at.0 + timeout > now.0 {
                continue;
            }
            let head = self
                .state
                .buffers
                .front(i)
                .expect("a waiting VC holds its head")
                .flit;
            let (p, v) = self.state.layout.in_split(i);
            if let Some(t) = &mut self.trace {
                t.push(probe::RouterEvent::Timeout {
                    port: InPort(p as u8),
                    vc: VcId(v),
                    packet: head.packet,
                });
            }
            self.drop_front(now, i, head.packet);
            self.resets.out[p].push_back(Reset::of(&head, VcId(v)));
            self.resets.stats.timeouts += 1;
            self.resets.stats.resets_sent += 1;
        }
    }

    /// Discards the flits of `packet` at the front of input VC `i` (returning their
    /// credits), marks the VC to discard the packet's later flits unless its tail was
    /// among them, and restarts the VC with the next packet's head, if any.
    fn drop_front(&mut self, now: Cycle, i: usize, packet: PacketId) {
        let s = &mut self.state;
        let (p, v) = s.layout.in_split(i);
        let mut tail_seen = false;
        while s.buffers.front(i).is_some_and(|b| b.flit.packet == packet) {
            let f = s.buffers.pop(i).flit;
            tail_seen |= f.kind.is_tail();
            if let Some(t) = &mut self.trace {
                t.push(probe::RouterEvent::Discard {
                    port: InPort(p as u8),
                    vc: VcId(v),
                    flit: probe::FlitTag::from(&f),
                });
            }
            self.credit_return
                .push_discarded(p, now, Credit { vc: VcId(v) });
            self.resets.stats.flits_discarded += 1;
        }
        if !tail_seen {
            self.resets.discarding[i] = Some(packet);
        }
        s.vcs.abandon(i);
        if let Some(b) = s.buffers.front(i) {
            debug_assert!(b.flit.kind.is_head());
            let ready = b.arrived.cycle().max(now);
            s.vcs.head_arrived(i, ready);
        }
    }

    /// For the watchdog: every input VC that holds a packet and could not advance in the
    /// last step, with the output port and downstream VCs it waits for and why. VCs
    /// still inside a pipeline delay (`ready_at` in the future) are not listed.
    pub fn waits(&self) -> Vec<VcWait> {
        let s = &self.state;
        let now = s.buffers.now();
        let mut out = Vec::new();
        for (i, vc) in s.vcs.iter().enumerate() {
            let (p, v) = s.layout.in_split(i);
            if !vc.ready(now) {
                continue;
            }
            match vc.phase {
                VcPhase::VcWait => {
                    let Some(c) = s.vcs.route(i).first() else {
                        continue;
                    };
                    let reason = if VcAlloc::has_free_candidate(s, i) {
                        WaitReason::LostArbitration
                    } else {
                        WaitReason::NoFreeVc
                    };
                    out.push(VcWait {
                        in_port: InPort(p as u8),
                        vc: VcId(v),
                        out_port: c.port,
                        out_vcs: c.vcs.iter().collect(),
                        reason,
                    });
                }
                VcPhase::Active if s.front_arrived(i, now).is_some() => {
                    let ovc = s.layout.ovc(vc.out_port.index(), vc.out_vc.0);
                    let reason = if s.outputs[ovc].credits.has_credit() {
                        WaitReason::LostArbitration
                    } else {
                        WaitReason::NoCredit
                    };
                    out.push(VcWait {
                        in_port: InPort(p as u8),
                        vc: VcId(v),
                        out_port: vc.out_port,
                        out_vcs: SmallVec::from_slice(&[vc.out_vc]),
                        reason,
                    });
                }
                _ => {}
            }
        }
        out
    }

    /// Counters (flits and packets per output port, adaptive hops).
    pub fn stats(&self) -> RouterStats {
        let mut s = RouterStats::new(self.state.layout.out_ports());
        s.reference_hops = self.adaptive.reference;
        s.adaptive_hops = self.adaptive.adaptive;
        for o in 0..s.flits_sent.len() {
            (s.flits_sent[o], s.packets_sent[o]) = self.crossbar.sent(o);
        }
        if self.dimension_order {
            // Every head sent on a network port took the dimension-order port.
            s.reference_hops = s.packets_sent[1..].iter().sum();
        }
        s
    }

    /// Clears the counters (end of warm-up); maximum occupancies restart from the current
    /// FIFO lengths, busy-VC-cycles from `now`.
    pub fn reset_stats(&mut self, now: Cycle) {
        self.crossbar.reset_sent();
        self.adaptive = AdaptiveHops::default();
        let s = &mut self.state;
        s.occupancy.reset(now);
        s.buffers.reset_occupancy(now);
    }

    /// Cycles output port `out` spent with exactly `v` busy VCs, `v = 0..=V`, from
    /// construction (or the last [`Router::reset_stats`]) up to the start of `until`.
    /// Divided by the cycles, the time-average distribution P(v) of busy VCs.
    pub fn busy_vc_histogram(&self, out: OutPort, until: Cycle) -> Vec<u64> {
        self.state.occupancy.histogram(out.index(), until)
    }

    /// VC allocations on output port `out` and the summed holding time (allocation to
    /// release, cycles) of the VCs released, since construction or the last reset.
    pub fn vc_holding(&self, out: OutPort) -> occupancy::VcHolding {
        self.state.occupancy.holding(out.index())
    }

    /// Occupancy statistics of input FIFO `(port, vc)` up to the start of `until`.
    pub fn buffer_occupancy(
        &self,
        port: InPort,
        vc: VcId,
        until: Cycle,
    ) -> occupancy::BufferOccupancy {
        self.state
            .buffers
            .occupancy(self.state.layout.ivc(port.index(), vc.0), until)
    }

    /// Sum over cycles of the number of busy VCs (owned by a packet or with credits out)
    /// of output port `out`, from construction (or the last [`Router::reset_stats`]) up to
    /// the start of cycle `until`. Divided by the cycles, the mean number of busy VCs of
    /// the channel.
    pub fn busy_vc_cycles(&self, out: OutPort, until: Cycle) -> u64 {
        self.state.busy_vc_cycles(out.index(), until)
    }

    /// Busy VCs of output port `out` right now.
    pub fn busy_vcs(&self, out: OutPort) -> u32 {
        self.state.occupancy.busy(out.index())
    }

    /// Flits inside the router: in input FIFOs and in the crossbar pipeline (for the
    /// engine's conservation check: injected = inside routers + on channels + ejected).
    pub fn buffered_flits(&self) -> u64 {
        self.state.buffers.total() + self.crossbar.len() as u64
    }

    /// Largest occupancy input FIFO `(port, vc)` reached since construction or the last
    /// [`Router::reset_stats`] (which restarts it from the FIFO's length).
    pub fn max_buffer_occupancy(&self, port: InPort, vc: VcId) -> u32 {
        self.state
            .buffers
            .max(self.state.layout.ivc(port.index(), vc.0))
    }

    /// Flits in input FIFO `(port, vc)`.
    pub fn buffer_len(&self, port: InPort, vc: VcId) -> u32 {
        self.state
            .buffers
            .len(self.state.layout.ivc(port.index(), vc.0)) as u32
    }

    /// Credits available for downstream VC `vc` of output `out` (`None` = unbounded).
    pub fn credits(&self, out: OutPort, vc: VcId) -> Option<u32> {
        self.state.outputs[self.state.layout.ovc(out.index(), vc.0)]
            .credits
            .available()
    }

    /// Flits sent on `(out, vc)` whose credits have not come back yet.
    pub fn outstanding(&self, out: OutPort, vc: VcId) -> u32 {
        self.state.outputs[self.state.layout.ovc(out.index(), vc.0)]
            .credits
            .outstanding()
    }

    /// Flits inside the crossbar pipeline bound for `(out, vc)` (they already hold a credit).
    pub fn in_crossbar(&self, out: OutPort, vc: VcId) -> u32 {
        self.crossbar.in_flight_to(out.index(), vc.0)
    }

    /// Credits for input `(port, vc)` waiting out their `credit_delay` (for the
    /// conservation check: upstream credits + flits on the channel + this FIFO + these +
    /// credits on the reverse channel = depth).
    pub fn pending_credits(&self, port: InPort, vc: VcId) -> u32 {
        self.credit_return.pending(port.index(), vc.0)
    }

    /// Whether a flit or credit is inside a pipeline delay (route computation, VC or
    /// switch allocation, the crossbar, the credit delay): the router acts later without
    /// any other event, at cycle `now` or later. The watchdog counts this as progress.
    pub fn in_pipeline(&self, now: Cycle) -> bool {
        let s = &self.state;
        s.vcs
            .iter()
            .any(|vc| vc.phase != VcPhase::Idle && !vc.ready(now))
            || !self.crossbar.is_empty()
            || !self.credit_return.is_empty()
    }

    /// The routing function's name.
    pub fn routing_name(&self) -> &'static str {
        self.rc.routing().name()
    }
}

#[cfg(test)]
mod tests;
