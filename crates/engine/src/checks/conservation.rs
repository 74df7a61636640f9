//! Conservation checks, run after every cycle in debug builds, or every few cycles when
//! long channels or pipelines make one check read more than [`CHECK_BUDGET`] per
//! component ([`check_every`]).
//!
//! - Flits: injected = in router FIFOs and crossbar pipelines + on channels + consumed.
//! - Credits, for every VC of every bounded channel (router-to-router and injection):
//!   credits held upstream + flits in the upstream crossbar bound for the VC + flits of
//!   the VC on the channel + flits in the downstream FIFO + credits pending inside the
//!   downstream router (its `credit_delay`) + credits of the VC on the reverse side =
//!   FIFO depth. The terminal upstream of an injection channel holds `depth - outstanding`.
//! - Ejection channels: flits the router counts as outstanding = in its crossbar + on the
//!   channel + credits on the way back + flits waiting in the terminal's ejection buffer
//!   (request/reply traffic only; otherwise the terminal returns credits at once).
//!
//! - Packet counts kept by events (the stop rules' measured packets generated and
//!   delivered, packets queued) = the same counts swept over the terminals.
//!
//! Cost: O(routers + channel slots + crossbar stages x VCs) per check ([`cost`]).

use crate::cycle::View;
use crate::terminal::Tally;
use flitsim_netlist::{Cycle, InPort, OutPort, RouterId, VcId};

/// Slots and stages a check may read per cycle on average, per router and terminal (and
/// at least 4 times this in all).
pub(crate) const CHECK_BUDGET: u64 = 256;

/// What one [`check`] reads: every delay-line slot, and each router's crossbar stages
/// once per VC of its ports (a VC's flits in the crossbar are counted by a scan).
pub(crate) fn cost(net: &View<'_>) -> u64 {
    let stages: u64 = net
        .routers()
        .enumerate()
        .map(|(i, r)| {
            let vcs: u64 = net
                .net
                .in_ports
                .of(i)
                .vcs
                .iter()
                .map(|&v| u64::from(v))
                .sum();
            r.router.crossbar_stages() as u64 * vcs
        })
        .sum();
    net.line_slots() + stages
}

/// Cycles between checks: 1, or more when a check's [`cost`] exceeds the budget of
/// `components` routers and terminals, so that the checks cost O(components) a cycle on
/// average however long the channels and pipelines (else draining lines of latency L,
/// about L cycles, would cost O(L^2)).
pub(crate) fn check_every(cost: u64, components: u64) -> u64 {
    let budget = (CHECK_BUDGET * components).max(4 * CHECK_BUDGET);
    cost.div_ceil(budget).max(1)
}

/// Panics with the cycle and what is off when a conservation law is broken after cycle
/// `now` (phase 2 of every partition done).
pub(crate) fn check(now: Cycle, net: &View<'_>) {
    check_packet_counts(now, net);
    check_flits(now, net);
    let mut on = OnChannel {
        ch: 0,
        flits: vec![0u32; 256],
        credits: vec![0u32; 256],
    };
    for (ch, ends) in net.net.ends.iter().enumerate() {
        on.count(net, ch, now.plus(1));
        match (ends.from(), ends.to()) {
            (Some(up), Some(down)) => check_link(now, net, &on, up, down),
            (None, Some(down)) => check_injection(now, net, &on, down),
            (Some(up), None) => check_ejection(now, net, &on, up),
            (None, None) => unreachable!("a channel without ends"),
        }
    }
}

/// The packet counts kept by events against the same counts swept over the terminals.
fn check_packet_counts(now: Cycle, net: &View<'_>) {
    let mut swept = Tally::default();
    for t in net.terminals() {
        swept.merge(&Tally::of(&t.terminal));
    }
    let kept = net.totals().tally;
    assert_eq!(
        (
            kept.measured_generated,
            kept.measured_delivered,
            kept.queued()
        ),
        (
            swept.measured_generated,
            swept.measured_delivered,
            swept.queued()
        ),
        "packet counts kept by events drifted from the terminals' after cycle {now}"
    );
}

/// Flits injected against flits in routers, on channels and consumed.
fn check_flits(now: Cycle, net: &View<'_>) {
    let next = now.plus(1);
    let totals = net.totals();
    let (injected, consumed) = (totals.injected, totals.consumed + totals.discarded);
    let in_routers: u64 = net.routers().map(|r| r.router.buffered_flits()).sum();
    let in_channels: u64 = (0..net.net.ends.len())
        .map(|ch| net.flits_on(ch, next).count() as u64)
        .sum();
    assert_eq!(
        injected,
        in_routers + in_channels + consumed,
        "flit conservation broken after cycle {now}: injected {injected} != {in_routers} in routers + {in_channels} in channels + {consumed} consumed"
    );
}

/// The flits and credits on one channel, by VC.
struct OnChannel {
    /// The channel.
    ch: usize,
    /// Flits on its forward side, by VC.
    flits: Vec<u32>,
    /// Credits on its reverse side, by VC.
    credits: Vec<u32>,
}

impl OnChannel {
    /// Counts channel `ch` as it will be read in cycle `next`.
    fn count(&mut self, net: &View<'_>, ch: usize, next: Cycle) {
        self.ch = ch;
        self.flits.iter_mut().for_each(|x| *x = 0);
        self.credits.iter_mut().for_each(|x| *x = 0);
        for f in net.flits_on(ch, next) {
            self.flits[f.vc.index()] += 1;
        }
        for c in net.credits_on(ch, next) {
            self.credits[c.vc.index()] += 1;
        }
    }
}

/// A router-to-router channel: every VC's credits add up to its FIFO depth.
fn check_link(
    now: Cycle,
    net: &View<'_>,
    on: &OnChannel,
    (r, out): (RouterId, OutPort),
    (d, inp): (RouterId, InPort),
) {
    let ch = on.ch;
    let up = &net.router(r.index()).router;
    let down = &net.router(d.index()).router;
    let spec = net.net.in_ports.of(d.index());
    let spec_vcs = spec.vcs[inp.index()];
    for v in 0..spec_vcs {
        let vc = VcId(v);
        let Some(held) = up.credits(out, vc) else {
            continue;
        };
        let depth = spec.depth[inp.index()];
        let total = held
            + up.in_crossbar(out, vc)
            + on.flits[usize::from(v)]
            + down.buffer_len(inp, vc)
            + down.pending_credits(inp, vc)
            + on.credits[usize::from(v)];
        assert_eq!(
            Some(total),
            depth,
            "credit conservation broken after cycle {now} on channel {ch} vc{v} ({} -> {}): held {held} + crossbar {} + on channel {} + FIFO {} + pending {} + returning {}",
            net.net.names.router(r.index()),
            net.net.names.router(d.index()),
            up.in_crossbar(out, vc),
            on.flits[usize::from(v)],
            down.buffer_len(inp, vc),
            down.pending_credits(inp, vc),
            on.credits[usize::from(v)],
        );
    }
}

/// An injection channel: the terminal's outstanding flits of every VC are on the channel,
/// in the router's FIFO, pending or returning as credits.
fn check_injection(now: Cycle, net: &View<'_>, on: &OnChannel, (d, inp): (RouterId, InPort)) {
    let m = &net.net.terminals;
    debug_assert!(
        inp.index() < m.count(d.index()) as usize,
        "an injection channel on a network port"
    );
    let t = &net.terminal(m.terminal(d, inp.0).index()).terminal;
    let down = &net.router(d.index()).router;
    for v in 0..t.vcs() {
        let vc = VcId(v as u8);
        let total =
            on.flits[v] + down.buffer_len(inp, vc) + down.pending_credits(inp, vc) + on.credits[v];
        assert_eq!(
            t.outstanding(vc),
            total,
            "injection credit conservation broken after cycle {now} at terminal {} vc{v}",
            t.id()
        );
    }
}

/// An ejection channel: the router's outstanding flits of every VC are in its crossbar,
/// on the channel, waiting in the terminal's ejection buffer or returning as credits.
fn check_ejection(now: Cycle, net: &View<'_>, on: &OnChannel, (r, out): (RouterId, OutPort)) {
    let m = &net.net.terminals;
    debug_assert!(
        out.index() < m.count(r.index()) as usize,
        "an ejection channel on a network port"
    );
    let up = &net.router(r.index()).router;
    let t = &net.terminal(m.terminal(r, out.0).index()).terminal;
    let vcs = net.net.in_ports.of(r.index()).ejection_vcs;
    for v in 0..vcs {
        let vc = VcId(v);
        let total = up.in_crossbar(out, vc)
            + on.flits[usize::from(v)]
            + on.credits[usize::from(v)]
            + t.ejection_held(vc);
        assert_eq!(
            up.outstanding(out, vc),
            total,
            "ejection credit conservation broken after cycle {now} at {} vc{v}",
            net.net.names.router(r.index())
        );
    }
}
