//! Traffic patterns, packet lengths and trace files through the whole simulator: every
//! delivered packet is checked against the pattern's definition, written here from the
//! definitions (never from the pattern code).

use flitsim::engine::{Delivery, LengthDist, SimConfig, Simulation, TrafficKind};
use flitsim::netlist::topology::{hypercube, torus};
use flitsim::netlist::{Netlist, TerminalId};
use std::path::PathBuf;
use std::process::Command;

fn deliveries(net: &Netlist, traffic: &str, rate: f64, cycles: u64) -> Vec<Delivery> {
    let config = SimConfig {
        rate,
        traffic: traffic.parse().unwrap(),
        warmup: 0,
        cycles,
        drain: 20_000,
        drain_all: true,
        record_deliveries: true,
        ..SimConfig::default()
    };
    let mut sim = Simulation::new(net, &config).unwrap();
    let report = sim.run();
    assert!(report.deadlock.is_none() && !sim.drain_limit_hit());
    let d = sim.take_deliveries();
    assert_eq!(d.len() as u64, sim.stats().packets_generated);
    assert!(
        d.len() > 50,
        "too few packets ({}) to check anything",
        d.len()
    );
    d
}

/// Lee distance on a torus of radix `k` x `k` between router ids `x + k*y`.
fn torus_distance(k: u32, a: u32, b: u32) -> u32 {
    let ring = |x: u32, y: u32| {
        let d = x.abs_diff(y);
        d.min(k - d)
    };
    ring(a % k, b % k) + ring(a / k, b / k)
}

#[test]
fn fixed_distance_packets_cross_exactly_l_channels() {
    let net = torus(&[6, 6]);
    for l in [1u32, 2, 3, 6] {
        for d in deliveries(&net, &format!("fixed-distance:{l}"), 0.02, 1500) {
            assert_eq!(u32::from(d.hops), l, "{d:?}");
            assert_eq!(torus_distance(6, d.packet.source.0, d.dest.0), l, "{d:?}");
        }
    }
    let e = SimConfig {
        traffic: TrafficKind::FixedDistance(7),
        ..SimConfig::default()
    };
    let err = Simulation::new(&net, &e).err().unwrap().to_string();
    assert!(err.contains("no terminal is 7 hops"), "{err}");
}

#[test]
fn transpose_and_bit_complement_match_their_definitions() {
    // 4x4 torus, ids x + 4y: transpose swaps x and y.
    let net = torus(&[4, 4]);
    for d in deliveries(&net, "transpose", 0.05, 1000) {
        let s = d.packet.source.0;
        assert_eq!(d.dest.0, (s / 4) + 4 * (s % 4), "{d:?}");
    }
    // 3-cube: bit-complement flips all 3 bits; e-cube crosses 3 channels.
    let cube = hypercube(3);
    for d in deliveries(&cube, "bit-complement", 0.05, 1000) {
        assert_eq!(d.dest.0, 7 - d.packet.source.0, "{d:?}");
        assert_eq!(d.hops, 3);
    }
    for d in deliveries(&cube, "bit-reversal", 0.05, 500) {
        let s = d.packet.source.0;
        let r = ((s & 1) << 2) | (s & 2) | ((s >> 2) & 1);
        assert_eq!(d.dest.0, r);
    }
    for d in deliveries(&cube, "shuffle", 0.05, 500) {
        let s = d.packet.source.0;
        assert_eq!(d.dest.0, ((s << 1) | (s >> 2)) & 7);
    }
    for d in deliveries(&torus(&[5, 5]), "tornado", 0.05, 500) {
        let s = d.packet.source.0;
        assert_eq!(d.dest.0, (s % 5 + 2) % 5 + 5 * ((s / 5 + 2) % 5));
    }
    for d in deliveries(&torus(&[4, 4]), "neighbor", 0.05, 500) {
        let s = d.packet.source.0;
        assert_eq!(d.dest.0, (s % 4 + 1) % 4 + 4 * ((s / 4 + 1) % 4));
    }
}

#[test]
fn permutation_is_fixed_per_source_and_bijective() {
    let net = torus(&[4, 4]);
    let mut map = [None; 16];
    for d in deliveries(&net, "permutation", 0.05, 1500) {
        let m = &mut map[d.packet.source.index()];
        assert!(m.is_none_or(|x| x == d.dest), "{d:?}");
        *m = Some(d.dest);
    }
    let mut dests: Vec<u32> = map.iter().map(|m| m.unwrap().0).collect();
    dests.sort_unstable();
    assert_eq!(dests, (0..16).collect::<Vec<_>>());
}

#[test]
fn patterns_that_need_a_shape_say_so() {
    let odd = torus(&[3, 3]);
    for (p, needs) in [
        ("bit-complement", "power-of-two"),
        ("bit-reversal", "power-of-two"),
        ("shuffle", "power-of-two"),
    ] {
        let c = SimConfig {
            traffic: p.parse().unwrap(),
            ..SimConfig::default()
        };
        let e = Simulation::new(&odd, &c).err().unwrap().to_string();
        assert!(e.contains(needs), "{p}: {e}");
    }
    let c = SimConfig {
        traffic: TrafficKind::Transpose,
        ..SimConfig::default()
    };
    let e = Simulation::new(&torus(&[4, 2]), &c)
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("square"), "{e}");
    let c = SimConfig {
        traffic: TrafficKind::Tornado,
        ..SimConfig::default()
    };
    let e = Simulation::new(&hypercube(3), &c)
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("coordinates"), "{e}");
}

#[test]
fn uniform_all_includes_the_source_and_hotspot_favours_the_hot_terminal() {
    let net = torus(&[3, 3]);
    let d = deliveries(&net, "uniform-all", 0.05, 3000);
    let own = d.iter().filter(|d| d.dest == d.packet.source).count();
    // 1/9 of the packets expected (~150 of ~1350).
    assert!(own > 80 && own < 230, "{own} of {}", d.len());
    let d = deliveries(&net, "hotspot:4:0.5", 0.05, 3000);
    let hot = d.iter().filter(|d| d.dest == TerminalId(4)).count() as f64 / d.len() as f64;
    // Sources other than 4: 0.5 + 0.5/8; source 4 never sends to itself.
    let expect = (8.0 * (0.5 + 0.5 / 8.0)) / 9.0;
    assert!((hot - expect).abs() < 0.05, "{hot} vs {expect}");
}

#[test]
fn lengths_follow_the_distribution() {
    let net = torus(&[4, 4]);
    let config = SimConfig {
        rate: 0.01,
        length_dist: Some("mix:2,9,0.75".parse().unwrap()),
        warmup: 0,
        cycles: 3000,
        drain_all: true,
        record_deliveries: true,
        ..SimConfig::default()
    };
    let mut sim = Simulation::new(&net, &config).unwrap();
    sim.run();
    let d = sim.take_deliveries();
    assert!(d.iter().all(|d| d.len == 2 || d.len == 9));
    let short = d.iter().filter(|d| d.len == 2).count() as f64 / d.len() as f64;
    assert!((short - 0.75).abs() < 0.05, "{short}");
    assert_eq!(
        LengthDist::Exp { mean: 100.0 }.mean().round(),
        100.0,
        "discretised exponential keeps its mean"
    );
}

fn scratch(name: &str, body: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("traffic");
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, body).unwrap();
    p
}

#[test]
fn trace_driven_traffic_delivers_exactly_the_trace() {
    let trace = scratch(
        "ok.trace",
        "# cycle source destination length\n0 0 5 4\n3 2 2 1 # to itself\n\n10, 15, 0, 7\n10 0 1 2\n",
    );
    let net = torus(&[4, 4]);
    let config = SimConfig {
        traffic: TrafficKind::Trace(trace),
        warmup: 0,
        cycles: 100,
        drain_all: true,
        record_deliveries: true,
        ..SimConfig::default()
    };
    let mut sim = Simulation::new(&net, &config).unwrap();
    sim.run();
    let mut got: Vec<(u32, u32, u32, u64)> = sim
        .take_deliveries()
        .iter()
        .map(|d| (d.packet.source.0, d.dest.0, d.len, d.created.0))
        .collect();
    got.sort_unstable();
    assert_eq!(
        got,
        vec![(0, 1, 2, 10), (0, 5, 4, 0), (2, 2, 1, 3), (15, 0, 7, 10)]
    );
}

#[test]
fn a_malformed_trace_line_names_file_and_line_and_fails() {
    let trace = scratch("bad.trace", "# ok\n0 1 2 3\n\n5 1 two 3\n");
    let net = scratch(
        "t.toml",
        "name = \"t\"\n[topology]\nkind = \"torus\"\nradix = [4, 4]\n",
    );
    let out = Command::new(env!("CARGO_BIN_EXE_flitsim"))
        .args([
            "run",
            net.to_str().unwrap(),
            "--traffic",
            &format!("trace:{}", trace.display()),
        ])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&format!("{}:4: destination `two`", trace.display())),
        "{err}"
    );
}

/// Packets generated per (terminal, window of 1000 cycles) over 40 windows on torus 4x4
/// at 0.05 packets/terminal/cycle, every packet delivered.
fn window_counts(injection: &str) -> Vec<f64> {
    const WINDOW: u64 = 1000;
    let net = torus(&[4, 4]);
    let config = SimConfig {
        rate: 0.05,
        injection: injection.parse().unwrap(),
        warmup: 0,
        cycles: 40 * WINDOW,
        drain: 20_000,
        drain_all: true,
        record_deliveries: true,
        ..SimConfig::default()
    };
    let mut sim = Simulation::new(&net, &config).unwrap();
    let report = sim.run();
    assert!(report.deadlock.is_none() && !sim.drain_limit_hit());
    let mut counts = vec![0.0; 16 * 40];
    for d in sim.take_deliveries() {
        counts[d.packet.source.index() * 40 + (d.created.0 / WINDOW) as usize] += 1.0;
    }
    counts
}

fn mean_var(x: &[f64]) -> (f64, f64) {
    let n = x.len() as f64;
    let m = x.iter().sum::<f64>() / n;
    (
        m,
        x.iter().map(|c| (c - m).powi(2)).sum::<f64>() / (n - 1.0),
    )
}

#[test]
fn on_off_injection_keeps_the_mean_rate_and_is_burstier_than_bernoulli() {
    // On 20% of cycles (alpha / (alpha + beta)), r1 = 0.25 when on; on periods 25
    // cycles on average, off periods 100: a window spans about 8 of each.
    let (m, v) = mean_var(&window_counts("onoff:0.01:0.04"));
    let (mb, vb) = mean_var(&window_counts("bernoulli"));
    // 640 windows, nearly independent: the mean within 4 standard errors of 50.
    for (mean, var) in [(m, v), (mb, vb)] {
        let se = (var / 640.0).sqrt();
        assert!((mean - 50.0).abs() < 4.0 * se, "mean {mean}, se {se}");
    }
    // Bernoulli: 1000 x 0.05 x 0.95 = 47.5. On/off, from the two-state chain:
    // 1000 (0.0475 + 2 r1^2 pi (1 - pi) (1 - a - b) / (a + b)) = 427.
    assert!((vb - 47.5).abs() < 15.0, "Bernoulli variance {vb}");
    assert!(v > 4.0 * vb, "on/off variance {v}, Bernoulli {vb}");
}
