//! Transpose traffic: with `N = k*k` terminals, terminal `s = x + k*y` sends to
//! `y + k*x` (on a k x k torus or mesh, whose router ids are `x + k*y`, this is the
//! matrix transpose of the coordinates; with concentration it is the transpose of the
//! terminal ids, not of the router coordinates). Diagonal terminals send to themselves.

use super::{does_not_fit, DestinationMix, TrafficPattern};
use crate::error::ConfigError;
use crate::rng::ComponentRng;
use flitsim_netlist::{Netlist, TerminalId};

/// `x + k*y -> y + k*x`.
#[derive(Clone, Debug)]
pub struct Transpose {
    k: u32,
}

impl Transpose {
    /// For `netlist`, whose terminal count must be a square.
    ///
    /// # Errors
    /// `TrafficDoesNotFit` when it is not.
    pub fn new(netlist: &Netlist) -> Result<Transpose, ConfigError> {
        let n = netlist.num_terminals() as u32;
        let k = (f64::from(n).sqrt().round()) as u32;
        if k * k != n || n < 4 {
            return Err(does_not_fit(
                "transpose",
                netlist,
                format!("transpose needs a square number of terminals (k*k), the netlist has {n}"),
                "use a k x k torus or mesh, e.g. radix = [4, 4]",
            ));
        }
        Ok(Transpose { k })
    }

    /// The destination of `s`.
    pub fn of(&self, s: u32) -> u32 {
        (s % self.k) * self.k + s / self.k
    }
}

impl TrafficPattern for Transpose {
    fn destination(&self, source: TerminalId, _rng: &mut ComponentRng) -> TerminalId {
        TerminalId(self.of(source.0))
    }

    fn mix(&self) -> DestinationMix {
        DestinationMix::map((0..self.k * self.k).map(|s| self.of(s)))
    }
}
