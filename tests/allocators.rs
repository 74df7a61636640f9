//! The allocators in whole networks: iSLIP with one round is separable output-first, and
//! `alloc_iters` reaches the iterative allocators.

use crate::run_cli::flitsim;
use std::path::PathBuf;

/// `run --json` on torus 8x8 near saturation with `set` flags, without `perf` and
/// `config` (which names the settings).
fn result(set: &[&str]) -> serde_json::Value {
    let net = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("netlists/torus-8x8.toml");
    let mut args = vec![
        "run",
        net.to_str().unwrap(),
        "--rate",
        "0.04",
        "--length",
        "12",
        "--warmup",
        "300",
        "--cycles",
        "1200",
        "--json",
    ];
    for s in set {
        args.extend(["--set", s]);
    }
    let out = flitsim(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let o = v.as_object_mut().unwrap();
    o.remove("perf");
    o.remove("config");
    v
}

#[test]
fn islip_with_one_round_moves_the_flits_output_first_moves() {
    // iSLIP runs its general path, output-first its one-word paths: the same grants.
    let islip = result(&["vc_allocator=islip", "switch_allocator=islip"]);
    let output_first = result(&[
        "vc_allocator=separable-output-first",
        "switch_allocator=separable-output-first",
    ]);
    assert_eq!(islip, output_first);
    // Input-first grants differently under this load.
    assert_ne!(islip, result(&[]));
}

#[test]
fn alloc_iters_changes_the_iterative_allocators_only() {
    for kind in ["islip", "pim"] {
        let (va, sa) = (
            format!("vc_allocator={kind}"),
            format!("switch_allocator={kind}"),
        );
        let one = result(&[&va, &sa]);
        assert_ne!(one, result(&[&va, &sa, "alloc_iters=3"]), "{kind}");
    }
    let w = ["vc_allocator=wavefront", "switch_allocator=wavefront"];
    assert_eq!(result(&w), result(&[w[0], w[1], "alloc_iters=3"]));
}
