//! The loader's tests: both forms, every error collected and located, limits, garbage.

use super::parse_str;
use super::raw::{
    enum_variants, format_direction, parse_direction, parse_name, struct_fields, RawChannel,
};
use crate::config::{
    BufferDepth, RoutingKind, Switching, MAX_ALLOC_ITERS, MAX_BUFFER_DEPTH, MAX_LATENCY,
    MAX_PIPELINE_DELAY,
};
use crate::error::{Diagnostics, NetlistError};
use crate::ids::RouterId;
use crate::netlist::{Dir, Netlist, Topology};
use std::path::Path;

fn parse(src: &str) -> Result<Netlist, Diagnostics> {
    parse_str(src, Path::new("t.toml"))
}

fn codes(src: &str) -> Vec<&'static str> {
    parse(src)
        .unwrap_err()
        .errors
        .iter()
        .map(NetlistError::code)
        .collect()
}

const PAIR: &str = r#"
[[router]]
name = "a"
ports = [{ name = "out" }, { name = "in" }]
[[router]]
name = "b"
ports = [{ name = "out" }, { name = "in" }]
[[channel]]
from = "a.out"
to = "b.in"
[[channel]]
from = "b.out"
to = "a.in"
latency = 3
"#;

#[test]
fn shapes_come_from_serde() {
    assert!(struct_fields::<RawChannel>().contains(&"latency"));
    assert!(enum_variants::<RoutingKind>().contains(&"dor-nodateline"));
    assert_eq!(parse_name::<Switching>("vct"), Ok(Switching::Vct));
    assert!(parse_name::<Switching>("cut")
        .unwrap_err()
        .contains(&"saf".to_string()));
}

#[test]
fn directions_parse() {
    assert_eq!(parse_direction("d0+"), Some((0, Dir::Plus)));
    assert_eq!(parse_direction("d12-"), Some((12, Dir::Minus)));
    assert_eq!(parse_direction("d-"), None);
    assert_eq!(parse_direction("x+"), None);
    assert_eq!(parse_direction("d999+"), None);
    assert_eq!(format_direction((3, Dir::Minus)), "d3-");
}

#[test]
fn explicit_pair_loads() {
    let n = parse(PAIR).unwrap();
    assert_eq!(n.num_routers(), 2);
    assert_eq!(n.num_channels(), 2);
    assert_eq!(n.channel(crate::ChannelId(1)).latency, 3);
    assert_eq!(n.channel(crate::ChannelId(0)).latency, 1);
    assert_eq!(n.router(RouterId(0)).ports[0].name, "local");
    assert_eq!(n.name, "t");
    assert_eq!(n.topology, Topology::Explicit);
}

#[test]
fn overrides_layer_defaults_router_port() {
    let src = format!(
        "[defaults]\nvcs = 2\nbuffer_depth = 4\n{}",
        PAIR.replace(
            "name = \"a\"\nports = [{ name = \"out\" }, { name = \"in\" }]",
            "name = \"a\"\nbuffer_depth = 6\nports = [{ name = \"out\" }, { name = \"in\", vcs = 3, buffer_depth = \"unbounded\" }]"
        )
    );
    let n = parse(&src).unwrap();
    let a = n.router(RouterId(0));
    let b = n.router(RouterId(1));
    assert_eq!(
        (a.config.vcs, a.config.buffer_depth),
        (2, BufferDepth::Flits(6))
    );
    assert_eq!(a.ports[1].buffer_depth, BufferDepth::Flits(6));
    assert_eq!(
        (a.ports[2].vcs, a.ports[2].buffer_depth),
        (3, BufferDepth::Unbounded)
    );
    assert_eq!(b.ports[2].buffer_depth, BufferDepth::Flits(4));
}

#[test]
fn generator_form_loads() {
    let n = parse("channel_latency = 2\n[topology]\nkind = \"mesh\"\nradix = [3, 2]\n[defaults]\nrouting = \"dor\"\n").unwrap();
    assert_eq!(n.num_routers(), 6);
    assert!(n.channels().all(|c| c.latency == 2));
    assert_eq!(n.topology, Topology::Mesh { radix: vec![3, 2] });
}

#[test]
fn concentration_gives_every_router_its_terminal_ports() {
    let src = format!("concentration = 3\n{PAIR}");
    let n = parse(&src).unwrap();
    assert_eq!((n.concentration(), n.num_terminals()), (Some(3), 6));
    let a = n.router(RouterId(0));
    assert_eq!(a.ports[2].name, "local2");
    // a.out -> b.in keeps its ports, now after the three terminal ports.
    let c = n.channel(crate::ChannelId(0));
    assert_eq!(a.ports[c.from_port.index()].name, "out");
    assert_eq!(n.router(c.to).ports[c.to_port.index()].name, "in");
    let g = parse("concentration = 2\n[topology]\nkind = \"ring\"\nn = 4\n").unwrap();
    assert_eq!(g.num_terminals(), 8);
    let e = parse("concentration = 65\n[topology]\nkind = \"ring\"\nn = 4\n").unwrap_err();
    assert_eq!(e.errors[0].code(), "bad-value", "{e}");
    assert!(e.to_string().starts_with("t.toml:1:17: "), "{e}");
    assert!(e.to_string().contains("outside 1..=64"), "{e}");
}

#[test]
fn routers_give_their_own_terminal_counts() {
    let src = PAIR
        .replacen("name = \"a\"\n", "name = \"a\"\nterminals = 0\n", 1)
        .replacen("name = \"b\"\n", "name = \"b\"\nterminals = 2\n", 1);
    let n = parse(&src).unwrap();
    assert_eq!((n.concentration(), n.num_terminals()), (None, 2));
    let (a, b) = (n.router(RouterId(0)), n.router(RouterId(1)));
    assert_eq!(
        (a.ports[0].name.as_str(), b.ports[1].name.as_str()),
        ("out", "local1")
    );
    assert_eq!(n.terminal_router(crate::TerminalId(1)), RouterId(1));
    let c = n.channel(crate::ChannelId(0));
    assert_eq!(a.ports[c.from_port.index()].name, "out");
    assert_eq!(b.ports[c.to_port.index()].name, "in");
    let e = parse(&format!("concentration = 2\n{src}")).unwrap_err();
    assert_eq!(e.errors[0].code(), "bad-value", "{e}");
    assert!(e.to_string().contains("own `terminals`"), "{e}");
    let e =
        parse(&PAIR.replacen("name = \"a\"\n", "name = \"a\"\nterminals = 65\n", 1)).unwrap_err();
    assert_eq!(e.errors[0].code(), "bad-value", "{e}");
    assert!(e.to_string().contains("0 to 64 terminals"), "{e}");
}

#[test]
fn every_error_is_collected_and_located() {
    let src =
        "[defaults]\nvcs = 0\nbogus = 1\n[topology]\nkind = \"torus\"\nradix = [4, 4]\nwat = 2\n";
    let d = parse(src).unwrap_err();
    let c: Vec<_> = d.errors.iter().map(|e| e.code()).collect();
    assert_eq!(c, ["zero-vcs", "unknown-key", "unknown-key"]);
    assert_eq!(d.errors[1].location().unwrap().line, 3);
    assert_eq!(d.errors[2].location().unwrap().line, 7);
}

#[test]
fn channel_problems() {
    let bad = PAIR
        .replace("from = \"a.out\"", "from = \"z.out\"")
        .replace("to = \"a.in\"", "to = \"a.nope\"");
    // a.out and a.in are then named by no channel.
    assert_eq!(
        codes(&bad),
        [
            "dangling-port",
            "dangling-port",
            "unknown-router",
            "unknown-port"
        ]
    );
    let twice = PAIR.replace("from = \"b.out\"", "from = \"a.out\"");
    // a.out used twice; b.out is then connected to nothing.
    assert_eq!(codes(&twice), ["dangling-port", "port-used-twice"]);
    let zero = PAIR.replace("latency = 3", "latency = 0");
    assert_eq!(codes(&zero), ["zero-latency-channel"]);
    let local = PAIR.replace("to = \"b.in\"", "to = \"b.local\"");
    assert!(codes(&local).contains(&"terminal-port-in-channel"));
}

#[test]
fn unreachable_routers_are_reported() {
    let one_way = PAIR.replace(
        "from = \"b.out\"\nto = \"a.in\"\nlatency = 3\n",
        "from = \"a.in\"\nto = \"b.out\"\n",
    );
    // a.in -> b.out is legal wiring (ports are bidirectional), but nothing leads to a.
    let d = parse(&one_way).unwrap_err();
    assert_eq!(d.errors.len(), 1);
    assert_eq!(d.errors[0].code(), "unreachable-terminal");
    assert!(
        d.to_string()
            .contains("terminal of router b cannot reach a"),
        "{d}"
    );
}

#[test]
fn names_are_checked_with_choices() {
    let d = parse("[topology]\nkind = \"torus\"\nradix = [2, 2]\n[defaults]\nrouting = \"xy\"\n")
        .unwrap_err();
    let s = d.to_string();
    assert!(
        s.contains("error[unknown-name]: unknown routing function `xy`"),
        "{s}"
    );
    assert!(s.contains("`dor`"), "{s}");
    assert!(codes("[topology]\nkind = \"cube\"\n").contains(&"unknown-name"));
    assert!(codes("[topology]\nkind = \"torus\"\nradix = [1]\n").contains(&"bad-topology"));
    assert!(codes("[topology]\nkind = \"torus\"\ndim = 3\n").contains(&"bad-value"));
}

/// `src` with `KEY` replaced by `value`: refused with `code` at `line:col` just above
/// `max`, accepted at `max`.
fn bounded(src: &str, value: &str, max: u32, code: &str, (line, col): (u32, u32)) {
    let at_max = src.replace("VALUE", &max.to_string());
    if let Err(d) = parse(&at_max) {
        panic!("{value} = {max} should load:\n{d}");
    }
    let above = src.replace("VALUE", &(u64::from(max) + 1).to_string());
    let d = parse(&above).unwrap_err();
    assert_eq!(d.errors.len(), 1, "{d}");
    assert_eq!(d.errors[0].code(), code, "{d}");
    let at = d.errors[0].location().unwrap();
    assert_eq!((at.line, at.col), (line, col), "{d}");
    let help = d.errors[0].help();
    assert!(help.contains(value), "{help}");
    assert!(help.contains(&max.to_string()), "{help}");
}

#[test]
fn values_above_the_limits_are_refused_where_written() {
    let ring = "[topology]\nkind = \"ring\"\nn = 3\n";
    for key in [
        "routing_delay",
        "vc_alloc_delay",
        "switch_alloc_delay",
        "crossbar_delay",
        "credit_delay",
    ] {
        let col = key.len() as u32 + 4;
        // [defaults]
        bounded(
            &format!("[defaults]\n{key} = VALUE\n{ring}"),
            key,
            MAX_PIPELINE_DELAY,
            "delay-too-large",
            (2, col),
        );
        // A router's own key.
        bounded(
            &PAIR.replace("name = \"b\"\n", &format!("name = \"b\"\n{key} = VALUE\n")),
            key,
            MAX_PIPELINE_DELAY,
            "delay-too-large",
            (7, col),
        );
    }
    bounded(
        &format!("[defaults]\nalloc_iters = VALUE\n{ring}"),
        "alloc_iters",
        u32::from(MAX_ALLOC_ITERS),
        "alloc-iters-out-of-range",
        (2, 15),
    );
    // Zero rounds are refused too.
    let d = parse(&format!("[defaults]\nalloc_iters = 0\n{ring}")).unwrap_err();
    assert_eq!(d.errors[0].code(), "alloc-iters-out-of-range", "{d}");
    // Message classes: 1 to MAX_MESSAGE_CLASSES, as `--set` takes them.
    let n = parse(&format!("[defaults]\nmessage_classes = 2\n{ring}")).unwrap();
    assert!(n.routers().all(|r| r.config.message_classes == 2));
    for bad in [0, crate::MAX_MESSAGE_CLASSES + 1] {
        let d = parse(&format!("[defaults]\nmessage_classes = {bad}\n{ring}")).unwrap_err();
        assert_eq!(d.errors[0].code(), "bad-value", "{d}");
    }
    bounded(
        &format!("[defaults]\nbuffer_depth = VALUE\n{ring}"),
        "buffer_depth",
        MAX_BUFFER_DEPTH,
        "buffer-depth-too-large",
        (2, 16),
    );
    bounded(
        &PAIR.replace("name = \"b\"\n", "name = \"b\"\nbuffer_depth = VALUE\n"),
        "buffer_depth",
        MAX_BUFFER_DEPTH,
        "buffer-depth-too-large",
        (7, 16),
    );
    bounded(
        &PAIR.replacen(
            "{ name = \"in\" }",
            "{ name = \"in\", buffer_depth = VALUE }",
            1,
        ),
        "buffer_depth",
        MAX_BUFFER_DEPTH,
        "buffer-depth-too-large",
        (4, 58),
    );
    bounded(
        &format!("channel_latency = VALUE\n{ring}"),
        "channel_latency",
        MAX_LATENCY,
        "channel-latency-too-large",
        (1, 19),
    );
    bounded(
        &format!("channel_latency = VALUE\n{PAIR}"),
        "channel_latency",
        MAX_LATENCY,
        "channel-latency-too-large",
        (1, 19),
    );
    bounded(
        &PAIR.replace("latency = 3", "latency = VALUE"),
        "latency",
        MAX_LATENCY,
        "channel-latency-too-large",
        (14, 11),
    );
    bounded(
        &format!("terminal_latency = VALUE\n{ring}"),
        "terminal_latency",
        MAX_LATENCY,
        "terminal-latency-too-large",
        (1, 20),
    );
    bounded(
        &PAIR.replace("name = \"b\"\n", "name = \"b\"\nterminal_latency = VALUE\n"),
        "terminal_latency",
        MAX_LATENCY,
        "terminal-latency-too-large",
        (7, 20),
    );
    // The reproductions of the bug: refused, not a panic or an abort later.
    let d = parse(&format!("[defaults]\nbuffer_depth = 3000000000\n{ring}")).unwrap_err();
    assert_eq!(
        d.to_string(),
        "t.toml:2:16: error[buffer-depth-too-large]: [defaults] has buffer depth 3000000000, \
         above the limit of 65536 flits per VC\n\
         help: set buffer_depth <= 65536, or use \"unbounded\" for an effectively infinite buffer"
    );
    // `"unbounded"` and `timeout` have no such limit.
    let n = parse(&format!(
        "[defaults]\nbuffer_depth = \"unbounded\"\ntimeout = 4000000000\n{ring}"
    ))
    .unwrap();
    assert!(n.routers().all(|r| r.config.timeout == 4_000_000_000));
}

#[test]
fn garbage_never_panics() {
    for src in [
        "",
        "=",
        "[[router]]",
        "router = 3",
        "channel = [1]",
        "[[router]]\nname = 3",
        "[[router]]\nname = \"a.b\"",
        "[[router]]\nname = \"a\"\nports = [\"east\"]",
        "[[router]]\nname = \"a\"\nports = [{ name = \"e\", direction = \"up\" }]",
        "[[router]]\nname = \"a\"\n[[channel]]\nfrom = \"a\"\nto = \"a.\"",
        "[topology]\nkind = \"hypercube\"\ndim = 99\n",
        "[topology]\nkind = \"mesh\"\nradix = [-1]\n",
        "[defaults]\nbuffer_depth = -3\n[topology]\nkind = \"ring\"\nn = 3\n",
        "[defaults]\nvcs = 300\n",
        "topology = 1",
        "defaults = [1]",
    ] {
        assert!(parse(src).is_err(), "{src:?} should fail");
    }
}

#[test]
fn declared_topology_must_match() {
    let src = "[topology]\nkind = \"ring\"\nn = 2\n".to_string()
        + &PAIR
            .replace(
                "{ name = \"out\" }",
                "{ name = \"out\", direction = \"d0+\" }",
            )
            .replace(
                "{ name = \"in\" }",
                "{ name = \"in\", direction = \"d0-\" }",
            );
    // A 2-ring has four channels (two each way); this pair has two.
    let d = parse(&src).unwrap_err();
    assert_eq!(d.errors.len(), 1);
    assert!(
        d.to_string()
            .contains("missing channels out of a d0-, b d0-"),
        "{d}"
    );
    assert_eq!(codes(&src.replace("n = 2", "n = 3")), ["topology-mismatch"]);
}

#[test]
fn truncated_and_mangled_files_never_panic() {
    let full = include_str!("../../../../netlists/hetero-torus-4x4.toml");
    let mut cuts = 0;
    for end in (0..full.len())
        .step_by(53)
        .filter(|&e| full.is_char_boundary(e))
    {
        let _ = parse(&full[..end]);
        cuts += 1;
    }
    assert!(cuts > 100);
    for (from, to) in [
        ("\"r5\"", "\"r4\""),
        ("latency = 1", "latency = -1"),
        ("direction = \"d0+\"", "direction = \"d0\""),
        ("\n[[channel]]\n", "\n[channel]\n"),
        ("ports = [", "ports = 3 #"),
        ("coord = [1, 1]", "coord = [1, 1, 1]"),
    ] {
        let r = parse(&full.replacen(from, to, 1));
        assert!(r.is_err(), "{from} -> {to} should be rejected");
    }
}
