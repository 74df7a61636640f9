//! [`Terminal`]: its state, its construction, its step and what the engine reads of it.

use super::delivery::Delivery;
use super::records::{Injecting, InjectionVc, QueuedPacket, Replies};
use super::tally::Tally;
use crate::injection::{Generator, InjectionProcess};
use crate::latency::LatencyDef;
use crate::length::LengthDist;
use crate::rng::ComponentRng;
use crate::stats::{Distributions, TerminalStats, Window};
use crate::traffic::{TracePacket, TrafficPattern};
use flitsim_netlist::{BufferDepth, Cycle, TerminalId, VcId};
use flitsim_router::{Credit, Flit};
use std::collections::VecDeque;
use std::sync::Arc;

/// Generation trials a stepped terminal draws at once when its drawn ones run out (fewer
/// if one succeeds first or generation stops).
pub const DRAW_AHEAD: u64 = 1024;

/// `Terminal::drawn` once generation has stopped: no cycle has a trial left to draw.
pub(super) const ALL_DRAWN: Cycle = Cycle(u64::MAX);

/// How a terminal generates traffic.
#[derive(Clone, Debug)]
pub struct TerminalConfig {
    /// Probability of generating a packet in a cycle (packets per terminal per cycle).
    pub rate: f64,
    /// When packets are generated, for the mean `rate`.
    pub injection: InjectionProcess,
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
    /// in cycle order, up to the first success (`Terminal::draw_ahead`); [`ALL_DRAWN`]
    /// once generation has stopped.
    pub(super) drawn: Cycle,
    /// A drawn trial that succeeded, for a cycle not stepped yet (the last one drawn).
    pub(super) next_generation: Option<Cycle>,
    /// Trials are drawn ahead for cycles before this one only ([`Terminal::draw_until`]).
    pub(super) draw_until: Cycle,
    pub(super) current: Option<Injecting>,
    pub(super) queue: VecDeque<QueuedPacket>,
    /// Trace-driven generation (`trace:FILE`): this terminal's packets, by cycle.
    pub(super) schedule: VecDeque<TracePacket>,
    pub(super) vcs: Vec<InjectionVc>,
    /// Message classes: a packet of class `c` (its sequence number modulo this) is
    /// injected on VCs `c*w .. (c+1)*w`, `w = vcs / classes`.
    pub(super) classes: u8,
    pub(super) window: Window,
    pub(super) stats: TerminalStats,
    /// Measured packets delivered here since the engine last drained them; boxed and made
    /// on the first such packet, so that a terminal stays small and an idle one costs none.
    pub(super) dists: Option<Box<Distributions>>,
    pub(super) id: TerminalId,
    pub(super) next_seq: u32,
    pub(super) rng: ComponentRng,
    pub(super) pattern: Arc<dyn TrafficPattern>,
    pub(super) generate: Generator,
    /// The network's terminal configuration, one copy for all terminals (this terminal's
    /// window is its own: [`Terminal::set_window`]).
    pub(super) config: Arc<TerminalConfig>,
    pub(super) deliveries: Option<Vec<Delivery>>,
    /// Packets re-queued after a timeout reset, and retransmissions started.
    pub(super) resets: u64,
    pub(super) retransmissions: u64,
    /// The first cycle not yet added to the stats' window areas: the areas are brought up
    /// to date only when the counts they sum change, and by [`Terminal::settle`].
    pub(super) area_from: Cycle,
    /// With a netrace replay: (sequence number, tag) of each packet generated from the
    /// schedule, in generation order.
    pub(super) tags: Option<Vec<(u32, u32)>>,
    /// Request/reply traffic (`reply_length`): the replies held and the ejection buffer.
    pub(super) replies: Option<Box<Replies>>,
}

impl Terminal {
    /// Terminal `id` injecting into a router input port with `vcs` VCs of `depth` flits,
    /// configured by `config` (shared by the network's terminals).
    pub fn new(
        id: TerminalId,
        config: &Arc<TerminalConfig>,
        pattern: Arc<dyn TrafficPattern>,
        mut rng: ComponentRng,
        vcs: u8,
        depth: BufferDepth,
    ) -> Terminal {
        Terminal {
            id,
            generate: Generator::new(config.injection, config.rate, &mut rng),
            rng,
            pattern,
            window: config.window,
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
            classes: 1,
            current: None,
            stats: TerminalStats::default(),
            dists: None,
            deliveries: config.record_deliveries.then(Vec::new),
            config: Arc::clone(config),
            tags: None,
            replies: None,
            resets: 0,
            retransmissions: 0,
            drawn: Cycle(0),
            next_generation: None,
            draw_until: ALL_DRAWN,
            area_from: Cycle(0),
        }
    }

    /// The terminal with `classes` message classes (`message_classes`; 1 without
    /// [`Terminal::with_classes`]). The injection port's VCs are a multiple of it.
    pub fn with_classes(mut self, classes: u8) -> Terminal {
        debug_assert!(classes >= 1 && self.vcs.len() % usize::from(classes) == 0);
        self.classes = classes;
        self
    }

    /// This terminal's id.
    pub fn id(&self) -> TerminalId {
        self.id
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
        if self.replies.is_some() {
            self.eject_with_replies(now, flit_in, tally, credit_out);
        } else if let Some(f) = flit_in {
            self.consume(now, f, tally);
            *credit_out = Some(Credit { vc: f.vc });
        }
        if self.trial(now) {
            let dest = self.pattern.destination(self.id, &mut self.rng);
            let len = self.config.length.sample(&mut self.rng);
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
                let (dest, len, tag) = (e.dest, e.len, e.tag);
                self.schedule.pop_front();
                if let Some(tags) = &mut self.tags {
                    tags.push((self.next_seq, tag));
                }
                self.push_packet(now, dest, len, tally);
            }
        }
        if self.replies.is_some() {
            self.step_replies(now, tally, flit_out);
        }
        if flit_out.is_none() && (self.current.is_some() || !self.queue.is_empty()) {
            self.inject(now, tally, flit_out);
        }
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

    /// Adds the cycles from `area_from` up to (not including) `upto` that lie in the
    /// window to the window areas, each with the counts at the end of its step: the counts
    /// as they stand (called before they change, and they change only in steps before
    /// `upto` or in the one at `upto`).
    #[inline(always)]
    pub(super) fn settle_areas(&mut self, upto: Cycle) {
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
        self.current.is_none()
            && self.queue.is_empty()
            && self.schedule.is_empty()
            && self.replies.as_ref().is_none_or(|r| r.is_empty())
    }

    /// Packets re-queued after a timeout reset.
    pub fn resets(&self) -> u64 {
        self.resets
    }

    /// Retransmissions started (re-queued packets whose head was sent again).
    pub fn retransmissions(&self) -> u64 {
        self.retransmissions
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

    /// Histograms of the measured packets delivered here since the last
    /// [`Terminal::drain_distributions`] (`None`: no such packet yet).
    pub fn distributions(&self) -> Option<&Distributions> {
        self.dists.as_deref()
    }

    /// Moves the histograms into `into` (the current batch's), leaving them empty.
    pub fn drain_distributions(&mut self, into: &mut Distributions) {
        if let Some(d) = &mut self.dists {
            d.drain_into(into);
        }
    }

    /// Packets in the source queue, including the one being injected, and the replies
    /// held (in service, waiting, being injected).
    pub fn source_queue_len(&self) -> usize {
        self.queue.len() + usize::from(self.current.is_some()) + self.replies_held()
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
}
