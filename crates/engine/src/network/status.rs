//! A partition's counters since cycle 0, kept by events and published each cycle.

use crate::terminal::Tally;

/// A partition's counters since cycle 0 (integers, summed over partitions in id order).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Status {
    /// Flits written onto channels by routers (including ejection channels): flit-router
    /// traversals.
    pub router_flits: u64,
    /// Flits written onto injection channels by terminals.
    pub injected: u64,
    /// Flits consumed by terminals.
    pub consumed: u64,
    /// Flits discarded by timeout resets.
    pub discarded: u64,
    /// Routers actually stepped (not skipped as quiescent).
    pub stepped: u64,
    /// Did any flit move in the last cycle?
    pub moved: bool,
    /// Packet counts of the terminals (since the run started: see [`Tally::of`]).
    pub tally: Tally,
}

impl Status {
    /// Adds `o` (a later partition) to `self`.
    pub fn merge(&mut self, o: &Status) {
        self.router_flits += o.router_flits;
        self.injected += o.injected;
        self.consumed += o.consumed;
        self.discarded += o.discarded;
        self.stepped += o.stepped;
        self.moved |= o.moved;
        self.tally.merge(&o.tally);
    }

    /// The statuses of every partition, in id order, summed.
    pub fn sum<'a>(parts: impl IntoIterator<Item = &'a Status>) -> Status {
        let mut s = Status::default();
        for p in parts {
            s.merge(p);
        }
        s
    }

    /// Flits injected but not yet consumed or discarded.
    pub fn in_network(&self) -> u64 {
        self.injected - self.consumed - self.discarded
    }
}
