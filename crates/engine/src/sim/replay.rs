//! netrace replay (`--traffic netrace:FILE`): a packet is generated only once every
//! packet it waits for has been delivered.
//!
//! The rule, that of the reference reader's dependency tracking: packet `p` of trace
//! cycle `c` is generated at cycle `max(c, D + 1)`, where `D` is the cycle the tail of the
//! last packet it waits for was consumed (a packet that waits for none: at `c`). Packets
//! released for the same source and cycle are generated in file order.
//!
//! Releases cross terminals (a delivery at one terminal releases a packet at another), so
//! the simulation steps one cycle at a time while a delivery may happen, and releases
//! between cycles, serially: the same for any thread count. While no flit is in the
//! network and no packet is queued, it runs to the next scheduled packet in one go.

use super::Simulation;
use crate::error::{ConfigError, SimError};
use crate::network::PHASE_BUG;
use crate::parallel::Stop;
use crate::terminal::{Delivery, Terminal};
use crate::traffic::netrace::Netrace;
use crate::traffic::{self, TracePacket};
use flitsim_netlist::{Cycle, Netlist, TerminalId};
use flitsim_router::PacketId;

/// The state of a netrace replay.
pub(super) struct Replay {
    trace: Netrace,
    /// Per packet: the packets it waits for that are not delivered yet.
    waiting: Vec<u32>,
    /// Packets not delivered yet.
    undelivered: usize,
    /// Deliveries kept for [`Simulation::take_deliveries`] (with `record_deliveries`).
    kept: Vec<Delivery>,
}

impl Replay {
    /// Loads the netrace file of `traffic` for `netlist`: node `n` is terminal `n`.
    ///
    /// # Errors
    /// A malformed file, or fewer terminals than the trace has nodes.
    pub(super) fn load(
        netlist: &Netlist,
        traffic: &traffic::TrafficKind,
    ) -> Result<Option<Replay>, ConfigError> {
        let Some(path) = traffic.netrace_file() else {
            return Ok(None);
        };
        let trace = traffic::netrace::load(path)?;
        if (trace.nodes as usize) > netlist.num_terminals() {
            return Err(ConfigError::TooFewTerminals {
                traffic: traffic.to_string(),
                needed: trace.nodes as usize,
                have: netlist.num_terminals(),
            });
        }
        Ok(Some(Replay {
            waiting: trace.parents.clone(),
            undelivered: trace.packets.len(),
            trace,
            kept: Vec::new(),
        }))
    }

    /// Every packet of the trace (for the zero-load latency).
    pub(super) fn packets(&self) -> &[TracePacket] {
        &self.trace.packets
    }

    /// The packets that wait for none, in file order.
    pub(super) fn roots(&self) -> Vec<TracePacket> {
        let free = |p: &&TracePacket| self.waiting[p.tag as usize] == 0;
        self.trace.packets.iter().filter(free).copied().collect()
    }

    /// Packet `tag` delivered (tail consumed) at `at`: adds the packets it was the last
    /// to wait for to `out`, with their generation cycle.
    fn delivered(&mut self, tag: u32, at: Cycle, out: &mut Vec<TracePacket>) {
        self.undelivered = self.undelivered.saturating_sub(1);
        for &d in self.trace.dependents_of(tag as usize) {
            let w = &mut self.waiting[d as usize];
            *w -= 1;
            if *w == 0 {
                let mut p = self.trace.packets[d as usize];
                p.cycle = p.cycle.max(at.plus(1));
                out.push(p);
            }
        }
    }

    /// Every packet delivered.
    pub(super) fn done(&self) -> bool {
        self.undelivered == 0
    }

    /// The deliveries kept so far, emptied.
    pub(super) fn take_kept(&mut self) -> Vec<Delivery> {
        std::mem::take(&mut self.kept)
    }
}

impl Simulation {
    /// [`Simulation::advance_plain`] for a netrace replay: the same stop, with packets
    /// released between cycles. A drain stop waits for every trace packet; an idle stop
    /// for an idle network (a packet still waiting has one it waits for in flight, queued
    /// or scheduled).
    pub(super) fn advance_replay(&mut self, stop: Stop) -> Result<(), SimError> {
        let end = stop.end();
        loop {
            let finished = match stop {
                Stop::At(_) => false,
                Stop::Drained(_) => self.replay.as_ref().is_none_or(Replay::done),
                Stop::Idle(_) => self.is_idle(),
            };
            if self.now >= end || finished {
                return Ok(());
            }
            let next = self.quiet_until().unwrap_or(self.now.plus(1));
            self.advance_plain(Stop::At(next.min(end)))?;
            self.release();
        }
    }

    /// With no flit in the network and no packet queued, nothing is delivered before the
    /// next scheduled packet: its cycle (`None`: not quiet, or nothing scheduled later
    /// than the next cycle).
    fn quiet_until(&mut self) -> Option<Cycle> {
        if self.flits_in_network() != 0 {
            return None;
        }
        let mut next: Option<Cycle> = None;
        for t in self.terminals_mut() {
            if t.source_queue_len() != 0 {
                return None;
            }
            if let Some(c) = t.next_scheduled() {
                next = Some(next.map_or(c, |n| n.min(c)));
            }
        }
        next.filter(|&c| c > self.now.plus(1))
    }

    /// Releases the packets the last deliveries were waited for by.
    fn release(&mut self) {
        let mut deliveries = Vec::new();
        for t in self.terminals_mut() {
            deliveries.extend(t.take_deliveries());
        }
        // A packet enqueued by hand (`Simulation::enqueue`) has no tag and releases none.
        let tags: Vec<Option<u32>> = deliveries
            .iter()
            .map(|d| self.terminal_mut(d.packet.source).tag_of(d.packet.seq))
            .collect();
        let keep = self.config.record_deliveries;
        let Some(replay) = self.replay.as_mut() else {
            return;
        };
        let mut released = Vec::new();
        for (d, tag) in deliveries.iter().zip(tags) {
            if let Some(tag) = tag {
                replay.delivered(tag, d.consumed, &mut released);
            }
        }
        if keep {
            replay.kept.extend(deliveries);
        }
        released.sort_by_key(|p| (p.cycle, p.tag));
        for p in released {
            self.terminal_mut(p.source).schedule_one(p);
        }
    }

    /// The index in the netrace file of packet `id` (`None`: not a netrace replay, or not
    /// generated yet).
    pub fn netrace_index(&mut self, id: PacketId) -> Option<u32> {
        self.replay.as_ref()?;
        self.terminal_mut(id.source).tag_of(id.seq)
    }

    /// Every terminal, in id order.
    fn terminals_mut(&mut self) -> impl Iterator<Item = &mut Terminal> + '_ {
        self.net.parts.iter_mut().flat_map(|part| {
            let members = part.members.get_mut().expect(PHASE_BUG);
            members.terminals.iter_mut().map(|t| &mut t.terminal)
        })
    }

    /// Terminal `id`.
    fn terminal_mut(&mut self, id: TerminalId) -> &mut Terminal {
        let p = self.net.part_of_terminal(id.index());
        let members = self.net.parts[p].members.get_mut().expect(PHASE_BUG);
        let lo = members.terminal_lo;
        &mut members.terminals[id.index() - lo].terminal
    }
}
