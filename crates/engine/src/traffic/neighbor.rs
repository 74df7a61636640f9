//! Neighbour traffic (BookSim's `neighbor`): on a torus, mesh or ring of radix `k` per
//! dimension, every coordinate of the source moves one position up (mod k).

use super::{does_not_fit, DestinationMix, TrafficPattern};
use crate::error::ConfigError;
use crate::rng::ComponentRng;
use flitsim_netlist::{Netlist, TerminalId};
use std::collections::BTreeMap;

/// Coordinates of every terminal's router and the reverse map to each router's first
/// terminal (shared with `tornado`). With `c` terminals per router, terminal `s` moves to
/// the terminal of the same index `s % c` at the router its pattern names.
pub(crate) struct CoordMap {
    pub radix: Vec<u32>,
    pub coords: Vec<Vec<u32>>,
    pub ids: BTreeMap<Vec<u32>, u32>,
    pub concentration: u32,
}

impl CoordMap {
    pub fn new(name: &str, netlist: &Netlist) -> Result<CoordMap, ConfigError> {
        let fail = || {
            does_not_fit(
                name,
                netlist,
                format!("{name} needs torus, mesh or ring coordinates"),
                "use a netlist with a torus, mesh or ring [topology]",
            )
        };
        let radix = netlist.topology.radix().ok_or_else(fail)?;
        let mut coords = Vec::with_capacity(netlist.num_terminals());
        let mut ids = BTreeMap::new();
        for t in 0..netlist.num_terminals() as u32 {
            let r = netlist.router(netlist.terminal_router(TerminalId(t)));
            let c = r
                .coord
                .clone()
                .filter(|c| c.len() == radix.len())
                .ok_or_else(fail)?;
            ids.entry(c.clone()).or_insert(t);
            coords.push(c);
        }
        Ok(CoordMap {
            radix,
            coords,
            ids,
            concentration: netlist.concentration().ok_or_else(fail)?,
        })
    }
}

/// Destination of every terminal when each coordinate `c_d` moves `shift(d, k_d)` up.
pub(crate) fn by_coordinates(map: &CoordMap, shift: impl Fn(usize, u32) -> u32) -> Vec<u32> {
    map.coords
        .iter()
        .enumerate()
        .map(|(s, c)| {
            let d: Vec<u32> = c
                .iter()
                .zip(&map.radix)
                .enumerate()
                .map(|(dim, (&x, &k))| (x + shift(dim, k)) % k)
                .collect();
            let index = s as u32 % map.concentration;
            map.ids.get(&d).map_or(s as u32, |first| first + index)
        })
        .collect()
}

/// `c_d -> (c_d + 1) mod k_d` in every dimension.
#[derive(Clone, Debug)]
pub struct Neighbor {
    dest: Vec<u32>,
}

impl Neighbor {
    /// For `netlist` (needs torus, mesh or ring coordinates).
    ///
    /// # Errors
    /// `TrafficDoesNotFit` without coordinates.
    pub fn new(netlist: &Netlist) -> Result<Neighbor, ConfigError> {
        let map = CoordMap::new("neighbor", netlist)?;
        Ok(Neighbor {
            dest: by_coordinates(&map, |_, _| 1),
        })
    }
}

impl TrafficPattern for Neighbor {
    fn destination(&self, source: TerminalId, _rng: &mut ComponentRng) -> TerminalId {
        TerminalId(self.dest[source.index()])
    }

    fn mix(&self) -> DestinationMix {
        DestinationMix::map(self.dest.iter().copied())
    }
}
