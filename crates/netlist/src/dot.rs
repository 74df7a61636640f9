//! `flitsim netlist dot`: Graphviz export. One node per router (label: name and
//! coordinates), one edge per channel (tail label: output port, head label: input port,
//! label: latency when it is not 1). Every router gets a fixed position in points (`pos`,
//! for `neato -n`): a grid for two-dimensional geometries, a circle for everything else
//! (rings, hypercubes, explicit netlists). Edges are curved, so the two channels of a
//! router pair stay apart. On a 2-D torus a wrap-around channel is drawn as two stubs
//! leaving one edge of the grid and entering the opposite one, labelled with the router
//! at the other end, instead of a line across the whole grid.

use crate::netlist::Netlist;
use std::fmt::Write;

/// Distance between neighbouring routers in the drawing, in points.
const STEP: f64 = 110.0;

/// Where router `i` of `n` is drawn: its grid place on a 2-D geometry, else on a circle.
fn position(coord: Option<&[u32]>, planar: bool, i: usize, n: usize) -> (f64, f64) {
    if let (Some(c), true) = (coord, planar) {
        return (f64::from(c[0]) * STEP, f64::from(c[1]) * STEP);
    }
    let radius = (n as f64 * STEP / std::f64::consts::TAU).max(STEP);
    let angle = std::f64::consts::TAU * i as f64 / n as f64;
    (radius * (1.0 + angle.sin()), radius * (1.0 + angle.cos()))
}

/// The two stubs of a wrap-around channel `c` (its output port's direction does not lead
/// to the neighbouring grid place), or `None` for an ordinary channel. Each stub joins its
/// router to a label half a step beyond the grid's edge, naming the router at the other
/// end; the two channels of a wrap-around link share those labels.
fn wrap_stubs(netlist: &Netlist, c: &crate::netlist::ChannelSpec) -> Option<String> {
    let from = netlist.router(c.from);
    let to = netlist.router(c.to);
    let (dim, dir) = from.ports[c.from_port.index()].direction?;
    let (a, b) = (from.coord.as_ref()?, to.coord.as_ref()?);
    let d = usize::from(dim);
    let step = if dir == crate::netlist::Dir::Plus {
        1
    } else {
        -1
    };
    if i64::from(a[d]) + step == i64::from(b[d]) {
        return None;
    }
    let mut w = String::new();
    let mut label = |at: &crate::netlist::RouterSpec, other: &str, sign: i64| {
        let mut p = [f64::from(at.coord.as_ref().map_or(0, |c| c[0])), 0.0];
        p[1] = f64::from(at.coord.as_ref().map_or(0, |c| c[1]));
        p[d] += (sign * step) as f64 / 2.0;
        let name = format!("{}~{}", at.name, other);
        let _ = writeln!(
            w,
            "  \"{}\" [shape=plaintext, label=\"{}\", fontsize=9, pos=\"{:.0},{:.0}!\"];",
            esc(&name),
            esc(other),
            p[0] * STEP,
            p[1] * STEP
        );
        name
    };
    let out = label(from, &to.name, 1);
    let inn = label(to, &from.name, -1);
    let _ = writeln!(
        w,
        "  \"{}\" -> \"{}\" [taillabel=\"{}\"];",
        esc(&from.name),
        esc(&out),
        esc(&from.ports[c.from_port.index()].name)
    );
    let _ = writeln!(
        w,
        "  \"{}\" -> \"{}\" [headlabel=\"{}\"];",
        esc(&inn),
        esc(&to.name),
        esc(&to.ports[c.to_port.index()].name)
    );
    Some(w)
}

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
    let _ = writeln!(w, "  graph [splines=curved];");
    let _ = writeln!(w, "  edge [fontsize=8, arrowsize=0.5];");
    let planar = netlist.topology.radix().is_some_and(|r| r.len() == 2);
    let n = netlist.num_routers();
    for (i, r) in netlist.routers().enumerate() {
        let coord = r
            .coord
            .as_ref()
            .map(|c| {
                let s: Vec<String> = c.iter().map(u32::to_string).collect();
                format!("\\n({})", s.join(","))
            })
            .unwrap_or_default();
        let (x, y) = position(r.coord.as_deref(), planar, i, n);
        let pos = format!(", pos=\"{x:.0},{y:.0}!\"");
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
        if planar {
            if let Some(stubs) = wrap_stubs(netlist, c) {
                w.push_str(&stubs);
                continue;
            }
        }
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
        // A torus's wrap-around channel r2 -> r0 leaves r2 towards a label `r0` and
        // enters r0 from a label `r2`, both half a step beyond the grid.
        let d = dot(&crate::topology::torus(&[3, 2]));
        assert!(
            d.contains("\"r2\" -> \"r2~r0\" [taillabel=\"east\"];"),
            "{d}"
        );
        assert!(
            d.contains("\"r0~r2\" -> \"r0\" [headlabel=\"west\"];"),
            "{d}"
        );
        assert!(
            d.contains("\"r2~r0\" [shape=plaintext, label=\"r0\", fontsize=9, pos=\"275,0!\"];"),
            "{d}"
        );
        assert!(d.contains("pos=\"220,110!\""), "{d}");
    }

    #[test]
    fn every_router_has_a_position() {
        for n in [crate::topology::ring(8), hypercube(3), mesh(&[4, 4])] {
            let d = dot(&n);
            assert_eq!(d.matches("pos=").count(), n.num_routers(), "{d}");
        }
    }
}
