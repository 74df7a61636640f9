//! One cycle of one partition, in two phases. This is the engine's phase contract.
//!
//! A partition is a contiguous range of ids; router `i` and terminal `i` belong to the same
//! partition. A parallel run steps one partition per worker with a barrier between the
//! phases ([`crate::parallel`]). Nothing here depends on the order in which partitions or
//! components are visited:
//!
//! 1. [`compute`] (phase 1): each router and terminal of the partition takes what its
//!    channel sides deliver at `now` (reading, through shared references, the sides their
//!    writers own), steps, and keeps what it writes (a router in its crossbar and
//!    credit-return slots, a terminal in its outbox). Phase 1 writes no channel side. A
//!    router with nothing to do (quiescent and no input) is not stepped, nor even looked
//!    at: the partition keeps a bit set of the routers left non-quiescent by their last
//!    step and adds the ones the writers' wake-ups name for `now`
//!    ([`crate::channel::Wakes`]), so the cost of a cycle follows activity, not size.
//!    Terminals are visited the same way: the ones something arrives for, the ones not
//!    idle, and idle ones at the cycle their drawn-ahead generation trials name
//!    ([`crate::terminal::Terminal::look_ahead`]).
//! 2. [`write`] (phase 2): each component stepped copies what it wrote, once, into its own
//!    sides' slots due at `now + latency` and sets the reader's bit and arrival mask in
//!    the wake-ups of that cycle; the partition publishes its
//!    [`Status`](crate::network::Status) (counters kept by events, not by a sweep). Phase
//!    2 reads no other partition's side.
//!
//! Inside a router, stages run evaluate-then-commit in pipeline order within its step;
//! between components, only channels of latency >= 1 carry anything, so the order of
//! steps within a phase never matters.
//!
//! **One partition** ([`fused_cycle`], every single-thread run): nobody else reads its
//! sides during phase 1, and everything written at `now` is due at `now + latency`, at
//! least `now + 1` (netlist validation rejects latency 0,
//! [`crate::channel::DelayLines::push`] asserts it), in a slot and a wake-up bucket other
//! than those of `now` that phase 1 reads. So each component's outputs are written right
//! after its own step, in the same pass (no second walk over the stepped ones), through
//! the same per-component send as phase 2; what every reader sees is the same as with two
//! phases.
//!
//! [`View`] reads the whole network between cycles.

mod ahead;
mod fused;
mod pass;
mod phase1;
mod phase2;
mod read;
mod router_step;
mod routers;
mod send;
mod terminals;
mod trace;
mod view;

pub(crate) use ahead::ahead_cycle;
pub(crate) use fused::fused_cycle;
pub(crate) use phase1::{compute, start};
pub(crate) use phase2::write;
pub(crate) use view::View;
