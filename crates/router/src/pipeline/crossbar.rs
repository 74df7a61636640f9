//! Stage 4, the crossbar (switch traversal).
//!
//! - Reads: flits granted by SA at cycle `c` (at most one per input port and per output
//!   port per cycle, which SA guarantees).
//! - Writes: each flit onto its output channel at `c + sd + xd` (`flits_out[port]`).
//! - Knob: `crossbar_delay` (xd), modelled together with `switch_alloc_delay` (sd) as an
//!   internal pipeline per output port; term `sd + xd` after SA in the head latency.
//!   Every flit takes the same delay, so the flits leave in the order SA granted them:
//!   one FIFO for the whole crossbar (flits of one cycle are due together; SA grants an
//!   output port at most once per cycle, so they go to distinct ports), and `emit` looks
//!   only at the flits due now instead of at every port.

use crate::flit::Flit;
use crate::stats::RouterStats;
use flitsim_netlist::Cycle;
use std::collections::VecDeque;

/// Flits between SA and their output channel, in grant order.
#[derive(Clone, Debug)]
pub struct Crossbar {
    /// (exit cycle, output port, flit); exit cycles never decrease along the queue.
    pipe: VecDeque<(Cycle, u32, Flit)>,
}

impl Crossbar {
    /// For `ports` output ports and a pipeline of `depth` cycles (`sd + xd`).
    pub fn new(ports: usize, depth: u64) -> Crossbar {
        Crossbar {
            pipe: VecDeque::with_capacity(ports * (depth as usize + 1)),
        }
    }

    /// A flit granted the switch, to be written onto output `port` at `exit`.
    #[inline]
    pub fn push(&mut self, port: usize, exit: Cycle, flit: Flit) {
        debug_assert!(
            self.pipe.back().is_none_or(|&(t, _, _)| t <= exit),
            "crossbar flits out of order"
        );
        debug_assert!(
            !self
                .pipe
                .iter()
                .any(|&(t, p, _)| t == exit && p as usize == port),
            "two flits for output {port} in one cycle"
        );
        self.pipe.push_back((exit, port as u32, flit));
    }

    /// Writes the flits due at `now` into `out` and counts them. Returns the ports written
    /// (bit `o`, for `o < 64`) and whether a head was written onto a router-to-router
    /// port (not the ejection port 0).
    #[inline]
    pub fn emit(
        &mut self,
        now: Cycle,
        out: &mut [Option<Flit>],
        stats: &mut RouterStats,
    ) -> (u64, bool) {
        let mut network_head = false;
        let mut ports = 0u64;
        while let Some(&(t, port, flit)) = self.pipe.front() {
            debug_assert!(t >= now, "crossbar flit missed its cycle");
            if t != now {
                break;
            }
            self.pipe.pop_front();
            let port = port as usize;
            debug_assert!(out[port].is_none(), "output slot already written");
            out[port] = Some(flit);
            ports |= 1u64.wrapping_shl(port as u32);
            stats.flits_sent[port] += 1;
            if flit.kind.is_head() {
                stats.packets_sent[port] += 1;
                network_head |= port != 0;
            }
        }
        (ports, network_head)
    }

    /// Flits inside the crossbar pipelines.
    pub fn len(&self) -> usize {
        self.pipe.len()
    }

    /// True when no flit is inside.
    pub fn is_empty(&self) -> bool {
        self.pipe.is_empty()
    }

    /// Flits inside bound for downstream VC `vc` of output `port`.
    pub fn in_flight_to(&self, port: usize, vc: u8) -> u32 {
        self.pipe
            .iter()
            .filter(|(_, p, f)| *p as usize == port && f.vc.0 == vc)
            .count() as u32
    }
}
