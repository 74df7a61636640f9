//! Generation: the Bernoulli trials drawn ahead, trace schedules, and the source queue.

use super::records::QueuedPacket;
use super::state::{Terminal, ALL_DRAWN, DRAW_AHEAD};
use super::tally::Tally;
use crate::injection::Generator;
use crate::traffic::TracePacket;
use flitsim_netlist::{Cycle, TerminalId};

impl Terminal {
    /// Puts a packet of `len` flits to `dest` into the source queue as generated at `now`
    /// (outside the random process: tests and scripted traffic). Call it before the step
    /// of cycle `now`.
    pub fn enqueue(&mut self, now: Cycle, dest: TerminalId, len: u32) {
        assert!(len >= 1, "packet length must be >= 1");
        self.push_packet(now, dest, len, &mut Tally::default());
    }

    pub(super) fn push_packet(
        &mut self,
        now: Cycle,
        dest: TerminalId,
        len: u32,
        tally: &mut Tally,
    ) {
        let seq = self.next_seq;
        self.next_seq += 1;
        self.count_generated(now, len, tally);
        self.queue.push_back(QueuedPacket {
            seq,
            dest,
            len,
            created: now,
            not_before: now,
            retry: false,
            fixed_vc: None,
        });
    }

    /// Counts a packet of `len` flits generated at `now` (a request or a reply).
    pub(super) fn count_generated(&mut self, now: Cycle, len: u32, tally: &mut Tally) {
        self.settle_areas(now);
        self.stats.packets_generated += 1;
        if self.window.contains(now) {
            tally.measured_generated += 1;
            self.stats.measured_generated += 1;
            self.stats.window_flits_generated += u64::from(len);
        }
    }

    /// Is a packet generated (by the random process) at cycle `now`?
    #[inline(always)]
    pub(super) fn generating(&self, now: Cycle) -> bool {
        self.config.stop_generating.is_none_or(|s| now < s)
    }

    /// The generation trial of cycle `now`, drawing the next ones ahead first if its own
    /// is not drawn yet.
    #[inline(always)]
    pub(super) fn trial(&mut self, now: Cycle) -> bool {
        if now >= self.drawn {
            // Cycles before `now` not stepped and not drawn ahead (only when the caller
            // skips steps without asking `look_ahead`) draw nothing.
            self.drawn = now;
            self.next_generation = None;
            self.draw_ahead(DRAW_AHEAD);
        }
        let hit = self.next_generation == Some(now);
        if hit {
            self.next_generation = None;
        }
        hit
    }

    /// For an idle terminal stepped at `now`: draws the generation trials of the next
    /// cycles, in order (the same draws the steps would make), at most `horizon` of them,
    /// none for a cycle the run does not reach ([`Terminal::draw_until`]), stopping at the
    /// first success (unless one is drawn already). Returns the next cycle
    /// the terminal must be stepped in even if nothing arrives: that success, or the first
    /// cycle not drawn; `None` if it never generates again. Steps of the cycles in between
    /// may be skipped.
    #[inline]
    pub fn look_ahead(&mut self, now: Cycle, horizon: u64) -> Option<Cycle> {
        debug_assert!(self.drawn > now, "look-ahead before the step");
        if self.next_generation.is_none() && self.drawn < self.draw_until {
            self.draw_ahead(horizon);
        }
        match self.next_generation {
            Some(g) => Some(g),
            None => (self.drawn != ALL_DRAWN).then_some(self.drawn),
        }
    }

    /// Before a run (the engine, with every terminal stepped in the run's first cycle):
    /// trials are drawn ahead for cycles before `end` only (the one of the cycle stepped
    /// always), so none is drawn for a cycle the simulation is not expected to reach (the
    /// engine passes the end of the run, or that of the measurement's drain if later:
    /// trials drawn past one run serve the next). A later run draws on from there: the
    /// same draws in the same order.
    pub fn draw_until(&mut self, end: Cycle) {
        self.draw_until = end;
    }

    /// Draws the trials from `drawn` on, in cycle order, up to the first success (then
    /// `next_generation`), at most `horizon` of them and at least one, none for a cycle
    /// from `draw_until` on but the first; once `stop_generating` is reached every trial
    /// is drawn (they all fail without a draw): `drawn` is [`ALL_DRAWN`].
    #[inline(never)]
    pub(super) fn draw_ahead(&mut self, horizon: u64) {
        debug_assert!(self.next_generation.is_none(), "a success not stepped yet");
        let from = self.drawn.0;
        let stop = self.config.stop_generating.map_or(u64::MAX, |s| s.0);
        let until = self.draw_until.0.max(from + 1);
        let trials = stop.min(until).saturating_sub(from).min(horizon);
        self.drawn = match self.generate.first_success(&mut self.rng, trials) {
            Some(k) => {
                self.next_generation = Some(Cycle(from + k));
                Cycle(from + k + 1)
            }
            None if from + trials >= stop => ALL_DRAWN,
            None => Cycle(from + trials),
        };
    }

    /// Replaces random generation by `events` (this terminal's packets of a trace, sorted
    /// by cycle): the random process is switched off. A packet whose cycle has passed
    /// is generated at the next step.
    pub fn set_schedule(&mut self, events: impl IntoIterator<Item = TracePacket>) {
        self.generate = Generator::silent();
        self.schedule = events.into_iter().collect();
    }

    /// Keeps the tag of every packet generated from the schedule (a netrace replay maps
    /// deliveries back to the trace through [`Terminal::tag_of`]).
    pub fn keep_tags(&mut self) {
        self.tags = Some(Vec::new());
    }

    /// The tag of the packet this terminal generated with sequence number `seq`, if
    /// tags are kept and it came from the schedule.
    pub fn tag_of(&self, seq: u32) -> Option<u32> {
        let tags = self.tags.as_ref()?;
        let i = tags.binary_search_by_key(&seq, |&(s, _)| s).ok()?;
        Some(tags[i].1)
    }

    /// Adds `e` to the schedule after every packet of its cycle or earlier (a packet
    /// whose cycle has passed is generated at the next step).
    pub fn schedule_one(&mut self, e: TracePacket) {
        let at = self.schedule.partition_point(|x| x.cycle <= e.cycle);
        self.schedule.insert(at, e);
    }

    /// The cycle of the next packet in the schedule.
    pub fn next_scheduled(&self) -> Option<Cycle> {
        self.schedule.front().map(|e| e.cycle)
    }

    /// Trace packets not generated yet.
    pub fn scheduled(&self) -> usize {
        self.schedule.len()
    }
}
