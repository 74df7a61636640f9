//! Defects a new user met in the first hour, each checked through the binary: a closed
//! stdout, negative numbers, an unbounded trace, a deadlock in the warm-up, the explicit
//! netlist under the default routing, a fixed window cut by the saturation verdict, and a
//! long command that showed no progress.

use crate::run_cli::{flitsim, netlist_file};
use std::io::Read;
use std::process::{Command, Stdio};

/// Runs flitsim with stdout read for only `keep` bytes, then closed (`| head -c keep`).
fn with_closed_stdout(args: &[&str], keep: usize) -> (Option<i32>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_flitsim"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run flitsim");
    let mut stdout = child.stdout.take().unwrap();
    let mut buf = vec![0u8; keep];
    stdout
        .read_exact(&mut buf)
        .unwrap_or_else(|e| panic!("{args:?}: {e}"));
    drop(stdout);
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    (child.wait().unwrap().code(), err)
}

#[test]
fn a_closed_stdout_ends_quietly() {
    for args in [
        &["netlist", "expand", "netlists/torus-16x16.toml"][..],
        &[
            "trace",
            "netlists/torus-4x4.toml",
            "--rate",
            "0.05",
            "--max-lines",
            "0",
        ][..],
        &[
            "model",
            "safaei",
            "--k",
            "8",
            "--v1",
            "5",
            "--v2",
            "5",
            "--length",
            "32",
            "--rates",
            "0.0001:0.02:0.0001",
        ][..],
    ] {
        let (code, err) = with_closed_stdout(args, 10);
        assert_eq!(code, Some(0), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(!err.contains("Broken pipe"), "{args:?}: {err}");
    }
}

#[test]
fn negative_numbers_get_a_range_message() {
    for (flag, value, expected) in [
        ("--length", "-3", "a packet has at least 1 flit"),
        ("--cycles", "-3", "-3 is negative: give a whole number >= 0"),
        ("--seed", "-1", "-1 is negative"),
        ("--watchdog", "-10", "-10 is negative"),
    ] {
        let out = flitsim(&["run", "netlists/torus-4x4.toml", flag, value]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{flag} {value}");
        assert!(err.contains(expected), "{flag} {value}: {err}");
        assert!(!err.contains("-- -"), "{flag} {value}: clap's tip: {err}");
    }
}

#[test]
fn a_trace_without_a_window_is_truncated_with_a_message() {
    let out = flitsim(&["trace", "netlists/torus-4x4.toml", "--rate", "0.05"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    // The header line plus the default limit.
    let lines = out.stdout.iter().filter(|&&b| b == b'\n').count();
    assert_eq!(lines, 100_001, "{err}");
    assert!(
        err.contains("after 100000 lines") && err.contains("--max-lines"),
        "{err}"
    );
    let out = flitsim(&[
        "trace",
        "netlists/torus-4x4.toml",
        "--rate",
        "0.05",
        "--max-lines",
        "50",
    ]);
    assert_eq!(out.stdout.iter().filter(|&&b| b == b'\n').count(), 51);
    // A window is a bound of its own: no limit, no warning.
    let out = flitsim(&["trace", "netlists/ring-8.toml", "--to", "300"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success() && err.is_empty(), "{err}");
}

#[test]
fn a_deadlock_in_the_warm_up_reports_the_cycle_reached() {
    let deadlocking = [
        "run",
        "netlists/ring-8.toml",
        "--routing",
        "dor-nodateline",
        "--rate",
        "0.5",
        "--length",
        "8",
    ];
    let out = flitsim(&[&deadlocking[..], &["--json"]].concat());
    assert_eq!(out.status.code(), Some(3));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let total = v["cycles"]["total"].as_u64().unwrap();
    let warmup = v["cycles"]["warmup"].as_u64().unwrap();
    assert!(warmup <= total, "warm-up {warmup}, total {total}");
    assert_eq!(v["cycles"]["measured"], 0);
    assert_eq!(v["ended_by"], "deadlock");
    let summary = flitsim(&deadlocking);
    let text = String::from_utf8_lossy(&summary.stdout);
    assert!(!text.contains("18446744073709551615"), "{text}");
}

#[test]
fn dor_on_an_explicit_netlist_names_table_routing() {
    let f = netlist_file(
        "explicit-pair",
        "[[router]]\nname = \"a\"\nports = [{ name = \"out\" }, { name = \"in\" }]\n\
         [[router]]\nname = \"b\"\nports = [{ name = \"out\" }, { name = \"in\" }]\n\
         [[channel]]\nfrom = \"a.out\"\nto = \"b.in\"\n[[channel]]\nfrom = \"b.out\"\nto = \"a.in\"\n",
    );
    let out = flitsim(&["run", f.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("routing = \\\"table\\\"") || err.contains("routing = \"table\""),
        "{err}"
    );
    let out = flitsim(&[
        "run",
        f.to_str().unwrap(),
        "--routing",
        "table",
        "--warmup",
        "100",
        "--cycles",
        "1000",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The run a user reported: exp:100 lengths below saturation, a fixed window with
/// `--drain`. The window is not cut and every packet is delivered.
#[test]
fn a_fixed_window_is_not_cut_by_the_saturation_verdict() {
    let args = [
        "run",
        "netlists/torus-3x3.toml",
        "--length",
        "exp:100",
        "--set",
        "channel_latency=20",
        "--timeout",
        "30",
        "--rate",
        "0.0015",
        "--cycles",
        "40000",
        "--drain",
        "--seed",
        "2",
        "--json",
    ];
    let out = flitsim(&args);
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["cycles"]["measured"], 40000);
    assert_eq!(v["saturated"], false);
    assert_eq!(v["packets"]["in_flight_end"], 0);
    assert_eq!(v["packets"]["generated"], v["packets"]["delivered"]);
    assert_eq!(v["drain_limit_hit"], false);
    assert_eq!(v["ended_by"], "drained");
}

/// Above saturation (torus 8x8 at 0.8 flits/terminal/cycle; it saturates near 0.5) a fixed
/// window runs to its end unless `--stop-when-saturated`; the
/// JSON says why each run ended.
#[test]
fn a_saturated_run_says_it_ended_for_saturation() {
    let base = [
        "run",
        "netlists/torus-8x8.toml",
        "--rate",
        "0.2",
        "--length",
        "4",
        "--warmup",
        "0",
        "--cycles",
        "8000",
        "--drain",
        "--drain-cycles",
        "500",
        "--json",
    ];
    let out = flitsim(&base);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["saturated"], true);
    assert_eq!(v["cycles"]["measured"], 8000, "the window is not cut");
    assert_eq!(v["drain_limit_hit"], true);
    assert_eq!(v["ended_by"], "drain_limit");
    let mut stop = base.to_vec();
    stop.push("--stop-when-saturated");
    let out = flitsim(&stop);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["saturated"], true);
    assert!(v["cycles"]["measured"].as_u64().unwrap() < 8000);
    assert_eq!(v["ended_by"], "saturation");
}

/// The README's main job writes `out/curve.svg`: a missing directory under the current
/// one is created, so nothing lands in the repository root.
#[test]
fn a_missing_relative_output_directory_is_created() {
    let cwd = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("fresh-cwd");
    let _ = std::fs::remove_dir_all(&cwd);
    std::fs::create_dir_all(&cwd).unwrap();
    let net = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("netlists/ring-8.toml");
    let out = Command::new(env!("CARGO_BIN_EXE_flitsim"))
        .args(["sweep", net.to_str().unwrap(), "--rates", "0.01,0.02"])
        .args([
            "--warmup",
            "100",
            "--cycles",
            "500",
            "--plot",
            "out/curve.svg",
        ])
        .current_dir(&cwd)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let svg = std::fs::read_to_string(cwd.join("out/curve.svg")).unwrap();
    assert!(svg.starts_with("<svg"), "{}", &svg[..svg.len().min(80)]);
}

/// The exit statuses of the README's table.
#[test]
fn exit_statuses_are_as_documented() {
    let ring = "netlists/ring-8.toml";
    for (args, status) in [
        (&["run", ring, "--warmup", "100", "--cycles", "500"][..], 0),
        (&["run", "no-such-file.toml"][..], 1),
        (&["run", ring, "--rate", "2"][..], 1),
        (&["run", ring, "--length", "-3"][..], 1),
        (&["run", ring, "--no-such-flag"][..], 2),
        (&["run", ring, "--cycles", "-3"][..], 2),
        (
            &[
                "run",
                ring,
                "--routing",
                "dor-nodateline",
                "--rate",
                "0.5",
                "--length",
                "8",
            ][..],
            3,
        ),
    ] {
        let out = flitsim(args);
        assert_eq!(
            out.status.code(),
            Some(status),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// What `command` (run by `sh` under a pseudo-terminal, as `script` gives it) writes to the
/// terminal; `None` when `script` (util-linux) is missing.
fn on_a_terminal(command: &str) -> Option<String> {
    let out = Command::new("script")
        .args(["-qec", command, "/dev/null"])
        .env("TERM", "xterm")
        .stdin(Stdio::null())
        .output()
        .ok()?;
    assert!(out.status.success(), "{command}: {out:?}");
    Some(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// `run` and `check` show a spinner on a terminal's stderr, and nothing with `--quiet` or
/// when stderr is not a terminal (so captured output stays clean).
#[test]
fn a_long_command_shows_progress_on_a_terminal() {
    let bin = env!("CARGO_BIN_EXE_flitsim");
    let flags = "netlists/torus-4x4.toml --rate 0.05 --warmup 10 --cycles 200 --threads 1";
    for (cmd, shows) in [
        (
            format!("{bin} run {flags} >/dev/null"),
            "simulating torus-4x4",
        ),
        (
            format!("{bin} check {flags} >/dev/null"),
            "simulating torus-4x4",
        ),
    ] {
        let Some(screen) = on_a_terminal(&cmd) else {
            eprintln!("skipped: `script` is not installed");
            return;
        };
        assert!(screen.contains(shows), "{cmd}: {screen:?}");
        let quiet = on_a_terminal(&format!("{cmd} --quiet")).unwrap();
        assert!(!quiet.contains("simulating"), "{cmd} --quiet: {quiet:?}");
    }
    let out = flitsim(&[
        "run",
        "netlists/torus-4x4.toml",
        "--rate",
        "0.05",
        "--cycles",
        "200",
    ]);
    assert!(!String::from_utf8_lossy(&out.stderr).contains("simulating"));
}
