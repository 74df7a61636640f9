//! One cycle of one partition: the two phases of DESIGN.md "Time and the cycle".
//!
//! A partition is a contiguous range of ids; router `i` and terminal `i` belong to the same
//! partition. The serial engine is one partition; a parallel engine runs one worker per
//! partition with a barrier between the phases (`parallel.rs`). Nothing here depends on
//! the order in which partitions or components are visited:
//!
//! 1. [`compute`]: each router and terminal of the partition takes what its channels
//!    deliver at `now` (reading, through shared references, the lines their writers own),
//!    steps, and stages its outputs in its own outbox. A router with nothing to do
//!    (quiescent and no input) is not stepped.
//! 2. [`write`]: each component of the partition puts its outbox into its own lines'
//!    slots due at `now + latency`, and the partition publishes its [`Status`].

use crate::assemble::{LineRef, Network, Nodes, Outbound, RouterNode, TerminalNode, PHASE_BUG};
use flitsim_netlist::Cycle;
use flitsim_router::{Credit, Flit, Reset, RouterIo};
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
    /// Measured packets generated (terminal stats).
    pub measured_generated: u64,
    /// Measured packets delivered (terminal stats).
    pub measured_delivered: u64,
    /// Packets in source queues.
    pub queued: u64,
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
        self.measured_generated += o.measured_generated;
        self.measured_delivered += o.measured_delivered;
        self.queued += o.queued;
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

/// Phase 1 at `now` for the partition `nodes`; `lines` are every partition's outbound
/// lines, by partition index.
pub(crate) fn compute(now: Cycle, nodes: &mut Nodes, lines: &[&Outbound], resets: bool) {
    let t = now.0;
    let st = &mut nodes.status;
    let before = st.router_flits + st.injected + st.consumed + st.discarded;
    for node in &mut nodes.routers {
        let mut any_input = false;
        for (slot, &src) in node.flits_in.iter_mut().zip(node.flit_src.iter()) {
            *slot = peek_flit(lines, src, t);
            any_input |= slot.is_some();
        }
        for (slot, &src) in node.credits_in.iter_mut().zip(node.credit_src.iter()) {
            *slot = peek_credit(lines, src, t);
            any_input |= slot.is_some();
        }
        let discarded_before = node.router.reset_counters().flits_discarded;
        if resets {
            for (o, &src) in node.credit_src.iter().enumerate() {
                if let Some(r) = peek_reset(lines, src, t) {
                    node.router
                        .receive_reset(now, flitsim_netlist::OutPort(o as u8), r);
                    any_input = true;
                }
            }
        }
        if !any_input && node.router.is_quiescent() {
            continue;
        }
        st.stepped += 1;
        let mut io = RouterIo {
            flits_in: &node.flits_in,
            credits_in: &node.credits_in,
            flits_out: &mut node.flits_out,
            credits_out: &mut node.credits_out,
        };
        node.router.step(now, &mut io);
        if resets {
            node.router.emit_resets(&mut node.resets_out);
            st.discarded += node.router.reset_counters().flits_discarded - discarded_before;
        }
        st.router_flits += node.flits_out.iter().flatten().count() as u64;
    }
    let (mut generated, mut delivered, mut queued) = (0, 0, 0);
    for node in &mut nodes.terminals {
        let flit_in = peek_flit(lines, node.flit_src, t);
        let credit_in = peek_credit(lines, node.credit_src, t);
        if resets {
            if let Some(r) = peek_reset(lines, node.credit_src, t) {
                node.terminal.receive_reset(now, r);
                if let Some(tr) = &mut node.trace {
                    tr.push(crate::trace::TerminalEvent::ResetIn { packet: r.packet });
                }
            }
        }
        st.consumed += u64::from(flit_in.is_some());
        let (flit_out, credit_out) = node.terminal.step(now, flit_in, credit_in);
        if let Some(t) = &mut node.trace {
            crate::trace::event::terminal_step(t, flit_in, credit_in, flit_out, credit_out);
        }
        st.injected += u64::from(flit_out.is_some());
        node.flit_out = flit_out;
        node.credit_out = credit_out;
        let s = node.terminal.stats();
        generated += s.measured_generated;
        delivered += s.measured_delivered;
        queued += node.terminal.source_queue_len() as u64 + node.terminal.scheduled() as u64;
    }
    st.measured_generated = generated;
    st.measured_delivered = delivered;
    st.queued = queued;
    st.moved = st.router_flits + st.injected + st.consumed + st.discarded > before;
}

/// Phase 2 at `now` for the partition `nodes`: outboxes into its own lines' slots due
/// later; publishes the partition's status.
pub(crate) fn write(now: Cycle, nodes: &mut Nodes, out: &mut Outbound) {
    let t = now.0;
    for node in &mut nodes.routers {
        for (slot, &dst) in node.flits_out.iter_mut().zip(node.flit_dst.iter()) {
            if let Some(f) = slot.take() {
                out.flits.send(dst, t, f);
            }
        }
        for (slot, &dst) in node.credits_out.iter_mut().zip(node.credit_dst.iter()) {
            if let Some(c) = slot.take() {
                out.credits.send(dst, t, c);
            }
        }
        for (slot, &dst) in node.resets_out.iter_mut().zip(node.credit_dst.iter()) {
            if let Some(r) = slot.take() {
                out.resets.send(dst, t, r);
            }
        }
    }
    for node in &mut nodes.terminals {
        if let Some(f) = node.flit_out.take() {
            out.flits.send(node.flit_dst, t, f);
        }
        if let Some(c) = node.credit_out.take() {
            out.credits.send(node.credit_dst, t, c);
        }
    }
    out.status = nodes.status;
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
        let mut s = Status::default();
        for l in &self.lines {
            s.merge(&l.status);
        }
        s
    }
}
