//! What the netlist says of each router's input ports and ejection port, kept for the
//! conservation checks and traces: one copy per distinct list, shared by the routers
//! that have it (a generated network has a handful).

use flitsim_netlist::RouterSpec;
use std::collections::HashMap;

/// A router's input ports as the netlist gives them.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct InPorts {
    /// VCs of each input port.
    pub vcs: Box<[u8]>,
    /// FIFO depth of each input port's VCs, `None` = unbounded.
    pub depth: Box<[Option<u32>]>,
    /// VCs of the ejection port.
    pub ejection_vcs: u8,
}

impl InPorts {
    /// Router `spec`'s.
    fn of(spec: &RouterSpec) -> InPorts {
        InPorts {
            vcs: spec.ports.iter().map(|p| p.vcs).collect(),
            depth: spec.ports.iter().map(|p| p.buffer_depth.flits()).collect(),
            ejection_vcs: spec.config.vcs,
        }
    }
}

/// Every router's [`InPorts`], by router id, each distinct one stored once.
#[derive(Clone, Debug, Default)]
pub(crate) struct InPortLists {
    /// The distinct lists.
    lists: Vec<InPorts>,
    /// Each router's list in `lists`.
    list: Vec<u32>,
    /// A list's index in `lists` (while assembling; emptied by [`InPortLists::finish`]).
    index: HashMap<InPorts, u32>,
}

impl InPortLists {
    /// Adds the next router.
    pub fn push(&mut self, spec: &RouterSpec) {
        let ports = InPorts::of(spec);
        let next = self.lists.len() as u32;
        let i = *self.index.entry(ports).or_insert_with_key(|p| {
            self.lists.push(p.clone());
            next
        });
        self.list.push(i);
    }

    /// Drops what only assembly needs.
    pub fn finish(&mut self) {
        self.index = HashMap::new();
    }

    /// Router `r`'s input ports.
    pub fn of(&self, r: usize) -> &InPorts {
        &self.lists[self.list[r] as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use flitsim_netlist::{BufferDepth, PortSpec, RouterConfig, RouterId};

    fn spec(id: u32, vcs: &[u8], depth: BufferDepth) -> RouterSpec {
        let port = |&v: &u8| PortSpec {
            name: "p".into(),
            direction: None,
            vcs: v,
            buffer_depth: depth,
        };
        RouterSpec {
            id: RouterId(id),
            name: format!("r{id}"),
            coord: None,
            config: RouterConfig::default(),
            ports: vcs.iter().map(port).collect(),
            terminal_latency: 1,
            terminals: 1,
        }
    }

    #[test]
    fn routers_with_equal_input_ports_share_one_list() {
        let mut l = InPortLists::default();
        l.push(&spec(0, &[2, 4, 4], BufferDepth::Flits(8)));
        l.push(&spec(1, &[2, 4, 4], BufferDepth::Flits(8)));
        l.push(&spec(2, &[2, 4, 4], BufferDepth::Unbounded));
        l.push(&spec(3, &[2, 4], BufferDepth::Flits(8)));
        l.finish();
        assert_eq!(l.lists.len(), 3);
        assert!(std::ptr::eq(l.of(0), l.of(1)));
        assert_eq!(&*l.of(1).vcs, &[2, 4, 4]);
        assert_eq!(&*l.of(2).depth, &[None, None, None]);
        assert_eq!(&*l.of(3).depth, &[Some(8), Some(8)]);
        assert_eq!(l.of(3).ejection_vcs, RouterConfig::default().vcs);
    }
}
