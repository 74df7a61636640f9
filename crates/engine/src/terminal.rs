//! A terminal: generates packets into an infinite source queue, injects them one flit per
//! cycle onto its injection channel (into router input port 0), and consumes every flit
//! its ejection channel delivers.
//!
//! Timing: a packet generated at cycle `g` may put its head
//! on the injection channel at `g` itself if a VC is free. Packets leave the source queue
//! in FIFO order, one at a time; a packet takes the lowest-index injection VC whose
//! credits are all home and that no packet owns, and keeps it until its tail is sent.
//! Ejection never blocks: each arriving flit is consumed the cycle it arrives and its
//! credit is sent back at once (`credit_delay` 0 on the terminal side).
//!
//! Within one step the order is: credits in, flit consumed, generation, injection. Only
//! the terminal's own random stream is drawn from, and only for generation: one Bernoulli
//! trial per cycle (then the destination and length of a generated packet). The trials are
//! drawn ahead, in cycle order, up to the next success (at most [`DRAW_AHEAD`] of them at a
//! time), so the stream and the results are those of one trial per step; the engine skips
//! the steps of an idle terminal in which nothing arrives up to the cycle
//! [`Terminal::look_ahead`] names.

use crate::latency::{LatencyDef, PacketTimes};
use crate::length::LengthDist;
use crate::rng::{Bernoulli, ComponentRng};
use crate::stats::{TerminalStats, Window};
use crate::traffic::{TraceEvent, TrafficPattern};
use flitsim_netlist::{BufferDepth, Cycle, TerminalId, VcId};
use flitsim_router::{Credit, Flit, FlitKind, PacketId, Reset, Stamp};
use std::collections::VecDeque;
use std::sync::Arc;

/// Generation trials a stepped terminal draws at once when its drawn ones run out (fewer
/// if one succeeds first or generation stops).
pub const DRAW_AHEAD: u64 = 1024;

/// `Terminal::drawn` once generation has stopped: no cycle has a trial left to draw.
const ALL_DRAWN: Cycle = Cycle(u64::MAX);

/// A packet waiting in the source queue.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct QueuedPacket {
    seq: u32,
    dest: TerminalId,
    len: u32,
    created: Cycle,
    /// Not injected before this cycle (retransmission back-off).
    not_before: Cycle,
    /// A retransmission after a timeout reset.
    retry: bool,
}

/// The packet currently being injected: its next flit, built whole when the packet
/// starts, so each flit sent changes only its index and kind.
#[derive(Copy, Clone, Debug)]
struct Injecting {
    next: Flit,
}

/// The terminal's view of one VC of router input port 0.
#[derive(Copy, Clone, Debug)]
struct InjectionVc {
    /// Flits sent whose credit has not come back.
    outstanding: u32,
    /// FIFO depth downstream (`u32::MAX` when unbounded: more flits than can be
    /// outstanding).
    depth: u32,
    /// A packet is being injected on it.
    owned: bool,
}

/// A packet whose tail was consumed (recorded only when asked for: tests and traces).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Delivery {
    /// The packet.
    pub packet: PacketId,
    /// Its destination (the consuming terminal).
    pub dest: TerminalId,
    /// Length in flits.
    pub len: u32,
    /// Cycle generated.
    pub created: Cycle,
    /// Cycle its head was written onto the injection channel.
    pub injected: Cycle,
    /// Cycle its tail was consumed.
    pub consumed: Cycle,
    /// Router-to-router channels its tail crossed.
    pub hops: u16,
    /// Its latency under the run's [`LatencyDef`].
    pub measured: u64,
}

impl Delivery {
    /// Packet latency from generation to tail consumed (whatever the run's definition).
    pub fn latency(&self) -> u64 {
        self.consumed.0 - self.created.0
    }
}

/// Running counts over a group of terminals that the engine's stop rules read, kept by
/// events (a terminal step adds what it changed) instead of a sweep over the terminals.
/// All counts are monotone; packets waiting = `queued_in - queued_out`.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Measured packets generated.
    pub measured_generated: u64,
    /// Measured packets delivered (tail consumed).
    pub measured_delivered: u64,
    /// Packets that entered a source queue or a trace schedule (a timeout reset re-queues
    /// a packet: it enters again).
    pub queued_in: u64,
    /// Packets that left (tail sent, dropped from a schedule, or taken back by a reset).
    pub queued_out: u64,
}

impl Tally {
    /// The counts of one terminal as it stands (the start of a run: nothing left yet).
    pub fn of(t: &Terminal) -> Tally {
        Tally {
            measured_generated: t.stats.measured_generated,
            measured_delivered: t.stats.measured_delivered,
            queued_in: (t.source_queue_len() + t.scheduled()) as u64,
            queued_out: 0,
        }
    }

    /// Adds `o`.
    pub fn merge(&mut self, o: &Tally) {
        self.measured_generated += o.measured_generated;
        self.measured_delivered += o.measured_delivered;
        self.queued_in += o.queued_in;
        self.queued_out += o.queued_out;
    }

    /// Packets waiting in source queues or schedules, or being injected.
    pub fn queued(&self) -> u64 {
        self.queued_in - self.queued_out
    }
}

/// How a terminal generates traffic.
#[derive(Clone, Debug)]
pub struct TerminalConfig {
    /// Probability of generating a packet in a cycle (packets per terminal per cycle).
    pub rate: f64,
    /// Packet lengths in flits (each >= 1).
    pub length: LengthDist,
    /// The measurement window.
    pub window: Window,
    /// No packet is generated from this cycle on (`--drain`); `None`: generate forever.
    pub stop_generating: Option<Cycle>,
    /// Keep a `Delivery` record of every consumed packet.
    pub record_deliveries: bool,
    /// Cycles a packet reset by a timeout waits before it may be sent again (`--backoff`).
    pub backoff: u64,
    /// The events packet latency runs between.
    pub latency: LatencyDef,
    /// Terminal channel latency of each terminal's router, by terminal id.
    pub terminal_latency: Arc<[u32]>,
}

/// One terminal (traffic endpoint).
///
/// The fields a step reads are laid out first, in two cache lines and the start of a third
/// (`repr(C)` keeps the order), so a step touches few lines of a terminal.
#[derive(Debug)]
#[repr(C)]
pub struct Terminal {
    /// The first cycle whose generation trial is not drawn yet: trials are drawn ahead,
    /// in cycle order, up to the first success ([`Terminal::draw_ahead`]); [`ALL_DRAWN`]
    /// once generation has stopped.
    drawn: Cycle,
    /// A drawn trial that succeeded, for a cycle not stepped yet (the last one drawn).
    next_generation: Option<Cycle>,
    /// Trials are drawn ahead for cycles before this one only ([`Terminal::draw_until`]).
    draw_until: Cycle,
    current: Option<Injecting>,
    queue: VecDeque<QueuedPacket>,
    /// Trace-driven generation (`trace:FILE`): this terminal's packets, by cycle.
    schedule: VecDeque<TraceEvent>,
    vcs: Vec<InjectionVc>,
    window: Window,
    stats: TerminalStats,
    id: TerminalId,
    next_seq: u32,
    rng: ComponentRng,
    pattern: Arc<dyn TrafficPattern>,
    generate: Bernoulli,
    length: LengthDist,
    stop_generating: Option<Cycle>,
    deliveries: Option<Vec<Delivery>>,
    backoff: u64,
    latency: LatencyDef,
    terminal_latency: Arc<[u32]>,
    /// Packets re-queued after a timeout reset, and retransmissions started.
    resets: u64,
    retransmissions: u64,
    /// The first cycle not yet added to the stats' window areas: the areas are brought up
    /// to date only when the counts they sum change, and by [`Terminal::settle`].
    area_from: Cycle,
}

impl Terminal {
    /// Terminal `id` injecting into a router input port with `vcs` VCs of `depth` flits.
    pub fn new(
        id: TerminalId,
        config: &TerminalConfig,
        pattern: Arc<dyn TrafficPattern>,
        rng: ComponentRng,
        vcs: u8,
        depth: BufferDepth,
    ) -> Terminal {
        Terminal {
            id,
            rng,
            pattern,
            generate: Bernoulli::new(config.rate),
            length: config.length,
            window: config.window,
            stop_generating: config.stop_generating,
            schedule: VecDeque::new(),
            queue: VecDeque::new(),
            next_seq: 0,
            vcs: vec![
                InjectionVc {
                    outstanding: 0,
                    depth: depth.flits().unwrap_or(u32::MAX),
                    owned: false,
                };
                usize::from(vcs)
            ],
            current: None,
            stats: TerminalStats::default(),
            deliveries: config.record_deliveries.then(Vec::new),
            backoff: config.backoff,
            latency: config.latency,
            terminal_latency: Arc::clone(&config.terminal_latency),
            resets: 0,
            retransmissions: 0,
            drawn: Cycle(0),
            next_generation: None,
            draw_until: ALL_DRAWN,
            area_from: Cycle(0),
        }
    }

    /// This terminal's id.
    pub fn id(&self) -> TerminalId {
        self.id
    }

    /// Puts a packet of `len` flits to `dest` into the source queue as generated at `now`
    /// (outside the random process: tests and scripted traffic). Call it before the step
    /// of cycle `now`.
    pub fn enqueue(&mut self, now: Cycle, dest: TerminalId, len: u32) {
        assert!(len >= 1, "packet length must be >= 1");
        self.push_packet(now, dest, len, &mut Tally::default());
    }

    fn push_packet(&mut self, now: Cycle, dest: TerminalId, len: u32, tally: &mut Tally) {
        self.settle_areas(now);
        let seq = self.next_seq;
        self.next_seq += 1;
        self.queue.push_back(QueuedPacket {
            seq,
            dest,
            len,
            created: now,
            not_before: now,
            retry: false,
        });
        self.stats.packets_generated += 1;
        if self.window.contains(now) {
            tally.measured_generated += 1;
            self.stats.measured_generated += 1;
            self.stats.window_flits_generated += u64::from(len);
        }
    }

    /// One cycle. `flit_in` is what the ejection channel delivers at `now`, `credit_in`
    /// what the injection channel's reverse side delivers. Returns the flit to write onto
    /// the injection channel and the credit to write onto the ejection channel's reverse side.
    pub fn step(
        &mut self,
        now: Cycle,
        flit_in: Option<Flit>,
        credit_in: Option<Credit>,
    ) -> (Option<Flit>, Option<Credit>) {
        let (mut flit_out, mut credit_out) = (None, None);
        let mut tally = Tally::default();
        self.step_into(
            now,
            flit_in.as_ref(),
            credit_in,
            &mut tally,
            &mut flit_out,
            &mut credit_out,
        );
        (flit_out, credit_out)
    }

    /// [`Terminal::step`] for the engine: adds what the step changed to `tally` and writes
    /// the outputs in place (the caller's outbox, empty on entry: returning a flit by value
    /// through a tuple costs a store-forwarding stall per terminal per cycle).
    #[inline(always)]
    pub fn step_into(
        &mut self,
        now: Cycle,
        flit_in: Option<&Flit>,
        credit_in: Option<Credit>,
        tally: &mut Tally,
        flit_out: &mut Option<Flit>,
        credit_out: &mut Option<Credit>,
    ) {
        debug_assert!(
            flit_out.is_none() && credit_out.is_none(),
            "outbox not empty"
        );
        if let Some(c) = credit_in {
            self.take_credit(now, c);
        }
        if let Some(f) = flit_in {
            self.consume(now, f, tally);
            *credit_out = Some(Credit { vc: f.vc });
        }
        if self.trial(now) {
            let dest = self.pattern.destination(self.id, &mut self.rng);
            let len = self.length.sample(&mut self.rng);
            tally.queued_in += 1;
            self.push_packet(now, dest, len, tally);
        }
        if !self.schedule.is_empty() {
            if !self.generating(now) {
                tally.queued_out += self.schedule.len() as u64;
                self.schedule.clear();
            }
            // A scheduled packet moves to the source queue: still queued.
            while let Some(e) = self.schedule.front().filter(|e| e.cycle <= now) {
                let (dest, len) = (e.dest, e.len);
                self.schedule.pop_front();
                self.push_packet(now, dest, len, tally);
            }
        }
        if self.current.is_some() || !self.queue.is_empty() {
            self.inject(now, tally, flit_out);
        }
    }

    /// A credit delivered at `now` on the injection channel's reverse side.
    #[inline(always)]
    pub fn take_credit(&mut self, now: Cycle, c: Credit) {
        let vc = &mut self.vcs[c.vc.index()];
        assert!(
            vc.outstanding > 0,
            "terminal {} received a credit for {} with none outstanding at cycle {now}",
            self.id,
            c.vc
        );
        vc.outstanding -= 1;
    }

    /// Idle at `now`, with the generation trial of `now` drawn already and failed: a step
    /// at `now` changes nothing but what it takes in (a credit, a flit), the terminal
    /// stays idle, and [`Terminal::look_ahead`] names the cycle it named after the last
    /// step (or, when the last look-ahead ended without a success, draws the trials the
    /// step at that cycle would draw, in the same order).
    #[inline(always)]
    pub fn quiet_at(&self, now: Cycle) -> bool {
        self.is_idle() && now < self.drawn && self.next_generation != Some(now)
    }

    /// Is a packet generated (by the random process) at cycle `now`?
    #[inline(always)]
    fn generating(&self, now: Cycle) -> bool {
        self.stop_generating.is_none_or(|s| now < s)
    }

    /// The generation trial of cycle `now`, drawing the next ones ahead first if its own
    /// is not drawn yet.
    #[inline(always)]
    fn trial(&mut self, now: Cycle) -> bool {
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

    /// Adds the cycles from `area_from` up to (not including) `upto` that lie in the
    /// window to the window areas, each with the counts at the end of its step: the counts
    /// as they stand (called before they change, and they change only in steps before
    /// `upto` or in the one at `upto`).
    #[inline(always)]
    fn settle_areas(&mut self, upto: Cycle) {
        let from = self.area_from.max(self.window.start);
        let to = upto.min(self.window.end);
        if to > from {
            let cycles = to.0 - from.0;
            self.stats.generated_area += self.stats.packets_generated * cycles;
            self.stats.consumed_area += self.stats.packets_consumed * cycles;
        }
        self.area_from = self.area_from.max(upto);
    }

    /// Brings the window areas up to the start of cycle `now`, the cycle after the last
    /// step (a step adds the cycles before its own only when its counts change): call it
    /// before reading [`Terminal::stats`] and before [`Terminal::set_window`].
    pub fn settle(&mut self, now: Cycle) {
        self.settle_areas(now);
    }

    /// Nothing queued, being injected or scheduled: a step at a cycle where nothing
    /// arrives and the trial fails changes nothing but the random stream.
    pub fn is_idle(&self) -> bool {
        self.current.is_none() && self.queue.is_empty() && self.schedule.is_empty()
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
    fn draw_ahead(&mut self, horizon: u64) {
        debug_assert!(self.next_generation.is_none(), "a success not stepped yet");
        let from = self.drawn.0;
        let stop = self.stop_generating.map_or(u64::MAX, |s| s.0);
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

    #[inline]
    fn consume(&mut self, now: Cycle, f: &Flit, tally: &mut Tally) {
        debug_assert_eq!(
            f.dest, self.id,
            "flit of packet {} for {} ejected at terminal {}",
            f.packet, f.dest, self.id
        );
        self.stats.flits_consumed += 1;
        let in_window = self.window.contains(now);
        if in_window {
            self.stats.window_flits_consumed += 1;
        }
        if !f.kind.is_tail() {
            return;
        }
        self.settle_areas(now);
        self.stats.packets_consumed += 1;
        let latency = self.latency(now, f);
        self.stats.consumed_latency_sum += latency;
        if in_window {
            self.stats.window_packets_consumed += 1;
        }
        if self.window.contains(f.created.cycle()) {
            tally.measured_delivered += 1;
            self.stats.measured_delivered += 1;
            self.stats.latency_sum += latency;
            self.stats.system_time_sum += now.0 - f.created.cycle().0;
            self.stats.latency_max = self.stats.latency_max.max(latency);
            self.stats.network_latency_sum += now.0 - f.injected.cycle().0;
            self.stats.source_queue_sum += f.injected.cycle().0 - f.created.cycle().0;
            self.stats.hops_sum += u64::from(f.hops);
        }
        if let Some(log) = &mut self.deliveries {
            log.push(Delivery {
                packet: f.packet,
                dest: f.dest,
                len: f.len,
                created: f.created.cycle(),
                injected: f.injected.cycle(),
                consumed: now,
                hops: f.hops,
                measured: latency,
            });
        }
    }

    /// The latency of the packet whose tail `f` is consumed at `now`, by the run's
    /// definition.
    fn latency(&self, now: Cycle, f: &Flit) -> u64 {
        let lt = |t: TerminalId| self.terminal_latency.get(t.index()).copied().unwrap_or(0);
        self.latency.latency(&PacketTimes {
            created: f.created.cycle().0,
            injected: f.injected.cycle().0,
            consumed: now.0,
            source_lt: lt(f.packet.source),
            dest_lt: lt(self.id),
        })
    }

    /// A timeout reset for one of this terminal's packets (delivered at `now`, before the
    /// step): stop sending it if it is still being sent (its flits already out are
    /// discarded by the router, which returns their credits) and put it back at the tail
    /// of the source queue, sendable again `backoff` cycles from now. It keeps its id and
    /// generation cycle, so it is measured (and delivered) once. `tally` gains the change.
    pub fn receive_reset(&mut self, now: Cycle, r: Reset, tally: &mut Tally) {
        debug_assert_eq!(
            r.packet.source, self.id,
            "reset for another terminal's packet"
        );
        if let Some(cur) = self.current.filter(|c| c.next.packet.seq == r.packet.seq) {
            self.vcs[cur.next.vc.index()].owned = false;
            self.current = None;
            tally.queued_out += 1;
        }
        tally.queued_in += 1;
        self.queue.push_back(QueuedPacket {
            seq: r.packet.seq,
            dest: r.dest,
            len: r.len,
            created: r.created,
            not_before: now.plus(self.backoff),
            retry: true,
        });
        self.resets += 1;
    }

    /// Packets re-queued after a timeout reset.
    pub fn resets(&self) -> u64 {
        self.resets
    }

    /// Retransmissions started (re-queued packets whose head was sent again).
    pub fn retransmissions(&self) -> u64 {
        self.retransmissions
    }

    /// Puts the next flit to send, if any, into `out`.
    #[inline]
    fn inject(&mut self, now: Cycle, tally: &mut Tally, out: &mut Option<Flit>) {
        if self.current.is_none() && !self.start_packet(now) {
            return;
        }
        let Some(cur) = self.current.as_mut() else {
            return;
        };
        let vc = &mut self.vcs[cur.next.vc.index()];
        if vc.outstanding >= vc.depth {
            return;
        }
        vc.outstanding += 1;
        *out = Some(cur.next);
        let (index, len) = (cur.next.index + 1, cur.next.len);
        if index == len {
            vc.owned = false;
            self.current = None;
            tally.queued_out += 1;
        } else {
            // Not the head (index > 0).
            cur.next.index = index;
            cur.next.kind = if index + 1 == len {
                FlitKind::Tail
            } else {
                FlitKind::Body
            };
        }
        self.stats.flits_injected += 1;
    }

    /// Starts sending the packet at the head of the source queue if it may go at `now`
    /// and an injection VC is free (a VC is taken only when all its credits are home);
    /// true when it started. Once per packet: kept out of [`Terminal::inject`], which
    /// runs once per flit.
    #[inline(never)]
    fn start_packet(&mut self, now: Cycle) -> bool {
        let Some(&packet) = self.queue.front().filter(|p| p.not_before <= now) else {
            return false;
        };
        let Some(vc) = self.vcs.iter().position(|v| !v.owned && v.outstanding == 0) else {
            return false;
        };
        self.queue.pop_front();
        self.retransmissions += u64::from(packet.retry);
        self.vcs[vc].owned = true;
        self.current = Some(Injecting {
            next: Flit {
                packet: PacketId {
                    source: self.id,
                    seq: packet.seq,
                },
                index: 0,
                len: packet.len,
                kind: FlitKind::of(0, packet.len),
                vc: VcId(vc as u8),
                dest: packet.dest,
                created: Stamp::of(packet.created),
                injected: Stamp::of(now),
                hops: 0,
            },
        });
        true
    }

    /// Replaces random generation by `events` (this terminal's packets of a trace, sorted
    /// by cycle): the Bernoulli process is switched off. A packet whose cycle has passed
    /// is generated at the next step.
    pub fn set_schedule(&mut self, events: impl IntoIterator<Item = TraceEvent>) {
        self.generate = Bernoulli::new(0.0);
        self.schedule = events.into_iter().collect();
    }

    /// Trace packets not generated yet.
    pub fn scheduled(&self) -> usize {
        self.schedule.len()
    }

    /// Moves the measurement window (automatic warm-up detection opens it when the
    /// transient is over and closes it when the confidence target is met); call
    /// [`Terminal::settle`] first (the areas so far are those of the old window).
    pub fn set_window(&mut self, window: Window) {
        self.window = window;
    }

    /// Counters so far (the window areas up to the last [`Terminal::settle`] or step).
    pub fn stats(&self) -> &TerminalStats {
        &self.stats
    }

    /// Packets in the source queue, including the one being injected.
    pub fn source_queue_len(&self) -> usize {
        self.queue.len() + usize::from(self.current.is_some())
    }

    /// Flits sent on injection VC `vc` whose credits have not come back.
    pub fn outstanding(&self, vc: VcId) -> u32 {
        self.vcs[vc.index()].outstanding
    }

    /// Number of injection VCs.
    pub fn vcs(&self) -> usize {
        self.vcs.len()
    }

    /// Consumed packets recorded so far (empty unless `record_deliveries`), emptied.
    pub fn take_deliveries(&mut self) -> Vec<Delivery> {
        self.deliveries
            .as_mut()
            .map(std::mem::take)
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{stream, ComponentKind};
    use crate::traffic::Uniform;

    fn terminal(rate: f64, vcs: u8, depth: u32) -> Terminal {
        let cfg = TerminalConfig {
            rate,
            length: LengthDist::Fixed(3),
            window: Window {
                start: Cycle(0),
                end: Cycle(1000),
            },
            stop_generating: None,
            record_deliveries: true,
            backoff: 0,
            latency: LatencyDef::default(),
            terminal_latency: Arc::from(vec![1; 4]),
        };
        Terminal::new(
            TerminalId(0),
            &cfg,
            Arc::new(Uniform::new(4).unwrap()),
            stream(1, ComponentKind::Terminal, 0),
            vcs,
            BufferDepth::Flits(depth),
        )
    }

    #[test]
    fn head_goes_in_the_generation_cycle_then_one_flit_per_cycle() {
        let mut t = terminal(0.0, 2, 8);
        t.enqueue(Cycle(5), TerminalId(2), 3);
        let mut sent = Vec::new();
        for c in 5..10 {
            if let (Some(f), _) = t.step(Cycle(c), None, None) {
                sent.push((c, f.index, f.kind, f.vc));
            }
        }
        assert_eq!(
            sent,
            vec![
                (5, 0, FlitKind::Head, VcId(0)),
                (6, 1, FlitKind::Body, VcId(0)),
                (7, 2, FlitKind::Tail, VcId(0)),
            ]
        );
    }

    #[test]
    fn credits_limit_injection_and_a_vc_is_reused_only_when_all_credits_are_home() {
        let mut t = terminal(0.0, 2, 2);
        t.enqueue(Cycle(0), TerminalId(1), 3);
        t.enqueue(Cycle(0), TerminalId(1), 1);
        t.enqueue(Cycle(0), TerminalId(1), 1);
        let mut out = Vec::new();
        for c in 0..4 {
            out.push(t.step(Cycle(c), None, None).0.map(|f| (f.packet.seq, f.vc)));
        }
        // Two flits of packet 0 on vc0, then no credit for the third: packet 0 blocks the queue.
        assert_eq!(
            out,
            vec![Some((0, VcId(0))), Some((0, VcId(0))), None, None]
        );
        let c = Some(Credit { vc: VcId(0) });
        assert_eq!(t.step(Cycle(4), None, c).0.map(|f| f.index), Some(2));
        // Packet 1 takes vc1 (vc0 still has 2 credits out), packet 2 must wait for vc0.
        assert_eq!(t.step(Cycle(5), None, None).0.map(|f| f.vc), Some(VcId(1)));
        assert!(t.step(Cycle(6), None, None).0.is_none());
        assert!(t.step(Cycle(7), None, c).0.is_none());
        assert_eq!(t.step(Cycle(8), None, c).0.map(|f| f.vc), Some(VcId(0)));
    }

    #[test]
    fn consumption_returns_a_credit_and_records_latency() {
        let mut t = terminal(0.0, 1, 4);
        let f = Flit {
            packet: PacketId {
                source: TerminalId(3),
                seq: 0,
            },
            index: 0,
            len: 1,
            kind: FlitKind::HeadTail,
            vc: VcId(2),
            dest: TerminalId(0),
            created: Stamp(10),
            injected: Stamp(12),
            hops: 2,
        };
        let (_, credit) = t.step(Cycle(20), Some(f), None);
        assert_eq!(credit, Some(Credit { vc: VcId(2) }));
        let s = t.stats();
        assert_eq!(
            (s.latency_sum, s.network_latency_sum, s.source_queue_sum),
            (10, 8, 2)
        );
        assert_eq!(t.take_deliveries()[0].latency(), 10);
    }

    #[test]
    fn skipping_idle_steps_with_look_ahead_changes_nothing() {
        let make = || {
            let cfg = TerminalConfig {
                rate: 0.2,
                length: LengthDist::Fixed(2),
                window: Window {
                    start: Cycle(20),
                    end: Cycle(180),
                },
                stop_generating: Some(Cycle(150)),
                record_deliveries: false,
                backoff: 0,
                latency: LatencyDef::default(),
                terminal_latency: Arc::from(vec![1; 4]),
            };
            Terminal::new(
                TerminalId(0),
                &cfg,
                Arc::new(Uniform::new(4).unwrap()),
                stream(7, ComponentKind::Terminal, 0),
                2,
                BufferDepth::Unbounded,
            )
        };
        // Each flit's credit comes back the next cycle (waking the terminal).
        let step = |t: &mut Terminal, c: u64, credit: &mut Option<Credit>| {
            let f = t.step(Cycle(c), None, credit.take()).0;
            *credit = f.map(|f| Credit { vc: f.vc });
            f
        };
        // Stepped every cycle.
        let mut every = make();
        let mut credit = None;
        let a: Vec<_> = (0..200)
            .filter_map(|c| step(&mut every, c, &mut credit))
            .collect();
        every.settle(Cycle(200));
        // Stepped only when something arrives, when not idle, or when the look-ahead says
        // so (a short horizon, so the drawn trials run out too), in runs of `run` cycles
        // that draw no trial past their end (`bounded`) and step the terminal in their
        // first cycle, as the engine does; with `quiet`, a credit for a terminal quiet at
        // its cycle is taken without a step, the look-ahead's cycle kept.
        let run_skipping = |run: u64, bounded: bool, quiet: bool| {
            let mut t = make();
            let mut credit = None;
            let (mut b, mut next, mut steps) = (Vec::new(), None, 0);
            for c in 0..200 {
                if c % run == 0 {
                    if bounded {
                        t.draw_until(Cycle(c + run));
                    }
                    next = Some(Cycle(c));
                }
                if next != Some(Cycle(c)) && t.is_idle() && credit.is_none() {
                    continue;
                }
                if quiet && next.is_some_and(|n| n > Cycle(c)) && t.quiet_at(Cycle(c)) {
                    if let Some(k) = credit.take() {
                        t.take_credit(Cycle(c), k);
                        continue;
                    }
                }
                steps += 1;
                b.extend(step(&mut t, c, &mut credit));
                next = if t.is_idle() {
                    t.look_ahead(Cycle(c), 5)
                } else {
                    None
                };
            }
            t.settle(Cycle(200));
            (b, steps, t)
        };
        let (b, steps, skipping) = run_skipping(200, false, false);
        assert!(steps < 150, "{steps} steps: nothing skipped");
        assert!(a.len() > 20, "too little traffic to compare: {}", a.len());
        assert_eq!(a, b);
        assert_eq!(every.stats(), skipping.stats());
        for run in [1, 3, 37] {
            let (b, _, bounded) = run_skipping(run, true, false);
            assert_eq!(a, b, "runs of {run} cycles");
            assert_eq!(every.stats(), bounded.stats(), "runs of {run} cycles");
        }
        let (b, quiet_steps, quiet) = run_skipping(200, false, true);
        assert!(quiet_steps < steps, "no credit taken without a step");
        assert_eq!(a, b, "quiet credits");
        assert_eq!(every.stats(), quiet.stats(), "quiet credits");
        for run in [3, 37] {
            let (b, _, quiet) = run_skipping(run, true, true);
            assert_eq!(a, b, "quiet credits, runs of {run} cycles");
            assert_eq!(
                every.stats(),
                quiet.stats(),
                "quiet credits, runs of {run} cycles"
            );
        }
        assert!(every.stats().generated_area > 0);
    }
}
