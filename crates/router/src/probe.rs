//! Trace hooks: what a router did in one step, in router-local terms (ports and VCs by
//! index). The engine turns these into netlist-named trace events (`flitsim_engine::trace`).
//!
//! Tracing is off unless [`crate::Router::set_tracing`] turns it on; then every step
//! appends its events, in the order the step does things, to the router's own buffer:
//! credits in (and output VCs becoming free), flits in, RC decisions, VA grants and
//! stalls, SA grants (and tail releases) and stalls, flits out, credits out. Off, the step
//! checks one `Option` per stage and does nothing else.
//!
//! Stall reasons are decided against the state the stage evaluated (before its commit):
//! - VA: a routed head, ready for VA, not granted: [`StallReason::NoVc`] when no candidate
//!   had a free output VC (the head waits for its route to open), else
//!   [`StallReason::LostVc`] (another input VC won the allocation);
//! - SA: an active VC, ready, whose front flit has arrived, not granted:
//!   [`StallReason::NoCredit`] when its output VC has no credit, else
//!   [`StallReason::LostSwitch`] (another VC won the port, or the input port's VC arbiter
//!   chose another VC).
//!
//! Pipeline delays (`ready_at` in the future) are not stalls: they show as the gap
//! between the stage events.

use crate::flit::{Flit, FlitKind};
use crate::PacketId;
use flitsim_netlist::{InPort, OutPort, VcId};
use flitsim_routing::RouteSet;

/// The flit an event is about.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct FlitTag {
    /// Its packet.
    pub packet: PacketId,
    /// Its index in the packet (0 = head).
    pub index: u32,
    /// Head, body, tail or head-tail.
    pub kind: FlitKind,
}

impl From<&Flit> for FlitTag {
    fn from(f: &Flit) -> FlitTag {
        FlitTag {
            packet: f.packet,
            index: f.index,
            kind: f.kind,
        }
    }
}

/// Why a VC could not advance this cycle (see the module docs).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum StallReason {
    /// VA: no candidate output VC is free (routing wait).
    NoVc,
    /// VA: a candidate VC was free but another input VC won it.
    LostVc,
    /// SA: the output VC held has no credit (downstream FIFO full).
    NoCredit,
    /// SA: a credit was there but another VC won the switch.
    LostSwitch,
}

impl StallReason {
    /// The name used in the text trace.
    pub fn name(self) -> &'static str {
        match self {
            StallReason::NoVc => "no-vc",
            StallReason::LostVc => "lost-vc",
            StallReason::NoCredit => "no-credit",
            StallReason::LostSwitch => "lost-switch",
        }
    }
}

/// One thing a router did in a step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RouterEvent {
    /// A credit for downstream VC `vc` of output `out` arrived.
    CreditIn {
        /// Output port.
        out: OutPort,
        /// Downstream VC.
        vc: VcId,
    },
    /// Output VC `(out, vc)` is idle again: no owner and all credits home (the moment
    /// it becomes free for VA under `vc_release = credits`).
    VcFree {
        /// Output port.
        out: OutPort,
        /// Downstream VC.
        vc: VcId,
    },
    /// A flit arrived on input `port` (its VC is `flit.vc`) and entered the FIFO.
    FlitIn {
        /// Input port.
        port: InPort,
        /// The flit as it arrived.
        flit: Flit,
    },
    /// RC routed the head of input VC `(port, vc)`.
    Route {
        /// Input port.
        port: InPort,
        /// Input VC.
        vc: VcId,
        /// The head.
        flit: FlitTag,
        /// The candidates (output port and VC range).
        candidates: RouteSet,
    },
    /// VA gave output VC `(out, out_vc)` to input VC `(port, vc)`.
    VcAlloc {
        /// Input port.
        port: InPort,
        /// Input VC.
        vc: VcId,
        /// The head.
        flit: FlitTag,
        /// Output port.
        out: OutPort,
        /// Downstream VC.
        out_vc: VcId,
    },
    /// Input VC `(port, vc)` could not advance.
    Stall {
        /// Input port.
        port: InPort,
        /// Input VC.
        vc: VcId,
        /// Its front flit.
        flit: FlitTag,
        /// Why.
        reason: StallReason,
        /// What it waits for: its route candidates (VA) or the output VC it holds (SA).
        wants: RouteSet,
    },
    /// SA granted the front flit of `(port, vc)`: it left the FIFO toward `(out, out_vc)`.
    Grant {
        /// Input port.
        port: InPort,
        /// Input VC.
        vc: VcId,
        /// The flit.
        flit: FlitTag,
        /// Output port.
        out: OutPort,
        /// Downstream VC.
        out_vc: VcId,
    },
    /// The tail left: input VC `(port, vc)` is idle and output VC `(out, out_vc)` has no
    /// owner (free for VA from now under `vc_release = tail`, once its credits are home
    /// under `credits`, see [`RouterEvent::VcFree`]).
    Release {
        /// Input port.
        port: InPort,
        /// Input VC.
        vc: VcId,
        /// The tail.
        flit: FlitTag,
        /// Output port.
        out: OutPort,
        /// Downstream VC.
        out_vc: VcId,
    },
    /// A flit was written onto output `out` (its VC is `flit.vc`, the downstream VC).
    FlitOut {
        /// Output port.
        out: OutPort,
        /// The flit as sent.
        flit: Flit,
    },
    /// A credit for input VC `(port, vc)` was written onto the upstream channel.
    CreditOut {
        /// Input port.
        port: InPort,
        /// Input VC.
        vc: VcId,
    },
    /// The head of `packet` at input VC `(port, vc)` waited `timeout` cycles for an output
    /// VC: the packet is dropped here and a reset goes upstream.
    Timeout {
        /// Input port.
        port: InPort,
        /// Input VC.
        vc: VcId,
        /// The dropped packet.
        packet: PacketId,
    },
    /// A timeout reset for `packet` arrived on the reverse side of output `out` (VC `vc`).
    ResetIn {
        /// Output port.
        out: OutPort,
        /// The VC the packet used downstream.
        vc: VcId,
        /// The packet.
        packet: PacketId,
    },
    /// A timeout reset for `packet` was written upstream on input `port` (VC `vc`).
    ResetOut {
        /// Input port.
        port: InPort,
        /// The VC the packet used on that channel.
        vc: VcId,
        /// The packet.
        packet: PacketId,
    },
    /// A flit of a reset packet was discarded at input VC `(port, vc)` (its credit goes
    /// upstream as if it had left).
    Discard {
        /// Input port.
        port: InPort,
        /// Input VC.
        vc: VcId,
        /// The flit.
        flit: FlitTag,
    },
}

use crate::alloc::BitMatrix;
use crate::pipeline::vc_alloc::VcAlloc;
use crate::pipeline::RouterState;
use crate::vc_state::VcPhase;
use flitsim_netlist::Cycle;
use flitsim_routing::{Candidate, VcRange};

/// RC decided `decisions` (flat input VC, route) at `now`.
pub(crate) fn routed(s: &RouterState, decisions: &[(u32, RouteSet)], t: &mut Vec<RouterEvent>) {
    for (i, route) in decisions {
        let i = *i as usize;
        let (p, v) = s.layout.in_split(i);
        let Some(b) = s.buffers.front(i) else {
            continue;
        };
        t.push(RouterEvent::Route {
            port: InPort(p as u8),
            vc: VcId(v),
            flit: FlitTag::from(&b.flit),
            candidates: route.clone(),
        });
    }
}

/// VA evaluated its grants `grant` (input VC x output VC) at `now`; called before its
/// commit.
pub(crate) fn vc_alloc(
    now: Cycle,
    s: &RouterState,
    va: &VcAlloc,
    grant: &BitMatrix,
    t: &mut Vec<RouterEvent>,
) {
    for (i, ovc) in grant.ones() {
        let (p, v) = s.layout.in_split(i);
        let o = usize::from(s.layout.out_port_of[ovc]);
        let ov = (ovc - s.layout.out_base[o] as usize) as u8;
        let Some(b) = s.buffers.front(i) else {
            continue;
        };
        t.push(RouterEvent::VcAlloc {
            port: InPort(p as u8),
            vc: VcId(v),
            flit: FlitTag::from(&b.flit),
            out: OutPort(o as u8),
            out_vc: VcId(ov),
        });
    }
    for (i, vc) in s.vcs.iter().enumerate() {
        if vc.phase != VcPhase::VcWait || !vc.ready(now) {
            continue;
        }
        if grant.rows() > i && !crate::mask::is_empty(grant.row(i)) {
            continue;
        }
        let Some(b) = s.buffers.front(i) else {
            continue;
        };
        let free = va.wait_target(s, i).is_some_and(|(_, free)| free);
        let reason = if free {
            StallReason::LostVc
        } else {
            StallReason::NoVc
        };
        let (p, v) = s.layout.in_split(i);
        t.push(RouterEvent::Stall {
            port: InPort(p as u8),
            vc: VcId(v),
            flit: FlitTag::from(&b.flit),
            reason,
            wants: s.vcs.route(i).clone(),
        });
    }
}

/// SA chose `winners` (flat input VCs) at `now`; called before its commit.
pub(crate) fn switch_alloc(now: Cycle, s: &RouterState, winners: &[u32], t: &mut Vec<RouterEvent>) {
    for &i in winners {
        let i = i as usize;
        let (p, v) = s.layout.in_split(i);
        let vc = &s.vcs[i];
        let Some(b) = s.buffers.front(i) else {
            continue;
        };
        let flit = FlitTag::from(&b.flit);
        let (port, vc_id, out, out_vc) = (InPort(p as u8), VcId(v), vc.out_port, vc.out_vc);
        t.push(RouterEvent::Grant {
            port,
            vc: vc_id,
            flit,
            out,
            out_vc,
        });
        if flit.kind.is_tail() {
            t.push(RouterEvent::Release {
                port,
                vc: vc_id,
                flit,
                out,
                out_vc,
            });
        }
    }
    for (i, vc) in s.vcs.iter().enumerate() {
        if vc.phase != VcPhase::Active || !vc.ready(now) || winners.contains(&(i as u32)) {
            continue;
        }
        let Some(f) = s.front_arrived(i, now) else {
            continue;
        };
        let ovc = s.layout.ovc(vc.out_port.index(), vc.out_vc.0);
        let reason = if s.outputs[ovc].credits.has_credit() {
            StallReason::LostSwitch
        } else {
            StallReason::NoCredit
        };
        let (p, v) = s.layout.in_split(i);
        let mut wants = RouteSet::new();
        wants.push(Candidate {
            port: vc.out_port,
            vcs: VcRange::new(vc.out_vc.0, vc.out_vc.0 + 1),
            hops: 0,
        });
        t.push(RouterEvent::Stall {
            port: InPort(p as u8),
            vc: VcId(v),
            flit: FlitTag::from(f),
            reason,
            wants,
        });
    }
}

/// The flits and credits the step wrote.
/// `flits_out`: (output port, flit), `credits_out`: (input port, VC), each in any order
/// (reported by port).
pub(crate) fn outputs(
    flits_out: &[(u32, Flit)],
    credits_out: &[(u32, VcId)],
    t: &mut Vec<RouterEvent>,
) {
    extend_by_port(t, flits_out, |o, flit| RouterEvent::FlitOut {
        out: OutPort(o),
        flit,
    });
    extend_by_port(t, credits_out, |p, vc| RouterEvent::CreditOut {
        port: InPort(p),
        vc,
    });
}

/// Appends one event per `(port, item)` of `items`, in ascending port order.
fn extend_by_port<T: Copy>(
    t: &mut Vec<RouterEvent>,
    items: &[(u32, T)],
    event: impl Fn(u8, T) -> RouterEvent,
) {
    let mut items: smallvec::SmallVec<[(u32, T); 8]> = items.into();
    items.sort_unstable_by_key(|&(port, _)| port);
    t.extend(items.into_iter().map(|(port, x)| event(port as u8, x)));
}
