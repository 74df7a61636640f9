//! Dragonfly (Kim, Dally, Scott, Abts 2008): `g = a*h + 1` groups of `a` routers; the
//! routers of a group are fully connected by local channels, and every router has `h`
//! global channels, one to each of `h` other groups, so every pair of groups is joined by
//! exactly one global channel (the balanced arrangement).
//!
//! Wiring (the *consecutive* arrangement): router `i` of group `G` owns the group's global
//! channels `c = i*h + k` for `k` in `0..h`, and channel `c` leads to group
//! `(G + c + 1) mod g`, where it arrives on that group's channel `g - 2 - c`. Router ids
//! run group by group (`id = G*a + i`); `coord = [i, G]`. Ports: `local` (the terminal),
//! then `l{j}` to router `j` of the group (`j != i`, ascending), then `g{k}` for the
//! global channels; router-to-router ports have no direction.

use crate::config::{RouterConfig, DEFAULT_CHANNEL_LATENCY};
use crate::ids::{InPort, OutPort, RouterId};
use crate::netlist::{Netlist, PortSpec, Topology};

/// A dragonfly with default router parameters and 1-cycle channels and terminals.
///
/// # Panics
/// If `a` or `h` is 0 or the network is too large (use [`generate`](super::generate) to
/// get an error instead).
pub fn dragonfly(a: u32, h: u32) -> Netlist {
    super::generate(
        &Topology::Dragonfly { a, h },
        &RouterConfig::default(),
        DEFAULT_CHANNEL_LATENCY,
        1,
    )
    .unwrap_or_else(|e| panic!("dragonfly a={a} h={h}: {e}"))
}

/// Number of groups of a dragonfly with `a` routers of `h` global channels per group.
pub fn groups(a: u32, h: u32) -> u32 {
    a * h + 1
}

/// The group and the local port a dragonfly's global channel `c` of group `from` leads to:
/// `(to_group, to_channel)`.
pub fn global_peer(g: u32, from: u32, c: u32) -> (u32, u32) {
    ((from + c + 1) % g, g - 2 - c)
}

fn plain_port(name: String, config: &RouterConfig) -> PortSpec {
    PortSpec {
        name,
        direction: None,
        vcs: config.vcs,
        buffer_depth: config.buffer_depth,
    }
}

/// Builds the dragonfly (parameters checked by [`super::check_params`]).
pub(super) fn build(a: u32, h: u32) -> Netlist {
    let config = RouterConfig::default();
    let topology = Topology::Dragonfly { a, h };
    let mut n = Netlist::new(String::new(), topology);
    let g = groups(a, h);
    for id in 0..a * g {
        let (group, i) = (id / a, id % a);
        let mut ports = vec![super::local_port(&config)];
        ports.extend(
            (0..a)
                .filter(|&j| j != i)
                .map(|j| plain_port(format!("l{j}"), &config)),
        );
        ports.extend((0..h).map(|k| plain_port(format!("g{k}"), &config)));
        n.add_router(super::generated_router(id, vec![i, group], &config, ports));
    }
    // Local port toward router j of the group, at router i: 1 + j, minus one past i.
    let local = |i: u32, j: u32| (1 + j - u32::from(j > i)) as u8;
    for id in 0..a * g {
        let (group, i) = (id / a, id % a);
        for j in (0..a).filter(|&j| j != i) {
            n.add_channel(
                RouterId(id),
                OutPort(local(i, j)),
                RouterId(group * a + j),
                InPort(local(j, i)),
                DEFAULT_CHANNEL_LATENCY,
            );
        }
        for k in 0..h {
            let (to_group, to_c) = global_peer(g, group, i * h + k);
            let to = RouterId(to_group * a + to_c / h);
            n.add_channel(
                RouterId(id),
                OutPort((a + k) as u8),
                to,
                InPort((a + to_c % h) as u8),
                DEFAULT_CHANNEL_LATENCY,
            );
        }
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_pair_of_groups_is_joined_once_each_way() {
        let (a, h) = (4, 2);
        let n = dragonfly(a, h);
        let g = groups(a, h);
        assert_eq!(n.num_routers() as u32, a * g);
        let mut seen = vec![0u32; (g * g) as usize];
        for c in n.channels() {
            let (fg, tg) = (c.from.0 / a, c.to.0 / a);
            if fg != tg {
                seen[(fg * g + tg) as usize] += 1;
                // The reverse channel returns on the same pair of ports.
                let back = n.out_channel(c.to, OutPort(c.to_port.0)).unwrap();
                assert_eq!(n.channel(back).to, c.from);
                assert_eq!(n.channel(back).to_port.0, c.from_port.0);
            }
        }
        for x in 0..g {
            for y in 0..g {
                assert_eq!(seen[(x * g + y) as usize], u32::from(x != y), "{x} -> {y}");
            }
        }
        // Local: a(a-1) per group; global: a*h per group.
        assert_eq!(n.num_channels() as u32, g * (a * (a - 1) + a * h));
    }
}
