//! HyperX (Ahn, Binkert, Davis, McLaren, Schreiber 2009): routers at the points of a grid
//! of `radix[d]` coordinates per dimension, every router joined to every other router that
//! differs from it in exactly one coordinate (all-to-all within each dimension, one
//! channel each way per pair). With equal radices this is the flattened butterfly of Kim,
//! Dally and Abts (ISCA 2007).
//!
//! Ids run with coordinate 0 fastest, as for tori. Ports: `local` (the terminal), then
//! per dimension `d` in order, `d{d}_{j}` to the router whose coordinate `d` is `j` (every
//! `j` but the router's own, ascending). Router-to-router ports have no direction.

use crate::config::{RouterConfig, DEFAULT_CHANNEL_LATENCY};
use crate::ids::{InPort, OutPort, RouterId};
use crate::netlist::{Netlist, PortSpec, Topology};

/// A HyperX with default router parameters and 1-cycle channels and terminals.
///
/// # Panics
/// If a radix is below 2 or the network is too large (use [`generate`](super::generate)
/// to get an error instead).
pub fn hyperx(radix: &[u32]) -> Netlist {
    super::generate(
        &Topology::HyperX {
            radix: radix.to_vec(),
        },
        &RouterConfig::default(),
        DEFAULT_CHANNEL_LATENCY,
        1,
    )
    .unwrap_or_else(|e| panic!("hyperx {radix:?}: {e}"))
}

/// The coordinates of router `id` (coordinate 0 fastest).
pub fn hyperx_coord(radix: &[u32], mut id: u32) -> Vec<u32> {
    radix
        .iter()
        .map(|&k| {
            let c = id % k;
            id /= k;
            c
        })
        .collect()
}

/// The port of a router at `coord` toward coordinate `j` of dimension `d` (`j` differs
/// from `coord[d]`).
pub fn hyperx_port(radix: &[u32], coord: &[u32], d: usize, j: u32) -> u8 {
    let before: u32 = radix[..d].iter().map(|k| k - 1).sum();
    (1 + before + j - u32::from(j > coord[d])) as u8
}

/// Builds the HyperX (parameters checked by [`super::check_params`]).
pub(super) fn build(radix: &[u32]) -> Netlist {
    let config = RouterConfig::default();
    let topology = Topology::HyperX {
        radix: radix.to_vec(),
    };
    let mut n = Netlist::new(String::new(), topology);
    let total: u32 = radix.iter().product();
    for id in 0..total {
        let c = hyperx_coord(radix, id);
        let mut ports = vec![super::local_port(&config)];
        for (d, &k) in radix.iter().enumerate() {
            ports.extend((0..k).filter(|&j| j != c[d]).map(|j| PortSpec {
                name: format!("d{d}_{j}"),
                direction: None,
                vcs: config.vcs,
                buffer_depth: config.buffer_depth,
            }));
        }
        n.add_router(super::generated_router(id, c, &config, ports));
    }
    for id in 0..total {
        let c = hyperx_coord(radix, id);
        let mut stride = 1;
        for (d, &k) in radix.iter().enumerate() {
            for j in (0..k).filter(|&j| j != c[d]) {
                let to = id - c[d] * stride + j * stride;
                let mut tc = c.clone();
                tc[d] = j;
                n.add_channel(
                    RouterId(id),
                    OutPort(hyperx_port(radix, &c, d, j)),
                    RouterId(to),
                    InPort(hyperx_port(radix, &tc, d, c[d])),
                    DEFAULT_CHANNEL_LATENCY,
                );
            }
            stride *= k;
        }
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_router_reaches_each_router_one_coordinate_away_once() {
        let radix = [4, 3, 2];
        let n = hyperx(&radix);
        assert_eq!(n.num_routers(), 24);
        // Ports per router: 1 + sum (k - 1).
        assert!(n.routers().all(|r| r.ports.len() == 1 + 3 + 2 + 1));
        let mut seen = std::collections::BTreeSet::new();
        for c in n.channels() {
            let (a, b) = (hyperx_coord(&radix, c.from.0), hyperx_coord(&radix, c.to.0));
            let differ: Vec<usize> = (0..3).filter(|&d| a[d] != b[d]).collect();
            assert_eq!(differ.len(), 1, "{a:?} -> {b:?}");
            let d = differ[0];
            let from = &n.router(c.from).ports[c.from_port.index()];
            let to = &n.router(c.to).ports[c.to_port.index()];
            assert_eq!(from.name, format!("d{d}_{}", b[d]));
            assert_eq!(to.name, format!("d{d}_{}", a[d]));
            assert!(seen.insert((c.from, c.to)));
        }
        // N * sum (k - 1) channels.
        assert_eq!(n.num_channels(), 24 * 6);
    }
}
