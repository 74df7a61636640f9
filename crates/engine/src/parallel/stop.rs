//! The stop rules of a run of cycles.

use crate::network::status::Status;
use flitsim_netlist::Cycle;

/// When a run of cycles stops (checked before each cycle, after the watchdog has seen the
/// previous one).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Stop {
    /// At this cycle.
    At(Cycle),
    /// When every measured packet is delivered, or at this cycle.
    Drained(Cycle),
    /// When no flit is in the network and no packet queued, or at this cycle.
    Idle(Cycle),
}

impl Stop {
    /// The cycle the run stops at at the latest (none from it on is simulated).
    pub fn end(self) -> Cycle {
        match self {
            Stop::At(end) | Stop::Drained(end) | Stop::Idle(end) => end,
        }
    }

    /// This stop with its cycle brought back to `last`, if it is later (`None`: it is not).
    pub fn capped(self, last: Cycle) -> Option<Stop> {
        (self.end() > last).then_some(match self {
            Stop::At(_) => Stop::At(last),
            Stop::Drained(_) => Stop::Drained(last),
            Stop::Idle(_) => Stop::Idle(last),
        })
    }

    pub(super) fn reached(self, now: Cycle, s: &Status) -> bool {
        match self {
            Stop::At(end) => now >= end,
            Stop::Drained(end) => {
                now >= end || s.tally.measured_generated == s.tally.measured_delivered
            }
            Stop::Idle(end) => now >= end || (s.in_network() == 0 && s.tally.queued() == 0),
        }
    }
}
