//! Fixed-distance traffic (paper 004): every packet goes to a terminal exactly `L`
//! router-to-router hops away under the netlist's shortest paths (BFS over the channel
//! graph), chosen uniformly among those. With a minimal routing function every delivered
//! packet therefore crosses exactly `L` channels.

use super::{does_not_fit, DestinationMix, TrafficPattern};
use crate::error::ConfigError;
use crate::rng::{below, ComponentRng};
use flitsim_netlist::{Netlist, RouterId, TerminalId};

/// Uniform over the terminals at distance `L` from the source.
#[derive(Clone, Debug)]
pub struct FixedDistance {
    /// Candidates per source terminal.
    targets: Vec<Vec<u32>>,
}

impl FixedDistance {
    /// Distance `l` on `netlist`.
    ///
    /// # Errors
    /// `TrafficDoesNotFit` when some terminal has no terminal at distance `l`
    /// (`l` = 0 or above that terminal's eccentricity).
    pub fn new(netlist: &Netlist, l: u32) -> Result<FixedDistance, ConfigError> {
        let mut targets = Vec::with_capacity(netlist.num_terminals());
        for s in 0..netlist.num_terminals() {
            let src = netlist.terminal_router(TerminalId(s as u32));
            let dist = netlist.distances_from(src);
            let at: Vec<u32> = (0..netlist.num_terminals() as u32)
                .filter(|&d| dist[netlist.terminal_router(TerminalId(d)).index()] == Some(l))
                .collect();
            if at.is_empty() || l == 0 {
                return Err(does_not_fit(
                    &format!("fixed-distance:{l}"),
                    netlist,
                    format!(
                        "no terminal is {l} hops from terminal {s} (router {})",
                        RouterId(src.0)
                    ),
                    &format!(
                        "choose L between 1 and the smallest eccentricity (the diameter is {})",
                        netlist.diameter()
                    ),
                ));
            }
            targets.push(at);
        }
        Ok(FixedDistance { targets })
    }

    /// The candidate destinations of `source`.
    pub fn targets(&self, source: TerminalId) -> &[u32] {
        &self.targets[source.index()]
    }
}

impl TrafficPattern for FixedDistance {
    fn destination(&self, source: TerminalId, rng: &mut ComponentRng) -> TerminalId {
        let t = &self.targets[source.index()];
        TerminalId(t[below(rng, t.len() as u64) as usize])
    }

    fn mix(&self) -> DestinationMix {
        DestinationMix::lists(
            (self.targets.iter()).map(|t| t.iter().map(|&d| TerminalId(d)).collect()),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use flitsim_netlist::topology;

    #[test]
    fn torus_distances_and_counts() {
        let net = topology::torus(&[8, 8]);
        // On an 8x8 torus the number of nodes at Lee distance 2 is 8, at 3 it is 12.
        let f2 = FixedDistance::new(&net, 2).unwrap();
        let f3 = FixedDistance::new(&net, 3).unwrap();
        assert_eq!(f2.targets(TerminalId(0)).len(), 8);
        assert_eq!(f3.targets(TerminalId(9)).len(), 12);
        assert!(FixedDistance::new(&net, 9).is_err());
        assert!(FixedDistance::new(&net, 0).is_err());
    }
}
