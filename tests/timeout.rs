//! Timeout reset (paper 003) through the whole simulator: on a 3x3 torus with long
//! channels and exponential packet lengths, packets are dropped and retransmitted, and
//! yet every generated packet is delivered exactly once and the network ends empty with
//! every credit home. (Flit and credit conservation, counting discarded flits, is checked
//! after every cycle by the engine in this debug-assertion build.)

use flitsim::engine::{SimConfig, Simulation};
use flitsim::netlist::topology::torus;
use std::collections::BTreeMap;
use std::process::Command;

fn run(timeout: u32, rate: f64, backoff: u64) -> (Simulation, Vec<(u32, u32)>) {
    let mut net = torus(&[3, 3]);
    net.set("channel_latency", "20").unwrap();
    net.set("vcs", "2").unwrap();
    net.set("timeout", &timeout.to_string()).unwrap();
    let config = SimConfig {
        rate,
        length_dist: Some("exp:100".parse().unwrap()),
        warmup: 0,
        cycles: 3000,
        drain: 300_000,
        drain_all: true,
        backoff,
        record_deliveries: true,
        ..SimConfig::default()
    };
    let mut sim = Simulation::new(&net, &config).unwrap();
    let report = sim.run();
    assert!(report.deadlock.is_none(), "{:?}", report.deadlock);
    assert!(!sim.drain_limit_hit(), "drain did not finish");
    let ids = sim
        .take_deliveries()
        .iter()
        .map(|d| (d.packet.source.0, d.packet.seq))
        .collect();
    (sim, ids)
}

/// Every packet (source, seq) generated is delivered exactly once: per source the
/// sequence numbers 0..n each appear once, and the total is the number generated.
fn exactly_once(sim: &mut Simulation, ids: &[(u32, u32)]) {
    let mut per: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
    for &(s, q) in ids {
        per.entry(s).or_default().push(q);
    }
    for (s, seqs) in &mut per {
        seqs.sort_unstable();
        let expect: Vec<u32> = (0..seqs.len() as u32).collect();
        assert_eq!(*seqs, expect, "terminal {s}: lost or duplicated packets");
    }
    assert_eq!(ids.len() as u64, sim.stats().packets_generated);
    assert!(sim.is_idle());
    // The last credits are still on their way back (2 channel latencies at most).
    sim.run_for(100).unwrap();
    assert!(
        sim.network_is_empty(),
        "buffers, channels or credits not back to empty"
    );
}

#[test]
fn timeouts_drop_and_retransmit_without_losing_or_duplicating_packets() {
    let (mut sim, ids) = run(10, 0.004, 0);
    exactly_once(&mut sim, &ids);
    let s = sim.switching_stats();
    assert!(s.timeouts > 50, "{s:?}");
    assert_eq!(s.requeued, s.timeouts);
    assert_eq!(s.retransmissions, s.timeouts);
    assert!(s.flits_discarded > 0);
    assert!(ids.len() > 100, "{}", ids.len());
}

#[test]
fn a_back_off_delays_retransmissions_and_still_delivers_everything_once() {
    let (mut sim, ids) = run(10, 0.004, 200);
    exactly_once(&mut sim, &ids);
    assert!(sim.switching_stats().timeouts > 0);
}

#[test]
fn no_timeouts_at_low_load_or_when_disabled() {
    for timeout in [0, 1000] {
        let (mut sim, ids) = run(timeout, 0.0003, 0);
        exactly_once(&mut sim, &ids);
        let s = sim.switching_stats();
        assert_eq!(
            (s.timeouts, s.retransmissions, s.flits_discarded),
            (0, 0, 0)
        );
        assert!(!ids.is_empty());
    }
}

#[test]
fn the_json_reports_timeouts_retransmissions_discards_and_goodput() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("timeout");
    std::fs::create_dir_all(&dir).unwrap();
    let net = dir.join("t.toml");
    std::fs::write(
        &net,
        "name = \"t\"\n[topology]\nkind = \"torus\"\nradix = [3, 3]\n",
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_flitsim"))
        .args([
            "run",
            net.to_str().unwrap(),
            "--set",
            "channel_latency=20",
            "--set",
            "vcs=2",
            "--length",
            "exp:100",
            "--rate",
            "0.004",
            "--timeout",
            "10",
            "--backoff",
            "5",
            "--warmup",
            "0",
            "--cycles",
            "2000",
            "--drain",
            "--drain-cycles",
            "300000",
            "--json",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["switching"], "wormhole");
    assert!(v["timeouts"].as_u64().unwrap() > 0);
    assert_eq!(v["retransmissions"], v["timeouts"]);
    assert!(v["flits_discarded"].as_u64().unwrap() > 0);
    assert!(v["goodput"]["flits_per_terminal_cycle"].as_f64().unwrap() > 0.0);
    assert_eq!(v["drain_limit_hit"], false);
    assert_eq!(v["packets"]["in_flight_end"], 0);
    assert_eq!(v["config"]["router"]["timeout"], 10);
}
