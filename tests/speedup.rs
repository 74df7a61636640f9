//! Input and output speedup through the binary: one validation whichever way a value
//! arrives (netlist key, `--set`, experiment file), the JSON config echo, and the
//! saturation throughput a speedup of 2 gives against none.

use crate::run_cli::{flitsim, netlist_file, torus_4x4};
use serde_json::Value;

fn stderr_of(args: &[&str]) -> (i32, String) {
    let out = flitsim(args);
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn json_of(args: &[&str]) -> Value {
    let out = flitsim(args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn a_speedup_out_of_range_is_refused_where_it_was_given() {
    let t = torus_4x4();
    let t = t.to_str().unwrap();
    for bad in ["input_speedup=0", "output_speedup=5", "input_speedup=two"] {
        let (code, err) = stderr_of(&["run", t, "--cycles", "10", "--set", bad]);
        assert_eq!(code, 1, "{bad}: {err}");
        assert!(
            err.contains("expected an integer from 1 to 4") && !err.contains("panicked"),
            "{bad}: {err}"
        );
    }
    // A netlist key: located at its line and column.
    let n = netlist_file(
        "speedup-9",
        "[topology]\nkind = \"torus\"\nradix = [4, 4]\n[defaults]\noutput_speedup = 9\n",
    );
    let (code, err) = stderr_of(&["run", n.to_str().unwrap(), "--cycles", "10"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("speedup-9.toml:6:18: error[bad-value]")
            && err.contains("output_speedup 9 in [defaults]; give 1 to 4"),
        "{err}"
    );
    // Speculation is modelled on a crossbar without speedup.
    let (code, err) = stderr_of(&[
        "run",
        t,
        "--cycles",
        "10",
        "--set",
        "speculative=true",
        "--set",
        "input_speedup=2",
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("error[pipeline-mismatch]"), "{err}");
    assert!(err.contains("set input_speedup = 1"), "{err}");
}

#[test]
fn the_json_echo_shows_a_speedup_and_omits_the_default() {
    let t = torus_4x4();
    let t = t.to_str().unwrap();
    let run = [
        "run", t, "--rate", "0.05", "--cycles", "300", "--warmup", "100",
    ];
    let plain = json_of(&[&run[..], &["--json"]].concat());
    let router = &plain["config"]["router"];
    assert!(router["input_speedup"].is_null() && router["output_speedup"].is_null());
    let sped = json_of(&[&run[..], &["--set", "input_speedup=2", "--json"]].concat());
    assert_eq!(sped["config"]["router"]["input_speedup"], 2);
    assert!(sped["config"]["router"]["output_speedup"].is_null());
    // The same key from an experiment file.
    let dir = t.rsplit_once('/').unwrap().0;
    let exp = format!("{dir}/speedup-experiment.toml");
    std::fs::write(
        &exp,
        "[experiment]\nnetlist = \"torus-4x4.toml\"\nrate = 0.05\nwarmup = 100\ncycles = 300\nset = [\"output_speedup=3\"]\n",
    )
    .unwrap();
    let from_file = json_of(&["run", &exp, "--json"]);
    assert_eq!(from_file["config"]["router"]["output_speedup"], 3);
}

/// Past saturation, a torus 4x4 with dimension-order routing accepts more with an input
/// and output speedup of 2 than without (head-of-line blocking at the input ports is
/// relieved): the plateau rises by more than both confidence intervals.
#[test]
fn speedup_two_raises_saturation_throughput_on_a_torus() {
    let t = torus_4x4();
    let t = t.to_str().unwrap();
    let accepted = |sets: &[&str]| {
        let mut args = vec![
            "run",
            t,
            "--rate",
            "0.2",
            "--length",
            "8",
            "--warmup",
            "1000",
            "--cycles",
            "4000",
            "--drain-cycles",
            "0",
            "--json",
        ];
        for s in sets {
            args.extend(["--set", s]);
        }
        let v = json_of(&args);
        let a = &v["accepted"];
        (
            a["flits_per_terminal_cycle"].as_f64().unwrap(),
            a["ci95"].as_f64().unwrap(),
        )
    };
    let (one, ci1) = accepted(&[]);
    let (two, ci2) = accepted(&["input_speedup=2", "output_speedup=2"]);
    assert!(
        two - one > ci1 + ci2,
        "speedup 2 accepted {two} ± {ci2}, none {one} ± {ci1}"
    );
}
