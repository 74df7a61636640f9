//! `flitsim netlist check/expand/dot` on the shipped netlists: the summary numbers against
//! closed forms written here (not taken from the code), the JSON field set, the expand
//! round trip, the DOT export.

use flitsim::netlist::{self as nl, Netlist};
use std::path::Path;
use std::process::Command;

fn flitsim(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_flitsim"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .output()
        .expect("run flitsim");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn check_json(file: &str) -> serde_json::Value {
    let (code, stdout, stderr) = flitsim(&["netlist", "check", file, "--json"]);
    assert_eq!(code, 0, "{file}: {stderr}");
    serde_json::from_str(&stdout).expect("one JSON object")
}

/// Expected (routers, channels, diameter, average distance over ordered pairs of distinct
/// terminals) from closed forms. Per dimension of radix k, over all k^2 ordered pairs
/// (a router with itself included): torus mean k/4 for even k, (k^2-1)/(4k) for odd k,
/// diameter floor(k/2); mesh mean (k^2-1)/(3k), diameter k-1. Dimensions add. A binary
/// n-cube: mean n/2 over all pairs, diameter n. Excluding the N pairs of a router with
/// itself (distance 0) rescales the mean by N/(N-1).
enum Shape {
    Torus(&'static [u64]),
    Mesh(&'static [u64]),
    Hypercube(u64),
}

fn expected(shape: &Shape) -> (u64, u64, u64, f64) {
    let (n, channels, diameter, all_pairs_mean) = match shape {
        Shape::Torus(radix) => {
            let n: u64 = radix.iter().product();
            let mean: f64 = radix
                .iter()
                .map(|&k| {
                    let kf = k as f64;
                    if k % 2 == 0 {
                        kf / 4.0
                    } else {
                        (kf * kf - 1.0) / (4.0 * kf)
                    }
                })
                .sum();
            // Two unidirectional channels per dimension leave every router.
            (
                n,
                2 * radix.len() as u64 * n,
                radix.iter().map(|k| k / 2).sum(),
                mean,
            )
        }
        Shape::Mesh(radix) => {
            let n: u64 = radix.iter().product();
            let mean: f64 = radix
                .iter()
                .map(|&k| (k as f64 * k as f64 - 1.0) / (3.0 * k as f64))
                .sum();
            // Along dimension d: (k_d - 1) bidirectional links per line, n / k_d lines.
            let channels = radix.iter().map(|&k| 2 * (k - 1) * (n / k)).sum();
            (n, channels, radix.iter().map(|k| k - 1).sum(), mean)
        }
        Shape::Hypercube(d) => {
            let n = 1u64 << d;
            (n, d * n, *d, *d as f64 / 2.0)
        }
    };
    let nf = n as f64;
    (n, channels, diameter, all_pairs_mean * nf / (nf - 1.0))
}

#[test]
fn issue_numbers() {
    // The numbers the issue states, independently of any formula.
    for (file, r, c, d, avg) in [
        ("netlists/torus-8x8.toml", 64, 256, 8, 4.0635),
        ("netlists/hypercube-6.toml", 64, 384, 6, 3.0476),
        ("netlists/mesh-8x8.toml", 64, 224, 14, 5.3333),
    ] {
        let j = check_json(file);
        assert_eq!(j["routers"], r, "{file}");
        assert_eq!(j["terminals"], r, "{file}");
        assert_eq!(j["channels"], c, "{file}");
        assert_eq!(j["diameter"], d, "{file}");
        let got = j["average_distance"].as_f64().unwrap();
        assert!((got - avg).abs() <= 0.0005, "{file}: {got}");
    }
}

#[test]
fn shipped_netlists_match_closed_forms() {
    for (file, shape) in [
        ("torus-3x3", Shape::Torus(&[3, 3])),
        ("torus-4x4", Shape::Torus(&[4, 4])),
        ("torus-8x8", Shape::Torus(&[8, 8])),
        ("torus-12x12", Shape::Torus(&[12, 12])),
        ("torus-16x16", Shape::Torus(&[16, 16])),
        ("torus-32x32", Shape::Torus(&[32, 32])),
        ("torus-64x64", Shape::Torus(&[64, 64])),
        ("mesh-8x8", Shape::Mesh(&[8, 8])),
        ("hypercube-6", Shape::Hypercube(6)),
        ("hypercube-8", Shape::Hypercube(8)),
        ("hypercube-10", Shape::Hypercube(10)),
        ("ring-8", Shape::Torus(&[8])),
        ("hetero-torus-4x4", Shape::Torus(&[4, 4])),
        ("paper000-torus-4x4", Shape::Torus(&[4, 4])),
        ("paper000-torus-8x8", Shape::Torus(&[8, 8])),
        ("paper000-torus-12x12", Shape::Torus(&[12, 12])),
        ("paper000-torus-16x16", Shape::Torus(&[16, 16])),
        ("paper004-torus-8x8", Shape::Torus(&[8, 8])),
    ] {
        let path = format!("netlists/{file}.toml");
        let j = check_json(&path);
        let (n, c, d, avg) = expected(&shape);
        assert_eq!(j["routers"], n, "{file}");
        assert_eq!(j["terminals"], n, "{file}");
        assert_eq!(j["channels"], c, "{file}");
        assert_eq!(j["diameter"], d, "{file}");
        let got = j["average_distance"].as_f64().unwrap();
        assert!((got - avg).abs() < 1e-9, "{file}: {got} vs {avg}");
    }
}

#[test]
fn paper_presets_carry_the_papers_router_delays() {
    // Paper 000: one cycle per hop (rd = vd = sd = xd = 0), 4 VCs, L = Lt = 1.
    for k in [4, 8, 12, 16] {
        let n = nl::load(Path::new(&format!("netlists/paper000-torus-{k}x{k}.toml"))).unwrap();
        for r in n.routers() {
            let c = &r.config;
            assert_eq!(
                (
                    c.routing_delay,
                    c.vc_alloc_delay,
                    c.switch_alloc_delay,
                    c.crossbar_delay
                ),
                (0, 0, 0, 0)
            );
            assert_eq!((c.vcs, r.terminal_latency), (4, 1));
        }
        assert!(n.channels().all(|c| c.latency == 1));
    }
    // Paper 004: header 2 cycles per router (rd = 1, sd = 1), other flits 1.
    let n = nl::load(Path::new("netlists/paper004-torus-8x8.toml")).unwrap();
    for r in n.routers() {
        let c = &r.config;
        assert_eq!(
            (
                c.routing_delay,
                c.vc_alloc_delay,
                c.switch_alloc_delay,
                c.crossbar_delay
            ),
            (1, 0, 1, 0)
        );
        assert_eq!(r.terminal_latency, 1);
    }
    assert!(n.channels().all(|c| c.latency == 1));
}

#[test]
fn hetero_torus_has_one_hot_router() {
    let n = nl::load(Path::new("netlists/hetero-torus-4x4.toml")).unwrap();
    let plain = nl::load(Path::new("netlists/torus-4x4.toml")).unwrap();
    assert_eq!(n.topology, plain.topology);
    let deeper: Vec<_> = n
        .routers()
        .filter(|r| {
            r.ports
                .iter()
                .any(|p| p.buffer_depth != nl::BufferDepth::Flits(8))
        })
        .map(|r| r.name.clone())
        .collect();
    assert_eq!(deeper, ["r5"]);
    assert_eq!(
        shape(&n).1,
        shape(&plain).1,
        "same channels as the generated torus"
    );
}

#[test]
fn json_field_set_is_stable() {
    let j = check_json("netlists/torus-4x4.toml");
    let keys: Vec<&str> = j.as_object().unwrap().keys().map(String::as_str).collect();
    insta::assert_snapshot!(keys.join("\n"));
}

#[test]
fn text_summary() {
    let (code, stdout, _) = flitsim(&["netlist", "check", "tests/data/ok/mesh-2x2-explicit.toml"]);
    assert_eq!(code, 0);
    insta::assert_snapshot!(stdout);
}

/// A netlist as sorted plain data: routers (with every parameter and port), channels
/// (by names, with latency), topology. Two netlists with equal shapes are the same hardware.
fn shape(n: &Netlist) -> (Vec<String>, Vec<String>, String) {
    let routers = n
        .routers()
        .map(|r| {
            format!(
                "{} {} {:?} {:?} lt={} {:?}",
                r.id, r.name, r.coord, r.config, r.terminal_latency, r.ports
            )
        })
        .collect();
    let mut channels: Vec<String> = n
        .channels()
        .map(|c| {
            let (f, t) = (n.router(c.from), n.router(c.to));
            format!(
                "{}.{} -> {}.{} latency {}",
                f.name,
                f.ports[c.from_port.index()].name,
                t.name,
                t.ports[c.to_port.index()].name,
                c.latency
            )
        })
        .collect();
    channels.sort();
    (routers, channels, format!("{:?}", n.topology))
}

#[test]
fn expand_round_trips() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("netlist-expand");
    std::fs::create_dir_all(&dir).unwrap();
    let mut files: Vec<String> = [
        "torus-3x3",
        "torus-8x8",
        "mesh-8x8",
        "hypercube-6",
        "ring-8",
        "hetero-torus-4x4",
        "paper000-torus-4x4",
        "paper004-torus-8x8",
        "dragonfly-a4h2",
        "hyperx-4x4",
        "hyperx-4x4x4",
    ]
    .iter()
    .map(|f| format!("netlists/{f}.toml"))
    .collect();
    for e in std::fs::read_dir("tests/data/ok").unwrap() {
        files.push(e.unwrap().path().display().to_string());
    }
    for file in files {
        let (code, text, stderr) = flitsim(&["netlist", "expand", &file]);
        assert_eq!(code, 0, "{file}: {stderr}");
        let out = dir.join(Path::new(&file).file_name().unwrap());
        std::fs::write(&out, &text).unwrap();
        let original = nl::load(Path::new(&file)).unwrap();
        let back = nl::load(&out).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert_eq!(shape(&back), shape(&original), "{file}");
        assert_eq!(back.max_packet_length, original.max_packet_length, "{file}");
        // The expanded file checks like the original.
        let a = check_json(&file);
        let b = check_json(out.to_str().unwrap());
        for k in [
            "routers",
            "channels",
            "diameter",
            "average_distance",
            "topology",
        ] {
            assert_eq!(a[k], b[k], "{file}: {k}");
        }
    }
}

#[test]
fn expand_applies_settings() {
    let (code, text, _) = flitsim(&[
        "netlist",
        "expand",
        "netlists/ring-8.toml",
        "--set",
        "channel_latency=5",
        "--set",
        "buffer_depth=unbounded",
    ]);
    assert_eq!(code, 0);
    assert!(text.contains("channel_latency = 5"));
    assert!(text.contains("buffer_depth = \"unbounded\""));
}

#[test]
fn dot_draws_every_router_and_channel() {
    let (code, text, _) = flitsim(&["netlist", "dot", "netlists/mesh-8x8.toml"]);
    assert_eq!(code, 0);
    assert!(text.starts_with("digraph \"mesh-8x8\" {"));
    assert_eq!(text.lines().filter(|l| l.contains(" -> ")).count(), 224);
    assert_eq!(
        text.lines().filter(|l| l.contains("[label=\"r")).count(),
        64
    );
    let (code, _, stderr) = flitsim(&["netlist", "dot", "tests/data/bad/zero-vcs.toml"]);
    assert_eq!(code, 1);
    assert!(stderr.contains("error[zero-vcs]"));
}

/// Pinned positions (`pos="x,y!"`) for every router, far enough apart that the boxes of
/// `neato -n` do not overlap: 72 points (one inch) at least between any two routers.
/// Without positions `neato -n` refuses a ring and squeezes a torus into a blob.
#[test]
fn dot_pins_every_router_apart_for_neato() {
    for name in ["ring-8", "torus-4x4", "mesh-8x8", "hypercube-6"] {
        let (code, text, _) = flitsim(&["netlist", "dot", &format!("netlists/{name}.toml")]);
        assert_eq!(code, 0);
        let pos: Vec<(f64, f64)> = text
            .lines()
            .filter(|l| l.contains("[label=\"r"))
            .map(|l| {
                let p = l
                    .split("pos=\"")
                    .nth(1)
                    .unwrap_or_else(|| panic!("{name}: {l}"));
                let p = p.split("!\"").next().unwrap();
                let (x, y) = p.split_once(',').unwrap();
                (x.parse().unwrap(), y.parse().unwrap())
            })
            .collect();
        assert!(!pos.is_empty());
        for (i, a) in pos.iter().enumerate() {
            for b in &pos[i + 1..] {
                let d = ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt();
                assert!(
                    d >= 72.0,
                    "{name}: routers at {a:?} and {b:?} are {d} points apart"
                );
            }
        }
    }
}
