//! The router pipeline: its shared state and one module per stage, in pipeline order.
//!
//! ```text
//!  flits_in ──> buffer ──> RC ──rd──> VA ──vd──> SA ──sd──> crossbar ──xd──> flits_out
//!                                                  │
//!  credits_in ──> credit counters (usable at once)  └── credit to upstream ──cd──> credits_out
//! ```
//!
//! Stage contract. The step of cycle `now` (`Router::begin_step` to `Router::finish_step`) runs:
//! 1. latch inputs: credits delivered at `now` restore their counters (usable by SA in the
//!    same cycle), flits delivered at `now` enter their FIFO (a head is RC-eligible at
//!    `now`);
//! 2. [`route_compute`] (RC), 3. [`vc_alloc`] (VA), 4. [`switch_alloc`] (SA): each stage
//!    first *evaluates* all VCs against the state as its predecessors left it, then
//!    *commits* its decisions. A stage with delay `d` that decides at cycle `c` makes the
//!    VC eligible for the next stage at `c + d` (`ready_at`); because the stages run in
//!    pipeline order, a delay of 0 chains the next stage in the same cycle, exactly as the
//!    timing contract requires. Within a stage no VC sees another VC's decision of the
//!    same cycle (evaluate-then-commit), so the order of VCs carries no meaning. On a
//!    router that records no trace each stage does both in one pass, with the same
//!    decisions: RC ([`route_compute::RouteCompute::step`]) stores each route as it
//!    computes it (routing a head reads nothing another head's routing writes); VA
//!    ([`vc_alloc::VcAlloc::step`]) builds every request first and hands a lone requesting
//!    VC the output VC its row arbiter picks at once (several go through the allocator);
//!    SA ([`switch_alloc::SwitchAlloc::step`]) builds every request and allocates the
//!    ports first, then picks each granted port's VC and moves its flit, which changes
//!    nothing a later pick reads;
//! 5. [`crossbar`]: flits granted at `c` are written onto their output channel at
//!    `c + sd + xd`;
//! 6. [`credit_return`]: the credit of a flit that left its FIFO at `c` is written onto the
//!    upstream channel at `c + cd`.
//!
//! Zero-load latency: a head read at `t` is written at `t + rd + vd + sd + xd`; body and
//! tail flits follow one per cycle. Under `speculative` (VA beside SA,
//! [`switch_alloc::speculative`]) `vd` leaves that sum, under `lookahead_routing`
//! ([`route_compute`]) `rd`: the per-router term is [`Delays::head_latency`]. Over H router-to-router hops (H + 1 routers), with
//! terminal channels of latency Lt and network channels of latency L:
//! `T0 = 2*Lt + (H+1)*(rd+vd+sd+xd) + H*L + (M-1)` for a packet of M flits.
//!
//! Per switching technique (`switching`):
//! - wormhole: the formula above;
//! - virtual cut-through (`vct`): the same formula. VA grants a downstream VC only when it
//!   has room for all M flits, which an idle network always has, so nothing changes at
//!   zero load; under blocking the packet gathers in the router where its head waits
//!   (with `buffer_depth = "unbounded"`, paper 004's storage buffer, it always can);
//! - store-and-forward (`saf`): a head is routed only once its tail is in the same FIFO,
//!   `M - 1` cycles after the head, in every router:
//!   `T0 = 2*Lt + (H+1)*(rd+vd+sd+xd + M-1) + H*L + (M-1)`.
//!
//! Credit round trip and buffer depth. A flit that wins SA upstream at cycle `c` takes a
//! credit; it is written at `c + sd + xd`, read downstream at `c + sd + xd + L`, leaves
//! that FIFO at the earliest in the same cycle (a body flit at the front of an active VC),
//! and its credit is written back at `+ cd` and usable upstream `L` later. The slot is
//! therefore reusable after `RT = sd + xd + 2*L + cd` cycles, and one VC streams a packet
//! at `min(1, D / RT)` flits per cycle with `D = buffer_depth`: for full throughput on a
//! channel of latency `L` the buffers must cover the round trip, `D >= sd + xd + 2L + cd`
//! (the default router on 1-cycle channels: `D >= 5`; on 20-cycle channels: `D >= 43`).

pub mod credit_return;
pub mod crossbar;
mod layout;
pub mod output_queue;
pub mod route_compute;
pub mod switch_alloc;
mod ugal;
pub mod vc_alloc;

use crate::buffer::InputBuffer;
use crate::config::{Delays, Switching};
use crate::output_vc::OutputVcState;
use crate::vc_state::InputVcs;
use flitsim_netlist::RouterId;
pub use layout::{Layout, Layouts};
use std::sync::Arc;

/// Everything a router's stages read and write. `repr(C)`, in this order: the fields a
/// step reads (FIFOs, VC states and masks, output VCs, delays, the first ports' VC bases)
/// fill its first lines, those read per packet or at report time follow.
#[derive(Debug)]
#[repr(C)]
pub struct RouterState {
    /// FIFO per flat input VC.
    pub buffers: InputBuffer,
    /// State machine per flat input VC, with the VCs in each phase.
    pub vcs: InputVcs,
    /// Credits and owner per flat output VC.
    pub outputs: Vec<OutputVcState>,
    /// Stage delays.
    pub delays: Delays,
    /// The router.
    pub id: RouterId,
    /// Switching technique (decides "downstream has room" in VA).
    pub switching: Switching,
    /// When an output VC may be reallocated (VA); see [`RouterState::release_for`].
    pub vc_release: crate::config::VcRelease,
    /// VCs `0..escape_vcs` of every network port are escape VCs (Duato's methodology,
    /// [`crate::RoutingFunction::escape_vcs`]); 0 = the routing has none.
    pub escape_vcs: u8,
    /// Terminal ports (ports `0..terminals` eject to terminals).
    pub terminals: u8,
    /// Port/VC layout, shared by the routers of equal layouts ([`Layouts`]).
    pub layout: Arc<Layout>,
    /// Busy output VCs per output port (owned or credits out), their integral,
    /// time-average distribution and VC holding times.
    pub occupancy: crate::occupancy::ChannelOccupancy,
    /// Timeout resets possible: packet -> (input port, input VC) it came in on, recorded
    /// by VA (see `reset.rs`); `None` when resets are off.
    pub trail: Option<std::collections::BTreeMap<crate::PacketId, (u8, u8)>>,
    /// With the trail, the packet holding each flat output VC (with its `owner`): timeout
    /// resets check it. Empty without the trail.
    pub holders: Vec<Option<crate::PacketId>>,
    /// Inter-arrival and waiting-time histograms per output port; `None` unless the
    /// engine asked for them ([`crate::channel_times`]).
    pub channel_times: Option<Box<crate::channel_times::OutputTimes>>,
}

impl RouterState {
    /// Keeps the reset trail (and the holders of the output VCs) from now on.
    pub fn keep_trail(&mut self) {
        if self.trail.is_none() {
            self.trail = Some(Default::default());
            self.holders = vec![None; self.outputs.len()];
        }
    }

    /// RC routed the head of input VC `i` (see [`crate::vc_state::InputVcs::routed`]); it
    /// arrives at its first candidate's port at `ready`.
    #[inline(always)]
    pub fn routed(
        &mut self,
        i: usize,
        route: &mut flitsim_routing::RouteSet,
        ready: flitsim_netlist::Cycle,
    ) {
        self.vcs.routed(i, route, ready);
        if let Some(t) = &mut self.channel_times {
            if let Some(c) = self.vcs.route(i).first() {
                t.arrived(c.port.index(), ready);
            }
        }
    }

    /// Records that output port `o` gained (`+1`) or lost (`-1`) a busy VC at `now`.
    #[inline(always)]
    pub fn busy_change(&mut self, o: usize, delta: i32, now: flitsim_netlist::Cycle) {
        self.occupancy.busy_change(o, delta, now);
    }

    /// The release rule VA applies to downstream VC `v` of output port `o`: the router's
    /// `vc_release`, except for the adaptive VCs (`v >= escape_vcs`) of a Duato-style
    /// routing on network ports, which are always allocated atomically (`credits`: only
    /// when the downstream queue is empty). Duato's theorem (TPDS 1993) assumes that a
    /// queue never holds flits of two packets; under `tail` release an adaptive VC would be
    /// handed to a new packet while the previous tail is still queued downstream, and a
    /// packet that could fall back to an escape VC can then wait behind an unrelated packet
    /// in an adaptive queue, a dependency outside the extended channel dependency graph
    /// (measured: `duato` on torus-8x8, 4-flit packets at 1.0 flits/terminal/cycle,
    /// deadlocked at cycle 2240). Escape VCs keep the router's rule: their dependency
    /// graph is acyclic (dateline DOR or negative-hop classes), as for plain DOR.
    #[inline]
    pub fn release_for(&self, o: usize, v: u8) -> crate::config::VcRelease {
        if self.escape_vcs > 0 && o >= usize::from(self.terminals) && v >= self.escape_vcs {
            crate::config::VcRelease::Credits
        } else {
            self.vc_release
        }
    }

    /// Busy-VC-cycles of output port `o` over `[.., until)`.
    pub fn busy_vc_cycles(&self, o: usize, until: flitsim_netlist::Cycle) -> u64 {
        self.occupancy.busy_vc_cycles(o, until)
    }

    /// The front flit of input VC `i` if it has arrived by `now`: any front flit, since a
    /// flit enters its FIFO in the step of the cycle it arrives (checked in debug builds),
    /// so the callers that only ask whether there is one never read the flit.
    #[inline]
    pub fn front_arrived(&self, i: usize, now: flitsim_netlist::Cycle) -> Option<&crate::Flit> {
        self.buffers.front(i).map(|b| {
            debug_assert!(
                b.arrived.cycle() <= now,
                "input VC {i} holds a flit from the future"
            );
            &b.flit
        })
    }
}
