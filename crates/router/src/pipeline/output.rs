//! Stage 5, output of credits to the upstream routers.
//!
//! - Reads: the credits SA scheduled (one per flit that left an input FIFO at cycle `c`,
//!   at most one per input port per cycle because SA moves at most one flit per input
//!   port per cycle).
//! - Writes: each credit onto the reverse side of its input channel at `c + cd`
//!   (`credits_out[in_port]`); the channel adds its latency L, and the upstream router may
//!   use it in the cycle it arrives.
//! - Knob: `credit_delay` (cd). It does not appear in the zero-load latency; it lengthens
//!   the credit round trip `sd + xd + L + cd + L` (+ the downstream stages) that bounds a
//!   VC's throughput when `buffer_depth` is small.

use crate::flit::Credit;
use flitsim_netlist::Cycle;
use std::collections::VecDeque;

/// Credits waiting for their `credit_delay`, per input port.
#[derive(Clone, Debug)]
pub struct CreditReturn {
    queues: Vec<VecDeque<(Cycle, Credit)>>,
    /// Credits in all queues (`emit` returns at once when 0).
    len: usize,
}

impl CreditReturn {
    /// For `ports` input ports and a delay of `delay` cycles.
    pub fn new(ports: usize, delay: u64) -> CreditReturn {
        CreditReturn {
            queues: (0..ports)
                .map(|_| VecDeque::with_capacity(delay as usize + 1))
                .collect(),
            len: 0,
        }
    }

    /// A credit for input `port`, due on its channel at `due`, or one cycle after the
    /// last credit queued for that port if that is later (only flits discarded by a
    /// timeout reset queue several credits of one port in one cycle; otherwise SA moves
    /// at most one flit per input port per cycle and `due` is always later).
    #[inline]
    pub fn push(&mut self, port: usize, due: Cycle, credit: Credit) {
        let due = match self.queues[port].back() {
            Some(&(t, _)) if t >= due => t.plus(1),
            _ => due,
        };
        self.queues[port].push_back((due, credit));
        self.len += 1;
    }

    /// Writes the credits due at `now` into `out`; returns the ports written (bit `p`, for
    /// `p < 32`).
    #[inline]
    pub fn emit(&mut self, now: Cycle, out: &mut [Option<Credit>]) -> u64 {
        if self.len == 0 {
            return 0;
        }
        let mut ports = 0u64;
        for (port, q) in self.queues.iter_mut().enumerate() {
            if let Some(&(t, c)) = q.front() {
                debug_assert!(t >= now, "credit missed its cycle");
                if t == now {
                    q.pop_front();
                    self.len -= 1;
                    out[port] = Some(c);
                    ports |= 1u64.wrapping_shl(port as u32) & u64::from(u32::MAX);
                }
            }
        }
        ports
    }

    /// True when no credit waits.
    pub fn is_empty(&self) -> bool {
        debug_assert_eq!(self.len, self.queues.iter().map(VecDeque::len).sum());
        self.len == 0
    }

    /// Credits waiting for input `port`'s VC `vc`.
    pub fn pending(&self, port: usize, vc: u8) -> u32 {
        self.queues[port]
            .iter()
            .filter(|(_, c)| c.vc.0 == vc)
            .count() as u32
    }
}
