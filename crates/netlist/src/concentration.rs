//! Concentration: `c` terminals per router. Router `r` carries terminals `r * c + i` on
//! its ports `i` in `0..c` (`local0`, `local1`, ...; `local` when `c` = 1); its
//! router-to-router ports follow them, in their order.

use crate::ids::{InPort, OutPort, TerminalId};
use crate::netlist::Netlist;

/// The most terminals a router carries.
pub const MAX_CONCENTRATION: u32 = 64;

/// The most ports a router has (port indices are bytes).
const MAX_PORTS: usize = 255;

/// The name of terminal port `i` of a router with `c` terminals.
pub fn terminal_port_name(c: u32, i: u32) -> String {
    if c == 1 {
        "local".into()
    } else {
        format!("local{i}")
    }
}

impl Netlist {
    /// Gives every router `c` terminal ports, each a copy of its first terminal port
    /// (same VCs and depth), and moves its router-to-router ports after them. The message
    /// says why not (`c` out of `1..=MAX_CONCENTRATION`, or a router over 255 ports);
    /// the netlist is then unchanged.
    pub fn set_concentration(&mut self, c: u32) -> Result<(), String> {
        if !(1..=MAX_CONCENTRATION).contains(&c) {
            return Err(format!(
                "concentration {c} is outside 1..={MAX_CONCENTRATION} terminals per router"
            ));
        }
        if matches!(self.topology, crate::Topology::FatTree { .. }) {
            return Err(format!(
                "a fat tree's leaves carry its k terminals each; concentration {c} does not apply"
            ));
        }
        if let Some(r) = self
            .routers()
            .find(|r| r.ports.len() - usize::from(r.terminals) + c as usize > MAX_PORTS)
        {
            return Err(format!(
                "router {} would have more than {MAX_PORTS} ports with {c} terminals",
                r.name
            ));
        }
        let mut shift = Vec::with_capacity(self.num_routers());
        for r in self.graph.node_weights_mut() {
            let old = usize::from(r.terminals);
            let template = r.ports[0].clone();
            let network = r.ports.split_off(old);
            r.ports = (0..c)
                .map(|i| {
                    let mut p = template.clone();
                    p.name = terminal_port_name(c, i);
                    p
                })
                .chain(network)
                .collect();
            r.terminals = c as u8;
            shift.push(c as i32 - old as i32);
        }
        for ch in self.graph.edge_weights_mut() {
            let moved = |p: u8, s: i32| (i32::from(p) + s) as u8;
            ch.from_port = OutPort(moved(ch.from_port.0, shift[ch.from.index()]));
            ch.to_port = InPort(moved(ch.to_port.0, shift[ch.to.index()]));
        }
        self.renumber_terminals();
        Ok(())
    }

    /// The terminals of router `r`'s place.
    pub fn terminals_of(&self, r: crate::RouterId) -> impl Iterator<Item = TerminalId> {
        let m = self.terminal_map();
        (m.first(r.index())..m.first(r.index() + 1)).map(TerminalId)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::topology::{dragonfly, hypercube, mesh, torus};

    #[test]
    fn terminals_are_numbered_router_by_router() {
        let mut n = torus(&[4, 4]);
        n.set_concentration(4).unwrap();
        assert_eq!(n.num_terminals(), 64);
        assert_eq!(n.terminal_router(TerminalId(13)).0, 3);
        assert_eq!(n.terminal_port(TerminalId(13)), 1);
        let r = n.router(crate::RouterId(3));
        assert_eq!(n.terminal_of(r.id, 1), TerminalId(13));
        assert_eq!(n.terminals_of(r.id).collect::<Vec<_>>()[1], TerminalId(13));
        assert_eq!(r.ports[2].name, "local2");
        assert!(r.is_terminal_port(3) && !r.is_terminal_port(4));
    }

    #[test]
    fn channels_keep_their_ports_after_the_terminal_ports() {
        for mut n in [torus(&[3, 4]), mesh(&[3, 3]), hypercube(3), dragonfly(2, 1)] {
            let names = |n: &Netlist| -> Vec<(String, String)> {
                n.channels()
                    .map(|c| {
                        let from = &n.router(c.from).ports[c.from_port.index()];
                        let to = &n.router(c.to).ports[c.to_port.index()];
                        (from.name.clone(), to.name.clone())
                    })
                    .collect()
            };
            let before = names(&n);
            n.set_concentration(3).unwrap();
            assert_eq!(names(&n), before);
            assert!(n.channels().all(|c| c.from_port.0 >= 3 && c.to_port.0 >= 3));
            // Back to one terminal: the original layout.
            n.set_concentration(1).unwrap();
            assert_eq!(names(&n), before);
            assert!(n.routers().all(|r| r.ports[0].name == "local"));
        }
    }

    #[test]
    fn out_of_range_concentration_is_refused() {
        let mut n = torus(&[3, 3]);
        assert!(n.set_concentration(0).is_err());
        assert!(n.set_concentration(MAX_CONCENTRATION + 1).is_err());
        assert_eq!(n.concentration(), Some(1));
        let mut wide = torus(&[2]);
        let extra = wide.router(crate::RouterId(0)).ports[1].clone();
        wide.router_mut(crate::RouterId(0)).ports.resize(200, extra);
        let e = wide.set_concentration(64).unwrap_err();
        assert!(e.contains("more than 255 ports"), "{e}");
    }
}
