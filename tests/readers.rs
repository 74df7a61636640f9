//! Every input reader refuses what is not a regular file before it blocks or reads, and
//! bounds what a small file may expand into: devices, named pipes and a compressed trace
//! that expands a thousandfold.

use crate::run_cli::{flitsim_under_ulimit, mesh_4x4};
use flitsim::engine::traffic::netrace::{self, NetraceRecord};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn scratch_dir() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("readers");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A named pipe nobody writes to (`None` where `mkfifo` is missing).
fn fifo(name: &str) -> Option<PathBuf> {
    let p = scratch_dir().join(format!("{name}-{}", std::process::id()));
    let _ = std::fs::remove_file(&p);
    let made = Command::new("mkfifo").arg(&p).status();
    made.is_ok_and(|s| s.success()).then_some(p)
}

/// Runs flitsim with `args`; kills it and fails the test if it is still running after
/// ten seconds (a reader blocked on a pipe or reading a device).
fn flitsim_promptly(args: &[&str]) -> (Output, Duration) {
    let start = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_flitsim"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run flitsim");
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(10) {
            child.kill().unwrap();
            panic!("flitsim {args:?} still reading after 10 s");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    (child.wait_with_output().unwrap(), start.elapsed())
}

/// The commands that read `input` through each reader.
fn readers(input: &Path, dir: &Path) -> Vec<Vec<String>> {
    let input = input.display().to_string();
    let mesh = mesh_4x4().display().to_string();
    let experiment = dir.join(format!("exp-{}.toml", std::process::id()));
    std::fs::write(
        &experiment,
        format!("[experiment]\nnetlist = \"{input}\"\nrate = 0.01\n"),
    )
    .unwrap();
    let out = dir.join("imported.toml").display().to_string();
    let s = |v: &[&str]| v.iter().map(|x| (*x).to_string()).collect::<Vec<_>>();
    vec![
        s(&["netlist", "check", &input]),
        s(&["run", &input, "--rate", "0.01"]),
        s(&["run", &mesh, "--traffic", &format!("trace:{input}")]),
        s(&["run", &mesh, "--traffic", &format!("netrace:{input}")]),
        s(&["import", "booksim", &input, "--out", &out]),
        s(&["run", &experiment.display().to_string()]),
    ]
}

fn refused_promptly(input: &Path) {
    let dir = scratch_dir();
    for args in readers(input, &dir) {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (out, took) = flitsim_promptly(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            !out.status.success(),
            "{args:?} accepted {}",
            input.display()
        );
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(err.contains("not a regular file"), "{args:?}: {err}");
        assert!(took < Duration::from_secs(1), "{args:?} took {took:?}");
    }
}

#[test]
fn a_device_is_refused_by_every_reader_within_a_second() {
    if Path::new("/dev/zero").exists() {
        refused_promptly(Path::new("/dev/zero"));
    }
}

#[test]
fn a_named_pipe_without_a_writer_is_refused_by_every_reader_within_a_second() {
    if let Some(p) = fifo("pipe") {
        refused_promptly(&p);
        std::fs::remove_file(&p).unwrap();
    }
}

/// 200,000 packets listing 255 dependents each (ids not in the file): a small compressed
/// file whose dependents alone take 204 MB once read.
fn dependent_heavy_trace(path: &Path) {
    let packets: u32 = 200_000;
    let records: Vec<NetraceRecord> = (0..packets)
        .map(|i| NetraceRecord {
            cycle: u64::from(i / 4),
            id: i,
            addr: 0,
            kind: 1,
            src: (i % 16) as u8,
            dst: ((i * 7 + 3) % 16) as u8,
            node_types: 0,
            dependents: (0..255).map(|k| packets + i * 255 + k).collect(),
        })
        .collect();
    let file = std::fs::File::create(path).unwrap();
    netrace::write_compressed(file, "deps", 16, &records).unwrap();
}

#[test]
fn a_trace_that_expands_beyond_the_address_space_is_refused_not_aborted() {
    let path = scratch_dir().join("deps-255.tra.bz2");
    dependent_heavy_trace(&path);
    let traffic = format!("netrace:{}", path.display());
    let mesh = mesh_4x4().display().to_string();
    let out = flitsim_under_ulimit(200_000, &["run", &mesh, "--traffic", &traffic]);
    let err = String::from_utf8_lossy(&out.stderr);
    // It runs, or it is refused with the trace error; an aborted allocation has no code.
    match out.status.code() {
        Some(0) => {}
        Some(1) => assert!(err.contains("dependents need more than"), "{err}"),
        other => panic!("exit {other:?}: {err}"),
    }
}
