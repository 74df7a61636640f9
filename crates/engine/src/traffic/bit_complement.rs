//! Bit-complement traffic: with `N = 2^b` terminals, terminal `s` sends to `!s` over `b`
//! bits (`N - 1 - s`).

use super::{does_not_fit, log2_exact, DestinationMix, TrafficPattern};
use crate::error::ConfigError;
use crate::rng::ComponentRng;
use flitsim_netlist::{Netlist, TerminalId};

/// `s -> !s mod 2^b`.
#[derive(Clone, Debug)]
pub struct BitComplement {
    mask: u32,
}

/// The power-of-two check shared by the bit patterns.
pub(crate) fn bits(name: &str, netlist: &Netlist) -> Result<u32, ConfigError> {
    let n = netlist.num_terminals();
    log2_exact(n).ok_or_else(|| {
        does_not_fit(
            name,
            netlist,
            format!("{name} needs a power-of-two number of terminals, the netlist has {n}"),
            "use a hypercube or a torus/mesh with 2^b routers, e.g. radix = [4, 4]",
        )
    })
}

impl BitComplement {
    /// For `netlist`, whose terminal count must be a power of two.
    ///
    /// # Errors
    /// `TrafficDoesNotFit` when it is not.
    pub fn new(netlist: &Netlist) -> Result<BitComplement, ConfigError> {
        let b = bits("bit-complement", netlist)?;
        Ok(BitComplement {
            mask: (1u32 << b) - 1,
        })
    }

    /// The destination of `s`.
    pub fn of(&self, s: u32) -> u32 {
        !s & self.mask
    }
}

impl TrafficPattern for BitComplement {
    fn destination(&self, source: TerminalId, _rng: &mut ComponentRng) -> TerminalId {
        TerminalId(self.of(source.0))
    }

    fn mix(&self) -> DestinationMix {
        DestinationMix::map((0..=self.mask).map(|s| self.of(s)))
    }
}
