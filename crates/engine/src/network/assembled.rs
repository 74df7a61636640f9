//! The assembled network: its partitions and what never changes during a run (the
//! channels, where they start and end, the netlist's names).

use super::partition::Partition;
use crate::channel::Channel;
use flitsim_netlist::{InPort, OutPort, RouterId, TerminalId};
use std::collections::HashMap;
use std::hash::{Hash, Hasher};

/// Where a channel starts and ends (for conservation checks and reports).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct ChannelEnds {
    /// Upstream router and output port (`None`: a terminal injects).
    pub from: Option<(RouterId, OutPort)>,
    /// Downstream router and input port (`None`: a terminal consumes).
    pub to: Option<(RouterId, InPort)>,
}

/// Netlist names for messages: router names and input-port names. Routers share their
/// list of port names when it is the same (a generated network has a handful of lists).
#[derive(Clone, Debug, Default)]
pub(crate) struct Names {
    pub routers: Vec<String>,
    /// The distinct lists of port names.
    port_lists: Vec<Vec<String>>,
    /// Each router's list in `port_lists`.
    port_list: Vec<u32>,
    /// A list's hash and its index in `port_lists` (while assembling; emptied by
    /// [`Names::finish`]).
    index: HashMap<u64, u32>,
}

impl Names {
    /// Adds the next router: its name and port names.
    pub fn push(&mut self, router: &str, ports: Vec<String>) {
        self.routers.push(router.to_string());
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        ports.hash(&mut hasher);
        let hash = hasher.finish();
        let i = match self.index.get(&hash) {
            Some(&i) if self.port_lists[i as usize] == ports => i,
            seen => {
                let i = self.port_lists.len() as u32;
                if seen.is_none() {
                    self.index.insert(hash, i);
                }
                self.port_lists.push(ports);
                i
            }
        };
        self.port_list.push(i);
    }

    /// Drops what only assembly needs.
    pub fn finish(&mut self) {
        self.index = HashMap::new();
    }

    /// Port names of router `r`, by port.
    pub fn ports(&self, r: usize) -> &[String] {
        &self.port_lists[self.port_list[r] as usize]
    }

    /// `r3.east vc1`.
    pub fn vc(&self, r: RouterId, p: InPort, vc: flitsim_netlist::VcId) -> String {
        format!(
            "{}.{} vc{}",
            self.routers[r.index()],
            self.ports(r.index())[p.index()],
            vc.0
        )
    }
}

/// The assembled network: partitions of contiguous ids, and what never changes.
pub(crate) struct Network {
    pub parts: Vec<Partition>,
    /// Where each terminal hangs (router and port).
    pub terminals: flitsim_netlist::TerminalMap,
    /// Partition `p` holds routers `bounds[p]..bounds[p + 1]` and their terminals.
    pub bounds: Vec<usize>,
    /// Forward and reverse side of every channel, by global channel index (see the
    /// module docs for the order).
    pub channels: Vec<Channel>,
    pub ends: Vec<ChannelEnds>,
    pub names: Names,
    /// Every router's input ports as the netlist gives them (conservation checks).
    pub in_ports: super::in_ports::InPortLists,
    /// Some router has a timeout: resets travel on channels' reverse sides.
    pub resets: bool,
}

impl Network {
    /// Number of routers.
    pub fn len(&self) -> usize {
        *self.bounds.last().unwrap_or(&0)
    }

    /// Number of terminals.
    pub fn num_terminals(&self) -> usize {
        self.terminals.total()
    }

    /// The partition holding router `i`.
    pub fn part_of(&self, i: usize) -> usize {
        self.bounds.partition_point(|&b| b <= i) - 1
    }

    /// The partition holding terminal `t`.
    pub fn part_of_terminal(&self, t: usize) -> usize {
        self.part_of(self.terminals.router_of(TerminalId(t as u32)).index())
    }
}
