//! What travels on channels: flits downstream, credits upstream.

use flitsim_netlist::{Cycle, TerminalId, VcId};
use serde::{Deserialize, Serialize};
use std::fmt;

/// A packet's identity: its source terminal and a per-source sequence number. No global
/// counter exists, so ids are the same for any thread count.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct PacketId {
    /// The terminal that generated the packet.
    pub source: TerminalId,
    /// Sequence number at that terminal (0, 1, 2, ...).
    pub seq: u32,
}

impl fmt::Display for PacketId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.source.0, self.seq)
    }
}

/// Position of a flit in its packet. The discriminant has one bit for "head" and one
/// for "tail", so [`FlitKind::is_head`] and [`FlitKind::is_tail`] test one bit each.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[repr(u8)]
pub enum FlitKind {
    /// First flit of a multi-flit packet: carries the route.
    Head = FlitKind::HEAD_BIT,
    /// Neither first nor last.
    Body = 0,
    /// Last flit of a multi-flit packet: releases the VC.
    Tail = FlitKind::TAIL_BIT,
    /// The only flit of a one-flit packet (head and tail at once).
    HeadTail = FlitKind::HEAD_BIT | FlitKind::TAIL_BIT,
}

impl FlitKind {
    /// The discriminant bit of the head kinds.
    const HEAD_BIT: u8 = 1;
    /// The discriminant bit of the tail kinds.
    const TAIL_BIT: u8 = 2;

    /// Head or head-tail.
    #[inline]
    pub fn is_head(self) -> bool {
        self as u8 & FlitKind::HEAD_BIT != 0
    }
    /// Tail or head-tail.
    #[inline]
    pub fn is_tail(self) -> bool {
        self as u8 & FlitKind::TAIL_BIT != 0
    }
    /// The kind of flit `index` of a packet of `len` flits.
    pub fn of(index: u32, len: u32) -> FlitKind {
        match (index == 0, index + 1 == len) {
            (true, true) => FlitKind::HeadTail,
            (true, false) => FlitKind::Head,
            (false, true) => FlitKind::Tail,
            (false, false) => FlitKind::Body,
        }
    }
}

/// Flow-control unit (one flit = one phit: it crosses a channel in one cycle).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Flit {
    /// The packet this flit belongs to.
    pub packet: PacketId,
    /// Index within the packet (0 = head).
    pub index: u32,
    /// Length of the packet in flits.
    pub len: u32,
    /// Head, body, tail or head-tail.
    pub kind: FlitKind,
    /// The VC this flit occupies on the channel it travels and in the downstream input port.
    pub vc: VcId,
    /// Destination terminal.
    pub dest: TerminalId,
    /// Cycle the packet was generated (packet latency starts here).
    pub created: Cycle,
    /// Cycle the head flit was written onto the injection channel (network latency starts here).
    pub injected: Cycle,
    /// Router-to-router channels crossed so far.
    pub hops: u16,
}

impl Flit {
    /// What fills a storage slot no flit has used yet (the FIFO and crossbar rings, the
    /// engine's channel delay lines); it is never read as a flit, since only slots holding
    /// one are.
    pub const PLACEHOLDER: Flit = Flit {
        packet: PacketId {
            source: TerminalId(u32::MAX),
            seq: u32::MAX,
        },
        index: 0,
        len: 0,
        kind: FlitKind::HeadTail,
        vc: VcId(0),
        dest: TerminalId(u32::MAX),
        created: Cycle(0),
        injected: Cycle(0),
        hops: 0,
    };
}

/// A credit: one slot of `vc` in the downstream input buffer became free. Travels upstream
/// on the reverse side of the channel the flit came in on.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Credit {
    /// The VC whose slot was freed.
    pub vc: VcId,
}

#[cfg(test)]
mod tests {
    use super::FlitKind;

    #[test]
    fn kinds_are_head_and_tail_as_their_position_says() {
        let kinds = [
            (FlitKind::Head, true, false),
            (FlitKind::Body, false, false),
            (FlitKind::Tail, false, true),
            (FlitKind::HeadTail, true, true),
        ];
        for (k, head, tail) in kinds {
            assert_eq!((k.is_head(), k.is_tail()), (head, tail), "{k:?}");
        }
        assert_eq!(FlitKind::of(0, 1), FlitKind::HeadTail);
        let packet: Vec<FlitKind> = (0..3).map(|i| FlitKind::of(i, 3)).collect();
        assert_eq!(packet, [FlitKind::Head, FlitKind::Body, FlitKind::Tail]);
    }
}
