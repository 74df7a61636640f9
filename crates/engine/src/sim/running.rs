//! Running a simulation: cycles until a stop (a cycle, idle, the drain), on every
//! partition's worker, with the watchdog; packets put in by hand.

use super::Simulation;
use crate::checks::watchdog;
use crate::cycle::View;
use crate::error::SimError;
use crate::network::{Status, PHASE_BUG};
use crate::parallel::{self, Stop};
use crate::stats::{RunReport, Window};
use flitsim_netlist::{Cycle, TerminalId};

impl Simulation {
    /// Simulates one cycle.
    ///
    /// # Errors
    /// `SimError::Deadlock`/`Stalled` when the watchdog fires, `SimError::CycleLimit` when
    /// the simulation reaches [`Stamp::LAST`](flitsim_router::Stamp::LAST) (then every
    /// later call returns the same error without simulating).
    pub fn step(&mut self) -> Result<(), SimError> {
        self.advance_until(Stop::At(self.now.plus(1)))
    }

    /// Simulates `cycles` cycles.
    ///
    /// # Errors
    /// As [`Simulation::step`].
    pub fn run_for(&mut self, cycles: u64) -> Result<(), SimError> {
        self.advance_until(Stop::At(Cycle(self.now.0.saturating_add(cycles))))
    }

    /// Simulates until no packet is queued or in the network, at most `max` cycles.
    /// Returns whether the network became idle.
    ///
    /// # Errors
    /// As [`Simulation::step`].
    pub fn run_until_idle(&mut self, max: u64) -> Result<bool, SimError> {
        self.advance_until(Stop::Idle(Cycle(self.now.0.saturating_add(max))))?;
        Ok(self.is_idle())
    }

    /// Warm-up, measurement window, then drain of the measured packets (bounded by
    /// `config.drain`). A watchdog stop ends the run early; the report then carries it in
    /// `deadlock`.
    pub fn run(&mut self) -> RunReport {
        let _ = self.run_phases();
        self.check_last_cycle();
        self.report()
    }

    /// With cycle checks on, checks conservation after the last cycle run: the checks
    /// between cycles may skip it when they are spaced out
    /// ([`crate::checks::conservation::check_every`]).
    fn check_last_cycle(&self) {
        if self.config.cycle_checks && self.now.0 > 0 {
            crate::checks::conservation::check(Cycle(self.now.0 - 1), &View::new(&self.net));
        }
    }

    fn run_phases(&mut self) -> Result<(), SimError> {
        if self.config.auto.is_some() {
            self.measure_auto()?;
        } else {
            self.measure_fixed()?;
        }
        if self.outcome.saturated.is_some() && self.config.stop_on_saturation {
            return Ok(());
        }
        let limit = Cycle(self.window.end.0 + self.config.drain);
        if self.config.drain_all {
            self.advance_until(Stop::Idle(limit))?;
            self.drain_limit_hit = !self.is_idle();
            return Ok(());
        }
        self.advance_until(Stop::Drained(limit))
    }

    /// Runs cycles until `stop` (a netrace replay: see [`replay`]).
    fn advance_until(&mut self, stop: Stop) -> Result<(), SimError> {
        if self.replay.is_some() {
            self.advance_replay(stop)
        } else {
            self.advance_plain(stop)
        }
    }

    /// Runs cycles until `stop` on every partition's worker (see [`crate::parallel`]).
    pub(super) fn advance_plain(&mut self, stop: Stop) -> Result<(), SimError> {
        if let Some(e) = &self.error {
            return Err(e.clone());
        }
        // No cycle past the flits' 32-bit stamps: a stop beyond the last is brought back
        // to it, and reaching it is an error.
        let (stop, capped) = match stop.capped(self.last) {
            Some(s) => (s, true),
            None => (stop, false),
        };
        // Trials drawn ahead past this run are used by the next one: only those past the
        // drain of the measurement window are likely never to be. Saturating: before an
        // automatic measurement has placed its window, the window ends at `u64::MAX`.
        let drained = Cycle(self.window.end.0.saturating_add(self.config.drain));
        self.publish(stop.end().max(drained));
        let fired = loop {
            let fired = self.advance_once(stop);
            let Some(at) = fired else { break None };
            // Something scheduled (a flit on a long channel, a pipeline delay) is
            // progress: the watchdog counts again from there.
            match View::new(&self.net).busy_until(self.now) {
                Some(until) => self.watchdog.progress_until(until),
                None => break Some(at),
            }
        };
        if let Some(at) = fired {
            let e = watchdog::diagnose(at, self.watchdog.idle(at), &View::new(&self.net));
            if let Some((t, names)) = &mut self.trace {
                t.verdict(at, names, &e);
            }
            self.error = Some(e.clone());
            return Err(e);
        }
        if capped && self.now >= self.last {
            let e = SimError::CycleLimit { cycle: self.now };
            self.error = Some(e.clone());
            return Err(e);
        }
        Ok(())
    }

    /// Runs cycles until `stop` or the watchdog fires (returning the cycle it fired at).
    fn advance_once(&mut self, stop: Stop) -> Option<Cycle> {
        let t0 = std::time::Instant::now();
        let start = self.now;
        let out = parallel::run(
            &self.net,
            start,
            stop,
            &self.watchdog,
            self.windows,
            parallel::Options {
                min_work: self.config.min_parallel_work,
                checks: self.config.cycle_checks,
                cuts: &self.cuts,
                lookahead: self.trace.is_none() && self.lookahead,
            },
        );
        self.wall += t0.elapsed();
        self.timed_cycles += out.now.0 - start.0;
        self.now = out.now;
        // Idle terminals skipped cycles: bring their window areas up to now.
        for part in &mut self.net.parts {
            for t in &mut part.members.get_mut().expect(PHASE_BUG).terminals {
                t.terminal.settle(self.now);
            }
        }
        self.watchdog = out.watchdog;
        self.windows = out.windows;
        out.fired
    }

    /// Prepares every partition for a run ending before `end` at the latest and
    /// republishes its terminal-derived counters (a packet may have been enqueued, or a
    /// router looked at, since the last cycle).
    fn publish(&mut self, end: Cycle) {
        for part in &mut self.net.parts {
            let members = part.members.get_mut().expect(PHASE_BUG);
            crate::cycle::start(members, end);
            let status = members.status;
            part.lines.get_mut().expect(PHASE_BUG).status = status;
        }
    }

    /// Every partition's counters, summed in id order.
    pub(super) fn totals(&self) -> Status {
        let mut s = Status::default();
        for part in &self.net.parts {
            s.merge(&part.lines.try_read().expect(PHASE_BUG).status);
        }
        s
    }

    /// Puts a packet from `src` to `dest` of `len` flits into `src`'s source queue, as
    /// generated at the current cycle (scripted traffic, tests).
    pub fn enqueue(&mut self, src: TerminalId, dest: TerminalId, len: u32) {
        let p = self.net.part_of_terminal(src.index());
        let members = self.net.parts[p].members.get_mut().expect(PHASE_BUG);
        let lo = members.terminal_lo;
        members.terminals[src.index() - lo]
            .terminal
            .enqueue(self.now, dest, len);
    }

    /// Moves the measurement window of every terminal.
    pub(super) fn set_window(&mut self, window: Window) {
        self.window = window;
        for part in &mut self.net.parts {
            for t in &mut part.members.get_mut().expect(PHASE_BUG).terminals {
                t.terminal.set_window(window);
            }
        }
    }
}
