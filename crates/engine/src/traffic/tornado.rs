//! Tornado traffic (BookSim's `tornado`): on a torus, mesh or ring of radix `k` per
//! dimension, every coordinate of the source moves `ceil(k/2) - 1` positions up
//! (mod k): almost half-way around each ring, the worst case for minimal routing.

use super::neighbor::{by_coordinates, CoordMap};
use super::{DestinationMix, TrafficPattern};
use crate::error::ConfigError;
use crate::rng::ComponentRng;
use flitsim_netlist::{Netlist, TerminalId};

/// `c_d -> (c_d + ceil(k_d/2) - 1) mod k_d` in every dimension.
#[derive(Clone, Debug)]
pub struct Tornado {
    dest: Vec<u32>,
}

impl Tornado {
    /// For `netlist` (needs torus, mesh or ring coordinates).
    ///
    /// # Errors
    /// `TrafficDoesNotFit` without coordinates.
    pub fn new(netlist: &Netlist) -> Result<Tornado, ConfigError> {
        let map = CoordMap::new("tornado", netlist)?;
        Ok(Tornado {
            dest: by_coordinates(&map, |_, k| k.div_ceil(2) - 1),
        })
    }
}

impl TrafficPattern for Tornado {
    fn destination(&self, source: TerminalId, _rng: &mut ComponentRng) -> TerminalId {
        TerminalId(self.dest[source.index()])
    }

    fn mix(&self) -> DestinationMix {
        DestinationMix::map(self.dest.iter().copied())
    }
}
