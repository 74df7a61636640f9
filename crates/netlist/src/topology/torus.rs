//! k-ary n-cube (torus): `radix[d]` routers along dimension `d`, wrap-around channels in
//! every dimension, two ports per dimension (plus, minus).

use crate::config::{RouterConfig, DEFAULT_CHANNEL_LATENCY};
use crate::netlist::{Netlist, Topology};

/// A torus with default router parameters and 1-cycle channels and terminals.
///
/// # Panics
/// If a radix is below 2, `radix` is empty, or the torus has more than
/// [`MAX_ROUTERS`](super::MAX_ROUTERS) routers (use [`generate`](super::generate) to get
/// an error instead).
pub fn torus(radix: &[u32]) -> Netlist {
    let t = Topology::Torus {
        radix: radix.to_vec(),
    };
    super::generate(&t, &RouterConfig::default(), DEFAULT_CHANNEL_LATENCY, 1)
        .unwrap_or_else(|e| panic!("torus {radix:?}: {e}"))
}
