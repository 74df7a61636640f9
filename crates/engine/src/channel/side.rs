//! Channels and their sides as the network places them: a side lives in the partition
//! that writes it, and what is written on it wakes the partition that reads it.

use super::ring::DelayLine;
use super::wakes::WakeSpot;

/// One side of a channel where it lives: the partition that writes it and its delay line
/// there.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ChannelSide {
    /// The writer's partition.
    pub part: u32,
    /// The delay line in that partition's arena.
    pub line: DelayLine,
}

impl ChannelSide {
    /// A port without a channel.
    pub const NONE: ChannelSide = ChannelSide {
        part: u32::MAX,
        line: DelayLine::NONE,
    };
}

/// A channel of latency >= 1: its forward side (flits, written upstream) and its reverse
/// side (credits and resets, written downstream), of the same latency.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Channel {
    /// Flits downstream.
    pub forward: ChannelSide,
    /// Credits and resets upstream.
    pub reverse: ChannelSide,
}

/// Whom an item sent on a side wakes: the reader partition and the component's spot in
/// its wake-ups (a router's local index, or `Wakes::terminal_base` + a terminal's, and
/// what arrives, as an arrival mask).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct WakeRef {
    /// The reader's partition.
    pub part: u32,
    /// The reader's spot in that partition's wake-ups.
    pub spot: WakeSpot,
}

impl WakeRef {
    /// A port without a channel: nobody to wake.
    pub const NONE: WakeRef = WakeRef {
        part: u32::MAX,
        spot: WakeSpot::NONE,
    };
}

/// A side as its writer meets it: its own delay line and whom an item on it wakes (one
/// entry, so a send looks both up at once).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct WriteSide {
    /// The writer's own delay line.
    pub line: DelayLine,
    /// The reader to wake.
    pub wake: WakeRef,
}

impl WriteSide {
    /// A port without a channel.
    pub const NONE: WriteSide = WriteSide {
        line: DelayLine::NONE,
        wake: WakeRef::NONE,
    };
}
