//! Group-shift traffic (the dragonfly's adversarial pattern, Kim et al. 2008 "WC"): every
//! terminal of group `i` sends to a terminal of group `i + 1` (mod the groups), drawn
//! uniformly. Minimal routing puts all of a group's traffic on its one global channel to
//! the next group. Needs a dragonfly.

use super::{does_not_fit, DestinationMix, TrafficPattern};
use crate::error::ConfigError;
use crate::rng::{below, ComponentRng};
use flitsim_netlist::{Netlist, TerminalId, Topology};

/// Group `i` to a uniform terminal of group `i + 1`.
#[derive(Clone, Debug)]
pub struct GroupShift {
    /// Terminals per group (routers per group times the concentration).
    per_group: u32,
    /// Groups.
    groups: u32,
}

impl GroupShift {
    /// For `netlist` (a dragonfly).
    ///
    /// # Errors
    /// `TrafficDoesNotFit` on any other topology.
    pub fn new(netlist: &Netlist) -> Result<GroupShift, ConfigError> {
        let Topology::Dragonfly { a, h } = netlist.topology else {
            return Err(does_not_fit(
                "group-shift",
                netlist,
                "it has no groups".into(),
                "use a dragonfly ([topology] kind = \"dragonfly\")",
            ));
        };
        let c = netlist.concentration().ok_or_else(|| {
            does_not_fit(
                "group-shift",
                netlist,
                "its routers carry different numbers of terminals".into(),
                "give every router the same `concentration`",
            )
        })?;
        Ok(GroupShift {
            per_group: a * c,
            groups: a * h + 1,
        })
    }
}

impl TrafficPattern for GroupShift {
    fn destination(&self, source: TerminalId, rng: &mut ComponentRng) -> TerminalId {
        let next = (source.0 / self.per_group + 1) % self.groups;
        let k = below(rng, u64::from(self.per_group)) as u32;
        TerminalId(next * self.per_group + k)
    }

    fn mix(&self) -> DestinationMix {
        let n = self.per_group * self.groups;
        DestinationMix::lists((0..n).map(|s| {
            let next = (s / self.per_group + 1) % self.groups;
            (0..self.per_group)
                .map(|k| TerminalId(next * self.per_group + k))
                .collect()
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{stream, ComponentKind};
    use flitsim_netlist::topology::{dragonfly, torus};

    #[test]
    fn every_destination_is_in_the_next_group() {
        let n = dragonfly(2, 1);
        let p = GroupShift::new(&n).unwrap();
        let mut rng = stream(1, ComponentKind::Terminal, 5);
        let mut seen = [0u32; 6];
        for _ in 0..400 {
            seen[p.destination(TerminalId(5), &mut rng).index()] += 1;
        }
        // Terminal 5 is in group 2 of 3; group 0 holds terminals 0 and 1.
        assert!(seen[0] > 100 && seen[1] > 100);
        assert_eq!(seen[2..].iter().sum::<u32>(), 0);
        assert!(GroupShift::new(&torus(&[3, 3])).is_err());
    }
}
