//! The fat tree (k-ary n-tree) under load: every packet reaches its destination on a
//! minimal up/down path (twice its nearest common ancestor's level), a light load is
//! delivered whole, both routings survive saturation on one VC (debug builds check flit
//! and credit conservation after every cycle), and bad parameters are refused with typed
//! errors.

use flitsim::engine::{SimConfig, Simulation};
use flitsim::netlist::topology::fat_tree;
use flitsim::netlist::{parse_str, Netlist, TerminalId};
use std::path::Path;

/// Twice the level of the nearest common ancestor of terminals `s` and `d` (`k` terminals
/// per leaf; the ancestors at level `l` agree in the leaf digits from `l` up).
fn up_down_hops(k: u32, s: TerminalId, d: TerminalId) -> u16 {
    let (mut a, mut b, mut level) = (s.0 / k, d.0 / k, 0);
    while a != b {
        (a, b, level) = (a / k, b / k, level + 1);
    }
    2 * level
}

fn with(mut n: Netlist, sets: &[(&str, &str)]) -> Netlist {
    for (k, v) in sets {
        n.set(k, v).unwrap();
    }
    n
}

#[test]
fn a_light_load_is_delivered_whole_on_minimal_up_down_paths() {
    for routing in ["minimal", "minimal-adaptive"] {
        let n = with(fat_tree(4, 3), &[("routing", routing)]);
        let config = SimConfig {
            rate: 0.05,
            length: 4,
            warmup: 300,
            cycles: 1500,
            drain: 5000,
            record_deliveries: true,
            ..SimConfig::default()
        };
        let mut sim = Simulation::new(&n, &config).unwrap();
        let r = sim.run();
        assert!(r.deadlock.is_none(), "{routing}");
        assert_eq!(r.packets.generated, r.packets.delivered, "{routing}");
        let offered = 0.2;
        let accepted = r.accepted.flits_per_terminal_cycle;
        assert!((accepted - offered).abs() < 0.03, "{routing}: {accepted}");
        let deliveries = sim.take_deliveries();
        assert!(deliveries.len() > 1000, "{routing}: {}", deliveries.len());
        for d in &deliveries {
            let want = up_down_hops(4, d.packet.source, d.dest);
            assert_eq!(d.hops, want, "{routing}: {:?} -> {:?}", d.packet, d.dest);
        }
    }
}

#[test]
fn both_routings_survive_saturation_on_one_vc() {
    for routing in ["minimal", "minimal-adaptive"] {
        let n = with(fat_tree(4, 2), &[("routing", routing), ("vcs", "1")]);
        let config = SimConfig {
            rate: 0.2,
            length: 4,
            warmup: 1000,
            cycles: 3000,
            watchdog: 1000,
            ..SimConfig::default()
        };
        let r = Simulation::new(&n, &config).unwrap().run();
        assert!(r.deadlock.is_none(), "{routing}: {:?}", r.deadlock);
        let accepted = r.accepted.flits_per_terminal_cycle;
        assert!(r.saturated, "{routing}: accepted {accepted}");
        assert!(accepted > 0.3, "{routing} still delivers: {accepted}");
    }
}

#[test]
fn bad_parameters_and_misfits_are_refused() {
    let src = |k: u32, n: u32, extra: &str| {
        format!("{extra}[topology]\nkind = \"fat-tree\"\nk = {k}\nn = {n}\n")
    };
    for (k, n) in [(1, 2), (33, 2), (4, 0), (4, 21), (32, 6)] {
        let e = parse_str(&src(k, n, ""), Path::new("ft.toml")).unwrap_err();
        assert_eq!(e.errors[0].code(), "bad-topology", "k={k} n={n}: {e:?}");
    }
    let e = parse_str(&src(4, 2, "concentration = 2\n"), Path::new("ft.toml")).unwrap_err();
    assert_eq!(e.errors[0].code(), "bad-value", "{e:?}");
    assert!(parse_str(&src(4, 2, ""), Path::new("ft.toml")).is_ok());
    let e = parse_str(
        "[topology]\nkind = \"fat-tree\"\nk = 4\n",
        Path::new("ft.toml"),
    )
    .unwrap_err();
    assert_eq!(e.errors[0].code(), "missing-key", "{e:?}");
    // Request/reply needs one terminal per router, and a fat tree has no concentration to lower.
    let e = parse_str(
        &src(4, 2, "[defaults]\nreply_length = 4\n"),
        Path::new("ft.toml"),
    )
    .unwrap_err();
    let text = e.errors[0].to_string();
    assert!(
        text.contains("one terminal per router or `reply_length = 0`"),
        "{text}"
    );
    // Routings that do not route on the terminal itself do not fit.
    let n = with(fat_tree(4, 2), &[("routing", "table")]);
    assert!(Simulation::new(&n, &SimConfig::default()).is_err());
}

#[test]
fn run_json_echoes_the_terminal_counts_per_router() {
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_flitsim"))
        .arg("run")
        .arg(root.join("netlists/fat-tree-4ary2.toml"))
        .args([
            "--rate", "0.01", "--warmup", "50", "--cycles", "200", "--quiet",
        ])
        .arg("--json")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let config = &v["config"];
    assert_eq!(config["terminals"], 16);
    assert!(config["concentration"].is_null(), "{config}");
    assert_eq!(
        config["router_terminals"],
        serde_json::json!([[4, 4], [0, 4]])
    );
}

#[test]
fn the_text_summary_counts_routers_and_terminals() {
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let run = |netlist: &str| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_flitsim"))
            .arg("run")
            .arg(root.join(netlist))
            .args([
                "--rate", "0.01", "--warmup", "50", "--cycles", "200", "--quiet",
            ])
            .output()
            .unwrap();
        assert!(out.status.success());
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .next()
            .unwrap_or("")
            .to_string()
    };
    let tree = run("netlists/fat-tree-4ary2.toml");
    assert!(tree.contains("8 routers, 16 terminals)"), "{tree}");
    // One terminal per router: the terminals are not named twice.
    let torus = run("netlists/torus-4x4.toml");
    assert!(torus.contains("16 routers)"), "{torus}");
}
