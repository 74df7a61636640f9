//! Random-permutation traffic: terminal `s` always sends to `pi(s)`, where `pi` is a
//! uniformly random permutation of the terminals (Fisher-Yates) drawn once from a stream
//! derived from the run seed, so the same seed gives the same permutation. Fixed points
//! (a terminal sending to itself) are allowed, as in BookSim's `randperm`.

use super::{DestinationMix, TrafficPattern};
use crate::error::ConfigError;
use crate::rng::{below, stream, ComponentKind, ComponentRng};
use flitsim_netlist::TerminalId;

/// `s -> pi(s)`.
#[derive(Clone, Debug)]
pub struct Permutation {
    dest: Vec<u32>,
}

/// Stream id of the permutation draw (not a terminal: terminals have ids < 2^32 - 1).
const PERMUTATION_STREAM: u32 = u32::MAX;

impl Permutation {
    /// A permutation of `terminals` terminals drawn from `seed`.
    ///
    /// # Errors
    /// `TooFewTerminals` without terminals.
    pub fn new(terminals: usize, seed: u64) -> Result<Permutation, ConfigError> {
        if terminals == 0 {
            return Err(ConfigError::TooFewTerminals {
                traffic: "permutation".into(),
                needed: 1,
                have: 0,
            });
        }
        let mut rng = stream(seed, ComponentKind::Terminal, PERMUTATION_STREAM);
        let mut dest: Vec<u32> = (0..terminals as u32).collect();
        for i in (1..terminals).rev() {
            let j = below(&mut rng, i as u64 + 1) as usize;
            dest.swap(i, j);
        }
        Ok(Permutation { dest })
    }

    /// The permutation.
    pub fn as_slice(&self) -> &[u32] {
        &self.dest
    }
}

impl TrafficPattern for Permutation {
    fn destination(&self, source: TerminalId, _rng: &mut ComponentRng) -> TerminalId {
        TerminalId(self.dest[source.index()])
    }

    fn mix(&self) -> DestinationMix {
        DestinationMix::map(self.dest.iter().copied())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_permutation_that_depends_on_the_seed() {
        let a = Permutation::new(64, 1).unwrap();
        let mut sorted = a.as_slice().to_vec();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..64).collect::<Vec<_>>());
        assert_eq!(a.as_slice(), Permutation::new(64, 1).unwrap().as_slice());
        assert_ne!(a.as_slice(), Permutation::new(64, 2).unwrap().as_slice());
    }
}
