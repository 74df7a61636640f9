//! The window policy: each window of cycles runs in parallel or serially, decided from
//! the previous window's work with integers every worker shares.

use flitsim_netlist::Cycle;

/// Cycles per window of the serial/parallel decision. Long enough that a switch (one
/// barrier and one wake-up of the sleeping workers, tens of microseconds) costs little
/// against the window (256 cycles of even a small network are about a millisecond), short
/// enough to follow a load that changes (a warm-up, a drain going quiet).
pub const WINDOW_CYCLES: u64 = 256;

/// The mode of the current window and what the next decision needs; the simulation keeps
/// it from one run of cycles to the next (a window may span several runs).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct WindowState {
    /// The current window runs serially (worker 0 steps every partition).
    pub serial: bool,
    /// The cycle the current window opened.
    pub opened: Cycle,
    /// Routers stepped in the whole network (`Status::stepped`, since cycle 0) when it
    /// opened.
    pub stepped: u64,
    /// Cycles simulated in serial windows so far (for `Perf`; one worker counts none).
    pub serial_cycles: u64,
}

impl WindowState {
    /// The state at cycle 0 of `routers` routers on `workers` workers. The first window
    /// has no history: it runs serially only if even every router stepped every cycle
    /// would fall below `min_work` per worker.
    pub fn new(routers: usize, workers: usize, min_work: u64) -> WindowState {
        WindowState {
            serial: workers > 1 && (routers as u64) < min_work.saturating_mul(workers as u64),
            opened: Cycle(0),
            stepped: 0,
            serial_cycles: 0,
        }
    }

    /// Opens the window starting at `now` (a multiple of [`WINDOW_CYCLES`]) given the
    /// network's `stepped` count: serial if the previous window stepped fewer than
    /// `min_work` routers per cycle per worker. Integers only, the same on every worker.
    pub(super) fn open(&mut self, now: Cycle, stepped: u64, workers: usize, min_work: u64) {
        if now <= self.opened {
            return;
        }
        let cycles = now.0 - self.opened.0;
        let work = stepped.saturating_sub(self.stepped);
        self.serial = workers > 1
            && work
                < min_work
                    .saturating_mul(workers as u64)
                    .saturating_mul(cycles);
        self.opened = now;
        self.stepped = stepped;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mode_follows_the_previous_window() {
        // 64 routers on 2 workers at 24 per worker: the first window can reach 32.
        let mut w = WindowState::new(64, 2, 24);
        assert!(!w.serial);
        w.open(Cycle(256), 256 * 47, 2, 24);
        assert!(w.serial);
        w.open(Cycle(512), 256 * 47 + 256 * 48, 2, 24);
        assert!(!w.serial);
        // Deciding twice at the same cycle changes nothing.
        w.open(Cycle(512), 0, 2, 24);
        assert!(!w.serial);
        assert!(WindowState::new(64, 2, 33).serial);
        assert!(!WindowState::new(64, 1, u64::MAX).serial);
        let mut one = WindowState::new(64, 1, u64::MAX);
        one.open(Cycle(256), 0, 1, u64::MAX);
        assert!(!one.serial, "one worker has nobody to hand work to");
    }
}
