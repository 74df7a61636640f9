//! One cycle of one partition: the two phases of a cycle (ARCHITECTURE.md).
//!
//! A partition is a contiguous range of ids; router `i` and terminal `i` belong to the same
//! partition. The serial engine is one partition; a parallel engine runs one worker per
//! partition with a barrier between the phases (`parallel.rs`). Nothing here depends on
//! the order in which partitions or components are visited:
//!
//! 1. [`compute`]: each router and terminal of the partition takes what its channels
//!    deliver at `now` (reading, through shared references, the lines their writers own),
//!    steps, and keeps what it writes (a router in its crossbar and credit-return slots,
//!    a terminal in its outbox). A router with nothing to do
//!    (quiescent and no input) is not stepped, nor even looked at: the partition keeps a
//!    bit set of the routers left non-quiescent by their last step and adds the ones the
//!    writers' wake-ups name for `now` ([`crate::channel::Wakes`]), so the cost of a
//!    cycle follows activity, not size. Terminals are visited the same way: the ones
//!    something arrives for, the ones not idle, and idle ones at the cycle their drawn-ahead
//!    generation trials name ([`crate::terminal::Terminal::look_ahead`]).
//! 2. [`write`]: each component stepped copies what it wrote, once, into its own lines'
//!    slots due at `now + latency` and sets the reader's bit and arrival mask in the wake-ups of that
//!    cycle, and the partition publishes its [`Status`] (counters kept by events, not by a
//!    sweep).
//!
//! **One partition** ([`alone`], every single-thread run): nobody else reads its lines
//! during phase 1, and everything written at `now` is due at `now + latency`, at least
//! `now + 1` (netlist validation rejects latency 0, [`crate::channel::Lines::push`]
//! asserts it), in a slot and a wake-up bucket other than those of `now` that phase 1
//! reads. So each component's outputs are written right after its own step, in the same
//! pass (the component's data still in cache, no second walk over the stepped ones),
//! through the same per-component send as phase 2 ([`Sender`]); what every reader sees
//! is the same as with two phases.

use crate::assemble::{
    LineRef, Network, Nodes, Outbound, Outlet, RouterNode, TerminalNode, WakeRef, MASK_PORTS,
    PHASE_BUG, TERMINAL_CREDIT, TERMINAL_FLIT,
};
use crate::channel::{Arrival, Due, Land, Landing, Lines, Wakes};
use crate::terminal::Tally;
use flitsim_netlist::Cycle;
use flitsim_router::{Credit, Flit, Reset};
use smallvec::SmallVec;
use std::sync::{MutexGuard, RwLockReadGuard};

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

/// What phase 1 reads: the items due now on the lines feeding a partition's components.
trait ReadLines<'a> {
    /// The flit due now on the forward side `src`, for a reader woken for it (the slot's
    /// tag is checked in debug builds only).
    fn flit(&self, src: LineRef) -> &'a Flit;
    /// The credit due now on the reverse side `src`, for a reader woken for it.
    fn credit(&self, src: LineRef) -> Credit;
    /// The flit due now on `src`, if any (none for a port without a channel).
    fn peek_flit(&self, src: LineRef) -> Option<&'a Flit>;
    /// The credit due now on `src`, if any.
    fn peek_credit(&self, src: LineRef) -> Option<Credit>;
    /// The reset due now on `src`, if any.
    fn peek_reset(&self, src: LineRef) -> Option<Reset>;
}

/// Every partition's lines (a cycle in two phases), looked up per read.
struct AllLines<'a, 'b> {
    lines: &'b [&'a Outbound],
    now: u64,
}

impl<'a> ReadLines<'a> for &AllLines<'a, '_> {
    #[inline(always)]
    fn flit(&self, src: LineRef) -> &'a Flit {
        self.lines[src.part as usize].flits.due(src.line, self.now)
    }
    #[inline(always)]
    fn credit(&self, src: LineRef) -> Credit {
        *self.lines[src.part as usize]
            .credits
            .due(src.line, self.now)
    }
    #[inline]
    fn peek_flit(&self, src: LineRef) -> Option<&'a Flit> {
        let l = self.lines.get(src.part as usize)?;
        l.flits.peek(src.line, self.now)
    }
    #[inline]
    fn peek_credit(&self, src: LineRef) -> Option<Credit> {
        let l = self.lines.get(src.part as usize)?;
        l.credits.peek(src.line, self.now).copied()
    }
    #[inline]
    fn peek_reset(&self, src: LineRef) -> Option<Reset> {
        let l = self.lines.get(src.part as usize)?;
        l.resets.peek(src.line, self.now).copied()
    }
}

/// Steps a woken router that fits the arrival masks, handing it what its arrival mask
/// names straight from the lines, by reference (no inbox): the resets first (they act
/// before the step begins), then [`Router::begin_step`], the credits, the flits, and
/// [`Router::finish_step`]. What it writes stays
/// in the router until it is sent ([`Router::flits_out`], [`Router::credits_out`]).
///
/// [`Router::begin_step`]: flitsim_router::Router::begin_step
/// [`Router::finish_step`]: flitsim_router::Router::finish_step
/// [`Router::flits_out`]: flitsim_router::Router::flits_out
/// [`Router::credits_out`]: flitsim_router::Router::credits_out
#[inline(always)]
fn step_arrived<'a>(
    now: Cycle,
    node: &mut RouterNode,
    arrived: u64,
    read: &impl ReadLines<'a>,
    resets: bool,
) {
    let (flits, credits) = (arrived as u32, (arrived >> 32) as u32);
    #[cfg(debug_assertions)]
    {
        // The wake-ups missed nothing and named nothing extra: every line read in full
        // agrees with the mask (a credit bit may stand for a reset alone).
        let t = now.0;
        for (p, w) in node.wires.iter().enumerate() {
            assert_eq!(
                flits >> p & 1 == 1,
                read.peek_flit(w.input.src()).is_some(),
                "flit on input port {p} at cycle {t}: arrival mask and lines disagree"
            );
        }
        for (o, w) in node.wires.iter().enumerate() {
            let reset = resets && read.peek_reset(w.output.src()).is_some();
            assert_eq!(
                credits >> o & 1 == 1,
                read.peek_credit(w.output.src()).is_some() || reset,
                "credit or reset on output port {o} at cycle {t}: arrival mask and lines disagree"
            );
        }
        assert!(
            arrived != 0 || !node.router.is_quiescent(),
            "router visited with nothing to do"
        );
    }
    if resets {
        let mut m = credits;
        while m != 0 {
            let o = m.trailing_zeros() as usize;
            m &= m - 1;
            if let Some(r) = read.peek_reset(node.wires.get(o).output.src()) {
                node.router
                    .receive_reset(now, flitsim_netlist::OutPort(o as u8), r);
            }
        }
    }
    let router = &mut node.router;
    router.begin_step(now);
    let mut m = credits;
    while m != 0 {
        let o = m.trailing_zeros() as usize;
        m &= m - 1;
        let src = node.wires.get(o).output.src();
        // With resets a credit bit may stand for a reset alone: the credit's tag decides.
        if !resets {
            router.receive_credit(now, flitsim_netlist::OutPort(o as u8), read.credit(src));
        } else if let Some(c) = read.peek_credit(src) {
            router.receive_credit(now, flitsim_netlist::OutPort(o as u8), c);
        }
    }
    let mut m = flits;
    while m != 0 {
        let p = m.trailing_zeros() as usize;
        m &= m - 1;
        router.receive_flit(
            now,
            flitsim_netlist::InPort(p as u8),
            read.flit(node.wires.get(p).input.src()),
        );
    }
    router.finish_step(now);
}

/// A woken router with more than [`MASK_PORTS`] ports reads every line into its inbox
/// and steps as [`step_arrived`] does.
#[cold]
#[inline(never)]
fn step_wide<'a>(now: Cycle, node: &mut RouterNode, read: &impl ReadLines<'a>, resets: bool) {
    let any_input = read_all(now, node, read, resets);
    debug_assert!(
        any_input || !node.router.is_quiescent(),
        "router visited with nothing to do"
    );
    let router = &mut node.router;
    router.begin_step(now);
    for (o, c) in node.credits_in.iter().enumerate() {
        if let Some(c) = *c {
            router.receive_credit(now, flitsim_netlist::OutPort(o as u8), c);
        }
    }
    for (p, f) in node.flits_in.iter().enumerate() {
        if let Some(f) = f {
            router.receive_flit(now, flitsim_netlist::InPort(p as u8), f);
        }
    }
    router.finish_step(now);
}

/// A wide router's inbox filled from every line (resets handed over at once).
fn read_all<'a>(
    now: Cycle,
    node: &mut RouterNode,
    read: &impl ReadLines<'a>,
    resets: bool,
) -> bool {
    let mut any = false;
    for (slot, w) in node.flits_in.iter_mut().zip(node.wires.iter()) {
        *slot = read.peek_flit(w.input.src()).copied();
        any |= slot.is_some();
    }
    for (slot, w) in node.credits_in.iter_mut().zip(node.wires.iter()) {
        *slot = read.peek_credit(w.output.src());
        any |= slot.is_some();
    }
    if resets {
        for (o, w) in node.wires.iter().enumerate() {
            if let Some(r) = read.peek_reset(w.output.src()) {
                node.router
                    .receive_reset(now, flitsim_netlist::OutPort(o as u8), r);
                any = true;
            }
        }
    }
    any
}

/// Before the first cycle of a run (serially, from the simulation): the routers to step
/// are exactly the non-quiescent ones (router state may have been read or changed between
/// runs), the terminals' counts are taken afresh, and they draw no generation trial ahead
/// for a cycle from `end` on ([`crate::terminal::Terminal::draw_until`]).
pub(crate) fn start(nodes: &mut Nodes, end: Cycle) {
    nodes.pending.fill(0);
    debug_assert!(nodes.arriving.iter().all(|&w| w == 0));
    for (i, node) in nodes.routers.iter().enumerate() {
        if !node.router.is_quiescent() {
            nodes.pending[i / 64] |= 1 << (i % 64);
        }
    }
    let mut tally = Tally::default();
    for t in &mut nodes.terminals {
        tally.merge(&Tally::of(&t.terminal));
        t.terminal.draw_until(end);
    }
    nodes.status.tally = tally;
    // Every terminal steps in the first cycle (it may have been given a packet).
    nodes.calendar.clear();
    for (w, word) in nodes.busy.iter_mut().enumerate() {
        let n = (nodes.terminals.len() - w * 64).min(64);
        *word = if n == 64 { u64::MAX } else { (1 << n) - 1 };
    }
}

/// How phase 1 meets the lines: where a stepped component's inputs are read, and what
/// becomes of its outputs (sent at once when the partition is alone, else left for
/// phase 2).
trait Pass {
    /// The lines as a component's step reads them.
    fn read(&self) -> impl ReadLines<'_>;
    /// After the step of router `node` (its resets emitted, if `resets`): what it wrote is
    /// sent, or left in it for phase 2. Returns the flits sent.
    fn router_stepped(&mut self, node: &mut RouterNode, resets: bool) -> u64;
    /// After the step of terminal `node`: what it wrote is sent, or left in its outbox
    /// for phase 2. Returns the flits sent.
    fn terminal_stepped(&mut self, node: &mut TerminalNode) -> u64;
}

/// A cycle in two phases: phase 1 reads every partition's lines; the outputs wait for
/// [`write`].
struct Deferred<'a, 'b>(AllLines<'a, 'b>);

impl Pass for Deferred<'_, '_> {
    #[inline(always)]
    fn read(&self) -> impl ReadLines<'_> {
        &self.0
    }
    #[inline(always)]
    fn router_stepped(&mut self, _: &mut RouterNode, _: bool) -> u64 {
        0
    }
    #[inline(always)]
    fn terminal_stepped(&mut self, _: &mut TerminalNode) -> u64 {
        0
    }
}

/// The only partition: reads its own lines at `at` (an [`Arrival`] when every line has
/// one latency: the slot of the cycle located once for all reads; else the cycle) and
/// sends each component's outputs onto them right after its step.
struct Fused<'o, D, A, W> {
    at: D,
    send: Sender<'o, A, W>,
}

impl<D: Due, A: Land, W: FnMut(WakeRef, u64)> Pass for Fused<'_, D, A, W> {
    #[inline(always)]
    fn read(&self) -> impl ReadLines<'_> {
        self
    }
    #[inline(always)]
    fn router_stepped(&mut self, node: &mut RouterNode, resets: bool) -> u64 {
        self.send.router(node, resets)
    }
    #[inline(always)]
    fn terminal_stepped(&mut self, node: &mut TerminalNode) -> u64 {
        self.send.terminal(node)
    }
}

impl<'a, D: Due, A, W> ReadLines<'a> for &'a Fused<'_, D, A, W> {
    #[inline(always)]
    fn flit(&self, src: LineRef) -> &'a Flit {
        debug_assert_eq!(src.part, 0, "a line of another partition");
        let flits: &'a Lines<Flit> = self.send.flits;
        flits.due(src.line, self.at)
    }
    #[inline(always)]
    fn credit(&self, src: LineRef) -> Credit {
        debug_assert_eq!(src.part, 0, "a line of another partition");
        *self.send.credits.due(src.line, self.at)
    }
    #[inline]
    fn peek_flit(&self, src: LineRef) -> Option<&'a Flit> {
        let flits: &'a Lines<Flit> = self.send.flits;
        (src.part == 0)
            .then(|| flits.peek(src.line, self.at))
            .flatten()
    }
    #[inline]
    fn peek_credit(&self, src: LineRef) -> Option<Credit> {
        (src.part == 0)
            .then(|| self.send.credits.peek(src.line, self.at).copied())
            .flatten()
    }
    #[inline]
    fn peek_reset(&self, src: LineRef) -> Option<Reset> {
        (src.part == 0)
            .then(|| self.send.resets.peek(src.line, self.at).copied())
            .flatten()
    }
}

/// Phase 1 at `now` for the partition `nodes`; `lines` are every partition's outbound
/// lines, by partition index.
///
/// Only routers that are not quiescent or receive something now are visited: the
/// pending set carries the first kind from the previous cycle, every writer's wake-ups
/// for this partition the second. Terminals: see [`step_terminals`].
pub(crate) fn compute(now: Cycle, nodes: &mut Nodes, lines: &[&Outbound], resets: bool) {
    let (t, part) = (now.0, nodes.part);
    begin(nodes, |routers, terminals| {
        for l in lines {
            l.wakes[part].deliver(
                t,
                (&mut *routers.0, &mut *routers.1),
                (&mut *terminals.0, &mut *terminals.1),
            );
        }
    });
    let mut pass = Deferred(AllLines { lines, now: t });
    step_routers(now, nodes, None, &mut pass, resets);
    step_terminals(now, nodes, None, &mut pass, resets);
}

/// Both phases at `now` for the only partition `nodes`, whose lines are `out` (see the
/// module docs): phase 1 with each component's outputs sent right after its step, then
/// the status published.
pub(crate) fn alone(now: Cycle, nodes: &mut Nodes, out: &mut Outbound, resets: bool) {
    let t = now.0;
    let Outbound {
        flits,
        credits,
        resets: reset_lines,
        wakes,
        status,
    } = out;
    let [own] = &mut wakes[..] else {
        panic!("{PHASE_BUG}: a partition not alone");
    };
    match nodes.latency {
        // One latency for every line: everything read now lies at one offset of each
        // ring, everything sent now is due in one bucket; the wake-ups of now are taken
        // where they lie.
        Some(l) => {
            let at = Landing::new(t, l);
            let (woken, mut bucket) = own.take_and_wake(t, at.due());
            begin(nodes, |(pending, _), (arriving, _)| {
                for (to, w) in pending.iter_mut().zip(woken.routers.iter_mut()) {
                    *to |= std::mem::take(w);
                }
                for (to, w) in arriving.iter_mut().zip(woken.terminals.iter_mut()) {
                    *to |= std::mem::take(w);
                }
            });
            let mut pass = Fused {
                at: Arrival::new(t, l),
                send: Sender {
                    at,
                    flits,
                    credits,
                    resets: reset_lines,
                    wake: |w: WakeRef, due| {
                        debug_assert_eq!(w.part, 0, "a wake-up for another partition");
                        bucket.wake_spot(due, w.spot);
                    },
                },
            };
            step_routers(now, nodes, Some(woken.arrivals), &mut pass, resets);
            step_terminals(now, nodes, Some(woken.terminal_arrivals), &mut pass, resets);
        }
        None => {
            begin(nodes, |routers, terminals| {
                own.deliver(t, routers, terminals)
            });
            own.prepare(t);
            let mut pass = Fused {
                at: t,
                send: Sender {
                    at: t,
                    flits,
                    credits,
                    resets: reset_lines,
                    wake: |w: WakeRef, due| {
                        debug_assert_eq!(w.part, 0, "a wake-up for another partition");
                        own.wake_spot(due, w.spot);
                    },
                },
            };
            step_routers(now, nodes, None, &mut pass, resets);
            step_terminals(now, nodes, None, &mut pass, resets);
        }
    }
    publish(now, nodes, status);
}

/// Bit set of components and their arrival masks (padded to 64 per word).
type Woken<'a> = (&'a mut [u64], &'a mut [u64]);

/// The start of phase 1: the flit counters noted (did a flit move?), and through
/// `deliver` the components woken now added to the ones to step (the routers' bit set
/// and arrival masks, the terminals').
#[inline(always)]
fn begin(nodes: &mut Nodes, deliver: impl FnOnce(Woken<'_>, Woken<'_>)) {
    let st = &nodes.status;
    nodes.moved_before = st.router_flits + st.injected + st.consumed + st.discarded;
    deliver(
        (&mut nodes.pending, &mut nodes.arrivals),
        (&mut nodes.arriving, &mut nodes.terminal_arrivals),
    );
}

/// Phase 1: steps the routers of `nodes` that are pending or woken, taking each one's
/// arrival mask from `arrivals` (one per router, padded to 64 per word; `None`: the
/// partition's, where the wake-ups were delivered), reading through `pass`, and hands
/// each to `pass` after its step.
#[inline(always)]
fn step_routers(
    now: Cycle,
    nodes: &mut Nodes,
    arrivals: Option<&mut [u64]>,
    pass: &mut impl Pass,
    resets: bool,
) {
    // Without resets (every run without timeouts) the loop is compiled without their
    // tests and the discard counts.
    if resets {
        step_routers_with::<true>(now, nodes, arrivals, pass);
    } else {
        step_routers_with::<false>(now, nodes, arrivals, pass);
    }
}

/// [`step_routers`], with resets on or off (`RESETS`).
#[inline(always)]
fn step_routers_with<const RESETS: bool>(
    now: Cycle,
    nodes: &mut Nodes,
    arrivals: Option<&mut [u64]>,
    pass: &mut impl Pass,
) {
    let Nodes {
        routers,
        pending,
        arrivals: delivered,
        stepped,
        status: st,
        wide,
        ..
    } = nodes;
    let wide = *wide;
    let arrivals = arrivals.unwrap_or(delivered);
    let per_word = pending
        .iter_mut()
        .zip(stepped.iter_mut())
        .zip(arrivals.chunks_exact_mut(64));
    for (w, ((word, stepped), arrivals)) in per_word.enumerate() {
        let mut bits = std::mem::take(word);
        *stepped = bits;
        st.stepped += u64::from(bits.count_ones());
        while bits != 0 {
            let k = bits.trailing_zeros() as usize & 63;
            let i = w * 64 + k;
            bits &= bits - 1;
            let node = &mut routers[i];
            let arrived = std::mem::take(&mut arrivals[k]);
            let discarded_before = if RESETS {
                node.router.reset_counters().flits_discarded
            } else {
                0
            };
            {
                let read = pass.read();
                if wide && node.flits_in.len() > MASK_PORTS {
                    step_wide(now, node, &read, RESETS);
                } else {
                    step_arrived(now, node, arrived, &read, RESETS);
                }
            }
            if RESETS {
                node.router.emit_resets(&mut node.resets_out);
                st.discarded += node.router.reset_counters().flits_discarded - discarded_before;
            }
            st.router_flits += pass.router_stepped(node, RESETS);
            if !node.router.is_quiescent() {
                *word |= 1 << (i % 64);
            }
        }
    }
}

/// Trials an idle terminal draws ahead at most ([`crate::terminal::Terminal::look_ahead`]):
/// bounds the draws past the end of a run.
const LOOK_AHEAD: u64 = 1024;

/// Phase 1 for the terminals of a partition: the ones something arrives for (they read
/// the lines their arrival masks name, taken from `arrivals`, one per terminal padded to
/// 64 per word; `None`: the partition's, where the wake-ups were delivered), the ones not
/// idle, and the idle ones whose calendar entry is due (their trial succeeds now, or
/// their drawn trials end); the other idle terminals' steps would change nothing (their
/// trials for now are drawn already and failed), so they are skipped, and such a terminal
/// woken for a credit alone only takes it ([`crate::terminal::Terminal::quiet_at`]; with
/// resets and tracing off). Each one stepped is handed to `pass` after its step.
#[inline(always)]
fn step_terminals(
    now: Cycle,
    nodes: &mut Nodes,
    arrivals: Option<&mut [u64]>,
    pass: &mut impl Pass,
    resets: bool,
) {
    // Without resets and tracing (every measuring run without timeouts) the loop is
    // compiled without their tests.
    if resets || nodes.trace.is_some() {
        step_terminals_with::<true>(now, nodes, arrivals, pass, resets);
    } else {
        step_terminals_with::<false>(now, nodes, arrivals, pass, false);
    }
}

/// [`step_terminals`]; with `FEATURES` false, resets and tracing are known to be off.
#[inline(always)]
fn step_terminals_with<const FEATURES: bool>(
    now: Cycle,
    nodes: &mut Nodes,
    arrivals: Option<&mut [u64]>,
    pass: &mut impl Pass,
    resets: bool,
) {
    let t = now.0;
    let Nodes {
        terminals,
        arriving,
        terminal_arrivals: delivered,
        busy,
        calendar,
        stepped_terminals,
        status: st,
        trace,
        ..
    } = nodes;
    let arrivals = arrivals.unwrap_or(delivered);
    #[cfg(debug_assertions)]
    {
        // The wake-ups missed nothing and named nothing extra (a credit bit may stand
        // for a reset alone).
        let read = pass.read();
        for (i, node) in terminals.iter().enumerate() {
            let m = arrivals[i];
            assert_eq!(arriving[i / 64] >> (i % 64) & 1, u64::from(m != 0));
            let reset = resets && read.peek_reset(node.credit_src).is_some();
            assert!(
                (m & TERMINAL_FLIT != 0) == read.peek_flit(node.flit_src).is_some()
                    && (m & TERMINAL_CREDIT != 0)
                        == (read.peek_credit(node.credit_src).is_some() || reset),
                "terminal {i} at cycle {t}: wake-ups and lines disagree"
            );
        }
    }
    calendar.take(t, |i| busy[i / 64] |= 1 << (i % 64));
    let (resets, tracing) = (FEATURES && resets, FEATURES && trace.is_some());
    let per_word = arriving
        .iter_mut()
        .zip(busy.iter_mut())
        .zip(arrivals.chunks_exact_mut(64));
    for (w, ((word, keep), arrivals)) in per_word.enumerate() {
        let mut bits = std::mem::take(word) | *keep;
        stepped_terminals[w] = bits;
        while bits != 0 {
            let k = bits.trailing_zeros() as usize & 63;
            bits &= bits - 1;
            let i = w * 64 + k;
            let node = &mut terminals[i];
            // 0 for a terminal not woken.
            let arrived = std::mem::take(&mut arrivals[k]);
            if !FEATURES
                && arrived == TERMINAL_CREDIT
                && calendar.filed(i)
                && node.terminal.quiet_at(now)
            {
                // The step would take the credit and nothing else: no output, still
                // idle, and the calendar entry its last step filed still the one to keep
                // (none after a run's start: then it steps). Resets known off: the bit is
                // a credit.
                node.terminal
                    .take_credit(now, pass.read().credit(node.credit_src));
                *keep &= !(1 << k);
                continue;
            }
            {
                let read = pass.read();
                if resets && arrived & TERMINAL_CREDIT != 0 {
                    if let Some(r) = read.peek_reset(node.credit_src) {
                        node.terminal.receive_reset(now, r, &mut st.tally);
                        if let Some(tr) = &mut node.trace {
                            tr.push(crate::trace::TerminalEvent::ResetIn { packet: r.packet });
                        }
                    }
                }
                let flit_in = (arrived & TERMINAL_FLIT != 0).then(|| read.flit(node.flit_src));
                // With resets a credit bit may stand for a reset alone: the credit's tag
                // decides.
                let credit_in = if arrived & TERMINAL_CREDIT == 0 {
                    None
                } else if resets {
                    read.peek_credit(node.credit_src)
                } else {
                    Some(read.credit(node.credit_src))
                };
                st.consumed += u64::from(arrived & TERMINAL_FLIT != 0);
                node.terminal.step_into(
                    now,
                    flit_in,
                    credit_in,
                    &mut st.tally,
                    &mut node.flit_out,
                    &mut node.credit_out,
                );
                // Every terminal's buffer is on while tracing: the flag spares the load.
                if tracing {
                    if let Some(t) = &mut node.trace {
                        crate::trace::event::terminal_step(
                            t,
                            flit_in.copied(),
                            credit_in,
                            node.flit_out,
                            node.credit_out,
                        );
                    }
                }
            }
            st.injected += pass.terminal_stepped(node);
            if tracing || !node.terminal.is_idle() {
                *keep |= 1 << k;
                continue;
            }
            *keep &= !(1 << k);
            if let Some(next) = node.terminal.look_ahead(now, LOOK_AHEAD) {
                calendar.file(i, next.0);
            }
        }
    }
}

/// Where the outputs of a partition's components go: its own lines, at `at` (a
/// [`Landing`] when every line has one latency, else the cycle), and the wake-ups of
/// whom each item reaches (`wake`). One component at a time: all of a router's or a
/// terminal's outputs of the cycle, each copied once.
struct Sender<'o, A, W> {
    at: A,
    flits: &'o mut Lines<Flit>,
    credits: &'o mut Lines<Credit>,
    resets: &'o mut Lines<Reset>,
    wake: W,
}

impl<A: Land, W: FnMut(WakeRef, u64)> Sender<'_, A, W> {
    /// Sends what router `node` wrote in its last step, read where its step left it (its
    /// resets too if `resets`: some router has a timeout); returns the number of flits.
    #[inline(always)]
    fn router(&mut self, node: &mut RouterNode, resets: bool) -> u64 {
        let out = node.router.flits_out();
        let sent = out.len() as u64;
        for (o, f) in out {
            let to = node.wires.get(o.index()).output.outlet();
            let due = self.flits.send(to.line, self.at, f);
            (self.wake)(to.wake, due);
        }
        for (p, c) in node.router.credits_out() {
            let to = node.wires.get(p.index()).input.outlet();
            let due = self.credits.send(to.line, self.at, &c);
            (self.wake)(to.wake, due);
        }
        if resets {
            for (slot, w) in node.resets_out.iter_mut().zip(node.wires.iter()) {
                if let Some(r) = slot.take() {
                    let to = w.input.outlet();
                    let due = self.resets.send(to.line, self.at, &r);
                    (self.wake)(to.wake, due);
                }
            }
        }
        sent
    }

    /// Sends what terminal `node` wrote in its last step (its outbox is emptied);
    /// returns the number of flits.
    #[inline(always)]
    fn terminal(&mut self, node: &mut TerminalNode) -> u64 {
        // The flit is sent from the outbox (not moved out of it first: one copy).
        let sent = if let Some(f) = &node.flit_out {
            self.item(node.flit_to, |s, to, at| s.flits.send(to, at, f));
            1
        } else {
            0
        };
        node.flit_out = None;
        if let Some(c) = node.credit_out.take() {
            self.item(node.credit_to, |s, to, at| s.credits.send(to, at, &c));
        }
        sent
    }

    /// One item sent (by `send`) on `to`'s line, and its reader woken.
    #[inline(always)]
    fn item(&mut self, to: Outlet, send: impl FnOnce(&mut Self, crate::channel::Line, A) -> u64) {
        let due = send(self, to.line, self.at);
        (self.wake)(to.wake, due);
    }
}

/// Phase 2: wakes `w` (nobody for a port without a channel) for an item due at `due`.
#[inline(always)]
fn wake(wakes: &mut [Wakes], w: WakeRef, due: u64) {
    if let Some(reader) = wakes.get_mut(w.part as usize) {
        reader.wake_spot(due, w.spot);
    }
}

/// Phase 2 at `now` for partition `nodes`: what its components stepped this cycle wrote
/// into its own lines' slots due later, the components they wake into the wake-ups;
/// publishes the partition's status.
pub(crate) fn write(now: Cycle, nodes: &mut Nodes, out: &mut Outbound) {
    let t = now.0;
    let Outbound {
        flits,
        credits,
        resets,
        wakes,
        status,
    } = out;
    for w in wakes.iter_mut() {
        w.prepare(t);
    }
    match nodes.latency {
        Some(l) => send_stepped(
            nodes,
            Sender {
                at: Landing::new(t, l),
                flits,
                credits,
                resets,
                wake: |w, due| wake(wakes, w, due),
            },
        ),
        None => send_stepped(
            nodes,
            Sender {
                at: t,
                flits,
                credits,
                resets,
                wake: |w, due| wake(wakes, w, due),
            },
        ),
    }
    publish(now, nodes, status);
}

/// Phase 2: sends through `send` what the components of `nodes` stepped this cycle wrote.
#[inline(always)]
fn send_stepped<A: Land, W: FnMut(WakeRef, u64)>(nodes: &mut Nodes, mut send: Sender<'_, A, W>) {
    let resets = !send.resets.is_empty();
    for (w, &word) in nodes.stepped.iter().enumerate() {
        let mut bits = word;
        while bits != 0 {
            let i = w * 64 + bits.trailing_zeros() as usize;
            bits &= bits - 1;
            nodes.status.router_flits += send.router(&mut nodes.routers[i], resets);
        }
    }
    for (w, word) in nodes.stepped_terminals.iter_mut().enumerate() {
        let mut bits = std::mem::take(word);
        while bits != 0 {
            let i = w * 64 + bits.trailing_zeros() as usize;
            bits &= bits - 1;
            nodes.status.injected += send.terminal(&mut nodes.terminals[i]);
        }
    }
}

/// The end of a cycle at `now`: the partition's status published into `status`.
fn publish(now: Cycle, nodes: &mut Nodes, status: &mut Status) {
    debug_assert!(
        nodes
            .terminals
            .iter()
            .all(|n| n.flit_out.is_none() && n.credit_out.is_none()),
        "a terminal not stepped has an output"
    );
    let st = &mut nodes.status;
    st.moved = st.router_flits + st.injected + st.consumed + st.discarded > nodes.moved_before;
    *status = *st;
    crate::trace::collect(now, nodes);
}

/// Read access to the whole network between cycles (conservation checks, watchdog,
/// reports): every partition's nodes and lines, taken with `try_lock`/`try_read` (nobody
/// else holds them at that point; a failure is a phase bug).
pub(crate) struct View<'a> {
    pub net: &'a Network,
    nodes: SmallVec<[MutexGuard<'a, Nodes>; 8]>,
    lines: SmallVec<[RwLockReadGuard<'a, Outbound>; 8]>,
}

impl<'a> View<'a> {
    /// Locks every partition of `net` for reading.
    pub fn new(net: &'a Network) -> View<'a> {
        View {
            net,
            nodes: net
                .parts
                .iter()
                .map(|p| p.nodes.try_lock().expect(PHASE_BUG))
                .collect(),
            lines: net
                .parts
                .iter()
                .map(|p| p.lines.try_read().expect(PHASE_BUG))
                .collect(),
        }
    }

    /// Router `i`.
    pub fn router(&self, i: usize) -> &RouterNode {
        let p = self.net.part_of(i);
        &self.nodes[p].routers[i - self.nodes[p].lo]
    }

    /// Terminal `i`.
    pub fn terminal(&self, i: usize) -> &TerminalNode {
        let p = self.net.part_of(i);
        &self.nodes[p].terminals[i - self.nodes[p].lo]
    }

    /// All routers in id order.
    pub fn routers(&self) -> impl Iterator<Item = &RouterNode> + '_ {
        self.nodes.iter().flat_map(|n| n.routers.iter())
    }

    /// All terminals in id order.
    pub fn terminals(&self) -> impl Iterator<Item = &TerminalNode> + '_ {
        self.nodes.iter().flat_map(|n| n.terminals.iter())
    }

    /// Flits travelling on channel `ch` (global index) at the start of cycle `next`.
    pub fn flits_on(&self, ch: usize, next: Cycle) -> impl Iterator<Item = &Flit> + '_ {
        let f = self.net.wires[ch].0;
        self.lines[f.part as usize].flits.in_flight(f.line, next.0)
    }

    /// Credits travelling on channel `ch`'s reverse side at the start of cycle `next`.
    pub fn credits_on(&self, ch: usize, next: Cycle) -> impl Iterator<Item = &Credit> + '_ {
        let r = self.net.wires[ch].1;
        self.lines[r.part as usize]
            .credits
            .in_flight(r.line, next.0)
    }

    /// Resets travelling on channel `ch`'s reverse side at the start of cycle `next`.
    pub fn resets_on(&self, ch: usize, next: Cycle) -> usize {
        if !self.net.resets {
            return 0;
        }
        let r = self.net.wires[ch].1;
        self.lines[r.part as usize]
            .resets
            .in_flight(r.line, next.0)
            .count()
    }

    /// The cycle up to which the network makes progress without any flit moving: the
    /// last arrival scheduled on any line (flits, credits, resets, injection and ejection
    /// channels included), or `next` if a router holds a flit or credit in a pipeline
    /// delay. `None` when nothing is scheduled.
    pub fn busy_until(&self, next: Cycle) -> Option<Cycle> {
        let lines = self.lines.iter().flat_map(|l| {
            [
                l.flits.last_due(next.0),
                l.credits.last_due(next.0),
                l.resets.last_due(next.0),
            ]
        });
        let piped = self.routers().any(|n| n.router.in_pipeline(next));
        lines.flatten().max().map(Cycle).max(piped.then_some(next))
    }

    /// Every partition's published status, summed in id order.
    pub fn totals(&self) -> Status {
        Status::sum(self.lines.iter().map(|l| &l.status))
    }
}
