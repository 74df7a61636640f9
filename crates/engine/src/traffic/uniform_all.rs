//! Uniform-all traffic: each packet goes to any of the `N` terminals with equal
//! probability, the source included (BookSim's `uniform`). A packet to its own terminal
//! enters and leaves the source router without crossing a channel.

use super::{DestinationMix, TrafficPattern};
use crate::error::ConfigError;
use crate::rng::{below, ComponentRng};
use flitsim_netlist::TerminalId;

/// Uniform over all terminals.
#[derive(Clone, Debug)]
pub struct UniformAll {
    terminals: u32,
}

impl UniformAll {
    /// Over `terminals` terminals (at least 1).
    ///
    /// # Errors
    /// `ConfigError::TooFewTerminals` without terminals.
    pub fn new(terminals: usize) -> Result<UniformAll, ConfigError> {
        if terminals < 1 {
            return Err(ConfigError::TooFewTerminals {
                traffic: "uniform-all".into(),
                needed: 1,
                have: terminals,
            });
        }
        Ok(UniformAll {
            terminals: terminals as u32,
        })
    }
}

impl TrafficPattern for UniformAll {
    fn destination(&self, _source: TerminalId, rng: &mut ComponentRng) -> TerminalId {
        TerminalId(below(rng, u64::from(self.terminals)) as u32)
    }

    fn mix(&self) -> DestinationMix {
        DestinationMix {
            all: 1.0,
            ..DestinationMix::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{stream, ComponentKind};

    #[test]
    fn includes_the_source() {
        let u = UniformAll::new(4).unwrap();
        let mut rng = stream(1, ComponentKind::Terminal, 0);
        let mut seen = [0u32; 4];
        for _ in 0..4000 {
            seen[u.destination(TerminalId(1), &mut rng).index()] += 1;
        }
        assert!(seen.iter().all(|&c| c > 850), "{seen:?}");
    }
}
