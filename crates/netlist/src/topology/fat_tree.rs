//! k-ary n-tree (Petrini and Vanneschi 1997), the fat tree of full bisection built from
//! routers of `2k` ports: `n` levels of `k^(n-1)` routers, `k^n` terminals on the leaves.
//!
//! Router `(l, w)` is level `l` (0: the leaves) and index `w` in `0..k^(n-1)`, with id
//! `l * k^(n-1) + w` (leaves first). Port `i < k` leads down: to terminal `w * k + i` on a
//! leaf, to router `(l - 1, w with digit l - 1 set to i)` above the leaves. Port `k + j`
//! leads up, to router `(l + 1, w with digit l set to j)` (digit 0 is the least
//! significant base-`k` digit), arriving on its down port `w`'s digit `l`. The top level
//! has no up ports. So terminal `t` hangs off leaf `t / k` on port `t % k`, and router
//! `(l, w)` reaches exactly the terminals whose leaf index agrees with `w` in the digits
//! `l..n-1`. Names: `r{id}`; ports `local{i}` on the leaves, `down{i}` above them, `up{j}`;
//! `coord = [l, w]`.

use crate::concentration::terminal_port_name;
use crate::config::{RouterConfig, DEFAULT_CHANNEL_LATENCY};
use crate::ids::{InPort, OutPort, RouterId};
use crate::netlist::{Netlist, PortSpec, Topology};

/// A k-ary n-tree with default router parameters and 1-cycle channels and terminals.
///
/// # Panics
/// If `k` or `n` is out of range (use [`generate`](super::generate) to get an error
/// instead).
pub fn fat_tree(k: u32, n: u32) -> Netlist {
    super::generate(
        &Topology::FatTree { k, n },
        &RouterConfig::default(),
        DEFAULT_CHANNEL_LATENCY,
        1,
    )
    .unwrap_or_else(|e| panic!("fat tree k={k} n={n}: {e}"))
}

/// Routers per level of a k-ary n-tree: `k^(n-1)`.
pub fn fat_tree_width(k: u32, n: u32) -> u32 {
    k.pow(n - 1)
}

/// The router count of a k-ary n-tree after checking `k` and `n` (`None` on overflow).
pub(super) fn routers(k: u32, n: u32) -> Result<Option<u64>, String> {
    if !(2..=32).contains(&k) || !(1..=20).contains(&n) {
        return Err(format!(
            "a fat tree needs 2 <= k <= 32 and 1 <= n <= 20, not k = {k}, n = {n}"
        ));
    }
    let width = u64::from(k).checked_pow(n - 1);
    // Terminals (k^n) must fit the terminal ids too.
    let terminals = u64::from(k).checked_pow(n);
    Ok(width
        .zip(terminals)
        .filter(|&(_, t)| t <= u64::from(u32::MAX))
        .and_then(|(w, _)| w.checked_mul(u64::from(n))))
}

fn port(name: String, config: &RouterConfig) -> PortSpec {
    PortSpec {
        name,
        direction: None,
        vcs: config.vcs,
        buffer_depth: config.buffer_depth,
    }
}

/// Builds the k-ary n-tree (parameters checked by [`super::check_params`]).
pub(super) fn build(k: u32, n: u32) -> Netlist {
    let config = RouterConfig::default();
    let mut net = Netlist::new(String::new(), Topology::FatTree { k, n });
    let width = fat_tree_width(k, n);
    for id in 0..n * width {
        let (l, w) = (id / width, id % width);
        let down = (0..k).map(|i| {
            let name = if l == 0 {
                terminal_port_name(k, i)
            } else {
                format!("down{i}")
            };
            port(name, &config)
        });
        let up = (0..k)
            .filter(|_| l + 1 < n)
            .map(|j| port(format!("up{j}"), &config));
        let mut spec = super::generated_router(id, vec![l, w], &config, down.chain(up).collect());
        spec.terminals = if l == 0 { k as u8 } else { 0 };
        net.add_router(spec);
    }
    for id in 0..(n - 1) * width {
        let (l, w) = (id / width, id % width);
        let stride = k.pow(l);
        let digit = w / stride % k;
        for j in 0..k {
            let parent = (l + 1) * width + w - digit * stride + j * stride;
            let (up, down) = (k + j, digit);
            net.add_channel(
                RouterId(id),
                OutPort(up as u8),
                RouterId(parent),
                InPort(down as u8),
                DEFAULT_CHANNEL_LATENCY,
            );
            net.add_channel(
                RouterId(parent),
                OutPort(down as u8),
                RouterId(id),
                InPort(up as u8),
                DEFAULT_CHANNEL_LATENCY,
            );
        }
    }
    net
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::TerminalId;

    #[test]
    fn leaves_carry_the_terminals_and_every_level_is_a_butterfly_stage() {
        let (k, n) = (4, 3);
        let net = fat_tree(k, n);
        assert_eq!((net.num_routers(), net.num_terminals()), (48, 64));
        // Two channels per up port: levels 0 and 1 have 16 routers of 4 up ports.
        assert_eq!(net.num_channels(), 2 * 2 * 16 * 4);
        assert_eq!(net.concentration(), None);
        assert_eq!(net.terminal_router(TerminalId(13)), RouterId(3));
        assert_eq!(net.terminal_port(TerminalId(13)), 1);
        assert_eq!(net.router(RouterId(3)).ports[5].name, "up1");
        assert_eq!(net.router(RouterId(40)).ports.len(), 4);
        assert_eq!(net.router(RouterId(40)).terminals, 0);
        // Every router above the leaves reaches k^(l+1) terminals going down.
        for r in net.routers() {
            let l = r.id.0 / 16;
            let mut below = vec![r.id];
            for _ in 0..l {
                below = below
                    .iter()
                    .flat_map(|&b| {
                        net.channels()
                            .filter(move |c| c.from == b && c.from_port.0 < k as u8)
                            .map(|c| c.to)
                    })
                    .collect();
            }
            below.sort();
            below.dedup();
            assert_eq!(below.len() as u32, k.pow(l), "router {}", r.name);
            assert!(below.iter().all(|b| b.0 < 16));
        }
    }

    #[test]
    fn bounds_are_checked() {
        assert!(routers(1, 2).is_err() && routers(33, 2).is_err());
        assert!(routers(4, 0).is_err() && routers(4, 21).is_err());
        assert_eq!(routers(4, 3), Ok(Some(48)));
        // 32^7 terminals overflow the terminal ids.
        assert_eq!(routers(32, 7), Ok(None));
    }
}
