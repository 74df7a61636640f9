//! Channels. A [`Channel`] of latency `L >= 1` has two sides: flits go downstream
//! on its forward side, credits upstream on its reverse side, with the same latency. Each
//! side is one delay line, stored with its *writer*: the forward side with
//! the upstream component's partition, the reverse side with the downstream one's, so a
//! partition's phase-2 writes touch only its own [`DelayLines`].
//!
//! A delay line is a ring of slots (a power of two >= `L + 1`, indexed by `cycle & mask`),
//! each tagged with the cycle it is due. What is sent at cycle `t` sits in the slot of
//! `t + L` tagged `t + L`; the reader of cycle `t + L` finds it by the tag. Readers never
//! write (a stale slot simply carries an old tag), so phase 1 reads other partitions'
//! lines through shared references while nobody writes them; writers fill only slots due
//! later (phase 2, or right after the writer's step when its partition is alone and no
//! other reads its lines: the slots written, due at `now + L >= now + 1`, are never the
//! ones read at `now`). The live tags at any time lie in `[now, now + L]`, fewer than the
//! ring size, so a slot is never overwritten before it is read.
//!
//! At most one item enters each side per cycle: a channel moves one flit per cycle
//! (flit = phit), and the contract allows at most one credit per channel per cycle. A
//! second write in one cycle is a phase-discipline bug and panics.

mod arrival_mask;
mod delay_line;
mod inbox;
mod landing;
mod ring;
mod side;
mod wakes;

pub(crate) use arrival_mask::{arrival_bit, MASK_PORTS, TERMINAL_CREDIT, TERMINAL_FLIT};
pub use delay_line::{Blank, DelayLines};
pub use inbox::{CutSide, Inbox, Lines};
pub use landing::{Arrival, Due, Land, Landing};
pub use ring::DelayLine;
pub use side::{Channel, ChannelSide, WakeRef, WriteSide};
pub use wakes::{WakeBucket, WakeSpot, Wakes, Woken};
