//! Per-router counters the engine reads at report time (integers only; merged in id order).

use serde::Serialize;

/// Counters of one router.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct RouterStats {
    /// Flits written onto each output port's channel (index = `OutPort`; port 0 = ejected).
    pub flits_sent: Vec<u64>,
    /// Head flits (= packets) written onto each output port's channel.
    pub packets_sent: Vec<u64>,
    /// Head flits sent on router-to-router ports for which the routing function knows the
    /// dimension-order port ([`crate::RoutingFunction::dimension_order_port`]).
    pub reference_hops: u64,
    /// Of those, heads sent on another port than the dimension-order one (adaptive hops).
    pub adaptive_hops: u64,
}

impl RouterStats {
    /// Zeroed counters for `out_ports` output ports. (The largest occupancy of each input
    /// FIFO is kept once, with the FIFO: [`crate::Router::max_buffer_occupancy`].)
    pub fn new(out_ports: usize) -> RouterStats {
        RouterStats {
            flits_sent: vec![0; out_ports],
            packets_sent: vec![0; out_ports],
            reference_hops: 0,
            adaptive_hops: 0,
        }
    }
}

/// Heads sent on network ports for which the routing function knows the dimension-order
/// port, and those of them sent on another port.
#[derive(Copy, Clone, Debug, Default)]
pub(crate) struct AdaptiveHops {
    pub(crate) reference: u64,
    pub(crate) adaptive: u64,
}
