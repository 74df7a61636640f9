//! Output files are written whole: a run killed at any moment leaves the complete file of
//! an earlier run, never an empty or half-written one.

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Instant;

#[test]
fn a_sweep_killed_at_any_moment_never_leaves_a_partial_csv() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("whole-files");
    std::fs::create_dir_all(&dir).unwrap();
    let csv = dir.join("sweep.csv");
    let plot = dir.join("sweep.svg");
    let args = [
        "sweep",
        "netlists/torus-4x4.toml",
        "--rates",
        "0.01,0.02,0.03",
        "--length",
        "4",
        "--warmup",
        "300",
        "--cycles",
        "1500",
        "--csv",
        csv.to_str().unwrap(),
        "--plot",
        plot.to_str().unwrap(),
    ];
    let sweep = || {
        Command::new(env!("CARGO_BIN_EXE_flitsim"))
            .args(args)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("run flitsim")
    };
    let start = Instant::now();
    assert!(sweep().wait().unwrap().success());
    let whole_run = start.elapsed();
    let (complete_csv, complete_plot) =
        (std::fs::read(&csv).unwrap(), std::fs::read(&plot).unwrap());
    assert!(complete_csv.len() > 100);
    // Kills spread over the whole run, the writing at its end included.
    for i in 0..12u32 {
        let mut child = sweep();
        std::thread::sleep(whole_run * i / 10);
        let _ = child.kill();
        let _ = child.wait();
        assert_eq!(
            std::fs::read(&csv).unwrap(),
            complete_csv,
            "kill {i}: the CSV"
        );
        assert_eq!(
            std::fs::read(&plot).unwrap(),
            complete_plot,
            "kill {i}: the plot"
        );
    }
}
