//! Binary hypercube of dimension `dim`: router `a` (its id is its address) has one port
//! `d{k}` per dimension leading to `a ^ (1 << k)`; its `coord` holds the address bits.

use crate::config::{RouterConfig, DEFAULT_CHANNEL_LATENCY};
use crate::netlist::{Netlist, Topology};

/// A hypercube with default router parameters and 1-cycle channels and terminals.
///
/// # Panics
/// If `dim` is outside `1..=16` (use [`generate`](super::generate) to get an error instead).
pub fn hypercube(dim: u32) -> Netlist {
    super::generate(
        &Topology::Hypercube { dim },
        &RouterConfig::default(),
        DEFAULT_CHANNEL_LATENCY,
        1,
    )
    .unwrap_or_else(|e| panic!("hypercube {dim}: {e}"))
}
