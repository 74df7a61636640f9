//! `flitsim check` and `flitsim reproduce` through the binary.
//!
//! The low-load bound on the TV distance. Write `p` for the measured occupancy of a
//! channel and `q` for Dally's chain with `rho = lambda S` from the same channel. The
//! measured mean number of busy VCs is `lambda S = rho` (S is the busy period per VC
//! allocation: Little's law, up to the busy periods open at the end); the chain's mean is `rho (1 - rho^V)/(1 - rho) = rho +
//! O(rho^2)`. With `w_x = sum_{v>=2} v x_v` (the mass of overlapping packets),
//! `|p_0 - q_0|` and `|p_1 - q_1|` are each at most `|mean_p - mean_q| + w_p + w_q`, and
//! the tails contribute at most `(w_p + w_q)/2`, so
//! `TV <= |mean_p - mean_q| + 1.25 (w_p + w_q)`. The chain has `w_q ~ 2 rho^2`; independent
//! (Poisson) packets holding a VC for about S cycles overlap with probability about
//! `rho^2 / 2` (M/G/infinity), `w_p ~ rho^2`. Hence `TV <= rho^2 + 1.25 * 3 rho^2 < 5 rho^2`
//! to first order. The test allows `6 rho_max^2` per class plus 0.002 of sampling noise.

use std::path::PathBuf;
use std::process::{Command, Output};

fn flitsim(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_flitsim"))
        .args(args)
        .output()
        .expect("run flitsim")
}

fn netlist(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("netlists")
        .join(name)
        .display()
        .to_string()
}

#[test]
fn check_torus_8x8_dor_low_load_follows_the_markov_chain() {
    let path = netlist("torus-8x8.toml");
    let args = [
        "check",
        &path,
        "--routing",
        "dor",
        "--rate",
        "0.002",
        "--length",
        "12",
        "--warmup",
        "1000",
        "--cycles",
        "12000",
    ];
    let out = flitsim(&[&args[..], &["--json"]].concat());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let classes = v["classes"].as_array().unwrap();
    let names: Vec<&str> = classes
        .iter()
        .map(|c| c["class"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["east", "west", "north", "south", "all"]);
    assert_eq!(v["channels"].as_array().unwrap().len(), 256);
    for c in classes {
        let rho_max = c["rho_max"].as_f64().unwrap();
        let tv = c["tv_mean"].as_f64().unwrap();
        let mux_err = c["multiplexing_error"].as_f64().unwrap();
        assert!(rho_max > 0.0 && rho_max < 0.1, "low load: {c}");
        assert!(
            tv <= 6.0 * rho_max * rho_max + 0.002,
            "TV {tv} at rho_max {rho_max}"
        );
        // Both degrees are 1 + O(rho): the chain's is about 1 + 2 rho, the measured one
        // lies between 1 and it.
        assert!(
            mux_err.abs() <= 3.0 * rho_max,
            "multiplexing error {mux_err}"
        );
        let p: f64 = c["measured"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap())
            .sum();
        assert!((p - 1.0).abs() < 1e-9);
    }
    // No paper model describes torus + DOR.
    assert!(v["latency"]["model"].is_null());
    assert!(v["latency"]["ci95"].as_f64().unwrap() > 0.0);

    let text = flitsim(&args);
    assert!(text.status.success());
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(text.contains("TV") && text.contains("muxerr"), "{text}");
    for class in ["east", "west", "north", "south", "all"] {
        assert!(
            text.lines().any(|l| l.starts_with(class)),
            "{class}: {text}"
        );
    }
}

#[test]
fn check_writes_the_occupancy_plot() {
    let path = netlist("torus-4x4.toml");
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("crosscheck");
    std::fs::create_dir_all(&dir).unwrap();
    let svg = dir.join("pv.svg");
    let _ = std::fs::remove_file(&svg);
    let out = flitsim(&[
        "check",
        &path,
        "--rate",
        "0.01",
        "--length",
        "8",
        "--cycles",
        "3000",
        "--plot",
        svg.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let body = std::fs::read_to_string(&svg).unwrap();
    assert!(body.starts_with("<svg") && body.contains("east measured"));
}

fn reproduce_quick(paper: &str) -> (PathBuf, String) {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("crosscheck")
        .join(format!("reproduce-{paper}"));
    let _ = std::fs::remove_dir_all(&dir);
    let out = flitsim(&[
        "reproduce",
        paper,
        "--quick",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let table = std::fs::read_to_string(dir.join("table.txt")).unwrap();
    assert!(text.starts_with(&table), "stdout repeats table.txt");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("results.json")).unwrap()).unwrap();
    assert_eq!(json["paper"], paper);
    let svgs: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.path().extension().is_some_and(|x| x == "svg"))
        .collect();
    assert!(!svgs.is_empty(), "{paper}: no chart written");
    for s in svgs {
        let body = std::fs::read_to_string(s.path()).unwrap();
        assert!(body.starts_with("<svg") && body.contains("</svg>"));
    }
    (dir, table)
}

#[test]
fn reproduce_000_prints_the_paper_tables_and_a_matching_model() {
    use flitsim::analysis::papers::p000_quaglia::PAPER_TABLES;
    let (dir, table) = reproduce_quick("000");
    // The paper's columns exactly as typed in, on the row of their rate.
    for t in &PAPER_TABLES {
        assert!(
            table.contains(&format!("({}x{} torus", t.k, t.k)),
            "{table}"
        );
        for row in t.rows {
            let line = table.lines().find(|l| {
                l.starts_with(&format!("{:.3} ", row.rate)) && {
                    let paper = [row.simulation, row.model].map(|x| x.map(|v| format!("{v:.2}")));
                    paper.iter().flatten().all(|p| l.contains(p.as_str()))
                }
            });
            assert!(line.is_some(), "k = {} rate {}: {table}", t.k, row.rate);
        }
    }
    // flitsim's model against the paper's Model column.
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("results.json")).unwrap()).unwrap();
    let mut checked = 0;
    for t in json["tables"].as_array().unwrap() {
        let k = t["k"].as_u64().unwrap();
        for (i, r) in t["rows"].as_array().unwrap().iter().enumerate() {
            let rate = r["rate"].as_f64().unwrap();
            // The one known miss, 12x12 at 0.002 (0.104; p000_quaglia's docs and its
            // `tables_model_column` test), is held at its measured gap.
            let tolerance = match k {
                12 if i == 1 => 0.105,
                4 => 0.03,
                8 if rate <= 0.011 + 1e-12 => 0.03,
                12 | 16 if i < 2 => 0.1,
                _ => continue,
            };
            let paper = r["paper_model"].as_f64().unwrap();
            let ours = r["flitsim_model"].as_f64().unwrap();
            assert!(
                (ours - paper).abs() <= tolerance,
                "k {k} rate {rate}: {ours} vs {paper}"
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 12 + 11 + 2 + 2);
}

#[test]
fn reproduce_001_to_004_quick_run_and_write_their_files() {
    for paper in ["001", "002", "003", "004"] {
        let (_, table) = reproduce_quick(paper);
        assert!(table.lines().count() > 10, "{paper}: {table}");
    }
}

/// An output directory that cannot be created is refused (`reproduce::run` creates it
/// before simulating: a full `reproduce 000` takes minutes, and the test would too if the
/// error came at its end), and so are an unknown paper and `--threads 0`.
#[test]
fn reproduce_checks_its_arguments_before_simulating() {
    let file = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("reproduce-out-is-a-file");
    std::fs::write(&file, "").unwrap();
    let out = flitsim(&["reproduce", "000", "--out", file.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("cannot create the output directory") && err.contains("help:"),
        "{err}"
    );
    let out = flitsim(&["reproduce", "9"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown paper `9`"));
    let out = flitsim(&["reproduce", "004", "--quick", "--threads", "0"]);
    assert_eq!(out.status.code(), Some(2), "clap's usage error");
}

/// Without `--out`, `reproduce` writes under `out/` (which git ignores), not into the
/// current directory. A regular file named `out` makes the default directory impossible,
/// so the refusal names the default path without simulating anything.
#[test]
fn reproduce_writes_under_out_by_default() {
    let cwd = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("reproduce-default-out");
    let _ = std::fs::remove_dir_all(&cwd);
    std::fs::create_dir_all(&cwd).unwrap();
    std::fs::write(cwd.join("out"), "").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_flitsim"))
        .args(["reproduce", "004"])
        .current_dir(&cwd)
        .output()
        .expect("run flitsim");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("--out out/reproduce-004"), "{err}");
    assert!(!cwd.join("reproduce-004").exists());
}
