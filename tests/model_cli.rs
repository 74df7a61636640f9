//! `flitsim model`: the JSON contract of the analytical models. Expected numbers
//! come from the closed forms, not from the code's own output.

use std::process::Command;

use serde_json::Value;

fn model(args: &[&str]) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_flitsim"))
        .arg("model")
        .args(args)
        .arg("--json")
        .output()
        .expect("flitsim runs");
    assert!(
        out.status.success(),
        "flitsim model {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("stdout is JSON")
}

fn f(v: &Value, key: &str) -> f64 {
    v[key]
        .as_f64()
        .unwrap_or_else(|| panic!("{key} missing in {v}"))
}

#[test]
fn markov_prints_p_and_multiplexing() {
    // rho = 0.02 * 40 = 0.8, V = 3: P = 0.2, 0.16, 0.128, 0.512 (closed form).
    let v = model(&[
        "markov",
        "--lambda",
        "0.02",
        "--service",
        "40",
        "--vcs",
        "3",
    ]);
    let p: Vec<f64> = v["p"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect();
    let want = [0.2, 0.16, 0.128, 0.512];
    assert_eq!(p.len(), 4);
    for (a, b) in p.iter().zip(want) {
        assert!((a - b).abs() < 1e-12, "{p:?}");
    }
    let mux = (0.16 + 4.0 * 0.128 + 9.0 * 0.512) / (0.16 + 2.0 * 0.128 + 3.0 * 0.512);
    assert!((f(&v, "multiplexing") - mux).abs() < 1e-12);
    assert_eq!(v["saturated"], Value::Bool(false));
}

#[test]
fn markov_saturation_is_a_flag() {
    let v = model(&[
        "markov",
        "--lambda",
        "0.05",
        "--service",
        "40",
        "--vcs",
        "3",
    ]);
    assert_eq!(v["saturated"], Value::Bool(true));
    assert!(v.get("p").is_none());
}

#[test]
fn mg1_is_pollaczek_khinchine() {
    // lambda = 0.01, S = 40, variance (40 - 32)^2 = 64: W = 0.01 * 1664 / (2 * 0.6).
    let v = model(&["mg1", "--lambda", "0.01", "--service", "40", "--min", "32"]);
    assert!((f(&v, "wait") - 16.64 / 1.2).abs() < 1e-12);
}

#[test]
fn vct_point_and_saturation() {
    // l = 2, m = 10, lambda = 0.1: rho = 0.5, tau = 3 (3 + 1) + 10 = 22.
    let v = model(&["vct", "--distance", "2", "--length", "10", "--rate", "0.1"]);
    assert!((f(&v, "latency") - 22.0).abs() < 1e-12);
    assert!((f(&v, "critical_rate") - 0.2).abs() < 1e-12);
    let v = model(&["vct", "--distance", "2", "--length", "10", "--rate", "0.25"]);
    assert_eq!(v["saturated"], Value::Bool(true));
}

#[test]
fn paper_models_tabulate_and_saturate() {
    for args in [
        &[
            "safaei", "--k", "8", "--v1", "5", "--v2", "5", "--length", "32",
        ][..],
        &["patooghy", "--n", "5", "--vcs", "3", "--length", "32"][..],
        &["hu-kleinrock", "--length", "100", "--timeout", "20"][..],
    ] {
        let mut a = args.to_vec();
        a.extend(["--rates", "0.0005:0.05:0.0005"]);
        let v = model(&a);
        let points = v["points"].as_array().expect("a range prints points");
        assert_eq!(points.len(), 100);
        let first = &points[0];
        assert_eq!(first["saturated"], Value::Bool(false), "{args:?}");
        let last = points.last().unwrap();
        assert_eq!(last["saturated"], Value::Bool(true), "{args:?}");
        assert!(last.get("latency").is_none());
        // Latency grows with the rate while the model is not saturated.
        let lat: Vec<f64> = points
            .iter()
            .take_while(|p| p["saturated"] == Value::Bool(false))
            .map(|p| f(p, "latency"))
            .collect();
        assert!(lat.windows(2).all(|w| w[1] > w[0]), "{args:?}: {lat:?}");
    }
}

#[test]
fn hu_kleinrock_at_its_saturation_rate_is_saturated() {
    // Length 100, timeout 50: at rho = 1 the timeout probability is 1/(2 + tau/b1) = 0.4,
    // so the host queue saturates at (1 - 0.4)/100 = 0.006, this very rate.
    let v = model(&[
        "hu-kleinrock",
        "--length",
        "100",
        "--timeout",
        "50",
        "--rate",
        "0.006",
    ]);
    assert_eq!(v["saturated"], Value::Bool(true), "{v}");
    assert!(v.get("latency").is_none());
    assert!((f(&v, "saturation_rate") - 0.006).abs() < 1e-12);
    let below = model(&[
        "hu-kleinrock",
        "--length",
        "100",
        "--timeout",
        "50",
        "--rate",
        "0.0059",
    ]);
    assert_eq!(below["saturated"], Value::Bool(false));
    assert!(f(&below, "latency") < 1e5, "{below}");
}

#[test]
fn safaei_zero_load_and_a_split_that_is_not_deadlock_free() {
    // Zero load: M + exact mean distance of an 8x8 torus over 63 nodes (256/63).
    let v = model(&["safaei", "--rate", "0", "--exact-distance"]);
    assert!((f(&v, "latency") - (32.0 + 256.0 / 63.0)).abs() < 1e-9);
    let out = Command::new(env!("CARGO_BIN_EXE_flitsim"))
        .args([
            "model", "safaei", "--v1", "7", "--v2", "3", "--rate", "0.001",
        ])
        .output()
        .unwrap();
    // Evaluated, with a warning on stderr and in the JSON.
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr)
        .contains("warning: split V1=7, V2=3 is not deadlock-free"));
    let v = model(&["safaei", "--v1", "8", "--v2", "2", "--rate", "0.004"]);
    assert!(f(&v, "latency") > 32.0);
    assert!(v["warning"].as_str().is_some_and(|w| w.contains("V2 >= 5")));
}

/// A minimum service time above the mean has no M/G/1 reading: refused with help.
#[test]
fn mg1_minimum_above_the_mean_is_refused() {
    let out = Command::new(env!("CARGO_BIN_EXE_flitsim"))
        .args([
            "model",
            "mg1",
            "--lambda",
            "0.01",
            "--service",
            "10",
            "--min",
            "20",
        ])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("--min 20 with --service 10") && err.contains("help:"),
        "{err}"
    );
}

/// Negative values reach the models' own checks (not clap's "unexpected argument").
#[test]
fn negative_model_parameters_are_named() {
    for (args, says) in [
        (
            &["mg1", "--lambda", "-1", "--service", "10"][..],
            "arrival rate must be",
        ),
        (
            &[
                "markov",
                "--lambda",
                "0.01",
                "--service",
                "-10",
                "--vcs",
                "2",
            ][..],
            "service must be",
        ),
        (
            &["vct", "--rate", "-0.5"][..],
            "--rate must be a finite number >= 0",
        ),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_flitsim"))
            .arg("model")
            .args(args)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
}
