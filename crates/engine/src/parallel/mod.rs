//! The cycle loops over partitions: one long-lived worker per partition inside one
//! `crossbeam::thread::scope`, the two phases separated by a barrier. The serial engine is
//! the one-partition case: its single worker runs in the calling thread and, as nobody
//! else reads its channel sides, runs both phases of a cycle in one pass
//! ([`crate::cycle::fused_cycle`]).
//!
//! Per cycle of a parallel window, each worker: (phase 1) takes shared access to every
//! partition's channel sides and exclusive access to its own members, sums the statuses every
//! partition published after the previous cycle (the same integers in the same order for
//! every worker, so every worker reaches the same stop decision at the same cycle: no
//! leader, no shared mutable state), and computes; barrier; (phase 2) writes what its
//! components wrote into its own channel sides and publishes its status; barrier. In
//! debug builds worker 0 then checks conservation over the whole network while the others
//! wait at a third barrier.
//!
//! **Windows.** Cycles are grouped into windows of [`WINDOW_CYCLES`] cycles (aligned to
//! cycle 0). When a window opens, every worker takes the same decision from the same
//! integers (`WindowState::open`): the window runs on `k` workers, as many as the routers
//! stepped per cycle in the previous window keep busy at `SimConfig::min_parallel_work`
//! each (at least 1, at most the partitions). Worker `j < k` steps a contiguous group of
//! partitions, phase 1 of each then phase 2 of each, with the same barriers among the `k`;
//! the others block on a gate (they sleep, they do not spin). `k` = 1 is a serial window.
//! When `k` changes, or the run ends (stop rule or watchdog, at any cycle of the window),
//! the active workers meet at their barrier and worker 0 hands its progress (cycle,
//! watchdog, window state, how the run ended) to the sleepers through the gate, so they
//! continue from exactly its state. A larger thread count never gives a window fewer
//! workers. The partitions are never changed, and which worker steps a partition carries
//! no meaning, so results do not depend on the windows either; only speed does (a
//! lightly loaded small network's cycle is shorter than two barrier round trips between
//! cores).
//!
//! **Lookahead windows.** What a partition reads from another at cycle `t` was written at
//! `t - L`, `L` the latency of the channel crossing the boundary ([`Cuts`] holds the
//! smallest, the lookahead). So the active workers may step up to `L` cycles between two
//! meetings: before such a window each partition copies what its cut sides deliver during
//! it into one inbox per reader (its export of the window's parity); in the window each
//! partition steps cycle after cycle in one pass (`cycle::ahead_cycle`), reading its own
//! sides in place and the others' from their inboxes, then fills its other export (the
//! next window's inboxes and its status after each cycle) and meets the others once. Every
//! worker then replays the decisions of each cycle from those statuses. A window is as
//! long as no decision inside it could end the run (`lookahead::window_length`); else the
//! cycle runs in two phases.
//!
//! The locks only hand out phase-specific access; they are taken with `try_*` and are never
//! contended, a failure panics as a phase bug. A panicking worker poisons the barrier and
//! the gate so the others panic instead of waiting forever.

mod ahead;
mod lookahead;
mod loops;
mod progress;
mod stop;
mod sync;
mod window;

pub(crate) use lookahead::Cuts;
pub(crate) use loops::{run, Options};
pub(crate) use stop::Stop;
#[cfg(test)]
pub(crate) use window::active_workers;
pub(crate) use window::WindowState;
pub use window::WINDOW_CYCLES;
