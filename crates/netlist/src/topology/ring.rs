//! Bidirectional ring: a 1-D torus of `n` routers with ports `east` (towards id + 1) and
//! `west` (towards id - 1), both wrapping.

use crate::config::{RouterConfig, DEFAULT_CHANNEL_LATENCY};
use crate::netlist::{Netlist, Topology};

/// A ring with default router parameters and 1-cycle channels and terminals.
///
/// # Panics
/// If `n < 2` or `n` exceeds [`MAX_ROUTERS`](super::MAX_ROUTERS) (use
/// [`generate`](super::generate) to get an error instead).
pub fn ring(n: u32) -> Netlist {
    super::generate(
        &Topology::Ring { n },
        &RouterConfig::default(),
        DEFAULT_CHANNEL_LATENCY,
        1,
    )
    .unwrap_or_else(|e| panic!("ring {n}: {e}"))
}
