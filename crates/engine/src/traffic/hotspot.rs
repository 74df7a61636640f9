//! Hotspot traffic: with probability `FRACTION` a packet goes to one of the hot terminals
//! (uniformly among those other than the source), otherwise uniformly to any terminal but
//! the source. A hot terminal whose only hot target would be itself sends uniformly.

use super::{does_not_fit, DestinationMix, TrafficPattern, Uniform};
use crate::error::ConfigError;
use crate::rng::{below, Bernoulli, ComponentRng};
use flitsim_netlist::{Netlist, TerminalId};

/// Hot terminals receive `fraction` of the packets on top of the uniform background.
#[derive(Clone, Debug)]
pub struct Hotspot {
    hot: Vec<u32>,
    hot_trial: Bernoulli,
    uniform: Uniform,
    /// The fraction of packets sent to the hot terminals.
    fraction: f64,
    /// Number of terminals.
    terminals: u32,
}

impl Hotspot {
    /// Hot terminals `hot` receiving `fraction` of the packets.
    ///
    /// # Errors
    /// `TrafficDoesNotFit` for a hot terminal that does not exist; `TooFewTerminals`.
    pub fn new(netlist: &Netlist, hot: Vec<u32>, fraction: f64) -> Result<Hotspot, ConfigError> {
        let n = netlist.num_terminals();
        if let Some(&t) = hot.iter().find(|&&t| t as usize >= n) {
            return Err(does_not_fit(
                "hotspot",
                netlist,
                format!("hot terminal {t} does not exist ({n} terminals)"),
                &format!("use terminal ids 0..{}", n.saturating_sub(1)),
            ));
        }
        Ok(Hotspot {
            hot,
            hot_trial: Bernoulli::new(fraction),
            uniform: Uniform::new(n)?,
            fraction,
            terminals: n as u32,
        })
    }
}

impl TrafficPattern for Hotspot {
    fn destination(&self, source: TerminalId, rng: &mut ComponentRng) -> TerminalId {
        if self.hot_trial.sample(rng) {
            let others = self.hot.iter().filter(|&&t| t != source.0).count() as u64;
            if others > 0 {
                let k = below(rng, others) as usize;
                let t = self.hot.iter().filter(|&&t| t != source.0).nth(k);
                return TerminalId(*t.expect("k < others"));
            }
        }
        self.uniform.destination(source, rng)
    }

    fn mix(&self) -> DestinationMix {
        // A source with no other hot terminal sends its hot share uniformly too.
        let lists = (0..self.terminals).map(|s| {
            let hot: Vec<u32> = self.hot.iter().copied().filter(|&t| t != s).collect();
            let targets = if hot.is_empty() {
                (0..self.terminals).filter(|&t| t != s).collect()
            } else {
                hot
            };
            targets.into_iter().map(TerminalId).collect()
        });
        DestinationMix {
            others: 1.0 - self.fraction,
            listed: self.fraction,
            ..DestinationMix::lists(lists)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{stream, ComponentKind};
    use flitsim_netlist::topology;

    #[test]
    fn the_hot_terminal_gets_its_fraction() {
        let net = topology::torus(&[4, 4]);
        let h = Hotspot::new(&net, vec![5], 0.5).unwrap();
        let mut rng = stream(1, ComponentKind::Terminal, 0);
        let n = 20_000;
        let hot = (0..n)
            .filter(|_| h.destination(TerminalId(0), &mut rng) == TerminalId(5))
            .count();
        // 0.5 + 0.5 / 15 expected.
        let expect = 0.5 + 0.5 / 15.0;
        assert!((hot as f64 / f64::from(n) - expect).abs() < 0.015);
        assert!(Hotspot::new(&net, vec![16], 0.5).is_err());
    }
}
