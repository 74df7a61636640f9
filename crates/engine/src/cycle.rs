//! One cycle of one partition: the two phases of DESIGN.md "Time and the cycle".
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

use crate::assemble::{
    arrival_bit, LineRef, Network, Nodes, Outbound, RouterNode, TerminalNode, WakeRef, MASK_PORTS,
    PHASE_BUG,
};
use crate::channel::{Arrival, Landing, Line, Lines, Wakes};
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

#[inline]
fn peek_flit(lines: &[&Outbound], src: LineRef, now: u64) -> Option<Flit> {
    match lines.get(src.part as usize) {
        Some(l) => l.flits.peek(src.line, now),
        None => None,
    }
}

#[inline]
fn peek_reset(lines: &[&Outbound], src: LineRef, now: u64) -> Option<Reset> {
    match lines.get(src.part as usize) {
        Some(l) => l.resets.peek(src.line, now),
        None => None,
    }
}

#[inline]
fn peek_credit(lines: &[&Outbound], src: LineRef, now: u64) -> Option<Credit> {
    match lines.get(src.part as usize) {
        Some(l) => l.credits.peek(src.line, now),
        None => None,
    }
}

/// Where phase 1 reads the credits and flits a router's arrival mask names.
trait ReadLines<'a> {
    /// The credit due now on the reverse side `src`.
    fn credit(&self, src: LineRef) -> Option<Credit>;
    /// The flit due now on the forward side `src`.
    fn flit(&self, src: LineRef) -> Option<&'a Flit>;
}

/// Any partition's lines, looked up per read.
struct AllLines<'a, 'b> {
    lines: &'b [&'a Outbound],
    now: u64,
}

impl<'a> ReadLines<'a> for AllLines<'a, '_> {
    #[inline(always)]
    fn credit(&self, src: LineRef) -> Option<Credit> {
        self.lines
            .get(src.part as usize)
            .and_then(|l| l.credits.due_ref(src.line, self.now).copied())
    }
    #[inline(always)]
    fn flit(&self, src: LineRef) -> Option<&'a Flit> {
        self.lines
            .get(src.part as usize)
            .and_then(|l| l.flits.due_ref(src.line, self.now))
    }
}

/// The lines of the only partition, all of one latency: the slot of the cycle located
/// once ([`Arrival`]).
struct OneLatency<'a> {
    lines: &'a Outbound,
    at: Arrival,
}

impl<'a> ReadLines<'a> for OneLatency<'a> {
    #[inline(always)]
    fn credit(&self, src: LineRef) -> Option<Credit> {
        debug_assert_eq!(src.part, 0, "a line of another partition");
        self.lines.credits.due_ref_at(src.line, self.at).copied()
    }
    #[inline(always)]
    fn flit(&self, src: LineRef) -> Option<&'a Flit> {
        debug_assert_eq!(src.part, 0, "a line of another partition");
        self.lines.flits.due_ref_at(src.line, self.at)
    }
}

/// Steps a woken router that fits the arrival masks, handing it what its arrival mask
/// names straight from the lines, by reference (no inbox): the resets first (they act
/// before the step begins), then [`Router::begin_step`], the credits, the flits, and
/// [`Router::finish_step`], which is exactly one [`Router::step`]. What it writes stays
/// in the router for phase 2 ([`Router::flits_out`], [`Router::credits_out`]).
///
/// [`Router::begin_step`]: flitsim_router::Router::begin_step
/// [`Router::finish_step`]: flitsim_router::Router::finish_step
/// [`Router::step`]: flitsim_router::Router::step
/// [`Router::flits_out`]: flitsim_router::Router::flits_out
/// [`Router::credits_out`]: flitsim_router::Router::credits_out
#[inline(always)]
fn step_arrived<'a>(
    now: Cycle,
    node: &mut RouterNode,
    arrived: u64,
    lines: &[&'a Outbound],
    read: &impl ReadLines<'a>,
    resets: bool,
) {
    let t = now.0;
    let (flits, credits) = (arrived as u32, (arrived >> 32) as u32);
    #[cfg(debug_assertions)]
    {
        // The wake-ups missed nothing and named nothing extra: every line read in full
        // agrees with the mask (a credit bit may stand for a reset alone).
        for (p, &src) in node.flit_src.iter().enumerate() {
            assert_eq!(
                flits >> p & 1 == 1,
                peek_flit(lines, src, t).is_some(),
                "flit on input port {p} at cycle {t}: arrival mask and lines disagree"
            );
        }
        for (o, &src) in node.credit_src.iter().enumerate() {
            let reset = resets && peek_reset(lines, src, t).is_some();
            assert_eq!(
                credits >> o & 1 == 1,
                peek_credit(lines, src, t).is_some() || reset,
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
            if let Some(r) = peek_reset(lines, node.credit_src[o], t) {
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
        let src = node.credit_src[o];
        // With resets a credit bit may stand for a reset alone: the credit's tag decides.
        let c = if resets {
            peek_credit(lines, src, t)
        } else {
            read.credit(src)
        };
        if let Some(c) = c {
            router.receive_credit(now, o, c);
        }
    }
    let mut m = flits;
    while m != 0 {
        let p = m.trailing_zeros() as usize;
        m &= m - 1;
        let src = node.flit_src[p];
        if let Some(f) = read.flit(src) {
            router.receive_flit(now, p, f);
        }
    }
    router.finish_step(now);
}

/// A woken router with more than [`MASK_PORTS`] ports reads every line into its inbox
/// and steps as [`step_arrived`] does.
#[cold]
#[inline(never)]
fn step_wide(now: Cycle, node: &mut RouterNode, lines: &[&Outbound], resets: bool) {
    let any_input = read_all(now, node, lines, resets);
    debug_assert!(
        any_input || !node.router.is_quiescent(),
        "router visited with nothing to do"
    );
    let router = &mut node.router;
    router.begin_step(now);
    for (o, c) in node.credits_in.iter().enumerate() {
        if let Some(c) = *c {
            router.receive_credit(now, o, c);
        }
    }
    for (p, f) in node.flits_in.iter().enumerate() {
        if let Some(f) = f {
            router.receive_flit(now, p, f);
        }
    }
    router.finish_step(now);
}

/// A wide router's inbox filled from every line (resets handed over at once).
fn read_all(now: Cycle, node: &mut RouterNode, lines: &[&Outbound], resets: bool) -> bool {
    let t = now.0;
    let mut any = false;
    for (slot, &src) in node.flits_in.iter_mut().zip(node.flit_src.iter()) {
        *slot = peek_flit(lines, src, t);
        any |= slot.is_some();
    }
    for (slot, &src) in node.credits_in.iter_mut().zip(node.credit_src.iter()) {
        *slot = peek_credit(lines, src, t);
        any |= slot.is_some();
    }
    if resets {
        for (o, &src) in node.credit_src.iter().enumerate() {
            if let Some(r) = peek_reset(lines, src, t) {
                node.router
                    .receive_reset(now, flitsim_netlist::OutPort(o as u8), r);
                any = true;
            }
        }
    }
    any
}

/// Before the first cycle of a run (serially, from the simulation): the routers to step are exactly the non-quiescent
/// ones (router state may have been read or changed between runs), and the terminals'
/// counts are taken afresh.
pub(crate) fn start(nodes: &mut Nodes) {
    nodes.pending.fill(0);
    debug_assert!(nodes.arriving.iter().all(|&w| w == 0));
    for (i, node) in nodes.routers.iter().enumerate() {
        if !node.router.is_quiescent() {
            nodes.pending[i / 64] |= 1 << (i % 64);
        }
    }
    let mut tally = Tally::default();
    for t in &nodes.terminals {
        tally.merge(&Tally::of(&t.terminal));
    }
    nodes.status.tally = tally;
    // Every terminal steps in the first cycle (it may have been given a packet).
    nodes.calendar.clear();
    for (w, word) in nodes.busy.iter_mut().enumerate() {
        let n = (nodes.terminals.len() - w * 64).min(64);
        *word = if n == 64 { u64::MAX } else { (1 << n) - 1 };
    }
}

/// Phase 1 at `now` for the partition `nodes`; `lines` are every partition's outbound
/// lines, by partition index.
///
/// Only routers that are not quiescent or receive something now are visited: the
/// pending set carries the first kind from the previous cycle, every writer's wake-ups
/// for this partition the second. Terminals: see [`step_terminals`].
pub(crate) fn compute(now: Cycle, nodes: &mut Nodes, lines: &[&Outbound], resets: bool) {
    let t = now.0;
    let part = nodes.part;
    let Nodes {
        pending,
        arriving,
        arrivals,
        status: st,
        moved_before,
        ..
    } = nodes;
    *moved_before = st.router_flits + st.injected + st.consumed + st.discarded;
    for l in lines {
        l.wakes[part].deliver(t, pending, arrivals, arriving);
    }
    // One partition with one latency for every line (every single-thread run on such a
    // network): the slot of the cycle is located once for all reads.
    match (lines, nodes.latency) {
        ([own], Some(l)) => {
            let read = OneLatency {
                lines: own,
                at: Arrival::new(t, l),
            };
            step_routers(now, nodes, lines, &read, resets);
        }
        _ => step_routers(now, nodes, lines, &AllLines { lines, now: t }, resets),
    }
    step_terminals(now, nodes, lines, resets);
}

/// Phase 1: steps the routers of `nodes` that are pending or woken, reading through
/// `read`.
#[inline(always)]
fn step_routers<'a>(
    now: Cycle,
    nodes: &mut Nodes,
    lines: &[&'a Outbound],
    read: &impl ReadLines<'a>,
    resets: bool,
) {
    let Nodes {
        routers,
        pending,
        arrivals,
        stepped,
        status: st,
        ..
    } = nodes;
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
            let discarded_before = node.router.reset_counters().flits_discarded;
            if node.flits_in.len() > MASK_PORTS {
                step_wide(now, node, lines, resets);
            } else {
                step_arrived(now, node, arrived, lines, read, resets);
            }
            if resets {
                node.router.emit_resets(&mut node.resets_out);
                st.discarded += node.router.reset_counters().flits_discarded - discarded_before;
            }
            if !node.router.is_quiescent() {
                *word |= 1 << (i % 64);
            }
        }
    }
}

/// Trials an idle terminal draws ahead at most ([`crate::terminal::Terminal::look_ahead`]):
/// bounds the draws past the end of a run.
const LOOK_AHEAD: u64 = 1024;

/// Phase 1 for the terminals of a partition: the ones something arrives for (they peek
/// their lines), the ones not idle, and the idle ones whose calendar entry is due (their
/// trial succeeds now, or their drawn trials end); the other idle terminals' steps would
/// change nothing (their trials for now are drawn already and failed), so they are skipped.
#[inline(never)]
fn step_terminals(now: Cycle, nodes: &mut Nodes, lines: &[&Outbound], resets: bool) {
    // Without resets and tracing (every measuring run without timeouts) the loop is
    // compiled without their tests.
    if resets || nodes.trace.is_some() {
        step_terminals_with::<true>(now, nodes, lines, resets);
    } else {
        step_terminals_with::<false>(now, nodes, lines, false);
    }
}

/// [`step_terminals`]; with `FEATURES` false, resets and tracing are known to be off.
#[inline(always)]
fn step_terminals_with<const FEATURES: bool>(
    now: Cycle,
    nodes: &mut Nodes,
    lines: &[&Outbound],
    resets: bool,
) {
    let t = now.0;
    let Nodes {
        part,
        terminals,
        arriving,
        busy,
        calendar,
        stepped_terminals,
        status: st,
        trace,
        ..
    } = nodes;
    // A terminal's lines in are its router's, in its own partition.
    let own = lines[*part];
    #[cfg(debug_assertions)]
    for (i, node) in terminals.iter().enumerate() {
        if arriving[i / 64] & (1 << (i % 64)) == 0 {
            assert!(
                peek_flit(lines, node.flit_src, t).is_none()
                    && peek_credit(lines, node.credit_src, t).is_none()
                    && (!resets || peek_reset(lines, node.credit_src, t).is_none()),
                "terminal {i} at cycle {t}: wake-ups and lines disagree"
            );
        }
    }
    calendar.take(t, |i| busy[i / 64] |= 1 << (i % 64));
    let (resets, tracing) = (FEATURES && resets, FEATURES && trace.is_some());
    for (w, (word, keep)) in arriving.iter_mut().zip(busy.iter_mut()).enumerate() {
        let woken = std::mem::take(word);
        let mut bits = woken | *keep;
        stepped_terminals[w] = bits;
        while bits != 0 {
            let k = bits.trailing_zeros();
            bits &= bits - 1;
            let i = w * 64 + k as usize;
            let node = &mut terminals[i];
            debug_assert!(
                node.flit_src.part as usize == *part && node.credit_src.part as usize == *part,
                "terminal {i} reads another partition's lines"
            );
            let (flit_in, credit_in) = if woken & (1 << k) != 0 {
                if resets {
                    if let Some(r) = own.resets.peek(node.credit_src.line, t) {
                        node.terminal.receive_reset(now, r, &mut st.tally);
                        if let Some(tr) = &mut node.trace {
                            tr.push(crate::trace::TerminalEvent::ResetIn { packet: r.packet });
                        }
                    }
                }
                (
                    own.flits.peek_ref(node.flit_src.line, t),
                    own.credits.peek(node.credit_src.line, t),
                )
            } else {
                (None, None)
            };
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

/// Phase 2: wakes `w` (nobody for a port without a channel) for an item due at `due`.
#[inline(always)]
fn wake(wakes: &mut [Wakes], w: WakeRef, due: u64) {
    if let Some(reader) = wakes.get_mut(w.part as usize) {
        reader.wake_spot(due, w.spot);
    }
}

/// Phase 2 at `t`: sends what the routers of `nodes` stepped this cycle wrote into their
/// lines' slots due later (at `at` when every line has its latency) and wakes (`wake`)
/// whom each item reaches; returns the number of flits sent.
#[inline(always)]
fn write_routers(
    t: u64,
    at: Option<Landing>,
    nodes: &mut Nodes,
    flits: &mut Lines<Flit>,
    credits: &mut Lines<Credit>,
    resets: &mut Lines<Reset>,
    mut wake: impl FnMut(WakeRef, u64),
) -> u64 {
    let mut router_flits = 0;
    for (w, &word) in nodes.stepped.iter().enumerate() {
        let mut bits = word;
        while bits != 0 {
            let i = w * 64 + bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let node = &mut nodes.routers[i];
            // What the router wrote, read where its step left it, each item copied once.
            let out = node.router.flits_out();
            router_flits += out.len() as u64;
            for (o, f) in out {
                let to = node.flit_to[*o as usize];
                let due = match at {
                    Some(at) => flits.send_landing(to.line, at, f),
                    None => flits.send_ref(to.line, t, f),
                };
                wake(to.wake, due);
            }
            for &(p, vc) in node.router.credits_out() {
                let to = node.credit_to[p as usize];
                let due = match at {
                    Some(at) => credits.send_landing(to.line, at, &Credit { vc }),
                    None => credits.send(to.line, t, Credit { vc }),
                };
                wake(to.wake, due);
            }
            if resets.is_empty() {
                continue;
            }
            for (p, slot) in node.resets_out.iter_mut().enumerate() {
                if let Some(r) = slot.take() {
                    let to = node.credit_to[p];
                    let due = resets.send(to.line, t, r);
                    wake(to.wake, due);
                }
            }
        }
    }
    router_flits
}

/// Phase 2: sends what the terminals of `nodes` stepped this cycle wrote (`send_flit`,
/// `send_credit` return the cycle an item is due), wakes (`wake`) the router each feeds,
/// and counts the flits injected and consumed (a terminal sends a credit back for each
/// flit it consumes) into the partition's status.
#[inline(always)]
fn write_terminals(
    nodes: &mut Nodes,
    mut send_flit: impl FnMut(Line, &Flit) -> u64,
    mut send_credit: impl FnMut(Line, Credit) -> u64,
    mut wake: impl FnMut(u64, u32, u64),
) {
    let (mut injected, mut consumed) = (0, 0);
    for (w, word) in nodes.stepped_terminals.iter_mut().enumerate() {
        let mut bits = std::mem::take(word);
        while bits != 0 {
            let i = w * 64 + bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let node = &mut nodes.terminals[i];
            // Terminal `i` feeds router `i`'s port 0.
            if let Some(f) = &node.flit_out {
                let due = send_flit(node.flit_dst, f);
                wake(due, i as u32, 1 << arrival_bit(0, false));
                node.flit_out = None;
                injected += 1;
            }
            if let Some(c) = node.credit_out.take() {
                let due = send_credit(node.credit_dst, c);
                wake(due, i as u32, 1 << arrival_bit(0, true));
                consumed += 1;
            }
        }
    }
    nodes.status.injected += injected;
    nodes.status.consumed += consumed;
}

/// Phase 2 at `now` for partition `nodes`: what its components wrote into its own lines'
/// slots due later,
/// the components they wake into the wake-ups; publishes the partition's status.
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
    // One partition (every single-thread run): its own wake-ups are the only ones, taken
    // once here instead of looked up per send.
    // With one latency for every line, everything sent now is due in one bucket, located
    // once.
    let router_flits = match (&mut wakes[..], nodes.latency) {
        ([own], Some(l)) => {
            let at = Landing::new(t, l);
            let mut bucket = own.bucket_mut(at.due());
            write_routers(t, Some(at), nodes, flits, credits, resets, |w, due| {
                debug_assert_eq!(w.part, 0, "a wake-up for another partition");
                bucket.wake_spot(due, w.spot);
            })
        }
        ([own], None) => write_routers(t, None, nodes, flits, credits, resets, |w, due| {
            debug_assert_eq!(w.part, 0, "a wake-up for another partition");
            own.wake_spot(due, w.spot);
        }),
        (wakes, _) => write_routers(t, None, nodes, flits, credits, resets, |w, due| {
            wake(wakes, w, due)
        }),
    };
    let own = &mut wakes[nodes.part];
    match nodes.latency {
        Some(l) => {
            let at = Landing::new(t, l);
            let mut bucket = own.bucket_mut(at.due());
            write_terminals(
                nodes,
                |line, f| flits.send_landing(line, at, f),
                |line, c| credits.send_landing(line, at, &c),
                |due, i, what| bucket.wake(due, i, what),
            );
        }
        None => write_terminals(
            nodes,
            |line, f| flits.send_ref(line, t, f),
            |line, c| credits.send(line, t, c),
            |due, i, what| own.wake(due, i, what),
        ),
    }
    debug_assert!(
        nodes
            .terminals
            .iter()
            .all(|n| n.flit_out.is_none() && n.credit_out.is_none()),
        "a terminal not stepped has an output"
    );
    let st = &mut nodes.status;
    st.router_flits += router_flits;
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

    /// Every partition's published status, summed in id order.
    pub fn totals(&self) -> Status {
        Status::sum(self.lines.iter().map(|l| &l.status))
    }
}
