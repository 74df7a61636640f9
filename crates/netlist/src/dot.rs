//! `flitsim netlist dot`: Graphviz export. One node per router (label: name and
//! coordinates), one edge per channel (tail label: output port, head label: input port,
//! label: latency when it is not 1). Two-dimensional geometries get fixed positions
//! (`pos`, for `neato -n` or `fdp`), everything else is left to the layout engine.

use crate::netlist::Netlist;
use std::fmt::Write;

fn esc(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The netlist as a Graphviz `digraph`.
pub fn dot(netlist: &Netlist) -> String {
    let mut w = String::new();
    let _ = writeln!(w, "digraph \"{}\" {{", esc(&netlist.name));
    let _ = writeln!(
        w,
        "  // {}: {} routers, {} channels",
        netlist.topology,
        netlist.num_routers(),
        netlist.num_channels()
    );
    let _ = writeln!(w, "  node [shape=box, fontname=\"monospace\"];");
    let _ = writeln!(w, "  edge [fontsize=8, arrowsize=0.5];");
    let planar = netlist.topology.radix().is_some_and(|r| r.len() == 2);
    for r in netlist.routers() {
        let coord = r
            .coord
            .as_ref()
            .map(|c| {
                let s: Vec<String> = c.iter().map(u32::to_string).collect();
                format!("\\n({})", s.join(","))
            })
            .unwrap_or_default();
        let pos = match (&r.coord, planar) {
            (Some(c), true) => format!(", pos=\"{},{}!\"", c[0] * 2, c[1] * 2),
            _ => String::new(),
        };
        let _ = writeln!(
            w,
            "  \"{}\" [label=\"{}{}\"{}];",
            esc(&r.name),
            esc(&r.name),
            coord,
            pos
        );
    }
    for c in netlist.channels() {
        let from = netlist.router(c.from);
        let to = netlist.router(c.to);
        let lat = if c.latency == 1 {
            String::new()
        } else {
            format!(", label=\"{}\"", c.latency)
        };
        let _ = writeln!(
            w,
            "  \"{}\" -> \"{}\" [taillabel=\"{}\", headlabel=\"{}\"{}];",
            esc(&from.name),
            esc(&to.name),
            esc(&from.ports[c.from_port.index()].name),
            esc(&to.ports[c.to_port.index()].name),
            lat
        );
    }
    w.push_str("}\n");
    w
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::topology::{hypercube, mesh};

    #[test]
    fn one_node_per_router_one_edge_per_channel() {
        for n in [mesh(&[3, 2]), hypercube(3)] {
            let d = dot(&n);
            assert!(d.starts_with("digraph \""));
            assert!(d.ends_with("}\n"));
            assert_eq!(d.matches(" -> ").count(), n.num_channels());
            assert_eq!(d.matches("[label=").count(), n.num_routers());
        }
        let d = dot(&mesh(&[3, 2]));
        assert!(
            d.contains("\"r0\" -> \"r1\" [taillabel=\"east\", headlabel=\"west\"];"),
            "{d}"
        );
        assert!(d.contains("pos=\"4,2!\""), "{d}");
    }
}
