//! Timeout resets as the router runs them ([`crate::reset`] describes the scheme): heads
//! dropped after waiting too long, resets read from downstream and passed upstream.

use crate::flit::Credit;
use crate::reset::{Reset, ResetStats};
use crate::PacketId;
use crate::{mask, probe, Router};
use flitsim_netlist::{Cycle, InPort, OutPort, VcId};

impl Router {
    /// Keeps the trail that timeout resets need (the engine calls it on every router when
    /// any router of the network has a timeout, before the first step).
    pub fn enable_resets(&mut self) {
        let layout = &self.state.layout;
        self.resets.enable(layout.total_in_vcs(), layout.in_ports());
        self.state.keep_trail();
        self.inputs_watched = true;
    }

    /// Timeout-reset counters since cycle 0.
    pub fn reset_counters(&self) -> ResetStats {
        self.resets.stats()
    }

    /// A reset delivered at `now` on the reverse side of output port `out`'s channel.
    /// Call it before [`Router::begin_step`] of the same cycle. See [`crate::reset`].
    pub fn receive_reset(&mut self, now: Cycle, out: OutPort, r: Reset) {
        let s = &mut self.state;
        // The flits it discards leave their FIFO at `now` (the step of `now` has not begun).
        s.buffers.set_now(now);
        let Some((ip, iv)) = s.trail.as_mut().and_then(|t| t.remove(&r.packet)) else {
            panic!(
                "router {}: reset for packet {} that never passed here (cycle {now})",
                s.id, r.packet
            );
        };
        let i = s.layout.ivc(usize::from(ip), iv);
        let ovc = s.layout.ovc(out.index(), r.vc.0);
        if s.outputs[ovc].owner == Some(i as u32) && s.holders[ovc] == Some(r.packet) {
            self.drop_front(now, i, r.packet);
            let s = &mut self.state;
            if let Some(t) = &mut s.channel_times {
                t.released(out.index(), ovc, now);
            }
            s.outputs[ovc].owner = None;
            s.holders[ovc] = None;
            if !s.outputs[ovc].is_busy() {
                s.busy_change(out.index(), -1, now);
            }
        }
        if let Some(t) = &mut self.trace {
            t.push(probe::RouterEvent::ResetIn {
                out,
                vc: r.vc,
                packet: r.packet,
            });
        }
        let resets = self.resets.on();
        resets.out[usize::from(ip)].push_back(Reset { vc: VcId(iv), ..r });
        resets.stats.resets_sent += 1;
    }

    /// Writes the resets due at `now` (at most one per input port), by input port.
    pub fn emit_resets(&mut self, out: &mut [Option<Reset>]) {
        let Some(resets) = self.resets.enabled() else {
            return;
        };
        for (p, q) in resets.out.iter_mut().enumerate() {
            if let Some(r) = q.pop_front() {
                if let Some(t) = &mut self.trace {
                    t.push(probe::RouterEvent::ResetOut {
                        port: InPort(p as u8),
                        vc: r.vc,
                        packet: r.packet,
                    });
                }
                out[p] = Some(r);
            }
        }
    }

    /// Drops every head that has waited `timeout` cycles for an output VC.
    pub(crate) fn expire_timers(&mut self, now: Cycle) {
        let timeout = self.resets.timeout;
        // Ascending over the waiting VCs; dropping VC i changes no other VC's phase.
        let mut next = 0;
        while let Some(i) = mask::first_one_from(self.state.vcs.waiting(), next) {
            next = i + 1;
            let vc = &self.state.vcs[i];
            if vc.ready_at.0 + timeout > now.0 {
                continue;
            }
            let head = self
                .state
                .buffers
                .front(i)
                .expect("a waiting VC holds its head")
                .flit;
            let (p, v) = self.state.layout.in_split(i);
            if let Some(t) = &mut self.trace {
                t.push(probe::RouterEvent::Timeout {
                    port: InPort(p as u8),
                    vc: VcId(v),
                    packet: head.packet,
                });
            }
            if let Some(t) = &mut self.state.channel_times {
                if let Some(c) = self.state.vcs.route(i).first() {
                    t.timed_out(c.port.index());
                }
            }
            self.drop_front(now, i, head.packet);
            let resets = self.resets.on();
            resets.out[p].push_back(Reset::of(&head, VcId(v)));
            resets.stats.timeouts += 1;
            resets.stats.resets_sent += 1;
        }
    }

    /// Discards the flits of `packet` at the front of input VC `i` (returning their
    /// credits), marks the VC to discard the packet's later flits unless its tail was
    /// among them, and restarts the VC with the next packet's head, if any.
    pub(crate) fn drop_front(&mut self, now: Cycle, i: usize, packet: PacketId) {
        let s = &mut self.state;
        let (p, v) = s.layout.in_split(i);
        let mut tail_seen = false;
        while s.buffers.front(i).is_some_and(|b| b.flit.packet == packet) {
            let f = s.buffers.pop(i).flit;
            tail_seen |= f.kind.is_tail();
            if let Some(t) = &mut self.trace {
                t.push(probe::RouterEvent::Discard {
                    port: InPort(p as u8),
                    vc: VcId(v),
                    flit: probe::FlitTag::from(&f),
                });
            }
            self.credit_return
                .push_discarded(p, now, Credit { vc: VcId(v) });
            self.resets.on().stats.flits_discarded += 1;
        }
        if !tail_seen {
            self.resets.on().discarding[i] = Some(packet);
        }
        s.vcs.abandon(i);
        if let Some(b) = s.buffers.front(i) {
            debug_assert!(b.flit.kind.is_head());
            let ready = b.arrived.cycle().max(now);
            s.vcs.head_arrived(i, ready);
        }
    }
}
