//! `flitsim netlist expand`: a [`Netlist`] written out in the explicit TOML form. Loading
//! the output gives an isomorphic netlist: the same routers (ids, names, coordinates,
//! parameters, ports with their VCs, depths and directions), the same channels (ids,
//! endpoints, latencies), the same topology.
//!
//! Parameters shared by most routers go to `[defaults]` (every field, so the output also
//! documents the defaults in force); a router lists only the fields where it differs, a
//! port only the `vcs`/`buffer_depth` where it differs from its router.

use crate::config::{BufferDepth, RouterConfig};
use crate::format::format_direction;
use crate::netlist::{Netlist, RouterSpec, Topology};
use serde::Serialize;
use std::fmt::Write;

/// A config value as TOML (`"dor"`, `8`, `"unbounded"`).
fn value<T: Serialize>(v: &T) -> String {
    toml::Value::try_from(v).map_or_else(|e| format!("\"<{e}>\""), |v| v.to_string())
}

fn depth(d: BufferDepth) -> String {
    match d {
        BufferDepth::Flits(n) => n.to_string(),
        BufferDepth::Unbounded => "\"unbounded\"".into(),
    }
}

fn quote(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
}

/// The router parameters as `(key, TOML value)` pairs, in documentation order.
fn fields(c: &RouterConfig) -> Vec<(&'static str, String)> {
    vec![
        ("vcs", c.vcs.to_string()),
        ("buffer_depth", depth(c.buffer_depth)),
        ("routing_delay", c.routing_delay.to_string()),
        ("vc_alloc_delay", c.vc_alloc_delay.to_string()),
        ("switch_alloc_delay", c.switch_alloc_delay.to_string()),
        ("crossbar_delay", c.crossbar_delay.to_string()),
        ("credit_delay", c.credit_delay.to_string()),
        ("switching", value(&c.switching)),
        ("vc_release", value(&c.vc_release)),
        ("timeout", c.timeout.to_string()),
        ("vc_allocator", value(&c.vc_allocator)),
        ("switch_allocator", value(&c.switch_allocator)),
        ("alloc_iters", c.alloc_iters.to_string()),
        ("arbiter", value(&c.arbiter)),
        ("output_vc_arbiter", value(&c.output_vc_arbiter)),
        ("routing", value(&c.routing)),
        ("selection", value(&c.selection)),
        ("adaptive_vcs", c.adaptive_vcs.to_string()),
        ("dor_tie", value(&c.dor_tie)),
        ("dateline", value(&c.dateline)),
        ("deadlock_check", value(&c.deadlock_check)),
        ("message_classes", c.message_classes.to_string()),
        ("speculative", c.speculative.to_string()),
        ("spec_masking", value(&c.spec_masking)),
        ("lookahead_routing", c.lookahead_routing.to_string()),
        ("input_speedup", c.input_speedup.to_string()),
        ("output_speedup", c.output_speedup.to_string()),
        ("reply_length", c.reply_length.to_string()),
        ("service_delay", c.service_delay.to_string()),
        ("reply_queue", c.reply_queue.to_string()),
    ]
}

/// A key at the value of the plain network that the JSON config echo omits.
fn plain_default(key: &str, value: &str) -> bool {
    let default = match key {
        "message_classes" | "input_speedup" | "output_speedup" => "1".to_string(),
        "reply_length" | "service_delay" => "0".to_string(),
        "output_vc_arbiter" => "\"router\"".to_string(),
        "spec_masking" => "\"grants\"".to_string(),
        "reply_queue" => crate::config::DEFAULT_REPLY_QUEUE.to_string(),
        _ => return false,
    };
    value == default
}

/// The most frequent item (first seen wins ties).
fn mode<T: PartialEq + Clone>(items: impl Iterator<Item = T>) -> Option<T> {
    let mut counts: Vec<(T, usize)> = Vec::new();
    for it in items {
        match counts.iter_mut().find(|(x, _)| *x == it) {
            Some((_, n)) => *n += 1,
            None => counts.push((it, 1)),
        }
    }
    let best = counts.iter().map(|(_, n)| *n).max()?;
    counts.into_iter().find(|(_, n)| *n == best).map(|(t, _)| t)
}

fn list(xs: &[u32]) -> String {
    let items: Vec<String> = xs.iter().map(u32::to_string).collect();
    format!("[{}]", items.join(", "))
}

/// Writes `netlist` in the explicit TOML form.
pub fn expand(netlist: &Netlist) -> String {
    let mut out = String::new();
    let defaults = mode(netlist.routers().map(|r| r.config.clone())).unwrap_or_default();
    let term = mode(netlist.routers().map(|r| r.terminal_latency)).unwrap_or(1);
    let lat = mode(netlist.channels().map(|c| c.latency)).unwrap_or(1);
    let w = &mut out;
    let _ = writeln!(
        w,
        "# Netlist {:?} in the explicit form (written by `flitsim netlist expand`).",
        netlist.name
    );
    let _ = writeln!(
        w,
        "# {} routers (router i carries terminals i*c .. i*c+c on its ports 0..c), {} channels.",
        netlist.num_routers(),
        netlist.num_channels()
    );
    let _ = writeln!(w, "name = {}", quote(&netlist.name));
    let _ = writeln!(
        w,
        "# Latency (cycles) of channels that do not give their own."
    );
    let _ = writeln!(w, "channel_latency = {lat}");
    let _ = writeln!(w, "# Latency (cycles) of injection and ejection channels.");
    let _ = writeln!(w, "terminal_latency = {term}");
    if let Some(m) = netlist.max_packet_length {
        let _ = writeln!(w, "max_packet_length = {m}");
    }
    if let Some(b) = netlist.flit_width {
        let _ = writeln!(w, "flit_width = {b}");
    }
    if let Some(l) = netlist.channel_length_mm {
        let _ = writeln!(w, "channel_length_mm = {l:?}");
    }
    if let Some(l) = netlist.terminal_channel_length_mm {
        let _ = writeln!(w, "terminal_channel_length_mm = {l:?}");
    }
    if let Some(c) = netlist.concentration().filter(|&c| c != 1) {
        let _ = writeln!(w, "# Terminals per router (c).");
        let _ = writeln!(w, "concentration = {c}");
    }
    write_topology(w, &netlist.topology);
    let _ = writeln!(
        w,
        "\n# Router parameters in force unless a router or port overrides them."
    );
    let _ = writeln!(w, "[defaults]");
    for (k, v) in fields(&defaults) {
        // One class and no replies are the plain network: not written, as the JSON
        // config echo omits them.
        if !plain_default(k, &v) {
            let _ = writeln!(w, "{k} = {v}");
        }
    }
    let dflt = fields(&defaults);
    for r in netlist.routers() {
        write_router(w, r, &dflt, (term, netlist.concentration().is_none()));
    }
    for c in netlist.channels() {
        let from = netlist.router(c.from);
        let to = netlist.router(c.to);
        let _ = writeln!(w, "\n[[channel]]");
        let _ = writeln!(
            w,
            "from = \"{}.{}\"",
            from.name,
            from.ports[c.from_port.index()].name
        );
        let _ = writeln!(
            w,
            "to = \"{}.{}\"",
            to.name,
            to.ports[c.to_port.index()].name
        );
        if c.latency != lat {
            let _ = writeln!(w, "latency = {}", c.latency);
        }
    }
    out
}

/// The `[topology]` table of a generated family (nothing for an explicit netlist).
fn write_topology(w: &mut String, topology: &Topology) {
    match topology {
        Topology::Explicit => {}
        t => {
            let _ = writeln!(
                w,
                "\n# The geometry routing functions use; the routers and channels below match it."
            );
            let _ = writeln!(w, "[topology]");
            match t {
                Topology::Torus { radix } => {
                    let _ = writeln!(w, "kind = \"torus\"\nradix = {}", list(radix));
                }
                Topology::Mesh { radix } => {
                    let _ = writeln!(w, "kind = \"mesh\"\nradix = {}", list(radix));
                }
                Topology::Hypercube { dim } => {
                    let _ = writeln!(w, "kind = \"hypercube\"\ndim = {dim}");
                }
                Topology::Ring { n } => {
                    let _ = writeln!(w, "kind = \"ring\"\nn = {n}");
                }
                Topology::Dragonfly { a, h } => {
                    let _ = writeln!(w, "kind = \"dragonfly\"\na = {a}\nh = {h}");
                }
                Topology::HyperX { radix } => {
                    let _ = writeln!(w, "kind = \"hyperx\"\nradix = {}", list(radix));
                }
                Topology::FatTree { k, n } => {
                    let _ = writeln!(w, "kind = \"fat-tree\"\nk = {k}\nn = {n}");
                }
                Topology::Explicit => {}
            }
        }
    }
}

/// One `[[router]]` entry; `per_router`: with its own `terminals` count.
fn write_router(
    w: &mut String,
    r: &RouterSpec,
    dflt: &[(&str, String)],
    (term, per_router): (u32, bool),
) {
    let _ = writeln!(w, "\n[[router]]");
    let _ = writeln!(w, "name = {}", quote(&r.name));
    if let Some(c) = &r.coord {
        let _ = writeln!(w, "coord = {}", list(c));
    }
    if r.terminal_latency != term {
        let _ = writeln!(w, "terminal_latency = {}", r.terminal_latency);
    }
    if per_router {
        let _ = writeln!(w, "terminals = {}", r.terminals);
    }
    for ((k, v), (_, d)) in fields(&r.config).into_iter().zip(dflt) {
        if v != *d {
            let _ = writeln!(w, "{k} = {v}");
        }
    }
    let mut entries = Vec::new();
    // The terminal ports are copies of the first, written as `local`.
    let first = (r.terminals > 0).then(|| (0, &r.ports[0]));
    for (i, p) in first.into_iter().chain(r.network_ports()) {
        let name = if i < usize::from(r.terminals) {
            "local"
        } else {
            &p.name
        };
        let mut e = format!("name = {}", quote(name));
        if let Some(d) = p.direction {
            let _ = write!(e, ", direction = \"{}\"", format_direction(d));
        }
        let mut differs = false;
        if p.vcs != r.config.vcs {
            differs = true;
            let _ = write!(e, ", vcs = {}", p.vcs);
        }
        if p.buffer_depth != r.config.buffer_depth {
            differs = true;
            let _ = write!(e, ", buffer_depth = {}", depth(p.buffer_depth));
        }
        // The terminal port is implicit; list it only to carry overrides.
        if i >= usize::from(r.terminals) || differs {
            entries.push(format!("  {{ {e} }},"));
        }
    }
    if entries.is_empty() {
        let _ = writeln!(w, "ports = []");
    } else {
        let _ = writeln!(w, "ports = [\n{}\n]", entries.join("\n"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::{InPort, RouterId};
    use crate::topology::{hypercube, mesh, ring, torus};
    use std::path::Path;

    /// Everything that makes two netlists the same hardware, as sorted plain data.
    fn shape(n: &Netlist) -> (Vec<String>, Vec<String>, Topology) {
        let routers = n
            .routers()
            .map(|r| {
                format!(
                    "{} {} {:?} {:?} {} {:?}",
                    r.id, r.name, r.coord, r.config, r.terminal_latency, r.ports
                )
            })
            .collect();
        let mut channels: Vec<String> = n
            .channels()
            .map(|c| {
                format!(
                    "{}.{} -> {}.{} @{}",
                    n.router(c.from).name,
                    n.router(c.from).ports[c.from_port.index()].name,
                    n.router(c.to).name,
                    n.router(c.to).ports[c.to_port.index()].name,
                    c.latency
                )
            })
            .collect();
        channels.sort();
        (routers, channels, n.topology.clone())
    }

    #[test]
    fn generated_netlists_round_trip() {
        for mut n in [
            torus(&[4, 3]),
            mesh(&[3, 3]),
            hypercube(3),
            ring(5),
            torus(&[2, 2, 3]),
            mesh(&[2, 3]),
            crate::topology::fat_tree(3, 3),
        ] {
            n.set("routing_delay", "0").unwrap();
            if n.name == "mesh-2x3" {
                n.set("concentration", "3").unwrap();
            }
            let text = expand(&n);
            let back = crate::parse_str(&text, Path::new("x.toml"))
                .unwrap_or_else(|e| panic!("{e}\n{text}"));
            assert_eq!(shape(&back), shape(&n), "{text}");
            assert_eq!(back.name, n.name);
            assert_eq!(back.terminal_map(), n.terminal_map(), "{text}");
            // Twice is stable.
            assert_eq!(expand(&back), text);
        }
    }

    #[test]
    fn heterogeneous_parameters_round_trip() {
        let mut n = torus(&[3, 3]);
        n.set("max_packet_length", "4").unwrap();
        {
            let r = n.router_mut(RouterId(4));
            r.config.buffer_depth = BufferDepth::Flits(32);
            r.config.routing_delay = 3;
            r.terminal_latency = 2;
            r.ports[2].buffer_depth = BufferDepth::Unbounded;
            r.ports[0].vcs = 2;
        }
        let c = n.in_channel(RouterId(4), InPort(1)).unwrap();
        n.graph[petgraph::graph::EdgeIndex::new(c.index())].latency = 5;
        let text = expand(&n);
        let back = crate::parse_str(&text, Path::new("x.toml")).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(shape(&back), shape(&n));
        assert_eq!(back.max_packet_length, Some(4));
        assert!(text.contains("routing_delay = 3"));
        assert!(
            text.contains("{ name = \"local\", vcs = 2, buffer_depth = 8 }"),
            "{text}"
        );
    }
}
