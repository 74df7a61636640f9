//! Output queues of a router with output speedup (`output_speedup` > 1).
//!
//! - Reads: the flits the crossbar delivers to each output port in a cycle, up to
//!   `output_speedup` per port.
//! - Writes: one flit per output port per cycle onto its channel, the oldest first (in
//!   the order the crossbar delivered them).
//! - Buffer accounting: a flit took its downstream credit when it won the switch, so a
//!   queue never holds more flits than the downstream VCs of its port have room for,
//!   and the downstream buffers stay exact. A flit that finds its queue empty leaves in
//!   the cycle it arrives: zero-load latency does not change.

use crate::flit::Flit;
use std::collections::VecDeque;

/// One FIFO of flits per output port, and the flits written in the last cycle.
#[derive(Clone, Debug)]
pub struct OutputQueues {
    /// Per output port, its waiting flits as (output port, flit).
    queues: Vec<VecDeque<(u32, Flit)>>,
    /// Flits waiting over all ports.
    len: usize,
    /// The flits of the last [`OutputQueues::send`], at most one per port, by port.
    sent: Vec<(u32, Flit)>,
}

impl OutputQueues {
    /// Empty queues for `ports` output ports.
    pub fn new(ports: usize) -> OutputQueues {
        OutputQueues {
            queues: vec![VecDeque::new(); ports],
            len: 0,
            sent: Vec::with_capacity(ports),
        }
    }

    /// Flits that reached their output port in this cycle, in crossbar order.
    pub fn enter(&mut self, flits: &[(u32, Flit)]) {
        for &(p, f) in flits {
            self.queues[p as usize].push_back((p, f));
        }
        self.len += flits.len();
    }

    /// Takes the oldest flit of every non-empty queue out (readable through
    /// [`OutputQueues::sent`]); returns how many.
    pub fn send(&mut self) -> usize {
        self.sent.clear();
        if self.len == 0 {
            return 0;
        }
        for q in &mut self.queues {
            if let Some(x) = q.pop_front() {
                self.sent.push(x);
            }
        }
        self.len -= self.sent.len();
        self.sent.len()
    }

    /// The flits of the last [`OutputQueues::send`], as (output port, flit), at most one
    /// per port.
    pub fn sent(&self) -> &[(u32, Flit)] {
        &self.sent
    }

    /// The flits waiting, as (output port, flit).
    pub fn waiting(&self) -> impl Iterator<Item = &(u32, Flit)> {
        self.queues.iter().flatten()
    }

    /// Flits waiting over all ports.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when no flit waits.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::buffer::tests::flit;

    #[test]
    fn each_port_sends_one_flit_per_cycle_oldest_first() {
        let mut q = OutputQueues::new(3);
        // Three flits for port 1 and one for port 2 in one cycle.
        let burst: Vec<(u32, Flit)> = [(1, 0), (2, 1), (1, 2), (1, 3)]
            .iter()
            .map(|&(p, i)| (p, flit(i, 8)))
            .collect();
        q.enter(&burst);
        let mut per_cycle = Vec::new();
        for _ in 0..4 {
            q.send();
            per_cycle.push(
                q.sent()
                    .iter()
                    .map(|(p, f)| (*p, f.index))
                    .collect::<Vec<_>>(),
            );
        }
        assert_eq!(
            per_cycle,
            [vec![(1, 0), (2, 1)], vec![(1, 2)], vec![(1, 3)], vec![]]
        );
        assert!(q.is_empty() && q.waiting().count() == 0);
    }
}
