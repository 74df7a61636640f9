//! Uniform random traffic: each packet goes to one of the other `N - 1` terminals with
//! equal probability (the source itself is excluded, as in the papers' uniform traffic).

use super::{DestinationMix, TrafficPattern};
use crate::error::ConfigError;
use crate::rng::{below, ComponentRng};
use flitsim_netlist::TerminalId;

/// Uniform over the terminals other than the source.
#[derive(Clone, Debug)]
pub struct Uniform {
    terminals: u32,
}

impl Uniform {
    /// Uniform traffic among `terminals` terminals (needs at least 2).
    ///
    /// # Errors
    /// `ConfigError::TooFewTerminals` with fewer than 2 terminals.
    pub fn new(terminals: usize) -> Result<Uniform, ConfigError> {
        if terminals < 2 {
            return Err(ConfigError::TooFewTerminals {
                traffic: "uniform".into(),
                needed: 2,
                have: terminals,
            });
        }
        Ok(Uniform {
            terminals: terminals as u32,
        })
    }
}

impl TrafficPattern for Uniform {
    fn destination(&self, source: TerminalId, rng: &mut ComponentRng) -> TerminalId {
        let d = below(rng, u64::from(self.terminals - 1)) as u32;
        TerminalId(if d >= source.0 { d + 1 } else { d })
    }

    fn mix(&self) -> DestinationMix {
        DestinationMix::others()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{stream, ComponentKind};

    #[test]
    fn never_the_source_and_every_other_terminal() {
        let u = Uniform::new(5).unwrap();
        let mut rng = stream(1, ComponentKind::Terminal, 2);
        let mut seen = [0u32; 5];
        for _ in 0..4000 {
            seen[u.destination(TerminalId(2), &mut rng).index()] += 1;
        }
        assert_eq!(seen[2], 0);
        assert!(
            seen.iter().enumerate().all(|(i, &c)| i == 2 || c > 850),
            "{seen:?}"
        );
    }

    #[test]
    fn one_terminal_is_an_error() {
        assert!(Uniform::new(1).is_err());
    }
}
