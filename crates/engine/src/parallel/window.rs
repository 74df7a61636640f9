//! The window policy: each window of cycles runs on as many workers as the previous
//! window's work keeps busy, decided with integers every worker shares.

use flitsim_netlist::Cycle;

/// Cycles per window of the active-worker decision. Long enough that a switch (one
/// barrier and one wake-up of the sleeping workers, tens of microseconds) costs little
/// against the window (256 cycles of even a small network are about a millisecond), short
/// enough to follow a load that changes (a warm-up, a drain going quiet).
pub const WINDOW_CYCLES: u64 = 256;

/// The mode of the current window and what the next decision needs; the simulation keeps
/// it from one run of cycles to the next (a window may span several runs).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct WindowState {
    /// Workers stepping the current window, 1 to the partition count. Worker `j` of `k`
    /// steps the contiguous partitions [`group`] gives it; the others sleep. One active
    /// worker of several is a serial window.
    pub active: usize,
    /// The cycle the current window opened.
    pub opened: Cycle,
    /// Routers stepped in the whole network (`Status::stepped`, since cycle 0) when it
    /// opened.
    pub stepped: u64,
    /// Cycles simulated in serial windows so far (for `Perf`; one worker counts none).
    pub serial_cycles: u64,
    /// Active workers summed over the cycles simulated so far (for `Perf`; one worker
    /// counts none).
    pub worker_cycles: u64,
    /// Meetings of several workers so far (for `Perf`): two per cycle in two phases,
    /// one per lookahead window.
    pub barriers: u64,
}

/// The workers that `work` routers stepped in `cycles` cycles keep busy at `min_work`
/// routers per cycle per worker, between 1 and `workers`. It never falls when `workers`
/// grows: asking for more workers never runs a window on fewer. `min_work` 0 keeps every
/// worker, `u64::MAX` one.
pub(crate) fn active_workers(work: u64, cycles: u64, workers: usize, min_work: u64) -> usize {
    if min_work == 0 {
        return workers;
    }
    let busy = work / min_work.saturating_mul(cycles.max(1));
    usize::try_from(busy)
        .unwrap_or(usize::MAX)
        .clamp(1, workers.max(1))
}

/// The partitions worker `j` of `k` active workers steps among `parts`: a contiguous
/// run, the runs in worker order covering every partition once.
pub(crate) fn group(j: usize, k: usize, parts: usize) -> std::ops::Range<usize> {
    j * parts / k..(j + 1) * parts / k
}

impl WindowState {
    /// The state at cycle 0 of `routers` routers on `workers` workers. The first window
    /// has no history: it counts every router stepped every cycle.
    pub fn new(routers: usize, workers: usize, min_work: u64) -> WindowState {
        WindowState {
            active: active_workers(routers as u64, 1, workers, min_work),
            opened: Cycle(0),
            stepped: 0,
            serial_cycles: 0,
            worker_cycles: 0,
            barriers: 0,
        }
    }

    /// A serial window of more than one worker.
    #[cfg(test)]
    pub fn serial(&self, workers: usize) -> bool {
        workers > 1 && self.active == 1
    }

    /// Opens the window starting at `now` (a multiple of [`WINDOW_CYCLES`]) given the
    /// network's `stepped` count: as many workers as the previous window's routers
    /// stepped per cycle keep at `min_work` each ([`active_workers`]). Integers only, the
    /// same on every worker.
    pub(super) fn open(&mut self, now: Cycle, stepped: u64, workers: usize, min_work: u64) {
        if now <= self.opened {
            return;
        }
        let cycles = now.0 - self.opened.0;
        let work = stepped.saturating_sub(self.stepped);
        self.active = active_workers(work, cycles, workers, min_work);
        self.opened = now;
        self.stepped = stepped;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_active_workers_follow_the_previous_window() {
        // 64 routers on 2 workers at 24 per worker: the first window can reach 32.
        let mut w = WindowState::new(64, 2, 24);
        assert_eq!(w.active, 2);
        w.open(Cycle(256), 256 * 47, 2, 24);
        assert!(w.serial(2));
        w.open(Cycle(512), 256 * 47 + 256 * 48, 2, 24);
        assert_eq!(w.active, 2);
        // Deciding twice at the same cycle changes nothing.
        w.open(Cycle(512), 0, 2, 24);
        assert_eq!(w.active, 2);
        assert!(WindowState::new(64, 2, 33).serial(2));
        assert!(!WindowState::new(64, 1, u64::MAX).serial(1));
        // 100 routers stepped per cycle at 24 each keep 4 of 8 workers busy.
        let mut w = WindowState::new(64, 8, 24);
        w.open(Cycle(256), 256 * 100, 8, 24);
        assert_eq!(w.active, 4);
    }

    #[test]
    fn more_workers_never_run_a_window_on_fewer() {
        for work in (0..5000).step_by(37) {
            for min in [1, 24, 64, 100, u64::MAX] {
                let runs: Vec<usize> = (1..=16)
                    .map(|t| active_workers(work * 256, 256, t, min))
                    .collect();
                assert!(runs.windows(2).all(|w| w[0] <= w[1]), "{work} {min}");
                assert!(runs.iter().enumerate().all(|(t, &k)| k >= 1 && k <= t + 1));
            }
        }
    }

    #[test]
    fn the_groups_cover_every_partition_once_in_order() {
        for parts in 1..=17 {
            for k in 1..=parts {
                let all: Vec<usize> = (0..k).flat_map(|j| group(j, k, parts)).collect();
                assert_eq!(all, (0..parts).collect::<Vec<_>>());
                assert!((0..k).all(|j| !group(j, k, parts).is_empty()));
            }
        }
    }
}
