//! The assembled network: its partitions and what never changes during a run (the
//! channels, where they start and end, the netlist's names).

use super::partition::Partition;
use crate::channel::Channel;
use flitsim_netlist::{InPort, OutPort, RouterId};

/// Where a channel starts and ends (for conservation checks and reports).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct ChannelEnds {
    /// Upstream router and output port (`None`: a terminal injects).
    pub from: Option<(RouterId, OutPort)>,
    /// Downstream router and input port (`None`: a terminal consumes).
    pub to: Option<(RouterId, InPort)>,
}

/// Netlist names for messages: router names and input-port names.
#[derive(Clone, Debug, Default)]
pub(crate) struct Names {
    pub routers: Vec<String>,
    pub ports: Vec<Vec<String>>,
}

impl Names {
    /// `r3.east vc1`.
    pub fn vc(&self, r: RouterId, p: InPort, vc: flitsim_netlist::VcId) -> String {
        format!(
            "{}.{} vc{}",
            self.routers[r.index()],
            self.ports[r.index()][p.index()],
            vc.0
        )
    }
}

/// The assembled network: partitions of contiguous ids, and what never changes.
pub(crate) struct Network {
    pub parts: Vec<Partition>,
    /// Terminals per router.
    pub concentration: usize,
    /// Partition `p` holds routers `bounds[p]..bounds[p + 1]` and their terminals.
    pub bounds: Vec<usize>,
    /// Forward and reverse side of every channel, by global channel index (see the
    /// module docs for the order).
    pub channels: Vec<Channel>,
    pub ends: Vec<ChannelEnds>,
    pub names: Names,
    /// Some router has a timeout: resets travel on channels' reverse sides.
    pub resets: bool,
}

impl Network {
    /// Number of routers.
    pub fn len(&self) -> usize {
        *self.bounds.last().unwrap_or(&0)
    }

    /// Number of terminals (routers times the concentration).
    pub fn num_terminals(&self) -> usize {
        self.len() * self.concentration
    }

    /// The partition holding router `i`.
    pub fn part_of(&self, i: usize) -> usize {
        self.bounds.partition_point(|&b| b <= i) - 1
    }

    /// The partition holding terminal `t`.
    pub fn part_of_terminal(&self, t: usize) -> usize {
        self.part_of(t / self.concentration)
    }
}
