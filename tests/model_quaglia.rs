//! `flitsim model quaglia`: paper 000's model through the CLI.

use std::process::Command;

fn model_quaglia(args: &[&str]) -> serde_json::Value {
    let out = Command::new(env!("CARGO_BIN_EXE_flitsim"))
        .args(["model", "quaglia"])
        .args(args)
        .output()
        .expect("flitsim runs");
    assert!(
        out.status.success(),
        "flitsim model quaglia {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("--json prints JSON")
}

#[test]
fn one_point_prints_latency() {
    let v = model_quaglia(&["--k", "4", "--rate", "0.001", "--length", "12", "--json"]);
    assert_eq!(v["saturated"], false);
    let latency = v["latency"].as_f64().expect("latency is a number");
    // Paper 000, Table 1, 4x4 Model column at 0.001: 13.65.
    assert!((latency - 13.65).abs() < 0.03, "latency {latency}");
}

#[test]
fn zero_rate_is_the_zero_load_latency() {
    // M + 2K k/(k+1) with K = k/4: 12 + 2*2*8/9 for 8x8.
    let v = model_quaglia(&["--k", "8", "--rate", "0", "--length", "12", "--json"]);
    let latency = v["latency"].as_f64().unwrap();
    assert!((latency - (12.0 + 32.0 / 9.0)).abs() < 1e-9, "{latency}");
}

#[test]
fn saturation_is_flagged_not_a_number() {
    // Table 2 prints no model value for 16x16 at 0.008.
    let v = model_quaglia(&["--k", "16", "--rate", "0.008", "--json"]);
    assert_eq!(v["saturated"], true);
    assert!(v.get("latency").is_none());
}

#[test]
fn rate_range_gives_one_point_per_rate() {
    let v = model_quaglia(&["--k", "16", "--rates", "0.001:0.008:0.001", "--json"]);
    let points = v["points"].as_array().expect("points");
    assert_eq!(points.len(), 8);
    assert_eq!(points[7]["saturated"], true);
    let latencies: Vec<f64> = points[..7]
        .iter()
        .map(|p| p["latency"].as_f64().unwrap())
        .collect();
    assert!(latencies.windows(2).all(|w| w[0] < w[1]), "{latencies:?}");
}

#[test]
fn radix_not_multiple_of_four_is_an_error() {
    let out = Command::new(env!("CARGO_BIN_EXE_flitsim"))
        .args(["model", "quaglia", "--k", "6", "--rate", "0.001"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("multiple of 4"));
}
