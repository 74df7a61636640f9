//! One cycle of one partition: the two phases of DESIGN.md "Time and the cycle".
//!
//! A partition is a contiguous range of ids `lo..hi`; router `i` and terminal `i` belong to
//! the same partition. The serial engine runs one partition covering everything; a
//! parallel engine runs one per worker with a barrier between the phases. Nothing here
//! depends on the order in which partitions or components are visited:
//!
//! 1. [`compute`]: each router and terminal of the range takes what its channels deliver
//!    at `now` (emptying only the slots due now), steps, and stages its outputs in its own
//!    outbox. A router with nothing to do (quiescent and no input) is not stepped.
//! 2. [`write`]: each component of the range puts its outbox into its channels' slots due
//!    at `now + latency`.
//!
//! Code flow of one serial cycle (`Simulation::step`): `compute(now, all)`,
//! `write(now, all)`, watchdog and conservation checks, `now += 1`.

use crate::assemble::{Network, NO_CHANNEL};
use flitsim_netlist::Cycle;
use flitsim_router::RouterIo;
use std::ops::Range;

/// What moved in a partition during one cycle (integer counters, summed over partitions).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Activity {
    /// Flits written onto channels by routers (including ejection channels).
    pub router_flits: u64,
    /// Flits written onto injection channels by terminals.
    pub injected: u64,
    /// Flits consumed by terminals.
    pub consumed: u64,
    /// Routers actually stepped (not skipped as quiescent).
    pub stepped: u64,
    /// Flits discarded by timeout resets.
    pub discarded: u64,
}

impl Activity {
    /// Did any flit move?
    pub fn moved(&self) -> bool {
        self.router_flits + self.injected + self.consumed + self.discarded > 0
    }
}

/// Phase 1 for the components `range` at `now`.
pub(crate) fn compute(now: Cycle, range: Range<usize>, net: &mut Network) -> Activity {
    let mut act = Activity::default();
    let channels = &mut net.channels;
    for node in &mut net.routers[range.clone()] {
        let mut any_input = false;
        for (slot, &ch) in node.flits_in.iter_mut().zip(node.in_channels.iter()) {
            *slot = if ch == NO_CHANNEL {
                None
            } else {
                channels[ch as usize].recv_flit(now)
            };
            any_input |= slot.is_some();
        }
        for (slot, &ch) in node.credits_in.iter_mut().zip(node.out_channels.iter()) {
            *slot = if ch == NO_CHANNEL {
                None
            } else {
                channels[ch as usize].recv_credit(now)
            };
            any_input |= slot.is_some();
        }
        let discarded_before = node.router.reset_counters().flits_discarded;
        if net.resets {
            for (o, &ch) in node.out_channels.iter().enumerate() {
                if ch == NO_CHANNEL {
                    continue;
                }
                if let Some(r) = channels[ch as usize].recv_reset(now) {
                    node.router
                        .receive_reset(now, flitsim_netlist::OutPort(o as u8), r);
                    any_input = true;
                }
            }
        }
        if !any_input && node.router.is_quiescent() {
            continue;
        }
        act.stepped += 1;
        let mut io = RouterIo {
            flits_in: &node.flits_in,
            credits_in: &node.credits_in,
            flits_out: &mut node.flits_out,
            credits_out: &mut node.credits_out,
        };
        node.router.step(now, &mut io);
        act.router_flits += node.flits_out.iter().flatten().count() as u64;
        if net.resets {
            node.router.emit_resets(&mut node.resets_out);
            act.discarded += node.router.reset_counters().flits_discarded - discarded_before;
        }
    }
    for node in &mut net.terminals[range] {
        let flit_in = channels[node.ejection as usize].recv_flit(now);
        let credit_in = channels[node.injection as usize].recv_credit(now);
        if let Some(r) = channels[node.injection as usize].recv_reset(now) {
            node.terminal.receive_reset(now, r);
            if let Some(t) = &mut node.trace {
                t.push(crate::trace::TerminalEvent::ResetIn { packet: r.packet });
            }
        }
        act.consumed += u64::from(flit_in.is_some());
        let (flit_out, credit_out) = node.terminal.step(now, flit_in, credit_in);
        if let Some(t) = &mut node.trace {
            crate::trace::event::terminal_step(t, flit_in, credit_in, flit_out, credit_out);
        }
        act.injected += u64::from(flit_out.is_some());
        node.flit_out = flit_out;
        node.credit_out = credit_out;
    }
    act
}

/// Phase 2 for the components `range` at `now`: outboxes into channel slots due later.
pub(crate) fn write(now: Cycle, range: Range<usize>, net: &mut Network) {
    let channels = &mut net.channels;
    for node in &mut net.routers[range.clone()] {
        for (slot, &ch) in node.flits_out.iter_mut().zip(node.out_channels.iter()) {
            if let Some(f) = slot.take() {
                assert!(
                    ch != NO_CHANNEL,
                    "router sent a flit on an unconnected output port at cycle {now}"
                );
                channels[ch as usize].send_flit(now, f);
            }
        }
        for (slot, &ch) in node.credits_out.iter_mut().zip(node.in_channels.iter()) {
            if let Some(c) = slot.take() {
                assert!(
                    ch != NO_CHANNEL,
                    "router sent a credit on an unconnected input port at cycle {now}"
                );
                channels[ch as usize].send_credit(now, c);
            }
        }
        if net.resets {
            for (slot, &ch) in node.resets_out.iter_mut().zip(node.in_channels.iter()) {
                if let Some(r) = slot.take() {
                    channels[ch as usize].send_reset(now, r);
                }
            }
        }
    }
    for node in &mut net.terminals[range] {
        if let Some(f) = node.flit_out.take() {
            channels[node.injection as usize].send_flit(now, f);
        }
        if let Some(c) = node.credit_out.take() {
            channels[node.ejection as usize].send_credit(now, c);
        }
    }
}
