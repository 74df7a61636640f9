//! Bit-reversal traffic: with `N = 2^b` terminals, terminal `s = (s_{b-1} .. s_0)` sends
//! to `(s_0 .. s_{b-1})`.

use super::bit_complement::bits;
use super::{DestinationMix, TrafficPattern};
use crate::error::ConfigError;
use crate::rng::ComponentRng;
use flitsim_netlist::{Netlist, TerminalId};

/// `s -> reverse of the b bits of s`.
#[derive(Clone, Debug)]
pub struct BitReversal {
    bits: u32,
}

impl BitReversal {
    /// For `netlist`, whose terminal count must be a power of two.
    ///
    /// # Errors
    /// `TrafficDoesNotFit` when it is not.
    pub fn new(netlist: &Netlist) -> Result<BitReversal, ConfigError> {
        Ok(BitReversal {
            bits: bits("bit-reversal", netlist)?,
        })
    }

    /// The destination of `s`.
    pub fn of(&self, s: u32) -> u32 {
        s.reverse_bits() >> (32 - self.bits)
    }
}

impl TrafficPattern for BitReversal {
    fn destination(&self, source: TerminalId, _rng: &mut ComponentRng) -> TerminalId {
        TerminalId(self.of(source.0))
    }

    fn mix(&self) -> DestinationMix {
        DestinationMix::map((0..1u32 << self.bits).map(|s| self.of(s)))
    }
}
