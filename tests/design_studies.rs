//! Design studies with `flitsim sweep`: `--vary` makes one labelled curve per design,
//! the experiment-file form (`[vary]`) gives the same bytes, several experiment files keep
//! their own settings, two curves with one label are refused, and the plot's format
//! follows its extension.

use crate::run_cli::flitsim;
use serde_json::Value;
use std::path::PathBuf;

fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("design_studies");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn ok(args: &[&str]) -> std::process::Output {
    let out = flitsim(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// The error output of a command refused with exit status 1.
fn refused(args: &[&str]) -> String {
    let out = flitsim(args);
    assert_eq!(out.status.code(), Some(1), "{args:?}");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn json(args: &[&str]) -> Value {
    serde_json::from_slice(&ok(args).stdout).expect("one JSON object")
}

/// Short measurements: each point at most 3000 cycles, each saturation probe 2000 (a
/// fixed window would not do: the probes judge saturation by the automatic measurement).
/// The assertions compare runs of the same settings, so they need no precision.
const SHORT: [&str; 6] = [
    "--max-cycles",
    "3000",
    "--probe-cycles",
    "2000",
    "--points",
    "2",
];

#[test]
fn vary_draws_labelled_curves_whose_saturation_matches_each_design_alone() {
    let (png, csv) = (scratch("vcs.png"), scratch("vcs.csv"));
    let mut args = vec![
        "sweep",
        "netlists/torus-8x8.toml",
        "--vary",
        "vcs=2,4,8",
        "--length",
        "12",
        "--rates",
        "auto",
        "--json",
        "-q",
        "--plot",
        png.to_str().unwrap(),
        "--csv",
        csv.to_str().unwrap(),
    ];
    args.extend(SHORT);
    let v = json(&args);
    let curves = v["curves"].as_array().unwrap();
    let labels: Vec<&str> = curves
        .iter()
        .map(|c| c["label"].as_str().unwrap())
        .collect();
    assert_eq!(labels, ["vcs=2", "vcs=4", "vcs=8"]);
    let bytes = std::fs::read(&png).unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "a PNG file");
    let text = std::fs::read_to_string(&csv).unwrap();
    let header: Vec<&str> = text.lines().next().unwrap().split(',').collect();
    let col = header
        .iter()
        .position(|h| *h == "vcs")
        .expect("a vcs column");
    // Two points and the plateau point per curve.
    assert_eq!(text.lines().count(), 1 + 3 * 3, "{text}");
    for line in text.lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        assert_eq!(f[0], format!("vcs={}", f[col]), "{line}");
    }
    // The design table: each design at 50% and 80% of the weakest one's saturation rate.
    let d = &v["designs"];
    let weakest = curves
        .iter()
        .map(|c| c["saturation"]["unsaturated"].as_f64().unwrap())
        .fold(f64::INFINITY, f64::min);
    assert_eq!(d["loads"][1].as_f64().unwrap(), 0.8 * weakest);
    for (row, c) in d["rows"].as_array().unwrap().iter().zip(curves) {
        assert_eq!(row["label"], c["label"]);
        assert_eq!(row["saturation"], c["saturation"]);
        assert!(row["zero_load_latency"].as_f64().unwrap() > 0.0);
        assert_eq!(row["latency_at"].as_array().unwrap().len(), 2);
    }
    for (c, vcs) in curves.iter().zip(["2", "4", "8"]) {
        let set = format!("vcs={vcs}");
        let mut alone = vec![
            "sweep",
            "netlists/torus-8x8.toml",
            "--set",
            &set,
            "--length",
            "12",
            "--rates",
            "auto",
            "--json",
            "-q",
        ];
        alone.extend(SHORT);
        let a = &json(&alone)["curves"][0]["saturation"];
        let (lo, hi) = (
            a["unsaturated"].as_f64().unwrap(),
            a["saturated"].as_f64().unwrap(),
        );
        let s = &c["saturation"];
        let (slo, shi) = (
            s["unsaturated"].as_f64().unwrap(),
            s["saturated"].as_f64().unwrap(),
        );
        assert!(
            slo >= lo - 1e-12 && shi <= hi + 1e-12,
            "{set}: [{slo}, {shi}] in the study, [{lo}, {hi}] alone"
        );
    }
}

fn write(name: &str, body: &str) -> PathBuf {
    let p = scratch(name);
    std::fs::write(&p, body).unwrap();
    p
}

#[test]
fn the_vary_table_gives_the_same_csv_bytes_as_the_flags() {
    let (a, b) = (scratch("flags.csv"), scratch("file.csv"));
    let netlist = std::fs::canonicalize("netlists/torus-4x4.toml").unwrap();
    let exp = write(
        "vary.toml",
        &format!(
            "[experiment]\nnetlist = \"{}\"\nlength = 4\nrates = \"0.01,0.03\"\n\
             warmup = 200\ncycles = 800\nquiet = true\ncsv = \"{}\"\n\n[vary]\n\
             vcs = [2, 4]\nswitch_allocator = [\"islip\", \"wavefront\"]\n",
            netlist.display(),
            b.display()
        ),
    );
    ok(&["sweep", exp.to_str().unwrap()]);
    ok(&[
        "sweep",
        "netlists/torus-4x4.toml",
        "--length",
        "4",
        "--rates",
        "0.01,0.03",
        "--warmup",
        "200",
        "--cycles",
        "800",
        "-q",
        "--vary",
        "vcs=2,4",
        "--vary",
        "switch_allocator=islip,wavefront",
        "--csv",
        a.to_str().unwrap(),
    ]);
    // The same four designs as [[design]] entries, labelled as --vary labels them.
    let c = scratch("designs.csv");
    let mut entries = String::new();
    for vcs in [2, 4] {
        for alloc in ["islip", "wavefront"] {
            entries.push_str(&format!(
                "\n[[design]]\nlabel = \"vcs={vcs}, switch_allocator={alloc}\"\nvcs = {vcs}\nswitch_allocator = \"{alloc}\"\n"
            ));
        }
    }
    let designs = write(
        "designs.toml",
        &format!(
            "[experiment]\nnetlist = \"{}\"\nlength = 4\nrates = \"0.01,0.03\"\n\
             warmup = 200\ncycles = 800\nquiet = true\ncsv = \"{}\"\n{entries}",
            netlist.display(),
            c.display()
        ),
    );
    ok(&["sweep", designs.to_str().unwrap()]);
    let (fa, fb) = (std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    assert_eq!(fa, fb);
    assert_eq!(fa, std::fs::read(&c).unwrap(), "[[design]] against --vary");
    let text = String::from_utf8(fa).unwrap();
    assert!(
        text.starts_with("curve,netlist,routing,vcs,switch_allocator,rate"),
        "{text}"
    );
    assert!(
        text.contains("\"vcs=4, switch_allocator=wavefront\""),
        "{text}"
    );
    assert_eq!(text.lines().count(), 1 + 4 * 2);
}

#[test]
fn experiment_files_on_one_sweep_keep_their_own_settings() {
    let netlist = std::fs::canonicalize("netlists/torus-4x4.toml").unwrap();
    let file = |name: &str, body: &str| {
        write(
            name,
            &format!(
                "[experiment]\nnetlist = \"{}\"\nrates = \"0.01,0.02\"\nwarmup = 200\ncycles = 800\n{body}",
                netlist.display()
            ),
        )
    };
    let vc2 = file("vc2.toml", "set = [\"vcs=2\"]\nlength = 12\n");
    let vc4 = file("vc4.toml", "set = [\"vcs=4\"]\nlabel = \"four VCs\"\n");
    let v = json(&[
        "sweep",
        vc2.to_str().unwrap(),
        vc4.to_str().unwrap(),
        "netlists/torus-4x4.toml",
        "--rates",
        "0.01",
        "--warmup",
        "200",
        "--cycles",
        "800",
        "--json",
        "-q",
    ]);
    let curves = v["curves"].as_array().unwrap();
    let labels: Vec<&str> = curves
        .iter()
        .map(|c| c["label"].as_str().unwrap())
        .collect();
    // The command line's --rates overrides both files; each file keeps its vcs and
    // length, and the plain netlist gets neither (its own vcs, length 1).
    assert_eq!(labels[0], "length=12, vcs=2");
    assert_eq!(labels[1], "four VCs");
    assert_eq!(labels[2], "length=1, vcs=4");
    for c in curves {
        assert_eq!(c["points"].as_array().unwrap().len(), 1);
    }
    // One packet of 12 flits vs one of 1: the offered flit loads differ by 12x.
    let offered = |i: usize| curves[i]["points"][0]["offered"].as_f64().unwrap();
    assert!(
        (offered(0) / offered(2) - 12.0).abs() < 0.5,
        "{} vs {}",
        offered(0),
        offered(2)
    );
}

#[test]
fn two_curves_with_one_label_are_refused_before_simulating() {
    let err = refused(&[
        "sweep",
        "netlists/torus-4x4.toml",
        "netlists/torus-4x4.toml",
        "--rates",
        "0.01",
        "-q",
    ]);
    assert!(
        err.contains("netlists/torus-4x4.toml: error[duplicate-label]"),
        "{err}"
    );
    assert!(err.contains("`torus-4x4 dor`"), "{err}");
    let dup = refused(&[
        "sweep",
        "netlists/torus-4x4.toml",
        "--vary",
        "vcs=2,2",
        "--rates",
        "0.01",
    ]);
    assert!(dup.contains("`2` is given twice"), "{dup}");
    // Two [[design]] entries with one label: refused at the second label's line.
    let file = write(
        "dup-designs.toml",
        "[experiment]\nnetlist = \"../../../netlists/torus-4x4.toml\"\nrates = \"0.01\"\n\n\
         [[design]]\nlabel = \"small\"\nvcs = 2\n\n[[design]]\nlabel = \"small\"\nvcs = 4\n",
    );
    let err = refused(&["sweep", file.to_str().unwrap(), "-q"]);
    let at = format!("{}:10:1: error[duplicate-label]", file.display());
    assert!(err.contains(&at), "{err}");
    assert!(err.contains("the first on line 6"), "{err}");
}

#[test]
fn a_plot_extension_without_a_format_is_refused_before_simulating() {
    let err = refused(&[
        "sweep",
        "netlists/torus-8x8.toml",
        "--rates",
        "auto",
        "-q",
        "--plot",
        "out/x.jpg",
    ]);
    assert!(
        err.contains("--plot out/x.jpg") && err.contains(".svg, .png or .pdf"),
        "{err}"
    );
}

#[test]
fn pdf_and_svg_plots_carry_the_title_and_hollow_markers() {
    let (pdf, svg) = (scratch("c.pdf"), scratch("c.svg"));
    for p in [&pdf, &svg] {
        ok(&[
            "sweep",
            "netlists/torus-4x4.toml",
            "--length",
            "4",
            "--rates",
            "0.01,0.2",
            "--warmup",
            "200",
            "--cycles",
            "600",
            "-q",
            "--plot",
            p.to_str().unwrap(),
        ]);
    }
    assert!(std::fs::read(&pdf).unwrap().starts_with(b"%PDF-"));
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(
        text.contains("netlist=torus-4x4, routing=dor, traffic=uniform"),
        "title"
    );
    // The legend states the rule the markers follow: fixed-window points are filled.
    assert!(text.contains("hollow: confidence target missed (a fixed window has none: filled)"));
}

/// Short windows for `buffers` and the `run`s that check it.
const WINDOW: [&str; 4] = ["--warmup", "300", "--cycles", "1500"];

/// `flitsim sweep` of torus-4x4 at `--length 12` with `buffer_depth=depth`, its
/// saturation searched with the probes `buffers` uses in the test below: the bracket's
/// unsaturated end.
fn unsaturated_end(depth: &str) -> f64 {
    let set = format!("buffer_depth={depth}");
    let mut args = vec![
        "sweep",
        "netlists/torus-4x4.toml",
        "--length",
        "12",
        "--set",
        &set,
        "--rates",
        "auto",
        "--points",
        "1",
        "--probe-cycles",
        "3000",
        "--json",
        "-q",
    ];
    args.extend(WINDOW);
    json(&args)["curves"][0]["saturation"]["unsaturated"]
        .as_f64()
        .unwrap()
}

#[test]
fn the_sizing_meets_its_printed_criteria_in_separate_runs() {
    let mut args = vec![
        "buffers",
        "netlists/torus-4x4.toml",
        "--length",
        "12",
        "--probe-cycles",
        "3000",
        "--json",
        "-q",
    ];
    args.extend(WINDOW);
    let v = json(&args);
    let s = &v["sizing"];
    let d = s["depth"].as_u64().expect("a depth") as u32;
    let tol = s["criteria"]["latency_tolerance"].as_f64().unwrap();
    assert_eq!(tol, 0.10);
    let sat_tol = s["criteria"]["saturation_tolerance"].as_f64().unwrap();
    assert_eq!(sat_tol, 0.05);
    assert!(v["storage"]["router_bits"].as_u64().unwrap() > 0);
    let depth = d.to_string();
    let latency = |depth: &str, rate: f64| -> f64 {
        let (set, rate) = (format!("buffer_depth={depth}"), rate.to_string());
        let mut a = vec![
            "run",
            "netlists/torus-4x4.toml",
            "--length",
            "12",
            "--json",
            "--set",
            &set,
            "--rate",
            &rate,
        ];
        a.extend(WINDOW);
        json(&a)["latency"]["mean"].as_f64().unwrap()
    };
    for pair in s["reference"].as_array().unwrap() {
        let rate = pair[0].as_f64().unwrap();
        let (unbounded, sized) = (latency("unbounded", rate), latency(&depth, rate));
        assert!(
            sized <= (1.0 + tol) * unbounded,
            "depth {d} at {rate}: {sized} against {unbounded} unbounded"
        );
    }
    // Saturation within its tolerance: separate searches of the answer and of unbounded
    // buffers, the highest rate each found unsaturated.
    let (sized, unbounded) = (unsaturated_end(&depth), unsaturated_end("unbounded"));
    assert!(
        sized >= (1.0 - sat_tol) * unbounded,
        "depth {d}: unsaturated up to {sized}, unbounded up to {unbounded}"
    );
    // The answer is the smallest: the next shallower depth tried missed a criterion.
    let tried = s["tried"].as_array().unwrap();
    let below = tried
        .iter()
        .rfind(|t| t["depth"].as_u64().unwrap() < u64::from(d))
        .expect("a shallower depth tried");
    assert_eq!(below["meets"], false);
}

#[test]
fn a_vct_search_never_goes_below_the_packet_length() {
    for rate in [None, Some("0.04")] {
        let mut args = vec![
            "buffers",
            "netlists/torus-4x4.toml",
            "--length",
            "6",
            "--switching",
            "vct",
            "--probe-cycles",
            "2000",
            "--json",
            "-q",
        ];
        args.extend(WINDOW);
        if let Some(r) = rate {
            args.extend(["--rate", r]);
        }
        let v = json(&args);
        let tried = match rate {
            None => v["sizing"]["tried"].as_array().unwrap().clone(),
            Some(_) => v["search"]["tried"].as_array().unwrap().clone(),
        };
        assert!(!tried.is_empty());
        for t in &tried {
            assert!(t["depth"].as_u64().unwrap() >= 6, "{rate:?}: {t}");
        }
    }
}
