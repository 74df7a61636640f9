//! Experiment files: `flitsim run FILE.toml` equals the same experiment given by flags,
//! flags override the file, an inline netlist loads, and unknown keys are refused with the
//! file, line and fix.

use crate::run_cli::{flitsim, netlist_file};
use serde_json::Value;
use std::path::PathBuf;

/// Writes an experiment file next to the test netlists (`torus-4x4.toml` among them).
fn experiment_file(name: &str, body: &str) -> PathBuf {
    let dir = crate::run_cli::torus_4x4().parent().unwrap().to_path_buf();
    let path = dir.join(format!("{name}.toml"));
    std::fs::write(&path, body).unwrap();
    path
}

fn json_of(args: &[&str]) -> Value {
    let out = flitsim(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut v: Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    // Wall-clock speed is the only part that differs between runs of one command.
    v.as_object_mut().unwrap().remove("perf");
    v
}

#[test]
fn the_torus_experiment_equals_its_flags() {
    let mut file = json_of(&["run", "experiments/torus-8x8.toml", "--json"]);
    let flags = json_of(&[
        "run",
        "netlists/torus-8x8.toml",
        "--routing",
        "dor",
        "--traffic",
        "uniform",
        "--rate",
        "0.005",
        "--length",
        "12",
        "--warmup",
        "2000",
        "--cycles",
        "10000",
        "--drain",
        "--seed",
        "1",
        "--json",
    ]);
    assert_eq!(file["config"]["experiment"], "experiments/torus-8x8.toml");
    assert_eq!(flags["config"]["experiment"], Value::Null);
    file["config"]["experiment"] = Value::Null;
    assert_eq!(file, flags);
}

#[test]
fn flags_override_the_file() {
    let v = json_of(&[
        "run",
        "experiments/torus-8x8.toml",
        "--rate",
        "0.002",
        "--cycles",
        "1000",
        "--json",
    ]);
    assert_eq!(v["config"]["rate"], 0.002);
    assert_eq!(v["config"]["cycles"], 1000);
    assert_eq!(v["config"]["warmup"], 2000, "the file's value stays");
}

#[test]
fn an_inline_netlist_loads_and_keeps_its_line_numbers() {
    let ok = netlist_file(
        "inline-ring",
        "[experiment]\nrate = 0.02\nwarmup = 100\ncycles = 500\n[topology]\nkind = \"ring\"\nn = 4\n",
    );
    let v = json_of(&["run", ok.to_str().unwrap(), "--json"]);
    assert_eq!(v["config"]["routers"], 4);
    assert_eq!(v["config"]["rate"], 0.02);
    // A netlist error on line 7 of the file is reported on line 7.
    let bad = netlist_file(
        "inline-bad",
        "[experiment]\nrate = 0.02\nwarmup = 100\ncycles = 500\n[topology]\nkind = \"ring\"\nn = 0\n",
    );
    let out = flitsim(&["run", bad.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("inline-bad.toml:8:"), "{err}");
}

/// Runs an experiment file whose third line is `line`; checks the exit status and that
/// nothing was printed on stdout; returns stderr.
fn refusal(name: &str, line: &str, status: i32) -> String {
    let f = experiment_file(
        name,
        &format!("[experiment]\nnetlist = \"torus-4x4.toml\"\n{line}\n"),
    );
    let out = flitsim(&["run", f.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(out.status.code(), Some(status), "{err}");
    assert!(out.stdout.is_empty(), "{err}");
    err
}

#[test]
fn unknown_keys_are_refused_with_file_line_and_fix() {
    let err = refusal("exp-typo", "rat = 0.1", 1);
    assert!(
        err.contains("exp-typo.toml:3:1: error[unknown-key]: unknown key `rat`"),
        "{err}"
    );
    assert!(
        err.contains("help: expected") && err.contains("rate"),
        "{err}"
    );
}

#[test]
fn a_bad_value_names_its_key_and_line() {
    let err = refusal("exp-negative", "cycles = -5", 2);
    assert!(err.contains("exp-negative.toml:3:1:"), "{err}");
    assert!(err.contains("-5 is negative"), "{err}");
}

#[test]
fn sweep_runs_an_experiment_file() {
    let f = experiment_file(
        "exp-sweep",
        "[experiment]\nnetlist = \"torus-4x4.toml\"\nrates = \"0.01,0.02\"\nlength = 4\n\
         warmup = 200\ncycles = 1000\nquiet = true\n",
    );
    let v = json_of(&["sweep", f.to_str().unwrap(), "--json"]);
    let points = v["curves"][0]["points"].as_array().unwrap();
    assert_eq!(points.len(), 2);
    assert_eq!(points[1]["rate"], 0.02);
}
