//! Per-router counters the engine reads at report time (integers only; merged in id order).

use serde::Serialize;

/// Counters of one router.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct RouterStats {
    /// Flits written onto each output port's channel (index = `OutPort`; port 0 = ejected).
    pub flits_sent: Vec<u64>,
    /// Head flits (= packets) written onto each output port's channel.
    pub packets_sent: Vec<u64>,
    /// Largest occupancy reached by each input VC FIFO: `max_occupancy[in_port][vc]`.
    pub max_occupancy: Vec<Vec<u32>>,
    /// Head flits sent on router-to-router ports for which the routing function knows the
    /// dimension-order port ([`crate::RoutingFunction::dimension_order_port`]).
    pub reference_hops: u64,
    /// Of those, heads sent on another port than the dimension-order one (adaptive hops).
    pub adaptive_hops: u64,
}

impl RouterStats {
    /// Zeroed counters for these port/VC counts.
    pub fn new(out_ports: usize, in_vcs: &[u8]) -> RouterStats {
        RouterStats {
            flits_sent: vec![0; out_ports],
            packets_sent: vec![0; out_ports],
            max_occupancy: in_vcs.iter().map(|&v| vec![0; usize::from(v)]).collect(),
            reference_hops: 0,
            adaptive_hops: 0,
        }
    }
}
