//! `flitsim run` through the binary: the JSON field set (scripts depend on it), the
//! summary, and clear errors (never a panic) for bad flags.

use std::path::PathBuf;
use std::process::{Command, Output};

/// Writes a generator netlist into the test scratch directory and returns its path.
pub fn netlist_file(name: &str, body: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("run_cli");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{name}.toml"));
    // Tests run in parallel and share these files: write a private file and rename it into
    // place (atomic), so no test ever reads a half-written netlist.
    let tmp = dir.join(format!("{name}.{:?}.tmp", std::thread::current().id()));
    std::fs::write(&tmp, format!("name = \"{name}\"\n{body}")).unwrap();
    std::fs::rename(&tmp, &path).unwrap();
    path
}

pub fn torus_4x4() -> PathBuf {
    netlist_file(
        "torus-4x4",
        "[topology]\nkind = \"torus\"\nradix = [4, 4]\n",
    )
}

pub fn mesh_4x4() -> PathBuf {
    netlist_file("mesh-4x4", "[topology]\nkind = \"mesh\"\nradix = [4, 4]\n")
}

pub fn flitsim(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_flitsim"))
        .args(args)
        .output()
        .expect("run flitsim")
}

/// `flitsim args` under `ulimit -v kb` (address space in kB), through `sh`.
pub fn flitsim_under_ulimit(kb: u64, args: &[&str]) -> Output {
    let limit = format!("ulimit -v {kb} && exec \"$0\" \"$@\"");
    Command::new("sh")
        .args(["-c", &limit, env!("CARGO_BIN_EXE_flitsim")])
        .args(args)
        .output()
        .expect("run flitsim under sh")
}

/// Every leaf path of a JSON value (`latency.mean`), sorted.
fn leaf_paths(v: &serde_json::Value, prefix: &str, out: &mut Vec<String>) {
    match v {
        serde_json::Value::Object(m) => {
            for (k, x) in m {
                let p = if prefix.is_empty() {
                    k.clone()
                } else {
                    format!("{prefix}.{k}")
                };
                leaf_paths(x, &p, out);
            }
        }
        _ => out.push(prefix.to_string()),
    }
}

#[test]
fn json_has_the_documented_fields() {
    let net = torus_4x4();
    let out = flitsim(&[
        "run",
        net.to_str().unwrap(),
        "--rate",
        "0.01",
        "--length",
        "4",
        "--warmup",
        "200",
        "--cycles",
        "2000",
        "--json",
    ]);
    assert!(
        out.status.success(),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    let v: serde_json::Value = serde_json::from_str(&stdout).expect("one JSON object");
    for f in [
        "/latency/mean",
        "/network_latency/mean",
        "/source_queue_time/mean",
        "/hops/mean",
        "/offered/packets_per_terminal_cycle",
        "/offered/flits_per_terminal_cycle",
        "/accepted/flits_per_terminal_cycle",
        "/packets/generated",
        "/packets/delivered",
        "/packets/in_flight_end",
        "/little/measured",
        "/little/predicted",
        "/zero_load_latency",
    ] {
        assert!(
            v.pointer(f).is_some_and(|x| !x.is_null()),
            "{f} missing or null"
        );
    }
    // Batch-means interval over the fixed window.
    assert!(v["latency"]["ci95"].as_f64().is_some_and(|h| h > 0.0));
    assert!(v["deadlock"].is_null());
    assert_eq!(v["config"]["rate"], 0.01);
    assert_eq!(v["config"]["length"], 4);
    assert_eq!(v["config"]["routing"], "dor");
    assert_eq!(v["offered"]["flits_per_terminal_cycle"], 0.04);
    // Light load: everything generated is delivered, latency above the zero-load bound.
    assert_eq!(v["packets"]["in_flight_end"], 0);
    assert!(v["latency"]["mean"].as_f64().unwrap() >= v["zero_load_latency"].as_f64().unwrap());
    let mut paths = Vec::new();
    leaf_paths(&v, "", &mut paths);
    insta::assert_snapshot!("run_json_fields", paths.join("\n"));
}

#[test]
fn flags_override_the_netlist_and_are_echoed() {
    let net = torus_4x4();
    let out = flitsim(&[
        "run",
        net.to_str().unwrap(),
        "--cycles",
        "500",
        "--warmup",
        "100",
        "--json",
        "--set",
        "vcs=6",
        "--set",
        "channel_latency=3",
        "--set",
        "switch_allocator=islip",
        "--set",
        "alloc_iters=3",
        "--set",
        "speculative=true",
        "--routing",
        "dor-nodateline",
    ]);
    assert!(
        out.status.success(),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["config"]["router"]["vcs"], 6);
    assert_eq!(v["config"]["router"]["switch_allocator"], "islip");
    assert_eq!(v["config"]["router"]["alloc_iters"], 3);
    assert_eq!(v["config"]["router"]["speculative"], true);
    assert!(v["config"]["router"]["lookahead_routing"].is_null());
    assert_eq!(v["config"]["channel_latency"]["max"], 3);
    assert_eq!(v["config"]["routing"], "dor-nodateline");
    assert_eq!(v["config"]["set"][0], "vcs=6");
}

#[test]
fn summary_without_json() {
    let net = torus_4x4();
    let out = flitsim(&[
        "run",
        net.to_str().unwrap(),
        "--cycles",
        "500",
        "--warmup",
        "100",
    ]);
    assert!(out.status.success());
    let s = String::from_utf8(out.stdout).unwrap();
    for word in ["latency", "accepted", "little", "zero-load", "torus 4x4"] {
        assert!(s.contains(word), "summary lacks `{word}`:\n{s}");
    }
}

/// Runs with bad flags: non-zero exit, a message naming the problem, no panic.
fn rejects(extra: &[&str], expected: &str, net: &std::path::Path) {
    let mut args = vec!["run", net.to_str().unwrap(), "--cycles", "100"];
    args.extend_from_slice(extra);
    let out = flitsim(&args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{extra:?} was accepted");
    assert!(!stderr.contains("panicked"), "{extra:?} panicked: {stderr}");
    assert!(
        stderr.to_lowercase().contains(&expected.to_lowercase()),
        "{extra:?}: stderr does not mention `{expected}`:\n{stderr}"
    );
    assert!(out.stdout.is_empty(), "{extra:?} printed a result");
}

#[test]
fn bad_flags_give_clear_errors() {
    let t = torus_4x4();
    rejects(&["--rate", "-0.1"], "rate -0.1 is not in [0, 1]", &t);
    rejects(&["--rate", "1.5"], "rate 1.5 is not in [0, 1]", &t);
    rejects(&["--length", "0"], "packet length 0", &t);
    rejects(&["--routing", "no-such-routing"], "no-such-routing", &t);
    rejects(
        &["--routing", "dor-nodateline"],
        "dor-nodateline",
        &mesh_4x4(),
    );
    rejects(&["--set", "vcs"], "key=value", &t);
    rejects(&["--set", "bogus=1"], "bogus", &t);
    rejects(&["--set", "vcs=x"], "vcs", &t);
    rejects(&["--set", "vcs=1"], "vcs", &t); // dateline DOR needs 2 VC classes
    rejects(
        &["--set", "alloc_iters=0"],
        "expected an integer from 1 to 64",
        &t,
    );
    rejects(
        &["--set", "vc_allocator=lonely"],
        "islip, wavefront, pim",
        &t,
    );
    rejects(&["--traffic", "nope"], "nope", &t);
    rejects(&["--ci-target", "-1"], "--ci-target -1 is out of range", &t);
    rejects(&["--max-cycles", "0"], "0 is not in 1..", &t);
    rejects(&[], "", &PathBuf::from("/nonexistent/netlist.toml"));
}

/// `flitsim trace`'s own flags: an empty cycle range and malformed injections are errors
/// that say what to give, before anything is simulated.
#[test]
fn bad_trace_flags_give_clear_errors() {
    let t = torus_4x4();
    let net = t.to_str().unwrap();
    for (flags, says) in [
        (
            &["--from", "10", "--to", "5"][..],
            "--from 10 --to 5: the first cycle",
        ),
        (&["--inject", "0:0:2:0"][..], "needs at least 1 flit"),
        (&["--inject", "a:b"][..], "expected CYCLE:SRC:DST:LEN"),
        (&["--inject", "0:0:99:4"][..], "terminal 99 does not exist"),
    ] {
        let mut args = vec!["trace", net, "--rate", "0"];
        args.extend_from_slice(flags);
        let out = flitsim(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{flags:?}: {err}");
        assert!(
            err.contains(says) && err.contains("help:"),
            "{flags:?}: {err}"
        );
        assert!(!err.contains("panicked"), "{err}");
    }
}

/// Output files that cannot be written are refused before anything is simulated, naming
/// the flag (a sweep or a depth search takes minutes; the error must not wait for it).
#[test]
fn unwritable_output_files_are_refused_up_front() {
    let t = torus_4x4();
    let net = t.to_str().unwrap();
    let bad = "/nonexistent-flitsim-dir/out";
    for args in [
        &["sweep", net, "--rates", "auto", "-q", "--plot", bad][..],
        &["sweep", net, "--rates", "0.01", "-q", "--csv", bad][..],
        &["buffers", net, "--plot", bad][..],
        &["check", net, "--plot", bad][..],
    ] {
        let out = flitsim(args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        let flag = args[args.len() - 2];
        assert!(
            err.contains(&format!("{flag} {bad}: cannot write the file")) && err.contains("help:"),
            "{args:?}: {err}"
        );
        assert!(
            out.stdout.is_empty(),
            "{args:?}: nothing simulated or printed"
        );
    }
}

/// Values that would make `run` panic or abort on allocation (a buffer, delay line or
/// pipeline ring sized by them) are refused where they enter: the netlist's file and line,
/// or the `--set` key and its limit; a non-zero exit and no panic.
#[test]
fn huge_values_are_refused_not_allocated() {
    let torus = include_str!("../netlists/torus-8x8.toml");
    for (from, to, code) in [
        (
            "buffer_depth = 8",
            "buffer_depth = 3000000000",
            "buffer-depth-too-large",
        ),
        (
            "buffer_depth = 8",
            "buffer_depth = 100000000",
            "buffer-depth-too-large",
        ),
        (
            "channel_latency = 1 ",
            "channel_latency = 4000000000 ",
            "channel-latency-too-large",
        ),
        (
            "terminal_latency = 1 ",
            "terminal_latency = 4000000000 ",
            "terminal-latency-too-large",
        ),
        (
            "buffer_depth = 8",
            "buffer_depth = 8\ncredit_delay = 4000000000",
            "delay-too-large",
        ),
        (
            "buffer_depth = 8",
            "buffer_depth = 8\nalloc_iters = 65",
            "alloc-iters-out-of-range",
        ),
    ] {
        let body = torus.replacen(from, to, 1);
        assert_ne!(body, torus);
        // `netlist_file` puts a `name` line first.
        let body = body.replacen("name = \"torus-8x8\"\n", "", 1);
        let line = 2 + body
            .lines()
            .position(|l| l.starts_with(to.lines().last().unwrap()))
            .unwrap();
        let net = netlist_file(&format!("huge-{code}"), &body);
        let out = flitsim(&["run", net.to_str().unwrap(), "--cycles", "100"]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{to} was accepted");
        assert!(!stderr.contains("panicked"), "{to} panicked: {stderr}");
        let at = format!("{}:{line}:", net.display());
        assert!(
            stderr.contains(&at) && stderr.contains(&format!("error[{code}]")),
            "{to}: no {at} error[{code}] in\n{stderr}"
        );
        assert!(stderr.contains("help: set "), "{stderr}");
        assert!(out.stdout.is_empty(), "{to} printed a result");
    }
    let t = torus_4x4();
    for key in [
        "switch_alloc_delay",
        "crossbar_delay",
        "credit_delay",
        "routing_delay",
        "vc_alloc_delay",
        "channel_latency",
        "terminal_latency",
    ] {
        rejects(
            &["--set", &format!("{key}=4000000000")],
            &format!("`{key}`: expected an integer from"),
            &t,
        );
    }
    rejects(
        &["--set", "buffer_depth=3000000000"],
        "expected an integer from 1 to 65536 (flits)",
        &t,
    );
}

/// A network whose values are each within bounds but whose buffers together exceed the
/// memory (torus 4x4, 255 VCs of 65536 flits per port: about 59 GB of FIFOs) is refused
/// before anything is allocated, with the estimate, its largest part and what to lower;
/// exit 1, no abort. Run under `ulimit -v` (8 GB) so that the limit, the lower of it and
/// the machine's memory, does not depend on the machine, and a failed check could not
/// exhaust it.
#[test]
fn a_network_larger_than_memory_is_refused_before_allocation() {
    let net = concat!(env!("CARGO_MANIFEST_DIR"), "/netlists/torus-4x4.toml");
    let out = flitsim_under_ulimit(
        8000000,
        &[
            "run",
            net,
            "--set",
            "vcs=255",
            "--set",
            "buffer_depth=65536",
            "--rate",
            "0.01",
        ],
    );
    // 16 x 5 x 255 FIFOs of 65536 slots of 36 bytes (48.1 GB) and 65537 occupancy levels
    // of 4 bytes (5.3 GB).
    assert_refused_for_memory(
        &out,
        "53.5 GB",
        "(input FIFOs 53.5 GB: 16 routers x 5 ports x 255 VCs x 65536 flits)",
        "lower buffer_depth or vcs (--set)",
    );
}

/// A network whose allocators exceed the memory (torus 4x4, 255 VCs per port and matrix
/// arbiters: per router 1275 x 1275 VCs, VA's 2550 matrix arbiters of 1275 requesters,
/// about 8.3 GB) is refused before anything is allocated, naming the allocators and the
/// cheaper arbiter; exit 1. Under `ulimit -v` (4 GB), as above, so that a failed check
/// could not exhaust the machine.
#[test]
fn a_network_whose_allocators_exceed_memory_is_refused_before_allocation() {
    let net = concat!(env!("CARGO_MANIFEST_DIR"), "/netlists/torus-4x4.toml");
    let out = flitsim_under_ulimit(
        4000000,
        &[
            "run",
            net,
            "--set",
            "vcs=255",
            "--set",
            "arbiter=matrix",
            "--rate",
            "0.01",
        ],
    );
    // Per router 2 x 1275 matrix arbiters of 1275 rows of 20 words (204,000 bytes each):
    // 16 x 2550 x 204,000 = 8.32 GB, beside which the rest is small.
    assert_refused_for_memory(
        &out,
        "8.3 GB",
        "(allocators 8.3 GB: 16 routers, up to 1275 input VCs x 1275 output VCs, matrix arbiters)",
        "use round-robin arbiters (--set arbiter=round-robin) or lower vcs (--set)",
    );
}

/// `out` is the memory check's refusal: exit 1, no abort or panic, nothing printed, the
/// error naming the network's `total` and its largest part (`part`, with what sizes it),
/// and the help `help`.
fn assert_refused_for_memory(out: &Output, total: &str, part: &str, help: &str) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(!stderr.contains("memory allocation"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "error: the network needs about {total} for buffers, channels, router state and set-up {part}, more than the "
        )),
        "{stderr}"
    );
    assert!(stderr.contains(&format!("help: {help}")), "{stderr}");
    assert!(out.stdout.is_empty(), "a result was printed");
}

/// An engine refusal prints `error:` once: a located netlist diagnostic as netlist
/// errors are, any other as `error: MESSAGE` and its help line.
#[test]
fn engine_errors_say_error_once_with_help_on_its_own_line() {
    let out = flitsim(&[
        "run",
        "netlists/torus-8x8.toml",
        "--switching",
        "vct",
        "--length",
        "20",
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.starts_with("netlists/torus-8x8.toml:"),
        "located like a netlist error: {stderr}"
    );
    assert_eq!(stderr.matches("error").count(), 1, "{stderr}");
    assert!(
        stderr.contains(": error[vct-buffer-too-shallow]: "),
        "{stderr}"
    );
    assert!(
        stderr.contains("\nhelp: set buffer_depth >= 20"),
        "{stderr}"
    );
    let out = flitsim(&["run", "netlists/torus-8x8.toml", "--rate", "2"]);
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: rate 2 is not in [0, 1] (packets per terminal per cycle)\n\
         help: pass --rate between 0 and 1, e.g. --rate 0.01\n"
    );
    assert_eq!(out.status.code(), Some(1));
}

/// Exit 1 with a typed refusal or exit 0 with a result: never an allocation abort, a
/// panic or a signal.
fn assert_refused_or_ran(out: &Output) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("memory allocation of"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    match out.status.code() {
        Some(0) => assert!(!out.stdout.is_empty(), "no result printed"),
        Some(1) => assert!(
            stderr.contains("error: the network needs about"),
            "{stderr}"
        ),
        other => panic!("exit {other:?} (a signal?): {stderr}"),
    }
}

/// Channels of 65535 cycles under an address-space limit: torus 16x16 needs about 4 GB
/// of delay lines, so under 3 GB it is refused before anything is allocated; torus 4x4
/// needs about 304 MB, and runs to the end under 400 MB, as its delay lines are reserved
/// exactly rather than grown by doubling.
#[test]
fn long_channels_under_an_address_space_limit_are_refused_or_run() {
    let run = |kb, netlist| {
        flitsim_under_ulimit(
            kb,
            &[
                "run",
                netlist,
                "--set",
                "channel_latency=65535",
                "--warmup",
                "10",
                "--cycles",
                "100",
                "--threads",
                "1",
            ],
        )
    };
    let out = run(3_000_000, "netlists/torus-16x16.toml");
    assert_refused_or_ran(&out);
    assert_eq!(out.status.code(), Some(1));
    let out = run(400_000, "netlists/torus-4x4.toml");
    assert_refused_or_ran(&out);
    assert_eq!(out.status.code(), Some(0));
}
