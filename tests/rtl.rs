//! `flitsim trace` for the RTL cross-check (docs/rtl.md): packet lists, injection VCs and
//! the RTL harness's record format.

use std::process::Command;

const DATA: &str = "tests/data/rtl";

/// A packet list's bad line and a VC the network lacks are refused, named by file and
/// line or by flag, with exit status 1.
#[test]
fn bad_packet_lists_are_refused_with_file_and_line() {
    let dir = std::env::temp_dir().join(format!("flitsim-rtl-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let list = dir.join("bad.packets");
    std::fs::write(&list, "# cycle src dst len vc\n0 0 8 5 1\n3 0 8 five 1\n").expect("write");
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_flitsim"))
            .args(["trace", &format!("{DATA}/mesh3x3.toml"), "--rate", "0"])
            .args(args)
            .output()
            .expect("flitsim runs")
    };
    let out = run(&["--packets", list.to_str().expect("utf-8 path")]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("bad.packets:3:"), "{err}");
    assert!(err.contains("help:"), "{err}");
    let out = run(&["--inject", "0:0:8:5:4"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("injection VC 4 does not exist"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

/// A packet on a named injection VC leaves on it, and the records name ports as the RTL
/// does: terminal 0's head goes out of router 0's port 1 (east, +1 in dimension 0) two
/// cycles after the router reads it.
#[test]
fn the_rtl_format_names_the_injection_vc_and_rtl_ports() {
    let out = Command::new(env!("CARGO_BIN_EXE_flitsim"))
        .args(["trace", &format!("{DATA}/mesh3x3.toml"), "--rate", "0"])
        .args(["--inject", "0:0:8:2:2", "--format", "rtl"])
        .output()
        .expect("flitsim runs");
    let log = String::from_utf8_lossy(&out.stdout);
    assert!(log.starts_with("0 F t0 0 2 head 0:0.0\n"), "{log}");
    assert!(log.contains("\n3 F r0 1 "), "{log}");
    assert!(log.contains("\n2 C r0 4 2\n"), "{log}");
    assert!(log.lines().any(|l| l.starts_with("15 F r8 4 ")), "{log}");
}
