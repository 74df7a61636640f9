//! The assembled network: its partitions and what never changes during a run (the
//! channels, where they start and end, the netlist's names).

use super::partition::Partition;
use crate::channel::Channel;
use flitsim_netlist::{InPort, OutPort, RouterId, TerminalId};
use std::collections::HashMap;
use std::hash::{Hash, Hasher};

/// Where a channel starts and ends (for conservation checks and reports), in 12 bytes:
/// the upstream and downstream router ids ([`ChannelEnds::TERMINAL`] for a terminal's
/// end) and their ports.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct ChannelEnds {
    routers: [u32; 2],
    ports: [u8; 2],
}

impl ChannelEnds {
    /// The router id of a terminal's end (no router has it: ids are dense, and the
    /// routers of a netlist are far fewer).
    const TERMINAL: u32 = u32::MAX;

    /// From upstream router and output port (`None`: a terminal injects) to downstream
    /// router and input port (`None`: a terminal consumes).
    pub fn new(from: Option<(RouterId, OutPort)>, to: Option<(RouterId, InPort)>) -> ChannelEnds {
        let (r0, p0) = from.map_or((Self::TERMINAL, 0), |(r, p)| (r.0, p.0));
        let (r1, p1) = to.map_or((Self::TERMINAL, 0), |(r, p)| (r.0, p.0));
        debug_assert!(from.is_none_or(|(r, _)| r.0 != Self::TERMINAL));
        debug_assert!(to.is_none_or(|(r, _)| r.0 != Self::TERMINAL));
        ChannelEnds {
            routers: [r0, r1],
            ports: [p0, p1],
        }
    }

    /// Upstream router and output port (`None`: a terminal injects).
    pub fn from(&self) -> Option<(RouterId, OutPort)> {
        (self.routers[0] != Self::TERMINAL)
            .then(|| (RouterId(self.routers[0]), OutPort(self.ports[0])))
    }

    /// Downstream router and input port (`None`: a terminal consumes).
    pub fn to(&self) -> Option<(RouterId, InPort)> {
        (self.routers[1] != Self::TERMINAL)
            .then(|| (RouterId(self.routers[1]), InPort(self.ports[1])))
    }
}

/// Netlist names for messages: router names and input-port names. The router names lie
/// one after another in one string; routers share their list of port names when it is
/// the same (a generated network has a handful of lists).
#[derive(Clone, Debug, Default)]
pub(crate) struct Names {
    /// Every router's name, in router order.
    router_text: String,
    /// Where each router's name ends in `router_text`.
    router_ends: Vec<u32>,
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
        self.router_text.push_str(router);
        let end = u32::try_from(self.router_text.len())
            .expect("router names below 4 GiB (netlists are read with a bound)");
        self.router_ends.push(end);
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
        self.router_text.shrink_to_fit();
    }

    /// Router `r`'s name.
    pub fn router(&self, r: usize) -> &str {
        let start = r.checked_sub(1).map_or(0, |q| self.router_ends[q] as usize);
        &self.router_text[start..self.router_ends[r] as usize]
    }

    /// Every router's name, in router order.
    pub fn routers(&self) -> impl Iterator<Item = &str> + '_ {
        (0..self.router_ends.len()).map(|r| self.router(r))
    }

    /// Port names of router `r`, by port.
    pub fn ports(&self, r: usize) -> &[String] {
        &self.port_lists[self.port_list[r] as usize]
    }

    /// `r3.east vc1`.
    pub fn vc(&self, r: RouterId, p: InPort, vc: flitsim_netlist::VcId) -> String {
        format!(
            "{}.{} vc{}",
            self.router(r.index()),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn channel_ends_give_back_their_routers_and_ports_or_a_terminal() {
        let (up, down) = ((RouterId(3), OutPort(2)), (RouterId(0), InPort(7)));
        let link = ChannelEnds::new(Some(up), Some(down));
        assert_eq!((link.from(), link.to()), (Some(up), Some(down)));
        let injection = ChannelEnds::new(None, Some(down));
        assert_eq!((injection.from(), injection.to()), (None, Some(down)));
        let ejection = ChannelEnds::new(Some(up), None);
        assert_eq!((ejection.from(), ejection.to()), (Some(up), None));
        assert_eq!(std::mem::size_of::<ChannelEnds>(), 12);
    }

    #[test]
    fn names_give_each_router_and_port_back() {
        let mut n = Names::default();
        let ports = |p: &[&str]| p.iter().map(|s| s.to_string()).collect();
        n.push("r0", ports(&["local", "east"]));
        n.push("", ports(&["local", "east"]));
        n.push("router_two", ports(&["local"]));
        n.finish();
        assert_eq!(n.routers().collect::<Vec<_>>(), ["r0", "", "router_two"]);
        assert_eq!(n.router(2), "router_two");
        assert_eq!(
            n.vc(RouterId(0), InPort(1), flitsim_netlist::VcId(3)),
            "r0.east vc3"
        );
        assert_eq!(
            n.vc(RouterId(2), InPort(0), flitsim_netlist::VcId(0)),
            "router_two.local vc0"
        );
        assert_eq!(n.port_lists.len(), 2);
    }
}
