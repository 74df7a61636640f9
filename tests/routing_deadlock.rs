//! Every deadlock-free routing function survives 30,000 cycles above saturation on each of
//! its topologies (torus-8x8, mesh-8x8, hypercube-6) without a watchdog report, and the
//! adaptive ones really adapt under that load (`adaptive_hops_fraction > 0`; the exact 0 of
//! dimension-order routing is asserted in `deadlock.rs`, which runs `dor` above saturation
//! on the same three topologies).
//!
//! Load: uniform traffic, 4-flit packets, offered 1.0 flits/terminal/cycle (the injection
//! channel's bandwidth): above every function's saturation on these networks (the run's
//! saturation verdict and an accepted throughput below 0.9 are asserted). Short packets
//! make buffers hold several packets at once, the harder case for deadlock freedom.
//!
//! Router: the default one except the VCs, set to the fewest the function's VC classes
//! need (no spare VC hides a dependency cycle; fewer VCs also make the 30,000 cycles
//! cheaper), under the default `vc_release = tail`. Duato-style functions (`duato`,
//! `duato-nbc`, `quaglia`) allocate their adaptive VCs atomically (Duato's queue
//! assumption, `RouterState::release_for`): before that rule `duato` on torus-8x8 with
//! 4-flit packets at this load deadlocked at cycle 2240 (see docs/routing.md).

use flitsim::engine::{RunReport, SimConfig, Simulation};
use flitsim::netlist::topology::{hypercube, mesh, torus};
use flitsim::netlist::Netlist;

const CYCLES: u64 = 30_000;
const LENGTH: u32 = 4;
/// Offered flits/terminal/cycle.
const OFFERED: f64 = 1.0;

/// Runs `routing` (with `--set` pairs) for 30,000 cycles and returns the report of the last
/// 2,000.
fn survive(mut n: Netlist, routing: &str, set: &[&str]) -> RunReport {
    n.set("routing", routing).unwrap();
    for kv in set {
        n.set_pair(kv).unwrap();
    }
    let config = SimConfig {
        rate: OFFERED / f64::from(LENGTH),
        length: LENGTH,
        warmup: CYCLES - 2_000,
        cycles: 2_000,
        drain: 0,
        watchdog: 1000,
        ..SimConfig::default()
    };
    let mut sim = Simulation::new(&n, &config).unwrap_or_else(|e| panic!("{routing}: {e}"));
    let r = sim.run();
    let what = format!("{routing} {set:?} on {}", n.name);
    assert!(r.deadlock.is_none(), "{what}: {:?}", r.deadlock);
    assert_eq!(r.cycles.total, CYCLES, "{what}");
    let accepted = r.accepted.flits_per_terminal_cycle;
    assert!(
        r.saturated && accepted < 0.9 * OFFERED,
        "{what} is not above saturation: accepted {accepted}"
    );
    assert!(accepted > 0.05, "{what} still delivers: {accepted}");
    r
}

/// `survive`, then the adaptivity check.
fn survive_adaptively(n: Netlist, routing: &str, set: &[&str]) {
    let name = n.name.clone();
    let f = survive(n, routing, set)
        .adaptive_hops_fraction
        .expect("a dimension-order reference exists");
    assert!(f > 0.05, "{routing} on {name}: adaptive_hops_fraction {f}");
}

#[test]
fn torus_duato() {
    // 2 escape (dateline DOR) + 1 adaptive.
    survive_adaptively(torus(&[8, 8]), "duato", &["vcs=3"]);
}

#[test]
fn torus_quaglia() {
    // Paper 000's preset: 4 VCs (2 escape + 2 adaptive), X first.
    survive_adaptively(torus(&[8, 8]), "quaglia", &["selection=x-first"]);
}

#[test]
fn torus_duato_nbc() {
    // 5 escape classes (1 + the 4 negative hops of the diameter-8 torus) + 1 adaptive.
    survive_adaptively(torus(&[8, 8]), "duato-nbc", &["vcs=6"]);
}

#[test]
fn torus_minimal_adaptive_with_unbounded_vct_storage() {
    // Paper 004's routing: one VC, no escape VCs; deadlock-free by the unbounded storage.
    survive_adaptively(
        torus(&[8, 8]),
        "minimal-adaptive",
        &["vcs=1", "switching=vct", "buffer_depth=unbounded"],
    );
}

#[test]
fn torus_table() {
    survive(torus(&[8, 8]), "table", &["vcs=1"]);
}

#[test]
fn torus_source() {
    survive(torus(&[8, 8]), "source", &["vcs=1"]);
}

#[test]
fn mesh_duato() {
    // 1 escape (DOR) + 1 adaptive.
    survive_adaptively(mesh(&[8, 8]), "duato", &["vcs=2"]);
}

#[test]
fn mesh_duato_nbc() {
    // Labels alternate along every mesh path, so a minimal path of the diameter, 14 hops,
    // makes 7 negative hops: 1 + 7 = 8 escape classes, + 1 adaptive = 9 VCs.
    survive_adaptively(mesh(&[8, 8]), "duato-nbc", &["vcs=9"]);
}

#[test]
fn mesh_west_first() {
    survive_adaptively(mesh(&[8, 8]), "west-first", &["vcs=1", "selection=random"]);
}

#[test]
fn mesh_north_last() {
    survive_adaptively(mesh(&[8, 8]), "north-last", &["vcs=1", "selection=random"]);
}

#[test]
fn mesh_negative_first() {
    survive_adaptively(
        mesh(&[8, 8]),
        "negative-first",
        &["vcs=1", "selection=random"],
    );
}

#[test]
fn mesh_table() {
    survive(mesh(&[8, 8]), "table", &["vcs=1"]);
}

#[test]
fn mesh_source() {
    survive(mesh(&[8, 8]), "source", &["vcs=1"]);
}

#[test]
fn hypercube_pcube() {
    survive_adaptively(hypercube(6), "pcube", &["vcs=1", "selection=random"]);
}

#[test]
fn hypercube_table() {
    survive(hypercube(6), "table", &["vcs=1"]);
}

#[test]
fn hypercube_source() {
    survive(hypercube(6), "source", &["vcs=1"]);
}
