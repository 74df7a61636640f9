//! What the workers carry from cycle to cycle, and the decision taken before each cycle.

use super::stop::Stop;
use super::window::{WindowState, WINDOW_CYCLES};
use crate::checks::watchdog::Watchdog;
use crate::network::status::Status;
use flitsim_netlist::Cycle;

/// What every worker carries from cycle to cycle (all workers hold equal copies; after a
/// serial window worker 0 hands its copy to the others), and at the end of a run how it
/// ended.
#[derive(Clone, Debug)]
pub(crate) struct Progress {
    /// The next cycle to simulate.
    pub now: Cycle,
    /// The watchdog (it has seen every cycle before `now`).
    pub watchdog: Watchdog,
    /// The cycle at which the watchdog fired, if it did.
    pub fired: Option<Cycle>,
    /// The windows' modes.
    pub windows: WindowState,
    /// Which of each partition's two exports the next lookahead window reads.
    pub slot: usize,
}

/// What does not change during a run.
#[derive(Copy, Clone, Debug)]
pub(super) struct Plan {
    pub start: Cycle,
    pub stop: Stop,
    pub workers: usize,
    pub min_work: u64,
    /// Run the conservation check after every `check_every` cycles.
    pub checks: bool,
    /// Cycles between conservation checks (`conservation::check_every`).
    pub check_every: u64,
    /// Cycles the partitions may run without meeting (1: they meet every cycle).
    pub lookahead: u64,
}

/// What to do at the current cycle.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Next {
    /// The run is over (stop rule reached, or the watchdog fired).
    End,
    /// The first `k` workers step the partitions of their [`group`](super::window::group);
    /// the others sleep. `Step(1)` of several workers is a serial window.
    Step(usize),
}

impl Progress {
    /// Before cycle `now`, from every partition's status summed in id order: the
    /// watchdog's verdict on the previous cycle, the stop rule, then at a window boundary
    /// the window's active workers.
    pub(super) fn next(&mut self, plan: &Plan, totals: &Status) -> Next {
        if self.now > plan.start {
            let last = Cycle(self.now.0 - 1);
            if self
                .watchdog
                .observe(last, totals.moved, totals.in_network())
            {
                self.fired = Some(last);
                return Next::End;
            }
        }
        if plan.stop.reached(self.now, totals) {
            return Next::End;
        }
        if self.now.0 % WINDOW_CYCLES == 0 {
            self.windows
                .open(self.now, totals.stepped, plan.workers, plan.min_work);
        }
        Next::Step(self.windows.active)
    }
}
