//! Deadlock: dimension-order routing with datelines (torus), plain DOR (mesh) and e-cube
//! (hypercube) survive at least 30,000 cycles above saturation, and none of their hops
//! leaves the dimension-order port (`adaptive_hops_fraction` exactly 0); torus DOR without
//! datelines deadlocks and the watchdog reports a cycle of waiting VCs.
//!
//! Measured saturation of torus-8x8, DOR (balanced ties, entry datelines), uniform traffic,
//! 12-flit packets, default router: about 0.50 flits/terminal/cycle, so 0.8 is well above
//! it; mesh-8x8 saturates near 0.3.

use flitsim::engine::{SimConfig, SimError, Simulation};
use flitsim::netlist::topology::{hypercube, mesh, torus};
use flitsim::netlist::Netlist;

/// Runs `cycles` cycles at `flits` flits/terminal/cycle of 12-flit packets; returns the
/// report of the last `window` cycles.
fn survive(n: &Netlist, flits: f64, cycles: u64, window: u64) -> flitsim::engine::RunReport {
    let config = SimConfig {
        rate: flits / 12.0,
        length: 12,
        warmup: cycles - window,
        cycles: window,
        drain: 0,
        watchdog: 1000,
        ..SimConfig::default()
    };
    let mut sim = Simulation::new(n, &config).unwrap();
    let report = sim.run();
    assert!(
        report.deadlock.is_none(),
        "{}: {:?}",
        n.name,
        report.deadlock
    );
    assert_eq!(report.cycles.total, cycles);
    assert!(report.saturated, "{} is not above saturation", n.name);
    assert_eq!(report.adaptive_hops_fraction, Some(0.0), "{}", n.name);
    report
}

#[test]
fn torus_dateline_dor_runs_50k_cycles_above_saturation() {
    let r = survive(&torus(&[8, 8]), 0.8, 50_000, 5_000);
    // Still delivering at (about) the saturation throughput at the end, not stuck.
    let acc = r.accepted.flits_per_terminal_cycle;
    assert!(acc > 0.25, "accepted {acc}");
    assert!(
        r.packets.in_flight_end > 0,
        "above saturation source queues grow"
    );
}

#[test]
fn mesh_dor_survives_saturation() {
    let r = survive(&mesh(&[8, 8]), 0.5, 30_000, 5_000);
    assert!(r.accepted.flits_per_terminal_cycle > 0.1);
}

#[test]
fn hypercube_ecube_survives_saturation() {
    let r = survive(&hypercube(6), 1.0, 30_000, 5_000);
    assert!(r.accepted.flits_per_terminal_cycle > 0.2);
}

/// Torus 8x8 with DOR without datelines at 0.5 flits/terminal/cycle of 12-flit packets, a
/// 500-cycle watchdog: it deadlocks well within its 50,000 cycles.
pub(crate) fn deadlocking_torus() -> (Netlist, SimConfig) {
    let mut n = torus(&[8, 8]);
    n.set("routing", "dor-nodateline").unwrap();
    let config = SimConfig {
        rate: 0.5 / 12.0,
        length: 12,
        warmup: 0,
        cycles: 50_000,
        drain: 0,
        watchdog: 500,
        ..SimConfig::default()
    };
    (n, config)
}

#[test]
fn torus_without_dateline_deadlocks_and_the_watchdog_reports_the_cycle() {
    let (n, config) = deadlocking_torus();
    let mut sim = Simulation::new(&n, &config).unwrap();
    let report = sim.run();
    let Some(SimError::Deadlock { cycle, waiting }) = sim.error().cloned() else {
        panic!("expected a deadlock, got {:?}", sim.error());
    };
    assert!(cycle.0 < 50_000);
    assert!(waiting.len() >= 2);
    // Each waiting VC is at the router the previous one sends to: a ring of routers in
    // one dimension. The report names them like the netlist does.
    let d = report.deadlock.expect("report carries the deadlock");
    assert_eq!(d.kind, "deadlock");
    assert_eq!(d.waiting.len(), waiting.len());
    insta::assert_snapshot!(
        "nodateline_deadlock_report",
        sim.error().unwrap().to_string()
    );
}

#[test]
fn deadlock_exits_non_zero_with_the_report_on_stderr() {
    let net = crate::run_cli::netlist_file(
        "torus-4x4-nodateline",
        "[topology]\nkind = \"torus\"\nradix = [4, 4]\n[defaults]\nrouting = \"dor-nodateline\"\nvcs = 1\n",
    );
    let out = crate::run_cli::flitsim(&[
        "run",
        net.to_str().unwrap(),
        "--rate",
        "0.1",
        "--length",
        "8",
        "--warmup",
        "0",
        "--cycles",
        "20000",
        "--watchdog",
        "300",
        "--json",
    ]);
    assert_eq!(
        out.status.code(),
        Some(3),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("deadlock at cycle"), "{stderr}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["deadlock"]["kind"], "deadlock");
    assert!(v["deadlock"]["waiting"].as_array().unwrap().len() >= 2);
}
