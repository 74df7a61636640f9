//! Timeout reset (paper 003, "backward timeout reset"): a per-router timer on blocked
//! heads, the reset that travels upstream, and the discarding of the dropped packet's
//! flits.
//!
//! - Timer: a head that has waited `timeout` cycles for an output VC (VC allocation
//!   eligible since `ready_at`, still not granted at `ready_at + timeout`) is dropped at
//!   that cycle, before RC/VA/SA run: the packet's flits in that FIFO are discarded and a
//!   [`Reset`] is written onto the reverse side of the channel the packet came in on.
//! - Reset: a router that reads a reset for packet P on output port `o` (it arrives
//!   `L` cycles after it was written, like a credit) looks P up in its trail (the input
//!   port and VC P came from, recorded when P's head was granted its output VC). If P
//!   still holds the output VC (its tail has not won the switch here), P's flits in that
//!   input FIFO are discarded and the output VC is released; either way the reset is
//!   forwarded upstream on P's input port (paper 003: "a switch can always send the
//!   timeout reset signal upstream even if the tail of the worm has already left"), at
//!   most one reset per input port per cycle. At the source router it reaches the
//!   terminal, which stops sending P and re-queues it.
//! - Discarding: every discarded flit returns its credit upstream as if it had left the
//!   FIFO (through the `credit_delay` queue, one per port per cycle, so credits of a
//!   burst of discards are spread over the following cycles). Flits of P still on the
//!   way (on channels or in an upstream crossbar) are discarded when they arrive: the
//!   input VC remembers P until P's tail is discarded or another packet's head arrives.
//!   So VCs, buffers and credits end consistent, and no flit of a dropped attempt reaches
//!   a terminal.
//!
//! The trail keeps one entry per packet routed through the router while resets are
//! enabled, removed when a reset for it passes (memory grows with the packets routed; it
//! is only kept when some router has a timeout).

use crate::flit::Flit;
use crate::PacketId;
use flitsim_netlist::{Cycle, TerminalId, VcId};
use std::collections::VecDeque;

/// A timeout reset for one packet, travelling upstream on a channel's reverse side. It
/// carries what the source needs to re-queue the packet.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Reset {
    /// The VC the packet used on this channel.
    pub vc: VcId,
    /// The packet.
    pub packet: PacketId,
    /// Its destination.
    pub dest: TerminalId,
    /// Its length in flits.
    pub len: u32,
    /// Its generation cycle (latency still counts from there).
    pub created: Cycle,
}

impl Reset {
    /// The reset for the packet of `head`, on VC `vc`.
    pub fn of(head: &Flit, vc: VcId) -> Reset {
        Reset {
            vc,
            packet: head.packet,
            dest: head.dest,
            len: head.len,
            created: head.created.cycle(),
        }
    }
}

/// Timeout-reset counters of one router since cycle 0 (never cleared).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct ResetStats {
    /// Heads dropped here by the timer.
    pub timeouts: u64,
    /// Flits discarded here (dropped, or arriving for a dropped packet).
    pub flits_discarded: u64,
    /// Resets written upstream.
    pub resets_sent: u64,
}

/// A router's reset machinery: the timer, and the markers, queues and counters once
/// enabled (boxed: a router in a network without resets keeps one pointer).
#[derive(Clone, Debug, Default)]
pub(crate) struct ResetState {
    /// Timer in cycles, 0 = no timer here.
    pub timeout: u64,
    /// `None` until [`ResetState::enable`].
    on: Option<Box<Resets>>,
}

/// The markers, queues and counters of a router with resets enabled.
#[derive(Clone, Debug, Default)]
pub(crate) struct Resets {
    /// Per flat input VC: flits of this packet are discarded on arrival.
    pub discarding: Vec<Option<PacketId>>,
    /// Resets waiting to be written, per input port.
    pub out: Vec<VecDeque<Reset>>,
    pub stats: ResetStats,
}

impl ResetState {
    /// With a timer of `timeout` cycles (0: none); its markers and queues exist only once
    /// [`ResetState::enable`] sized them (a router in a network without resets keeps none).
    pub fn new(timeout: u32) -> ResetState {
        ResetState {
            timeout: u64::from(timeout),
            on: None,
        }
    }

    /// Sizes the markers for `in_vcs` flat input VCs and the queues for `in_ports` input
    /// ports (once).
    pub fn enable(&mut self, in_vcs: usize, in_ports: usize) {
        if self.on.is_none() {
            self.on = Some(Box::new(Resets {
                discarding: vec![None; in_vcs],
                out: vec![VecDeque::new(); in_ports],
                stats: ResetStats::default(),
            }));
        }
    }

    /// The markers, queues and counters, if enabled.
    pub fn enabled(&mut self) -> Option<&mut Resets> {
        self.on.as_deref_mut()
    }

    /// The markers, queues and counters.
    ///
    /// # Panics
    /// Before [`ResetState::enable`] (only a router keeping the reset trail resets).
    pub fn on(&mut self) -> &mut Resets {
        self.on.as_deref_mut().expect("resets enabled")
    }

    /// Counters since cycle 0 (zero before [`ResetState::enable`]).
    pub fn stats(&self) -> ResetStats {
        self.on
            .as_ref()
            .map_or_else(ResetStats::default, |r| r.stats)
    }

    /// Should the arriving `flit` on flat input VC `i` be discarded? Clears the marker on
    /// the dropped packet's tail or on another packet's head.
    #[inline]
    pub fn discard_on_arrival(&mut self, i: usize, flit: &Flit) -> bool {
        let Some(r) = self.on.as_deref_mut() else {
            return false;
        };
        let Some(p) = r.discarding[i] else {
            return false;
        };
        if flit.packet == p && !flit.kind.is_head() {
            if flit.kind.is_tail() {
                r.discarding[i] = None;
            }
            r.stats.flits_discarded += 1;
            true
        } else {
            r.discarding[i] = None;
            false
        }
    }

    /// No reset waiting to be written.
    pub fn is_empty(&self) -> bool {
        self.on
            .as_ref()
            .is_none_or(|r| r.out.iter().all(VecDeque::is_empty))
    }
}
