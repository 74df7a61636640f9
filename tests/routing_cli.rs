//! The routing family through the CLI: `flitsim netlist check --routing R` runs the fit,
//! VC-count and static deadlock checks; `flitsim run --channel-stats --json` adds the
//! `channels` array; `--selection` overrides the selection function.

use crate::run_cli::flitsim;

fn check(file: &str, routing: &str, set: &[&str]) -> (Option<i32>, String) {
    let mut args = vec!["netlist", "check", file, "--routing", routing];
    for s in set {
        args.extend(["--set", s]);
    }
    let out = flitsim(&args);
    (out.status.code(), String::from_utf8(out.stderr).unwrap())
}

#[test]
fn static_check_accepts_the_deadlock_free_functions() {
    let cases: &[(&str, &str, &[&str])] = &[
        ("netlists/torus-8x8.toml", "dor", &[]),
        ("netlists/torus-8x8.toml", "duato", &[]),
        ("netlists/torus-8x8.toml", "duato-nbc", &["vcs=6"]),
        ("netlists/torus-8x8.toml", "quaglia", &[]),
        ("netlists/torus-8x8.toml", "table", &[]),
        ("netlists/torus-8x8.toml", "source", &[]),
        ("netlists/mesh-8x8.toml", "west-first", &[]),
        ("netlists/mesh-8x8.toml", "north-last", &[]),
        ("netlists/mesh-8x8.toml", "negative-first", &[]),
        ("netlists/mesh-8x8.toml", "duato", &[]),
        ("netlists/mesh-8x8.toml", "duato-nbc", &["vcs=9"]),
        ("netlists/mesh-8x8.toml", "dor", &[]),
        ("netlists/mesh-8x8.toml", "table", &[]),
        ("netlists/mesh-8x8.toml", "source", &[]),
        ("netlists/hypercube-6.toml", "pcube", &[]),
        ("netlists/hypercube-6.toml", "dor", &[]),
        ("netlists/hypercube-6.toml", "table", &[]),
        ("netlists/hypercube-6.toml", "source", &[]),
        ("netlists/hetero-torus-4x4.toml", "table", &[]),
    ];
    for (file, routing, set) in cases {
        let (code, err) = check(file, routing, set);
        assert_eq!(code, Some(0), "{file} {routing}: {err}");
    }
}

#[test]
fn static_check_rejects_dor_without_datelines_on_a_torus() {
    let (code, err) = check("netlists/torus-4x4.toml", "dor-nodateline", &["vcs=1"]);
    assert_eq!(code, Some(1));
    assert!(err.contains("error[routing-dependency-cycle]"), "{err}");
    // The cycle lists channels of one ring, each on VC 0, closing on itself.
    let list = err
        .split("cycle through ")
        .nth(1)
        .unwrap()
        .lines()
        .next()
        .unwrap();
    let channels: Vec<&str> = list.split(", ").collect();
    assert!(channels.len() >= 4, "{list}");
    for c in &channels {
        assert!(c.ends_with(" vc0") && c.contains(" -> "), "{c}");
    }
    let to_router = |c: &str| {
        c.split(" -> ")
            .nth(1)
            .unwrap()
            .split('.')
            .next()
            .unwrap()
            .to_string()
    };
    let from_router = |c: &str| c.split('.').next().unwrap().to_string();
    for i in 0..channels.len() {
        let next = channels[(i + 1) % channels.len()];
        assert_eq!(to_router(channels[i]), from_router(next), "{list}");
    }
}

#[test]
fn misfits_and_missing_vcs_name_both_sides() {
    let (code, err) = check("netlists/torus-8x8.toml", "pcube", &[]);
    assert_eq!(code, Some(1));
    assert!(
        err.contains("error[routing-does-not-fit]")
            && err.contains("pcube")
            && err.contains("torus 8x8"),
        "{err}"
    );
    let (code, err) = check("netlists/torus-8x8.toml", "duato-nbc", &[]);
    assert_eq!(code, Some(1));
    assert!(
        err.contains("error[too-few-vcs]")
            && err.contains("duato-nbc")
            && err.contains("needs 6")
            && err.contains("has 4"),
        "{err}"
    );
    // The negative-hop scheme on mesh-8x8: 8 escape classes (diameter 14) + 1 adaptive.
    let (code, err) = check("netlists/mesh-8x8.toml", "duato-nbc", &["vcs=8"]);
    assert_eq!(code, Some(1));
    assert!(
        err.contains("error[too-few-vcs]") && err.contains("needs 9") && err.contains("has 8"),
        "{err}"
    );
    let (code, err) = check("netlists/mesh-8x8.toml", "quaglia", &[]);
    assert_eq!(code, Some(1));
    assert!(err.contains("quaglia") && err.contains("mesh 8x8"), "{err}");
    let (code, err) = check("netlists/hypercube-6.toml", "west-first", &[]);
    assert_eq!(code, Some(1));
    assert!(
        err.contains("west-first") && err.contains("hypercube"),
        "{err}"
    );
    let (code, err) = check("netlists/torus-8x8.toml", "duato", &["vcs=2"]);
    assert_eq!(code, Some(1));
    assert!(err.contains("duato") && err.contains("needs 3"), "{err}");
}

#[test]
fn run_json_with_channel_stats() {
    let out = flitsim(&[
        "run",
        "netlists/torus-4x4.toml",
        "--routing",
        "duato",
        "--selection",
        "random",
        "--rate",
        "0.02",
        "--length",
        "4",
        "--warmup",
        "200",
        "--cycles",
        "2000",
        "--drain-cycles",
        "0",
        "--json",
        "--channel-stats",
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["config"]["router"]["selection"], "random");
    let f = v["adaptive_hops_fraction"].as_f64().unwrap();
    assert!((0.0..=1.0).contains(&f));
    let channels = v["channels"].as_array().unwrap();
    assert_eq!(channels.len(), 64); // 16 routers x 4 ports
    let mut heads = 0.0;
    for (i, c) in channels.iter().enumerate() {
        assert_eq!(c["id"], i);
        for end in ["from", "to"] {
            // `router.port`
            let (router, port) = c[end].as_str().unwrap().split_once('.').unwrap();
            assert!(router.starts_with('r') && !port.is_empty(), "{}", c[end]);
        }
        let p = c["packets_per_cycle"].as_f64().unwrap();
        let u = c["utilization"].as_f64().unwrap();
        assert!(p >= 0.0 && (0.0..=1.0).contains(&u));
        heads += p;
    }
    // Heads crossing channels per cycle = packets per cycle x mean hops (about).
    let accepted = v["accepted"]["packets_per_terminal_cycle"]
        .as_f64()
        .unwrap()
        * 16.0;
    let hops = v["hops"]["mean"].as_f64().unwrap();
    assert!(
        (heads - accepted * hops).abs() < 0.15 * accepted * hops,
        "{heads} vs {}",
        accepted * hops
    );
    // Without the flag there is no channels array.
    let out = flitsim(&[
        "run",
        "netlists/torus-4x4.toml",
        "--cycles",
        "200",
        "--warmup",
        "10",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v.get("channels").is_none());
    assert_eq!(v["adaptive_hops_fraction"], 0.0);
}

#[test]
fn static_check_says_which_method_it_used() {
    // 4096 destinations x 4096 routers x 5 ports x 4 VCs: above the check's work limit.
    let out = flitsim(&["netlist", "check", "netlists/torus-64x64.toml"]);
    assert_eq!(out.status.code(), Some(0));
    let (text, err) = (stdout_of(&out), String::from_utf8_lossy(&out.stderr));
    let not_run = "not run: 335544320 route computations, more than 134217728";
    assert!(
        text.contains(&format!("deadlock_check    {not_run}")),
        "{text}"
    );
    assert!(
        err.contains(&format!("static deadlock check was {not_run}")),
        "{err}"
    );
    let out = flitsim(&[
        "netlist",
        "check",
        "netlists/torus-8x8.toml",
        "--routing",
        "duato",
    ]);
    assert_eq!(out.status.code(), Some(0));
    assert!(
        stdout_of(&out).contains(
            "deadlock_check    channel dependency graph acyclic (81920 route computations)"
        ),
        "{}",
        stdout_of(&out)
    );
    assert!(String::from_utf8_lossy(&out.stderr).is_empty());
    let out = flitsim(&[
        "netlist",
        "check",
        "netlists/paper004-torus-8x8.toml",
        "--routing",
        "minimal-adaptive",
    ]);
    assert!(
        stdout_of(&out).contains("deadlock_check    by storage"),
        "{}",
        stdout_of(&out)
    );
}

fn stdout_of(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The reproducers of the static check (each once aborted on a failed
/// allocation or ran for tens of seconds): under a 3 GB address-space limit each
/// finishes with a verdict, exit 0, no panic and no allocation failure.
#[test]
fn static_check_of_many_vcs_is_bounded() {
    for args in [
        ["netlists/torus-8x8.toml", "--set", "vcs=255"],
        ["netlists/hypercube-6.toml", "--set", "vcs=255"],
        ["netlists/hypercube-8.toml", "--routing", "source"],
    ] {
        let out = crate::run_cli::flitsim_under_ulimit(
            3_000_000,
            &[&["netlist", "check"][..], &args[..]].concat(),
        );
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {err}");
        assert!(
            !err.contains("panicked") && !err.contains("memory allocation of"),
            "{err}"
        );
        assert!(
            stdout_of(&out).contains("deadlock_check    channel dependency graph acyclic"),
            "{args:?}: {}",
            stdout_of(&out)
        );
    }
}

/// Table routing keeps 4 bytes per pair of routers. On a torus 256x256 (65536 routers,
/// 17.2 GB) `netlist check` refuses it before building it, and `run` counts it in its
/// memory estimate before building it; on a torus 100x100 (400 MB) under a 300 MB
/// address-space limit `netlist check` refuses the failed allocation and `run` the
/// estimate. Exit 1, a typed error naming the fix, no abort.
#[test]
fn routing_tables_beyond_memory_are_refused_before_allocation() {
    let file = |name, radix| {
        let body = format!(
            "[topology]\nkind = \"torus\"\nradix = [{radix}, {radix}]\n[defaults]\nrouting = \"table\"\n"
        );
        crate::run_cli::netlist_file(name, &body)
    };
    let (big, mid) = (file("table-256", 256), file("table-100", 100));
    let (big, mid) = (big.to_str().unwrap(), mid.to_str().unwrap());
    let typed = "error[routing-tables-too-large]: the routing tables of `table` need";
    let estimate = "more than the";
    for (limit, args, says) in [
        (
            3_000_000,
            vec!["netlist", "check", big],
            vec![
                typed,
                "17179869184 bytes, more than the 1073741824 bytes they may use",
                "at most 16384 routers",
            ],
        ),
        (
            300_000,
            vec!["netlist", "check", mid],
            vec![
                typed,
                "400000000 bytes, more than what this process could allocate",
                "at most 16384 routers",
            ],
        ),
        (
            3_000_000,
            vec!["run", big, "--cycles", "10"],
            vec![
                estimate,
                "(routing tables 17.2 GB: table: 65536 routers x 65536 destinations)",
            ],
        ),
        (
            300_000,
            vec!["run", mid, "--cycles", "10"],
            vec![
                estimate,
                "(routing tables 400.0 MB: table: 10000 routers x 10000 destinations)",
            ],
        ),
    ] {
        let out = crate::run_cli::flitsim_under_ulimit(limit, &args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(
            !err.contains("panicked") && !err.contains("memory allocation of"),
            "{err}"
        );
        for s in says {
            assert!(err.contains(s), "{args:?}: {s}: {err}");
        }
        assert!(
            err.contains("use a generator's own routing"),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn minimal_adaptive_is_accepted_with_unbounded_vct_storage_only() {
    // Paper 004's preset: VCT, unbounded buffers, one VC: deadlock-free by storage.
    let (code, err) = check("netlists/paper004-torus-8x8.toml", "minimal-adaptive", &[]);
    assert_eq!(code, Some(0), "{err}");
    // The same routing under wormhole, or with bounded buffers, has its ring cycles.
    for set in [&["switching=wormhole"][..], &["buffer_depth=64"][..]] {
        let (code, err) = check("netlists/paper004-torus-8x8.toml", "minimal-adaptive", set);
        assert_eq!(code, Some(1), "{set:?}");
        assert!(
            err.contains("error[routing-dependency-cycle]"),
            "{set:?}: {err}"
        );
    }
}

#[test]
fn a_short_escape_split_is_refused_unless_asked_then_warned() {
    // Paper 001's V1 = 8, V2 = 2 on 8x8: negative-hop routing needs V2 >= 5.
    let set = ["vcs=10", "adaptive_vcs=8"];
    let (code, err) = check("netlists/torus-8x8.toml", "duato-nbc", &set);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("needs 13 VCs"), "{err}");
    let warn = ["vcs=10", "adaptive_vcs=8", "deadlock_check=warn"];
    let (code, err) = check("netlists/torus-8x8.toml", "duato-nbc", &warn);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.contains("warning: routing `duato-nbc` is not deadlock-free"),
        "{err}"
    );
    // A safe split under `warn` says nothing.
    let safe = ["vcs=10", "adaptive_vcs=5", "deadlock_check=warn"];
    let (code, err) = check("netlists/torus-8x8.toml", "duato-nbc", &safe);
    assert_eq!((code, err.as_str()), (Some(0), ""));
}

/// Under `deadlock_check = "warn"` a network above the static check's work limit (torus
/// 64x64: 3.4e8 route computations) is run with a warning that the check was not run,
/// on stderr and in the JSON, not in silence.
#[test]
fn a_warned_run_says_when_the_static_check_was_not_run() {
    let args = [
        "run",
        "netlists/torus-64x64.toml",
        "--set",
        "deadlock_check=warn",
        "--warmup",
        "0",
        "--cycles",
        "10",
        "--json",
    ];
    let out = flitsim(&args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    let says = "the static deadlock check of routing `dor` was not run (335544320 route computations, more than 134217728";
    assert!(err.contains(&format!("warning: {says}")), "{err}");
    let v: serde_json::Value = serde_json::from_str(&stdout_of(&out)).unwrap();
    let w = v["deadlock_warning"].as_str().unwrap_or_default();
    assert!(w.starts_with(says), "{w}");
}
