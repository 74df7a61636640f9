//! A partition: a contiguous range of router and terminal ids, its routers and terminals
//! (phase 1's) and the channel sides it writes (phase 2's), each behind a lock that is
//! never contended.

use super::status::Status;
use super::wired::{WiredRouter, WiredTerminal};
use crate::calendar::Calendar;
use crate::channel::{DelayLines, Wakes};
use flitsim_router::{Credit, Flit, Reset, StepScratch};
use std::sync::{Mutex, RwLock};

/// The routers and terminals of one partition (routers `lo..lo + routers.len()`, terminals
/// `terminal_lo..terminal_lo + terminals.len()`), owned by its worker.
pub(crate) struct Members {
    /// Index of the partition.
    pub part: usize,
    pub lo: usize,
    pub terminal_lo: usize,
    pub routers: Vec<WiredRouter>,
    pub terminals: Vec<WiredTerminal>,
    /// Bit set of the local routers to step next cycle: the ones not quiescent after
    /// their last step; phase 1 adds the ones something arrives for.
    pub pending: Vec<u64>,
    /// Bit set of the local terminals something arrives for this cycle (the others find
    /// nothing on their lines).
    pub arriving: Vec<u64>,
    /// Per local terminal, what arrives this cycle
    /// ([`TERMINAL_FLIT`](crate::channel::TERMINAL_FLIT),
    /// [`TERMINAL_CREDIT`](crate::channel::TERMINAL_CREDIT)), padded as `arrivals`; unused by a
    /// partition alone on lines of one latency, as `arrivals`.
    pub terminal_arrivals: Vec<u64>,
    /// Bit set of the local terminals to step next cycle even if nothing arrives: the
    /// ones not idle after their last step (all of them while tracing), and the ones the
    /// calendar names for the cycle.
    pub busy: Vec<u64>,
    /// Idle local terminals by the cycle they must step at (their next generation, or
    /// the end of their drawn trials: [`crate::terminal::Terminal::look_ahead`]).
    pub calendar: Calendar,
    /// Bit set of the local terminals stepped this cycle (their outboxes are written in
    /// phase 2; a partition alone has sent them already).
    pub stepped_terminals: Vec<u64>,
    /// Per local router, the lines something arrives on this cycle
    /// ([`arrival_bit`](crate::channel::arrival_bit)): a woken router reads only those (padded to a
    /// multiple of 64 entries, one per bit of the router bit sets). Unused by a partition alone on
    /// lines of one latency: it takes them where the wake-ups lie ([`Wakes::take_and_wake`]).
    pub arrivals: Vec<u64>,
    /// Bit set of the local routers stepped this cycle (phase 2 copies what they wrote
    /// onto their lines; a partition alone has sent it already).
    pub stepped: Vec<u64>,
    /// The status's flit counters summed at the start of this cycle (did a flit move?).
    pub moved_before: u64,
    /// Counters of this partition, published in phase 2.
    pub status: Status,
    /// Trace events of this partition (`None`: tracing off).
    pub trace: Option<crate::trace::PartTrace>,
    /// The latency of every line when all have the same (every channel's and every
    /// router's `terminal_latency`): what is sent in one cycle is all due in one.
    pub latency: Option<u32>,
    /// Some router of the partition has more ports than the arrival masks cover
    /// ([`MASK_PORTS`](crate::channel::MASK_PORTS)).
    pub wide: bool,
    /// The working space of the router steps of this partition's worker (clear between
    /// steps; [`flitsim_router::Router::finish_step`]).
    pub scratch: Box<StepScratch>,
}

/// The channel sides a partition writes (phase 2) and everyone reads (phase 1), and the
/// partition's published counters.
#[derive(Default)]
pub(crate) struct Outbound {
    pub flits: DelayLines<Flit>,
    pub credits: DelayLines<Credit>,
    /// Timeout resets on reverse sides, laid out as `credits` (the same
    /// [`DelayLine`](crate::channel::DelayLine)s; empty when no router has a timeout).
    pub resets: DelayLines<Reset>,
    /// Wake-ups for each reader partition (by partition index).
    pub wakes: Vec<Wakes>,
    pub status: Status,
}

/// One partition. The locks only hand out phase-specific access: they are taken with
/// `try_lock`/`try_read`/`try_write` and never contended (a failure is a phase bug).
pub(crate) struct Partition {
    pub members: Mutex<Members>,
    pub lines: RwLock<Outbound>,
}

/// Message of every lock failure: the phases overlap.
pub(crate) const PHASE_BUG: &str = "partition lock contended: phase discipline broken";

impl Members {
    /// Partition `part` with no router or terminal added yet, room for `size` routers from
    /// id `lo` and `terminals` terminals from `terminal_lo`, on lines of one `latency` or not.
    pub fn empty(
        part: usize,
        (lo, size): (usize, usize),
        (terminal_lo, terminals): (usize, usize),
        latency: Option<u32>,
    ) -> Members {
        let words = size.div_ceil(64);
        let terminal_words = terminals.div_ceil(64);
        Members {
            part,
            lo,
            terminal_lo,
            routers: Vec::with_capacity(size),
            terminals: Vec::with_capacity(terminals),
            pending: vec![0; words],
            arriving: vec![0; terminal_words],
            busy: vec![0; terminal_words],
            calendar: Calendar::new(terminals),
            stepped_terminals: vec![0; terminal_words],
            arrivals: vec![0; words * 64],
            terminal_arrivals: vec![0; terminal_words * 64],
            stepped: vec![0; words],
            moved_before: 0,
            status: Status::default(),
            trace: None,
            latency,
            wide: false,
            scratch: Box::default(),
        }
    }
}

/// Partition bounds: `parts` contiguous ranges of `n` ids, sizes differing by at most one.
pub(crate) fn bounds(n: usize, parts: usize) -> Vec<usize> {
    let parts = parts.clamp(1, n.max(1));
    (0..=parts).map(|p| p * n / parts).collect()
}
