//! Broken netlists, one per error code (`tests/data/bad/<code>.toml`), through the CLI:
//! each exits with status 1, names file:line:col and gives a help line, never panics.
//! The rendered diagnostics are snapshot-tested (`tests/snapshots/`).

use std::path::Path;
use std::process::Command;

fn flitsim() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_flitsim"));
    c.current_dir(env!("CARGO_MANIFEST_DIR"));
    c.env("RUST_BACKTRACE", "1");
    c
}

/// The path relative to the package root, as a user would type it (stable in snapshots).
fn relative(path: &Path) -> String {
    path.strip_prefix(env!("CARGO_MANIFEST_DIR"))
        .expect("fixture under the package")
        .display()
        .to_string()
}

#[test]
fn bad_netlists() {
    insta::glob!("data/bad/*.toml", |path| {
        let rel = relative(path);
        let out = flitsim()
            .args(["netlist", "check", &rel])
            .output()
            .expect("run flitsim");
        let stderr = String::from_utf8(out.stderr).expect("utf-8 stderr");
        assert_eq!(out.status.code(), Some(1), "{rel}: {stderr}");
        assert!(out.stdout.is_empty(), "{rel}: nothing on stdout");
        assert!(!stderr.contains("panicked"), "{rel}: {stderr}");
        assert!(!stderr.contains("backtrace"), "{rel}: {stderr}");
        // The file's name is the error code the fixture is about.
        let code = path.file_stem().unwrap().to_string_lossy();
        let needle = format!(": error[{code}]: ");
        let line = stderr
            .lines()
            .find(|l| l.contains(&needle))
            .unwrap_or_else(|| panic!("{rel}: no error[{code}] in\n{stderr}"));
        // file:line:col with a real line and column.
        let loc = line.split(": error[").next().unwrap();
        let mut parts = loc.rsplitn(3, ':');
        let col: u32 = parts.next().unwrap().parse().expect("column");
        let row: u32 = parts.next().unwrap().parse().expect("line");
        assert_eq!(parts.next(), Some(rel.as_str()));
        assert!(row >= 1 && col >= 1, "{line}");
        // Every error is followed by its help line.
        let errors = stderr.lines().filter(|l| l.contains(": error[")).count();
        let helps = stderr.lines().filter(|l| l.starts_with("help: ")).count();
        assert_eq!(errors, helps, "{stderr}");
        insta::assert_snapshot!(stderr);
    });
}

#[test]
fn missing_file_is_an_error_not_a_panic() {
    let out = flitsim()
        .args(["netlist", "check", "tests/data/bad/no-such-file.toml"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr.starts_with("tests/data/bad/no-such-file.toml: error[io]: cannot read the netlist"),
        "{stderr}"
    );
}

#[test]
fn bad_settings_name_the_key_and_the_choices() {
    let out = flitsim()
        .args([
            "netlist",
            "check",
            "netlists/torus-4x4.toml",
            "--set",
            "vc=2",
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr.starts_with(
            "error[unknown-setting]: unknown setting `vc`\nhelp: expected one of `vcs`,"
        ),
        "{stderr}"
    );
    let out = flitsim()
        .args([
            "netlist",
            "check",
            "netlists/torus-4x4.toml",
            "--routing",
            "xy",
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr.contains("bad value `xy` for setting `routing`: expected one of dor"),
        "{stderr}"
    );
    // A setting that makes the routing function unfit is caught by the routing check.
    let out = flitsim()
        .args([
            "netlist",
            "check",
            "netlists/torus-4x4.toml",
            "--set",
            "vcs=1",
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr.contains("error[too-few-vcs]"), "{stderr}");
}

#[test]
fn usage_errors_are_clap_s() {
    let out = flitsim().args(["netlist", "check"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = flitsim()
        .args(["netlist", "frobnicate", "x"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}
