//! Per-channel VC occupancy P(v), per-VC buffer occupancy (Little's law), and
//! the `buffers` and `sweep` subcommands.

use flitsim_engine::{SimConfig, Simulation};
use std::path::Path;
use std::process::Command;

fn flitsim(args: &[&str]) -> serde_json::Value {
    let out = Command::new(env!("CARGO_BIN_EXE_flitsim"))
        .args(args)
        .output()
        .expect("run flitsim");
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

fn channels(extra: &[&str]) -> serde_json::Value {
    let mut args = vec!["run", "--json", "--channel-stats", "--warmup", "1000"];
    args.extend_from_slice(extra);
    flitsim(&args)
}

#[test]
fn p_busy_is_a_distribution_whose_mean_is_the_busy_vc_average() {
    let v = channels(&[
        "netlists/torus-4x4.toml",
        "--rate",
        "0.02",
        "--length",
        "8",
        "--cycles",
        "10000",
    ]);
    let chans = v["channels"].as_array().unwrap();
    assert_eq!(chans.len(), 64);
    for c in chans {
        let p: Vec<f64> = c["p_busy"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap())
            .collect();
        assert_eq!(p.len(), c["vcs"].as_u64().unwrap() as usize + 1);
        assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-9, "{c}");
        let mean: f64 = p.iter().enumerate().map(|(i, x)| i as f64 * x).sum();
        // busy_vcs_mean comes from the router's busy-VC integral, P(v) from its histogram.
        assert!((mean - c["busy_vcs_mean"].as_f64().unwrap()).abs() < 1e-9);
        assert!(p[0] < 1.0, "loaded channel never busy: {c}");
    }
    // Four classes on a 2-D torus, 16 channels each.
    let classes = v["channel_classes"].as_array().unwrap();
    assert_eq!(classes.len(), 4);
    assert!(classes.iter().all(|k| k["channels"] == 16));
}

#[test]
fn with_one_vc_p1_is_the_time_the_channel_is_held() {
    // Mesh DOR needs one VC class. P(1) comes from the busy-VC histogram; held_fraction
    // from summing allocation-to-release intervals of each VC: two independent counts.
    let v = channels(&[
        "netlists/mesh-8x8.toml",
        "--set",
        "vcs=1",
        "--rate",
        "0.01",
        "--length",
        "4",
        "--cycles",
        "20000",
    ]);
    for c in v["channels"].as_array().unwrap() {
        let p1 = c["p_busy"][1].as_f64().unwrap();
        let held = c["held_fraction"].as_f64().unwrap();
        assert!((p1 - held).abs() < 0.005, "P(1) {p1} vs held {held}: {c}");
        // Held at least while its flits cross it.
        assert!(p1 + 1e-9 >= c["utilization"].as_f64().unwrap());
        // Little: busy VCs = head arrival rate x holding time.
        if let Some(h) = c["holding_time_mean"].as_f64() {
            let lam = c["head_arrival_rate"].as_f64().unwrap();
            assert!((lam * h - p1).abs() < 0.01, "{c}");
        }
    }
}

#[test]
fn littles_law_holds_per_vc_buffer_at_moderate_load() {
    let netlist = flitsim_netlist::load(Path::new("netlists/torus-8x8.toml")).unwrap();
    // 0.15 flits per terminal per cycle: about 45% of saturation.
    let config = SimConfig {
        rate: 0.0125,
        length: 12,
        warmup: 2_000,
        cycles: 20_000,
        ..SimConfig::default()
    };
    let mut sim = Simulation::new(&netlist, &config).unwrap();
    let report = sim.run();
    assert!(!report.saturated);
    let mut checked = 0;
    for b in sim.buffer_stats(&netlist) {
        let h: f64 = b.histogram.iter().sum();
        assert!((h - 1.0).abs() < 1e-9);
        if b.arrival_rate * 22_000.0 < 1_000.0 {
            continue; // too few flits for a 2% check
        }
        let predicted = b.little_predicted().unwrap();
        assert!(
            (b.mean - predicted).abs() <= 0.02 * b.mean,
            "{}.{} vc{}: occupancy {} vs lambda*W {}",
            b.router,
            b.port,
            b.vc,
            b.mean,
            predicted
        );
        assert!(b.max <= b.depth.unwrap() && b.p99 <= b.max);
        checked += 1;
    }
    assert!(checked > 50, "only {checked} buffers checked");
}

#[test]
fn buffers_finds_the_smallest_depth_that_keeps_99_percent() {
    // Half of saturation (0.345 flits/terminal/cycle): 0.0144 packets of 12 flits.
    let common = [
        "--length", "12", "--rate", "0.0144", "--warmup", "1000", "--cycles", "6000",
    ];
    let mut args = vec!["buffers", "netlists/torus-8x8.toml", "--json"];
    args.extend_from_slice(&common);
    let v = flitsim(&args);
    // The echo is the configuration the search ran, as `run --json` prints it.
    assert_eq!(v["config"]["rate"], 0.0144);
    assert_eq!(v["config"]["warmup"], 1000);
    assert_eq!(v["config"]["router"]["buffer_depth"], 8);
    let d = v["search"]["required_depth"].as_u64().expect("a depth") as u32;
    let tried = v["search"]["tried"].as_array().unwrap();
    assert!(tried
        .iter()
        .any(|t| t["depth"] == d && t["reaches"] == true));
    // Peak storage with unbounded buffers bounds the answer.
    assert!(u64::from(d) <= v["unbounded"]["peak"].as_u64().unwrap());
    // Check independently with flitsim run: d reaches 99% of unbounded, d - 1 does not.
    let accepted = |depth: &str| {
        let set = format!("buffer_depth={depth}");
        let mut a = vec!["run", "netlists/torus-8x8.toml", "--json", "--set", &set];
        a.extend_from_slice(&common);
        flitsim(&a)["accepted"]["flits_per_terminal_cycle"]
            .as_f64()
            .unwrap()
    };
    let reference = accepted("unbounded");
    assert!(accepted(&d.to_string()) >= 0.99 * reference);
    if d > 1 {
        assert!(accepted(&(d - 1).to_string()) < 0.99 * reference);
        assert!(tried
            .iter()
            .any(|t| t["depth"] == d - 1 && t["reaches"] == false));
    }
}

#[test]
fn sweep_writes_table_csv_json_and_svg_with_one_curve_per_netlist() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("sweep");
    std::fs::create_dir_all(&dir).unwrap();
    let (csv, svg) = (dir.join("c.csv"), dir.join("c.svg"));
    let v = flitsim(&[
        "sweep",
        "netlists/torus-4x4.toml",
        "netlists/hetero-torus-4x4.toml",
        "--rates",
        "0.01:0.03:0.01",
        "--length",
        "4",
        "--json",
        "--csv",
        csv.to_str().unwrap(),
        "--plot",
        svg.to_str().unwrap(),
    ]);
    let curves = v["curves"].as_array().unwrap();
    assert_eq!(curves.len(), 2);
    for c in curves {
        let pts = c["points"].as_array().unwrap();
        assert_eq!(pts.len(), 3);
        // Latency grows with load.
        let l: Vec<f64> = pts.iter().map(|p| p["latency"].as_f64().unwrap()).collect();
        assert!(l[0] < l[2], "{l:?}");
    }
    let text = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(text.lines().count(), 1 + 6);
    let svg = std::fs::read_to_string(&svg).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("offered load"));
}
