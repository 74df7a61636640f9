//! The terminal's own records: a packet in the source queue, the packet being injected,
//! an injection VC, the reply side of request/reply traffic.

use flitsim_netlist::{Cycle, RouterConfig, TerminalId, VcId};
use flitsim_router::Flit;
use std::collections::VecDeque;

/// A packet waiting in the source queue.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) struct QueuedPacket {
    pub(super) seq: u32,
    pub(super) dest: TerminalId,
    pub(super) len: u32,
    pub(super) created: Cycle,
    /// Not injected before this cycle (retransmission back-off).
    pub(super) not_before: Cycle,
    /// A retransmission after a timeout reset.
    pub(super) retry: bool,
    /// The injection VC the packet must take (scripted traffic, `fixed_vc.rs`); `None`:
    /// the first free one.
    pub(super) fixed_vc: Option<VcId>,
}

/// The packet currently being injected: its next flit, built whole when the packet
/// starts, so each flit sent changes only its index and kind.
#[derive(Copy, Clone, Debug)]
pub(super) struct Injecting {
    pub(super) next: Flit,
}

/// The terminal's view of one VC of router input port 0.
#[derive(Copy, Clone, Debug)]
pub(super) struct InjectionVc {
    /// Flits sent whose credit has not come back.
    pub(super) outstanding: u32,
    /// FIFO depth downstream (`u32::MAX` when unbounded: more flits than can be
    /// outstanding).
    pub(super) depth: u32,
    /// A packet is being injected on it.
    pub(super) owned: bool,
}

/// A terminal's request/reply parameters (its router's `reply_length`, `service_delay`
/// and `reply_queue`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ReplyConfig {
    /// Flits per reply (>= 1).
    pub length: u32,
    /// Cycles from a request's tail consumed to its reply generated.
    pub service_delay: u32,
    /// Replies held at most (>= 1).
    pub queue: u32,
}

impl ReplyConfig {
    /// The parameters of router configuration `c`; `None` when `reply_length` is 0.
    pub fn of(c: &RouterConfig) -> Option<ReplyConfig> {
        (c.reply_length > 0).then(|| ReplyConfig {
            length: c.reply_length,
            service_delay: c.service_delay,
            queue: c.reply_queue.max(1),
        })
    }
}

/// The reply side of a terminal.
#[derive(Debug)]
pub(super) struct Replies {
    pub(super) config: ReplyConfig,
    /// Requests consumed: (cycle their reply is generated, requester), in that order.
    pub(super) serving: VecDeque<(Cycle, TerminalId)>,
    /// Replies generated, waiting for an injection VC.
    pub(super) ready: VecDeque<QueuedPacket>,
    /// The reply being injected.
    pub(super) current: Option<Injecting>,
    /// Sequence number of the next reply, without `REPLY_BIT`.
    pub(super) next_seq: u32,
    /// The ejection buffer: flits not consumed yet, by ejection VC.
    pub(super) held: Vec<VecDeque<Flit>>,
    /// Flits in `held`.
    pub(super) held_total: u32,
    /// The ejection VC looked at first for the next flit consumed from `held`.
    pub(super) next_vc: usize,
}
