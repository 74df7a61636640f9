//! Inputs the validator must refuse with a typed error (exit 1, no panic, no allocation
//! abort, no signal), or run correctly: values arriving by `--set`, netlist names, input
//! files that are not netlists, long channels and pipelines under the watchdog.

use crate::run_cli::{flitsim, netlist_file};
use std::process::Output;

/// Asserts a typed refusal: exit 1, no panic, no allocation abort; returns stderr.
pub fn refused(args: &[&str]) -> String {
    let out = flitsim(args);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    assert!(
        !stderr.contains("memory allocation of"),
        "{args:?}: {stderr}"
    );
    stderr
}

/// Asserts success; returns stdout.
fn accepted(args: &[&str]) -> String {
    let out: Output = flitsim(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

#[test]
fn a_value_set_after_loading_is_located_at_its_setting() {
    let t = "netlists/torus-4x4.toml";
    let sets = ["--set", "switching=vct", "--set", "buffer_depth=2"];
    let e = refused(&[&["run", t, "--length", "8", "--cycles", "10"], &sets[..]].concat());
    assert!(
        e.starts_with(
            "netlists/torus-4x4.toml (overridden: buffer_depth = 2): error[vct-buffer-too-shallow]"
        ),
        "{e}"
    );
    // From the file, the same rule points at the file's line.
    let e = refused(&[
        "run",
        t,
        "--length",
        "9",
        "--cycles",
        "10",
        "--set",
        "switching=vct",
    ]);
    assert!(
        e.starts_with("netlists/torus-4x4.toml:19:16: error[vct-buffer-too-shallow]"),
        "{e}"
    );
}

#[test]
fn the_vct_depth_rule_holds_after_set() {
    let t = "netlists/torus-4x4.toml";
    let sets = ["--set", "max_packet_length=100", "--set", "switching=vct"];
    let e = refused(&[&["netlist", "check", t], &sets[..]].concat());
    assert!(e.contains("error[vct-buffer-too-shallow]"), "{e}");
    let e = refused(&[&["netlist", "expand", t], &sets[..]].concat());
    assert!(e.contains("error[vct-buffer-too-shallow]"), "{e}");
    let e = refused(&[&["run", t, "--cycles", "10"], &sets[..]].concat());
    assert!(e.contains("error[vct-buffer-too-shallow]"), "{e}");
    // The same rule through `--switching` after a `--set` of the length.
    let e = refused(&[
        "run",
        t,
        "--set",
        "max_packet_length=100",
        "--switching",
        "saf",
        "--cycles",
        "10",
    ]);
    assert!(e.contains("error[vct-buffer-too-shallow]"), "{e}");
    // A netlist with 4-flit VCT buffers: a longer declared packet is refused, not
    // written out as an explicit netlist that then fails to load.
    let all = "tests/data/ok/generator-all-keys.toml";
    let e = refused(&["netlist", "expand", all, "--set", "max_packet_length=17"]);
    assert!(e.contains("error[vct-buffer-too-shallow]"), "{e}");
    accepted(&["netlist", "expand", all, "--set", "max_packet_length=4"]);
    // Deep enough buffers make the same overrides valid.
    accepted(
        &[
            &["netlist", "check", t, "--set", "buffer_depth=100"],
            &sets[..],
        ]
        .concat(),
    );
}

#[test]
fn an_unknown_setting_lists_the_valid_keys() {
    for cmd in [
        &["netlist", "check", "netlists/torus-4x4.toml"][..],
        &["run", "netlists/torus-4x4.toml", "--cycles", "10"][..],
    ] {
        let e = refused(&[cmd, &["--set", "foo=1"][..]].concat());
        assert!(e.contains("unknown setting `foo`"), "{e}");
        for key in flitsim::netlist::SET_KEYS {
            assert!(e.contains(&format!("`{key}`")), "{key}: {e}");
        }
        let e = refused(&[cmd, &["--set", "vcs"][..]].concat());
        assert!(e.contains("key=value"), "{e}");
    }
}

#[test]
fn netlist_names_are_printable_and_expand_round_trips_them() {
    let p = netlist_file(
        "ctl-name",
        "[topology]\nkind = \"ring\"\nn = 4\n[defaults]\nvcs = 2\n",
    );
    // `netlist_file` writes `name = "ctl-name"` first; a later key would be a duplicate.
    let src = std::fs::read_to_string(&p)
        .unwrap()
        .replace("name = \"ctl-name\"", "name = \"a\\nb\\u0000c\"");
    std::fs::write(&p, src).unwrap();
    let e = refused(&["netlist", "check", p.to_str().unwrap()]);
    assert!(
        e.contains("error[bad-value]") && e.contains("control character"),
        "{e}"
    );
    // A name built in code with any characters is escaped when written out.
    let mut n = flitsim::netlist::topology::ring(4);
    n.name = "odd\nname\u{0}\"'''".into();
    let text = flitsim::netlist::expand(&n);
    let again = flitsim::netlist::parse_str(&text, std::path::Path::new("e.toml"));
    // Loading refuses the control characters, by name, at the `name` key.
    let d = again.unwrap_err();
    assert_eq!(d.len(), 1, "{d}");
    assert!(d.to_string().contains("control character"), "{d}");
    // Printable names round-trip exactly, quotes included.
    n.name = "quoted \"name\" with ''' and \\".into();
    let again = flitsim::netlist::parse_str(
        &flitsim::netlist::expand(&n),
        std::path::Path::new("e.toml"),
    )
    .unwrap();
    assert_eq!(again.name, n.name);
}

/// `flitsim run` with `--json`, asserting exit 0; the JSON object.
fn run_json(args: &[&str]) -> serde_json::Value {
    let out = accepted(&[&["run"], args, &["--json"]].concat());
    serde_json::from_str(&out).expect("one JSON object")
}

#[test]
fn the_watchdog_waits_for_flits_on_long_channels_and_in_long_pipelines() {
    // Every latency and delay is above the default limit of 2000 cycles. Draining the
    // terminal links of 65536 cycles takes about 393,000 cycles: each cycle must cost
    // O(1) in the latency, wake-ups and the test build's conservation check included.
    let ring = netlist_file(
        "watchdog-ring",
        "[topology]\nkind = \"ring\"\nn = 4\n[defaults]\nvcs = 2\n",
    );
    let ring = ring.to_str().unwrap();
    for set in [
        "channel_latency=5000",
        "switch_alloc_delay=4096",
        "routing_delay=1024",
        "terminal_latency=65536",
    ] {
        let v = run_json(&[
            ring,
            "--set",
            set,
            "--rate",
            "0.05",
            "--warmup",
            "0",
            "--cycles",
            "100",
            "--drain",
            "--drain-cycles",
            "500000",
        ]);
        assert!(v["deadlock"].is_null(), "{set}: {}", v["deadlock"]);
        let generated = v["packets"]["generated"].as_u64().unwrap();
        assert!(generated > 0, "{set}");
        assert_eq!(v["packets"]["delivered"].as_u64(), Some(generated), "{set}");
        assert_eq!(v["packets"]["in_flight_end"].as_u64(), Some(0), "{set}");
    }
}

#[test]
fn input_files_are_read_within_bounds() {
    let e = refused(&["netlist", "check", "/dev/zero"]);
    assert!(e.contains("not a regular file"), "{e}");
    let e = refused(&["netlist", "check", "tests"]);
    assert!(e.contains("is a directory"), "{e}");
    let t = "netlists/torus-4x4.toml";
    let e = refused(&["run", t, "--traffic", "trace:/dev/zero", "--cycles", "10"]);
    assert!(e.contains("not a regular file"), "{e}");
}

/// Writes a trace file into the test scratch directory.
fn trace_file(name: &str, body: &str) -> String {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("robustness");
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, body).unwrap();
    format!("trace:{}", p.display())
}

#[test]
fn trace_packets_meet_the_switching_limits_and_the_cycle_limit() {
    let t = "netlists/torus-4x4.toml";
    let vct = ["--set", "switching=vct", "--set", "buffer_depth=8"];
    let long = trace_file("long.trace", "0 0 5 4\n10 1 6 9\n");
    // The same refusal as `--length 9`.
    let by_length = refused(&[&["run", t, "--length", "9"], &vct[..]].concat());
    let by_trace = refused(&[&["run", t, "--traffic", &long], &vct[..]].concat());
    for e in [&by_length, &by_trace] {
        assert!(e.contains("error[vct-buffer-too-shallow]"), "{e}");
        assert!(e.contains("below the packet length 9"), "{e}");
    }
    for (name, body, says) in [
        ("empty.trace", "# nothing\n\n", "no packet"),
        ("late.trace", "4294967295 0 1 1\n", "past the last cycle"),
        ("huge.trace", "0 0 1 4000000000\n", "not in 1..=2147483648"),
    ] {
        let e = refused(&["run", t, "--traffic", &trace_file(name, body)]);
        assert!(e.contains(says), "{name}: {e}");
    }
}

#[test]
fn a_trace_is_measured_over_its_span_unless_the_window_is_given() {
    let t = "netlists/torus-4x4.toml";
    // Every packet falls inside the automatic warm-up: all are measured anyway.
    let tr = trace_file("early.trace", "0 0 5 2\n3 1 6 2\n40 2 7 2\n");
    let v = run_json(&[t, "--traffic", &tr]);
    assert_eq!(v["packets"]["generated"].as_u64(), Some(3), "{v}");
    assert_eq!(v["packets"]["delivered"].as_u64(), Some(3), "{v}");
    assert_eq!(v["cycles"]["warmup"].as_u64(), Some(0), "{v}");
    assert_eq!(v["cycles"]["measured"].as_u64(), Some(41), "{v}");
    // The offered load is the trace's (3 packets of 2 flits over 16 terminals and 41
    // cycles), not `--rate` and `--length`.
    let per_tc = |n: f64| n / (16.0 * 41.0);
    assert_eq!(
        v["offered"]["packets_per_terminal_cycle"].as_f64(),
        Some(per_tc(3.0))
    );
    assert_eq!(
        v["offered"]["flits_per_terminal_cycle"].as_f64(),
        Some(per_tc(6.0))
    );
    let text = String::from_utf8(crate::run_cli::flitsim(&["run", t, "--traffic", &tr]).stdout);
    assert!(text
        .unwrap()
        .contains("(the trace's packets in the window)"));
    // A window given on the command line is kept.
    let v = run_json(&[t, "--traffic", &tr, "--warmup", "10", "--cycles", "20"]);
    assert_eq!(v["packets"]["generated"].as_u64(), Some(0), "{v}");
}

#[test]
fn length_distributions_stay_below_the_cap() {
    let t = "netlists/torus-4x4.toml";
    for len in [
        "exp:1e9",
        "exp:1e18",
        "exp:inf",
        "3000000000",
        "mix:1,3000000000,0.5",
    ] {
        let e = refused(&["run", t, "--length", len, "--cycles", "10"]);
        assert!(e.contains("2^31") || e.contains("2147483648"), "{len}: {e}");
    }
    // The largest accepted mean gives a finite offered load from the mean sampled.
    let v = run_json(&[
        t,
        "--length",
        "exp:33554432",
        "--rate",
        "0.000001",
        "--warmup",
        "0",
        "--cycles",
        "1",
        "--drain-cycles",
        "0",
    ]);
    let offered = v["offered"]["flits_per_terminal_cycle"].as_f64().unwrap();
    assert!((offered - 33.554432).abs() < 0.01, "{offered}");
}
