//! Same netlist, configuration and seed: byte-identical output, for any thread count and
//! whether windows of cycles run serially or in parallel. Only the `perf`
//! object (wall-clock speed) may differ between runs.

use crate::run_cli::{flitsim, torus_4x4};
use std::path::{Path, PathBuf};

/// The `--json` output with the `perf` object removed, as bytes.
fn without_perf(stdout: &[u8]) -> Vec<u8> {
    let mut v: serde_json::Value = serde_json::from_slice(stdout).expect("one JSON object");
    let perf = v
        .as_object_mut()
        .and_then(|o| o.remove("perf"))
        .expect("a perf object");
    assert!(perf["threads"].as_u64().unwrap() >= 1);
    serde_json::to_vec_pretty(&v).unwrap()
}

fn shipped(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("netlists")
        .join(name)
}

#[test]
fn same_command_twice_gives_identical_json() {
    let net = torus_4x4();
    let args = [
        "run",
        net.to_str().unwrap(),
        "--rate",
        "0.05",
        "--length",
        "5",
        "--warmup",
        "300",
        "--cycles",
        "3000",
        "--seed",
        "42",
        "--json",
    ];
    let a = flitsim(&args);
    let b = flitsim(&args);
    assert!(a.status.success());
    assert!(!a.stdout.is_empty());
    assert_eq!(without_perf(&a.stdout), without_perf(&b.stdout));
    // and the seed matters
    let mut other = args;
    other[11] = "43";
    let c = flitsim(&other);
    assert_ne!(without_perf(&a.stdout), without_perf(&c.stdout));
}

#[test]
fn library_runs_are_identical_and_seed_dependent() {
    use flitsim::engine::{run, SimConfig};
    let n = flitsim::netlist::topology::mesh(&[4, 4]);
    let cfg = SimConfig {
        rate: 0.1,
        length: 3,
        warmup: 200,
        cycles: 2000,
        ..SimConfig::default()
    };
    let a = run(&n, &cfg).unwrap();
    assert_eq!(a, run(&n, &cfg).unwrap());
    assert_ne!(a, run(&n, &SimConfig { seed: 2, ..cfg }).unwrap());
}

/// The thread counts and window modes every fixture runs with: `--threads` 1, 2, 3 and 8
/// with the default (adaptive) windows, which on these small networks keep one worker
/// (`useful_workers`), and 2, 3 and 8 workers with `--min-parallel-work 0`, which keeps
/// every worker and makes every window parallel.
const ENGINES: [(&str, Option<&str>); 7] = [
    ("1", None),
    ("2", None),
    ("3", None),
    ("8", None),
    ("2", Some("0")),
    ("3", Some("0")),
    ("8", Some("0")),
];

/// Runs `netlist` with `extra` flags on every engine of [`ENGINES`]; see
/// [`same_json_on`].
fn same_json_at_any_thread_count(netlist: &Path, extra: &[&str]) {
    same_json_on(&ENGINES, netlist, extra);
}

/// Runs `netlist` with `extra` flags on each of `engines` (`--threads`, and
/// `--min-parallel-work` if given); every `--json` (perf excluded) must be the same bytes,
/// `perf.threads` must say how many workers ran, and forced-parallel runs must have run no
/// serial window. Returns each run's `perf`.
fn same_json_on(
    engines: &[(&str, Option<&str>)],
    netlist: &Path,
    extra: &[&str],
) -> Vec<serde_json::Value> {
    let mut reference: Option<Vec<u8>> = None;
    let mut perfs = Vec::new();
    for &(threads, min_parallel_work) in engines {
        let mut args = vec![
            "run",
            netlist.to_str().unwrap(),
            "--warmup",
            "200",
            "--cycles",
            "1500",
            "--seed",
            "7",
            "--json",
            "--threads",
            threads,
        ];
        args.extend_from_slice(extra);
        if let Some(m) = min_parallel_work {
            args.extend_from_slice(&["--min-parallel-work", m]);
        }
        let out = flitsim(&args);
        assert!(
            out.status.success(),
            "{threads} threads: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        // Forced-parallel engines keep every worker asked for; the default ones keep those
        // whose partitions can ever run a parallel window (`useful_workers`).
        let used = v["perf"]["threads"].as_u64().unwrap();
        if min_parallel_work == Some("0") {
            assert_eq!(used.to_string(), threads);
        } else {
            assert!(used >= 1 && used <= threads.parse().unwrap());
        }
        assert!(v["packets"]["delivered"].as_u64().unwrap() > 100);
        if min_parallel_work == Some("0") {
            assert_eq!(v["perf"]["serial_cycles_fraction"], 0.0);
        }
        perfs.push(v["perf"].clone());
        let bytes = without_perf(&out.stdout);
        match &reference {
            None => reference = Some(bytes),
            Some(r) => assert!(
                *r == bytes,
                "{} with {extra:?}: --threads {threads} --min-parallel-work {min_parallel_work:?} \
                 differs from --threads 1",
                netlist.display()
            ),
        }
    }
    perfs
}

#[test]
fn windows_switching_between_serial_and_parallel_are_identical() {
    // About 24.6 routers stepped per cycle per worker on 2 workers: at a threshold of 24
    // windows go either way, and the drain at the end goes quiet.
    let perfs = same_json_on(
        &[
            ("1", None),
            ("2", Some("24")),
            ("3", Some("24")),
            ("8", Some("24")),
            ("2", Some("0")),
            ("3", Some("0")),
        ],
        &shipped("torus-8x8.toml"),
        &["--rate", "0.0125", "--length", "12", "--drain"],
    );
    let two = perfs[1]["serial_cycles_fraction"].as_f64().unwrap();
    assert!(0.0 < two && two < 1.0, "2 workers switched: {two}");
}

#[test]
fn torus_dor_is_identical_at_1_2_3_8_threads() {
    same_json_at_any_thread_count(
        &shipped("torus-8x8.toml"),
        &["--rate", "0.02", "--length", "8"],
    );
}

#[test]
fn torus_near_saturation_with_long_channels_is_identical_at_1_2_3_8_threads() {
    same_json_at_any_thread_count(
        &shipped("torus-8x8.toml"),
        &[
            "--rate",
            "0.03",
            "--length",
            "12",
            "--set",
            "channel_latency=3",
            "--traffic",
            "uniform",
        ],
    );
}

/// PIM draws from each router's own streams (switch allocation here; VC allocation in
/// the release-loop fixtures), wavefront keeps its priority per router.
#[test]
fn random_and_wavefront_allocators_are_identical_at_1_2_3_8_threads() {
    same_json_at_any_thread_count(
        &shipped("torus-8x8.toml"),
        &[
            "--rate",
            "0.03",
            "--length",
            "12",
            "--set",
            "vc_allocator=wavefront",
            "--set",
            "switch_allocator=pim",
            "--set",
            "alloc_iters=2",
        ],
    );
}

#[test]
fn concentrated_torus_is_identical_at_1_2_3_8_threads() {
    same_json_at_any_thread_count(
        &shipped("torus-8x8.toml"),
        &[
            "--set",
            "concentration=3",
            "--rate",
            "0.01",
            "--length",
            "4",
        ],
    );
}

#[test]
fn fat_tree_is_identical_at_1_2_3_8_threads() {
    for routing in ["minimal", "minimal-adaptive"] {
        same_json_at_any_thread_count(
            &shipped("fat-tree-4ary3.toml"),
            &["--routing", routing, "--rate", "0.1", "--length", "4"],
        );
    }
}

#[test]
fn mesh_is_identical_at_1_2_3_8_threads() {
    same_json_at_any_thread_count(
        &shipped("mesh-8x8.toml"),
        &["--rate", "0.015", "--length", "6"],
    );
}

#[test]
fn hypercube_is_identical_at_1_2_3_8_threads() {
    same_json_at_any_thread_count(
        &shipped("hypercube-6.toml"),
        &["--rate", "0.05", "--length", "4"],
    );
}

#[test]
fn heterogeneous_explicit_netlist_is_identical_at_1_2_3_8_threads() {
    same_json_at_any_thread_count(
        &shipped("hetero-torus-4x4.toml"),
        &["--rate", "0.05", "--length", "5"],
    );
}

#[test]
fn traces_are_identical_at_1_2_3_8_threads() {
    let net = shipped("torus-8x8.toml");
    let mut reference: Option<Vec<u8>> = None;
    for (threads, min_parallel_work) in ENGINES {
        let mut args = vec![
            "trace",
            net.to_str().unwrap(),
            "--rate",
            "0.02",
            "--length",
            "4",
            "--warmup",
            "0",
            "--cycles",
            "120",
            "--to",
            "120",
            "--threads",
            threads,
        ];
        if let Some(m) = min_parallel_work {
            args.extend_from_slice(&["--min-parallel-work", m]);
        }
        let out = flitsim(&args);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(out.stdout.len() > 1000, "a non-trivial trace");
        match &reference {
            None => reference = Some(out.stdout),
            Some(r) => assert!(
                *r == out.stdout,
                "trace at --threads {threads} --min-parallel-work {min_parallel_work:?} \
                 differs from --threads 1"
            ),
        }
    }
}

#[test]
fn timeouts_with_backoff_are_identical_at_1_2_3_8_threads() {
    same_json_at_any_thread_count(
        &shipped("torus-8x8.toml"),
        &[
            "--rate",
            "0.03",
            "--length",
            "8",
            "--timeout",
            "6",
            "--backoff",
            "5",
        ],
    );
}

#[test]
fn vct_is_identical_at_1_2_3_8_threads() {
    same_json_at_any_thread_count(
        &shipped("torus-8x8.toml"),
        &["--rate", "0.02", "--length", "6", "--switching", "vct"],
    );
}

/// Runs `netlist` (after the `set` edits) for `config` on one worker, with the per-cycle
/// conservation checks (`SimConfig::cycle_checks`, the general worker loop) and without
/// them (the release path, `single_worker`, which debug builds take only this way), the
/// first 300 cycles traced; returns both (report, trace) pairs.
fn checked_and_release_paths(
    mut netlist: flitsim::netlist::Netlist,
    set: &[(&str, &str)],
    config: flitsim::engine::SimConfig,
) -> [(
    flitsim::engine::RunReport,
    Vec<flitsim::engine::trace::TraceEvent>,
); 2] {
    use flitsim::engine::{SimConfig, Simulation};
    for (k, v) in set {
        netlist.set(k, v).unwrap();
    }
    [true, false].map(|cycle_checks| {
        let config = SimConfig {
            cycle_checks,
            threads: 1,
            ..config.clone()
        };
        let mut sim = Simulation::new(&netlist, &config).unwrap();
        sim.enable_trace();
        sim.run_for(300).unwrap();
        let trace = sim.take_trace();
        (sim.run(), trace)
    })
}

#[test]
fn the_release_path_of_a_lone_worker_gives_the_checked_paths_results() {
    use flitsim::engine::SimConfig;
    use flitsim::netlist::topology::{hypercube, mesh, torus};
    let config = |flits: f64, length: u32| SimConfig {
        rate: flits / f64::from(length),
        length,
        warmup: 500,
        cycles: 3000,
        ..SimConfig::default()
    };
    let cases = [
        (
            "torus 4x4 duato",
            torus(&[4, 4]),
            vec![("routing", "duato")],
            config(0.5, 8),
        ),
        (
            "hypercube-5 pcube",
            hypercube(5),
            vec![("routing", "pcube")],
            config(0.4, 4),
        ),
        (
            "mesh 4x4 west-first",
            mesh(&[4, 4]),
            vec![("routing", "west-first")],
            config(0.3, 6),
        ),
        (
            "torus 4x4 vct",
            torus(&[4, 4]),
            vec![("switching", "vct")],
            config(0.3, 6),
        ),
        (
            "torus 4x4 timeouts",
            torus(&[4, 4]),
            vec![("timeout", "6")],
            SimConfig {
                backoff: 5,
                ..config(0.5, 8)
            },
        ),
    ];
    for (name, netlist, set, config) in cases {
        let [(checked, checked_trace), (release, release_trace)] =
            checked_and_release_paths(netlist, &set, config);
        assert!(checked.packets.delivered > 100, "{name}: traffic delivered");
        assert!(checked_trace.len() > 1000, "{name}: a non-trivial trace");
        assert_eq!(checked, release, "{name}: reports differ");
        assert!(checked_trace == release_trace, "{name}: traces differ");
    }
}

/// The fixtures of the thread-count tests above, run through the library on one worker
/// with and without the per-cycle checks: the release loop
/// (`parallel::loops::single_worker`, the one a release build runs) must give the checked
/// loop's report and trace. The CLI fixtures reach the checked loops only in the test
/// profile, whose debug assertions turn the checks on.
#[test]
fn the_fixtures_give_the_same_results_on_the_release_loop() {
    use flitsim::engine::SimConfig;
    let config = |rate: f64, length: u32| SimConfig {
        rate,
        length,
        warmup: 200,
        cycles: 1500,
        seed: 7,
        ..SimConfig::default()
    };
    // (netlist file, settings, configuration)
    type Fixture = (
        &'static str,
        &'static [(&'static str, &'static str)],
        SimConfig,
    );
    let fixtures: [Fixture; 8] = [
        ("torus-8x8.toml", &[], config(0.02, 8)),
        (
            "torus-8x8.toml",
            &[("channel_latency", "3")],
            config(0.03, 12),
        ),
        ("mesh-8x8.toml", &[], config(0.015, 6)),
        ("hypercube-6.toml", &[], config(0.05, 4)),
        ("hetero-torus-4x4.toml", &[], config(0.05, 5)),
        (
            "torus-8x8.toml",
            &[("timeout", "6")],
            SimConfig {
                backoff: 5,
                ..config(0.03, 8)
            },
        ),
        ("torus-8x8.toml", &[("switching", "vct")], config(0.02, 6)),
        (
            "torus-8x8.toml",
            &[("vc_allocator", "pim"), ("switch_allocator", "islip")],
            config(0.035, 12),
        ),
    ];
    for (file, set, config) in fixtures {
        let netlist = flitsim::netlist::load(&shipped(file)).unwrap();
        let name = format!("{file} {set:?}");
        let [(checked, checked_trace), (release, release_trace)] =
            checked_and_release_paths(netlist, set, config);
        assert!(checked.packets.delivered > 100, "{name}: traffic delivered");
        assert!(!checked_trace.is_empty(), "{name}: a trace");
        assert_eq!(checked, release, "{name}: reports differ");
        assert!(checked_trace == release_trace, "{name}: traces differ");
    }
}

#[test]
fn on_off_injection_is_identical_at_1_2_3_8_threads() {
    same_json_at_any_thread_count(
        &shipped("torus-4x4.toml"),
        &[
            "--rate",
            "0.1",
            "--length",
            "4",
            "--injection",
            "onoff:0.05:0.05",
        ],
    );
}
