//! The terminal's own records: a packet in the source queue, the packet being injected,
//! an injection VC.

use flitsim_netlist::{Cycle, TerminalId};
use flitsim_router::Flit;

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
