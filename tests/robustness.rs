//! Inputs the validator must refuse with a typed error (exit 1, no panic, no allocation
//! abort, no signal), or run correctly: values arriving by `--set`, netlist names, input
//! files that are not netlists, long channels and pipelines under the watchdog.

use crate::run_cli::{flitsim, netlist_file};
use std::process::Output;

/// Asserts a typed refusal: exit 1, no panic, no allocation abort; returns stderr.
pub fn refused(args: &[&str]) -> String {
    let out = flitsim(args);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    assert!(
        !stderr.contains("memory allocation of"),
        "{args:?}: {stderr}"
    );
    stderr
}

/// Asserts success; returns stdout.
fn accepted(args: &[&str]) -> String {
    let out: Output = flitsim(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

#[test]
fn the_vct_depth_rule_holds_after_set() {
    let t = "netlists/torus-4x4.toml";
    let sets = ["--set", "max_packet_length=100", "--set", "switching=vct"];
    let e = refused(&[&["netlist", "check", t], &sets[..]].concat());
    assert!(e.contains("error[vct-buffer-too-shallow]"), "{e}");
    let e = refused(&[&["netlist", "expand", t], &sets[..]].concat());
    assert!(e.contains("error[vct-buffer-too-shallow]"), "{e}");
    let e = refused(&[&["run", t, "--cycles", "10"], &sets[..]].concat());
    assert!(e.contains("error[vct-buffer-too-shallow]"), "{e}");
    // The same rule through `--switching` after a `--set` of the length.
    let e = refused(&[
        "run",
        t,
        "--set",
        "max_packet_length=100",
        "--switching",
        "saf",
        "--cycles",
        "10",
    ]);
    assert!(e.contains("error[vct-buffer-too-shallow]"), "{e}");
    // A netlist with 4-flit VCT buffers: a longer declared packet is refused, not
    // written out as an explicit netlist that then fails to load.
    let all = "tests/data/ok/generator-all-keys.toml";
    let e = refused(&["netlist", "expand", all, "--set", "max_packet_length=17"]);
    assert!(e.contains("error[vct-buffer-too-shallow]"), "{e}");
    accepted(&["netlist", "expand", all, "--set", "max_packet_length=4"]);
    // Deep enough buffers make the same overrides valid.
    accepted(
        &[
            &["netlist", "check", t, "--set", "buffer_depth=100"],
            &sets[..],
        ]
        .concat(),
    );
}

#[test]
fn an_unknown_setting_lists_the_valid_keys() {
    for cmd in [
        &["netlist", "check", "netlists/torus-4x4.toml"][..],
        &["run", "netlists/torus-4x4.toml", "--cycles", "10"][..],
    ] {
        let e = refused(&[cmd, &["--set", "foo=1"][..]].concat());
        assert!(e.contains("unknown setting `foo`"), "{e}");
        for key in flitsim::netlist::SET_KEYS {
            assert!(e.contains(&format!("`{key}`")), "{key}: {e}");
        }
        let e = refused(&[cmd, &["--set", "vcs"][..]].concat());
        assert!(e.contains("key=value"), "{e}");
    }
}

#[test]
fn netlist_names_are_printable_and_expand_round_trips_them() {
    let p = netlist_file(
        "ctl-name",
        "[topology]\nkind = \"ring\"\nn = 4\n[defaults]\nvcs = 2\n",
    );
    // `netlist_file` writes `name = "ctl-name"` first; a later key would be a duplicate.
    let src = std::fs::read_to_string(&p)
        .unwrap()
        .replace("name = \"ctl-name\"", "name = \"a\\nb\\u0000c\"");
    std::fs::write(&p, src).unwrap();
    let e = refused(&["netlist", "check", p.to_str().unwrap()]);
    assert!(
        e.contains("error[bad-value]") && e.contains("control character"),
        "{e}"
    );
    // A name built in code with any characters is escaped when written out.
    let mut n = flitsim::netlist::topology::ring(4);
    n.name = "odd\nname\u{0}\"'''".into();
    let text = flitsim::netlist::expand(&n);
    let again = flitsim::netlist::parse_str(&text, std::path::Path::new("e.toml"));
    // Loading refuses the control characters, by name, at the `name` key.
    let d = again.unwrap_err();
    assert_eq!(d.len(), 1, "{d}");
    assert!(d.to_string().contains("control character"), "{d}");
    // Printable names round-trip exactly, quotes included.
    n.name = "quoted \"name\" with ''' and \\".into();
    let again = flitsim::netlist::parse_str(
        &flitsim::netlist::expand(&n),
        std::path::Path::new("e.toml"),
    )
    .unwrap();
    assert_eq!(again.name, n.name);
}
