//! Stage 4, the crossbar (switch traversal).
//!
//! - Reads: flits granted by SA at cycle `c` (at most one per input port and per output
//!   port per cycle, which SA guarantees).
//! - Writes: each flit onto its output channel at `c + sd + xd` (`flits_out[port]`).
//! - Knob: `crossbar_delay` (xd), modelled together with `switch_alloc_delay` (sd) as an
//!   internal pipeline per output port; term `sd + xd` after SA in the head latency.
//!   Because every flit of a port takes the same delay and SA grants a port at most once
//!   per cycle, each pipeline is a FIFO with at most one flit leaving per cycle.

use crate::flit::Flit;
use crate::stats::RouterStats;
use flitsim_netlist::Cycle;
use std::collections::VecDeque;

/// Flits between SA and their output channel, per output port.
#[derive(Clone, Debug)]
pub struct Crossbar {
    pipes: Vec<VecDeque<(Cycle, Flit)>>,
    /// Flits in all pipes (`emit` returns at once when 0).
    len: usize,
}

impl Crossbar {
    /// For `ports` output ports and a pipeline of `depth` cycles (`sd + xd`).
    pub fn new(ports: usize, depth: u64) -> Crossbar {
        Crossbar {
            pipes: (0..ports)
                .map(|_| VecDeque::with_capacity(depth as usize + 1))
                .collect(),
            len: 0,
        }
    }

    /// A flit granted the switch, to be written onto output `port` at `exit`.
    #[inline]
    pub fn push(&mut self, port: usize, exit: Cycle, flit: Flit) {
        debug_assert!(
            self.pipes[port].back().is_none_or(|&(t, _)| t < exit),
            "two flits for output {port} in one cycle"
        );
        self.pipes[port].push_back((exit, flit));
        self.len += 1;
    }

    /// Writes the flits due at `now` into `out` and counts them. Returns true when a head
    /// was written onto a router-to-router port (not the ejection port 0).
    #[inline]
    pub fn emit(&mut self, now: Cycle, out: &mut [Option<Flit>], stats: &mut RouterStats) -> bool {
        if self.len == 0 {
            return false;
        }
        let mut network_head = false;
        for (port, pipe) in self.pipes.iter_mut().enumerate() {
            if let Some(&(t, flit)) = pipe.front() {
                debug_assert!(t >= now, "crossbar flit missed its cycle");
                if t == now {
                    pipe.pop_front();
                    self.len -= 1;
                    debug_assert!(out[port].is_none(), "output slot already written");
                    out[port] = Some(flit);
                    stats.flits_sent[port] += 1;
                    if flit.kind.is_head() {
                        stats.packets_sent[port] += 1;
                        network_head |= port != 0;
                    }
                }
            }
        }
        network_head
    }

    /// Flits inside the crossbar pipelines.
    pub fn len(&self) -> usize {
        debug_assert_eq!(self.len, self.pipes.iter().map(VecDeque::len).sum());
        self.len
    }

    /// True when no flit is inside.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Flits inside bound for downstream VC `vc` of output `port`.
    pub fn in_flight_to(&self, port: usize, vc: u8) -> u32 {
        self.pipes[port]
            .iter()
            .filter(|(_, f)| f.vc.0 == vc)
            .count() as u32
    }
}
