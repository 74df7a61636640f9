//! Mesh: `radix[d]` routers along dimension `d`, no wrap-around; boundary routers lack
//! the ports that would leave the mesh.

use crate::config::{RouterConfig, DEFAULT_CHANNEL_LATENCY};
use crate::netlist::{Netlist, Topology};

/// A mesh with default router parameters and 1-cycle channels and terminals.
///
/// # Panics
/// If a radix is 0, `radix` is empty, or the mesh has more than
/// [`MAX_ROUTERS`](super::MAX_ROUTERS) routers (use [`generate`](super::generate) to get
/// an error instead).
pub fn mesh(radix: &[u32]) -> Netlist {
    let t = Topology::Mesh {
        radix: radix.to_vec(),
    };
    super::generate(&t, &RouterConfig::default(), DEFAULT_CHANNEL_LATENCY, 1)
        .unwrap_or_else(|e| panic!("mesh {radix:?}: {e}"))
}
