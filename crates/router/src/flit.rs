//! What travels on channels: flits downstream, credits upstream.

use flitsim_netlist::{Cycle, PacketId, TerminalId, VcId};
use serde::{Deserialize, Serialize};

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

/// A cycle as a flit and an input FIFO slot keep it: 32 bits, so that a [`Flit`] is 32
/// bytes and a FIFO slot 36 (with 64-bit cycles they were 40 and 48: a fifth more memory
/// read and written per flit moved). Exact because no simulation reaches a cycle past
/// [`Stamp::LAST`]: the engine refuses longer runs with a typed error (`flitsim_engine`'s
/// `ConfigError::RunTooLong` and `SimError::CycleLimit`).
#[derive(
    Copy, Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
pub struct Stamp(pub u32);

impl Stamp {
    /// The last cycle a simulation may reach (2^32 - 1).
    pub const LAST: Cycle = Cycle(u32::MAX as u64);

    /// Cycle `c` (at most [`Stamp::LAST`]; checked in debug builds, where a later cycle
    /// means the engine's limit was bypassed).
    #[inline(always)]
    pub fn of(c: Cycle) -> Stamp {
        debug_assert!(c <= Stamp::LAST, "cycle {} past the 32-bit stamps", c.0);
        Stamp(c.0 as u32)
    }

    /// The cycle.
    #[inline(always)]
    pub fn cycle(self) -> Cycle {
        Cycle(u64::from(self.0))
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
    pub created: Stamp,
    /// Cycle the head flit was written onto the injection channel (network latency starts here).
    pub injected: Stamp,
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
        created: Stamp(0),
        injected: Stamp(0),
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
    use super::{Flit, FlitKind, Stamp};
    use crate::buffer::BufferedFlit;
    use flitsim_netlist::Cycle;

    #[test]
    fn a_flit_is_32_bytes_and_a_fifo_slot_36() {
        assert_eq!(std::mem::size_of::<Flit>(), 32);
        assert_eq!(std::mem::size_of::<BufferedFlit>(), 36);
    }

    #[test]
    fn stamps_hold_every_cycle_up_to_the_last() {
        for c in [0, 1, 12_345, Stamp::LAST.0] {
            assert_eq!(Stamp::of(Cycle(c)).cycle(), Cycle(c));
        }
    }

    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "past the 32-bit stamps")]
    fn a_cycle_past_the_last_stamp_is_caught_in_debug_builds() {
        let _ = Stamp::of(Stamp::LAST.plus(1));
    }

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
