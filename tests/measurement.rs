//! Detected warm-up, batch-means confidence intervals and the saturation verdict
//! on torus-8x8 (DOR, 12-flit packets, uniform traffic; saturation near 0.34 flits per
//! terminal per cycle = 0.028 packets).

use std::process::Command;

fn run_json(args: &[&str]) -> serde_json::Value {
    let out = Command::new(env!("CARGO_BIN_EXE_flitsim"))
        .args(["run", "netlists/torus-8x8.toml", "--length", "12", "--json"])
        .args(args)
        .output()
        .expect("run flitsim");
    assert!(
        out.status.success(),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

#[test]
fn below_saturation_the_interval_meets_the_target() {
    // 0.012 packets = 0.144 flits per terminal per cycle: about 40% of saturation.
    let v = run_json(&["--rate", "0.012"]);
    assert_eq!(v["saturated"], false);
    assert_eq!(v["measurement"]["mode"], "auto");
    assert_eq!(v["measurement"]["converged"], true);
    let mean = v["latency"]["mean"].as_f64().unwrap();
    let half = v["latency"]["ci95"].as_f64().unwrap();
    assert!(half > 0.0 && half <= 0.02 * mean * 1.05, "{half} vs {mean}");
    assert!(v["measurement"]["latency_ci95_relative"].as_f64().unwrap() <= 0.02);
    // Every measured packet drained; accepted = offered within the interval (+ slack for
    // the Bernoulli generation noise of the window).
    assert_eq!(v["packets"]["in_flight_end"], 0);
    let acc = v["accepted"]["flits_per_terminal_cycle"].as_f64().unwrap();
    let off = v["offered"]["measured_flits_per_terminal_cycle"]
        .as_f64()
        .unwrap();
    let ci = v["accepted"]["ci95"].as_f64().unwrap();
    assert!(
        (acc - off).abs() <= 2.0 * ci + 0.01 * off,
        "{acc} vs {off} +- {ci}"
    );
    assert!(v["measurement"]["warmup_detected"].is_u64());
}

#[test]
fn well_above_saturation_the_run_stops_early() {
    // 0.05 packets = 0.6 flits per terminal per cycle: 1.75x the saturation throughput.
    let budget = 200_000u64;
    let out = Command::new(env!("CARGO_BIN_EXE_flitsim"))
        .args(["run", "netlists/torus-8x8.toml", "--length", "12"])
        .args([
            "--rate",
            "0.05",
            "--json",
            "--max-cycles",
            &budget.to_string(),
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("saturated"));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["saturated"], true);
    let total = v["cycles"]["total"].as_u64().unwrap();
    assert!(total < budget / 10, "ran {total} cycles");
    // What it accepted is well below what was offered.
    let acc = v["accepted"]["flits_per_terminal_cycle"].as_f64().unwrap();
    assert!(acc > 0.0 && acc < 0.9 * 0.6, "accepted {acc}");
    assert!(v["measurement"]["message"]
        .as_str()
        .unwrap()
        .contains("grow without bound"));
}

#[test]
fn fixed_windows_still_work_and_get_intervals() {
    let v = run_json(&["--rate", "0.01", "--warmup", "1000", "--cycles", "8000"]);
    assert_eq!(v["measurement"]["mode"], "fixed");
    assert_eq!(v["cycles"]["warmup"], 1000);
    assert_eq!(v["cycles"]["measured"], 8000);
    assert!(v["latency"]["ci95"].as_f64().unwrap() > 0.0);
    assert_eq!(v["saturated"], false);
}

/// A run whose saturation verdict fires on the very sample that opens its window measured
/// an empty window: it still reports the throughput the network accepted (from the
/// sampled series since cycle 0), never 0.0.
#[test]
fn a_window_closed_as_it_opens_reports_the_accepted_throughput() {
    use flitsim::engine::{SimConfig, Simulation};
    let n = flitsim::netlist::topology::torus(&[8, 8]);
    let config = |warmup| SimConfig {
        rate: 1.0 / 12.0,
        length: 12,
        warmup,
        cycles: 50_000,
        stop_on_saturation: true,
        ..SimConfig::default()
    };
    // Where the verdict fires with the window far away.
    let first = Simulation::new(&n, &config(1_000_000)).unwrap().run();
    assert!(first.saturated);
    let at = first.cycles.total;
    assert!(at > 0 && at < 1_000_000);
    let acc_before = first.accepted.flits_per_terminal_cycle;
    assert!(acc_before > 0.2, "{acc_before}");
    // The same run with the window opening exactly there: same samples, same verdict.
    let r = Simulation::new(&n, &config(at)).unwrap().run();
    assert!(r.saturated);
    assert_eq!((r.cycles.total, r.cycles.measured), (at, 0));
    assert_eq!(r.accepted.flits_per_terminal_cycle, acc_before);
}
