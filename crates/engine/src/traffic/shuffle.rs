//! Perfect-shuffle traffic: with `N = 2^b` terminals, terminal `s` sends to `s` rotated
//! left by one bit over `b` bits: `((s << 1) | (s >> (b - 1))) mod 2^b`.

use super::bit_complement::bits;
use super::{DestinationMix, TrafficPattern};
use crate::error::ConfigError;
use crate::rng::ComponentRng;
use flitsim_netlist::{Netlist, TerminalId};

/// `s -> rotl_b(s, 1)`.
#[derive(Clone, Debug)]
pub struct Shuffle {
    bits: u32,
}

impl Shuffle {
    /// For `netlist`, whose terminal count must be a power of two.
    ///
    /// # Errors
    /// `TrafficDoesNotFit` when it is not.
    pub fn new(netlist: &Netlist) -> Result<Shuffle, ConfigError> {
        Ok(Shuffle {
            bits: bits("shuffle", netlist)?,
        })
    }

    /// The destination of `s`.
    pub fn of(&self, s: u32) -> u32 {
        let mask = (1u32 << self.bits) - 1;
        ((s << 1) | (s >> (self.bits - 1))) & mask
    }
}

impl TrafficPattern for Shuffle {
    fn destination(&self, source: TerminalId, _rng: &mut ComponentRng) -> TerminalId {
        TerminalId(self.of(source.0))
    }

    fn mix(&self) -> DestinationMix {
        DestinationMix::map((0..1u32 << self.bits).map(|s| self.of(s)))
    }
}
