//! `flitsim import booksim`: single packets take BookSim's latency, the mapping is printed,
//! unknown and unsupported keys are refused by name, command-line overrides win.
//!
//! BookSim's input-queued router (its iq_router.cpp): a flit read from a channel at cycle
//! t is buffered and routed in t (routing_delay cycles, the first being t itself), VC
//! allocation and switch allocation follow (vc_alloc_delay, sw_alloc_delay), then the
//! crossbar (st_prepare_delay + st_final_delay) ends by writing the flit to the output
//! channel of latency L, read by the next router L cycles later. A packet is generated at
//! cycle g, written to its 1-cycle injection channel at g and read by its router at g + 2;
//! the ejection channel takes 1 cycle and the tail retires when read. So a packet of M
//! flits over H router-to-router hops takes
//!
//!   T = 3 + (H + 1)(rd + va + sa + st) + H L + (M - 1)
//!
//! cycles from generation to tail (BookSim's `plat`). Each expected value below is this
//! formula; each was also read from the watch output of BookSim 2 (commit 28f4329, its
//! `watch_packets = {0}`), as the comments say.

use std::path::{Path, PathBuf};
use std::process::Command;

fn flitsim(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_flitsim"))
        .args(args)
        .output()
        .expect("run flitsim");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// Writes `text` to `name` in the test's scratch directory.
fn cfg(name: &str, text: &str) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// Imports `config` with `overrides` into `<config>.toml`; returns the netlist path and the
/// printed mapping.
fn import(config: &Path, overrides: &[&str]) -> (PathBuf, String) {
    let out = config.with_extension("toml");
    let mut args = vec!["import", "booksim", config.to_str().unwrap()];
    args.extend_from_slice(overrides);
    args.extend_from_slice(&["--out", out.to_str().unwrap()]);
    let (code, stdout, stderr) = flitsim(&args);
    assert_eq!(code, 0, "{stderr}");
    (out, stdout)
}

/// The latency of one packet of `len` flits from terminal `src` to `dst`, alone.
fn one_packet(netlist: &Path, src: u32, dst: u32, len: u32) -> u64 {
    let inject = format!("0:{src}:{dst}:{len}");
    let (code, stdout, stderr) = flitsim(&[
        "trace",
        netlist.to_str().unwrap(),
        "--rate",
        "0",
        "--inject",
        &inject,
    ]);
    assert_eq!(code, 0, "{stderr}");
    let latency = stdout
        .split_whitespace()
        .find_map(|w| w.strip_prefix("latency="))
        .expect("the packet is delivered");
    latency.parse().unwrap()
}

/// BookSim's zero-load latency (the formula above).
fn booksim_latency(hops: u64, stages: u64, channel: u64, len: u64) -> u64 {
    3 + (hops + 1) * stages + hops * channel + (len - 1)
}

const LINE: &str = "// a line of four routers
topology = mesh;
k = 4;
n = 1;
routing_function = dim_order;
num_vcs = 4;
vc_buf_size = 8;
vc_allocator = separable_output_first;
sw_allocator = separable_output_first;
traffic = neighbor;
injection_rate = 0.0005;
";

#[test]
fn one_packet_across_a_mesh_line_takes_booksims_latency() {
    let config = cfg("line.cfg", LINE);
    // Node 3 to node 0: 3 hops over 1-cycle channels, 4-cycle routers. BookSim: 22.
    let (netlist, _) = import(&config, &[]);
    assert_eq!(one_packet(&netlist, 3, 0, 1), booksim_latency(3, 4, 1, 1));
    assert_eq!(booksim_latency(3, 4, 1, 1), 22);
    // 5 flits, no routing cycle. BookSim: 22.
    let (netlist, _) = import(&config, &["packet_size=5", "routing_delay=0"]);
    assert_eq!(one_packet(&netlist, 3, 0, 5), booksim_latency(3, 3, 1, 5));
    // Every stage lengthened once. BookSim: 26 each.
    for stage in [
        "vc_alloc_delay=2",
        "sw_alloc_delay=2",
        "st_final_delay=2",
        "st_prepare_delay=1",
    ] {
        let (netlist, _) = import(&config, &[stage]);
        assert_eq!(
            one_packet(&netlist, 3, 0, 1),
            booksim_latency(3, 5, 1, 1),
            "{stage}"
        );
    }
    // k = 8, node 7 to node 2 (5 hops), 4 flits. BookSim: 35.
    let (netlist, _) = import(&config, &["k=8"]);
    assert_eq!(one_packet(&netlist, 7, 2, 4), booksim_latency(5, 4, 1, 4));
    // A 2-ary 3-mesh is the binary 3-cube: node 7 to node 0 is 3 hops. BookSim: 22; and
    // in the 6-cube node 55 to node 8 (all 6 bits differ: 6 hops), 4 flits: 40.
    let (netlist, _) = import(&config, &["k=2", "n=3"]);
    assert!(std::fs::read_to_string(&netlist)
        .unwrap()
        .contains("kind = \"hypercube\""));
    assert_eq!(one_packet(&netlist, 7, 0, 1), booksim_latency(3, 4, 1, 1));
    let (netlist, _) = import(&config, &["k=2", "n=6"]);
    assert_eq!(one_packet(&netlist, 55, 8, 4), booksim_latency(6, 4, 1, 4));
}

#[test]
fn one_packet_around_a_torus_takes_booksims_latency() {
    let config = cfg("ring.cfg", &LINE.replace("mesh", "torus"));
    // BookSim's torus channels take 2 cycles. Node 3 to node 0 wraps: 1 hop. BookSim: 13.
    let (netlist, _) = import(&config, &[]);
    assert_eq!(one_packet(&netlist, 3, 0, 1), booksim_latency(1, 4, 2, 1));
    // k = 8, node 7 to node 2: 3 hops across the wrap link. BookSim: 25; with 4 flits and
    // 2-cycle VC allocation, 32.
    let (netlist, _) = import(&config, &["k=8"]);
    assert_eq!(one_packet(&netlist, 7, 2, 1), booksim_latency(3, 4, 2, 1));
    let (netlist, _) = import(&config, &["k=8", "vc_alloc_delay=2"]);
    assert_eq!(one_packet(&netlist, 7, 2, 4), booksim_latency(3, 5, 2, 4));
    // 4x4 torus, node 7 (3,1) to node 8 (0,2): one hop in x (wrap), one in y. BookSim: 20.
    let (netlist, _) = import(&config, &["k=4", "n=2"]);
    assert_eq!(one_packet(&netlist, 7, 8, 2), booksim_latency(2, 4, 2, 2));
    // A 2-ary 3-cube torus keeps two parallel 2-cycle channels per dimension: node 7 to
    // node 0 is 3 hops. BookSim: 25.
    let (netlist, _) = import(&config, &["k=2", "n=3"]);
    assert_eq!(one_packet(&netlist, 7, 0, 1), booksim_latency(3, 4, 2, 1));
    // Without BookSim's NoC layout every channel takes 1 cycle.
    let (netlist, _) = import(&config, &["k=8", "use_noc_latency=0"]);
    assert_eq!(one_packet(&netlist, 7, 2, 1), booksim_latency(3, 4, 1, 1));
}

#[test]
fn a_packet_held_back_by_credits_takes_booksims_latency() {
    // Buffers shorter than the credit round trip: the packet's pace is set by the credit
    // loop, so these check the credit path too. Expected values are BookSim's `plat` for
    // packet 0 (node 7 to node 2, 16 flits), read from its watch output.
    for (topology, buffers, overrides, booksim) in [
        ("mesh", "2", &[][..], 68),
        ("mesh", "3", &[][..], 57),
        ("mesh", "4", &["credit_delay=2"][..], 56),
        ("mesh", "5", &[][..], 47),
        ("torus", "2", &[][..], 75),
        ("torus", "3", &[][..], 60),
        ("torus", "4", &["credit_delay=2"][..], 55),
        ("torus", "5", &[][..], 46),
    ] {
        let config = cfg(
            &format!("credits-{topology}.cfg"),
            &LINE.replace("mesh", topology),
        );
        let depth = format!("vc_buf_size={buffers}");
        let mut args = vec!["k=8", depth.as_str()];
        args.extend_from_slice(overrides);
        let (netlist, _) = import(&config, &args);
        assert_eq!(
            one_packet(&netlist, 7, 2, 16),
            booksim,
            "{topology} {args:?}"
        );
    }
}

#[test]
fn the_mapping_is_printed_key_by_key() {
    let config = cfg(
        "mapped.cfg",
        &format!("{LINE}packet_size = 12;\nvc_allocator = islip;\nsample_period = 500;\n"),
    );
    let (netlist, mapping) = import(
        &config,
        &["injection_rate=0.24", "injection_rate_uses_flits=1"],
    );
    let path = config.display();
    for line in [
        format!("topology = mesh ({path}:2) -> [topology] kind = \"mesh\", radix = [4]"),
        format!("num_vcs = 4 ({path}:6) -> vcs = 4"),
        format!("vc_buf_size = 8 ({path}:7) -> buffer_depth = 8"),
        "routing_delay = 1 (BookSim default) -> routing_delay = 1".to_string(),
        "wait_for_tail_credit = 0 (BookSim default) -> vc_release = \"tail\"".to_string(),
        format!("traffic = neighbor ({path}:10) -> --traffic neighbor"),
        format!("packet_size = 12 ({path}:12) -> --length 12"),
        "injection_rate = 0.24 (override 1) -> --rate 0.02 (flits / 12 flits per packet)"
            .to_string(),
        format!("sample_period = 500 ({path}:14) -> --cycles 3500"),
    ] {
        assert!(mapping.contains(&line), "missing `{line}` in\n{mapping}");
    }
    // iSLIP maps to flitsim's iSLIP, with BookSim's one round.
    assert!(
        mapping.contains(&format!(
            "vc_allocator = islip ({path}:13) -> vc_allocator = \"islip\""
        )),
        "{mapping}"
    );
    assert!(mapping.contains(&format!(
        "flitsim run {} --traffic neighbor --length 12 --rate 0.02 --warmup 1500 --cycles 3500 --seed 0",
        netlist.display()
    )), "{mapping}");
    let toml = std::fs::read_to_string(&netlist).unwrap();
    for line in [
        "channel_latency = 2",
        "terminal_latency = 2",
        "crossbar_delay = 0",
        "credit_delay = 0",
        "vc_allocator = \"islip\"",
        "alloc_iters = 1",
    ] {
        assert!(toml.contains(line), "missing `{line}` in\n{toml}");
    }
}

#[test]
fn booksims_example_configs_import_or_are_refused_by_name() {
    // The settings of BookSim's src/examples/torus88: imported, with the allocators
    // BookSim defaults to (iSLIP).
    let torus88 = cfg(
        "torus88",
        "topology = torus;\nk = 8;\nn = 2;\nrouting_function = dim_order;\nnum_vcs = 2;\ntraffic = uniform;\ninjection_rate = 0.15;\n",
    );
    let (netlist, mapping) = import(&torus88, &[]);
    assert!(mapping.contains("num_vcs = 2 ("), "{mapping}");
    assert!(
        mapping.contains("vc_allocator = islip (BookSim default) -> vc_allocator = \"islip\""),
        "{mapping}"
    );
    assert!(
        mapping.contains(
            "--traffic uniform-all --length 1 --rate 0.15 --warmup 3000 --cycles 7000 --seed 0"
        ),
        "{mapping}"
    );
    assert!(std::fs::read_to_string(netlist)
        .unwrap()
        .contains("channel_latency = 3"));
    // The settings of src/examples/mesh88_lat: its input speedup of 2 carries over.
    let mesh88 = cfg(
        "mesh88_lat",
        "topology = mesh;\nk = 8;\nn = 2;\nrouting_function = dor;\nnum_vcs = 8;\nvc_buf_size = 8;\nwait_for_tail_credit = 1;\nvc_allocator = islip;\nsw_allocator = islip;\nalloc_iters = 1;\ncredit_delay = 2;\nrouting_delay = 0;\nvc_alloc_delay = 1;\nsw_alloc_delay = 1;\ninput_speedup = 2;\noutput_speedup = 1;\ninternal_speedup = 1.0;\ntraffic = transpose;\npacket_size = 20;\nsim_type = latency;\ninjection_rate = 0.005;\n",
    );
    let (netlist, mapping) = import(&mesh88, &[]);
    assert!(
        mapping.contains("--traffic transpose --length 20 --rate 0.005"),
        "{mapping}"
    );
    let text = std::fs::read_to_string(netlist).unwrap();
    assert!(text.contains("input_speedup = 2"), "{text}");
    assert!(!text.contains("output_speedup"), "{text}");
    // Beyond flitsim's largest speedup the import stops at the key.
    let (code, _, stderr) = flitsim(&[
        "import",
        "booksim",
        mesh88.to_str().unwrap(),
        "output_speedup=5",
    ]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("output_speedup"), "{stderr}");
}

#[test]
fn command_line_overrides_win_over_the_file() {
    let config = cfg("override.cfg", LINE);
    let (netlist, mapping) = import(
        &config,
        &["num_vcs=8", "num_vcs=6", "wait_for_tail_credit=1"],
    );
    assert!(
        mapping.contains("num_vcs = 6 (override 2) -> vcs = 6"),
        "{mapping}"
    );
    let toml = std::fs::read_to_string(netlist).unwrap();
    assert!(toml.contains("vcs = 6\n"), "{toml}");
    assert!(toml.contains("vc_release = \"credits\""), "{toml}");
    assert!(toml.contains("speculative = false"), "{toml}");
    // BookSim's speculative switch allocation maps to flitsim's.
    let (netlist, mapping) = import(&config, &["speculative=1"]);
    assert!(
        mapping.contains("speculative = 1 (override 1) -> speculative = true"),
        "{mapping}"
    );
    let toml = std::fs::read_to_string(netlist).unwrap();
    assert!(toml.contains("speculative = true"), "{toml}");
}

#[test]
fn unknown_and_unsupported_keys_are_refused_by_name() {
    let refused = |name: &str, text: &str, overrides: &[&str], expected: &[&str]| {
        let config = cfg(name, text);
        let mut args = vec!["import", "booksim", config.to_str().unwrap()];
        args.extend_from_slice(overrides);
        let (code, _, stderr) = flitsim(&args);
        assert_eq!(code, 1, "{stderr}");
        for e in expected {
            assert!(stderr.contains(e), "missing `{e}` in\n{stderr}");
        }
        assert!(stderr.contains("help: "), "{stderr}");
        assert!(!config.with_extension("toml").exists(), "nothing written");
    };
    let path = |name: &str| cfg(name, "").display().to_string();
    refused(
        "typo.cfg",
        &format!("{LINE}num_vc = 4;\n"),
        &[],
        &[
            &format!("{}:12: unknown BookSim key `num_vc`", path("typo.cfg")),
            "did you mean `num_vcs`?",
        ],
    );
    refused(
        "typo-override.cfg",
        LINE,
        &["vc_buffer_size=4"],
        &[
            "override 1: unknown BookSim key `vc_buffer_size`",
            "`vc_buf_size`",
        ],
    );
    refused(
        "onoff-three.cfg",
        &format!("{LINE}injection_process = on_off;\nburst_r1 = 0.5;\n"),
        &[],
        &["exactly one of burst_alpha, burst_beta and burst_r1 must be negative"],
    );
    refused(
        "spec.cfg",
        &format!("{LINE}speculative = 2;\n"),
        &[],
        &["`speculative = 2`: expected an integer from 0 to 1"],
    );
    refused(
        "fly.cfg",
        &LINE.replace("mesh", "fly"),
        &[],
        &["`topology = fly` cannot be imported"],
    );
    refused(
        "classes.cfg",
        &format!("{LINE}injection_rate = {{0.1,0.2}};\n"),
        &[],
        &["one value per traffic class"],
    );
    refused(
        "seed.cfg",
        &format!("{LINE}seed = time;\n"),
        &[],
        &["`seed = time`"],
    );
    refused(
        "syntax.cfg",
        "k = 4;\nn = 1\n",
        &[],
        &[&format!(
            "{}:2: `n = 1` is not ended by `;`",
            path("syntax.cfg")
        )],
    );
    refused(
        "big.cfg",
        LINE,
        &["k=1100", "n=2"],
        &["`k = 1100`", "1048576"],
    );
    refused(
        "none.cfg",
        &LINE.replace("routing_function = dim_order;", ""),
        &[],
        &["`routing_function = none`", "no default routing function"],
    );
}

#[test]
fn torus_dor_maps_booksims_tie_and_dateline_rules() {
    let config = cfg("torus-rules.cfg", &LINE.replace("mesh", "torus"));
    let (netlist, mapping) = import(&config, &["k=8", "n=2"]);
    let toml = std::fs::read_to_string(netlist).unwrap();
    // BookSim's dim_order_torus picks + or - at random at distance k/2 when the packet
    // turns into the dimension, and fixes the VC class at dimension entry.
    assert!(
        mapping.contains("routing = \"dor\", dor_tie = \"balanced\", dateline = \"entry\""),
        "{mapping}"
    );
    assert!(
        toml.contains("dor_tie = \"balanced\"") && toml.contains("dateline = \"entry\""),
        "{toml}"
    );
    // A mesh has neither rule.
    let (netlist, _) = import(&cfg("mesh-rules.cfg", LINE), &[]);
    assert!(!std::fs::read_to_string(netlist)
        .unwrap()
        .contains("dor_tie"));
}

#[test]
fn the_imported_experiment_runs() {
    let config = cfg("run.cfg", &format!("{LINE}sample_period = 200;\nwarmup_periods = 1;\nmax_samples = 3;\ninjection_rate = 0.05;\n"));
    let (code, stdout, stderr) = flitsim(&[
        "import",
        "booksim",
        config.to_str().unwrap(),
        "--run",
        "--",
        "--json",
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains("equivalent run:"),
        "the mapping goes to stderr: {stderr}"
    );
    let report: serde_json::Value = serde_json::from_str(&stdout).expect("one JSON object");
    assert_eq!(report["config"]["rate"], 0.05, "{report}");
    assert_eq!(report["config"]["warmup"], 200, "{report}");
}

#[test]
fn on_off_injection_is_imported_with_the_derived_parameter() {
    // beta derived: alpha (r1 - rate) / rate = 0.5 (0.5 - 0.25) / 0.25 = 0.5.
    let config = cfg(
        "onoff.cfg",
        &format!("{LINE}injection_process = on_off;\nburst_alpha = 0.5;\nburst_beta = -1;\nburst_r1 = 0.5;\ninjection_rate = 0.25;\nsample_period = 100;\nwarmup_periods = 1;\nmax_samples = 2;\n"),
    );
    let (_, mapping) = import(&config, &[]);
    assert!(mapping.contains("--injection onoff:0.5:0.5"), "{mapping}");
    let (code, stdout, stderr) = flitsim(&[
        "import",
        "booksim",
        config.to_str().unwrap(),
        "--run",
        "--",
        "--json",
    ]);
    assert_eq!(code, 0, "{stderr}");
    let report: serde_json::Value = serde_json::from_str(&stdout).expect("one JSON object");
    assert_eq!(report["config"]["injection"], "onoff:0.5:0.5", "{report}");
    // alpha derived would need r1 > rate; r1 = 1.2 is out of range for BookSim too.
    let over = cfg(
        "onoff-over.cfg",
        &format!("{LINE}injection_process = on_off;\nburst_alpha = 0.1;\nburst_beta = 0.9;\ninjection_rate = 0.2;\n"),
    );
    let (code, _, stderr) = flitsim(&["import", "booksim", over.to_str().unwrap()]);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("r1 = rate (ALPHA + BETA) / ALPHA"),
        "{stderr}"
    );
}

#[test]
fn the_power_keys_map_to_the_cost_model_and_a_channel_sweep_is_refused() {
    // BookSim's technology file format, 32 nm values, wire of 3 mm per cycle.
    let tech = cfg(
        "tech.txt",
        "H_INVD2 = 8;\nW_INVD2 = 3;\nH_DFQD1 = 8;\nW_DFQD1 = 16;\nH_ND2D1 = 8;\nW_ND2D1 = 3;\n\
         H_SRAM = 8;\nW_SRAM = 6;\nVdd = 0.9;\nR = 606.321;\nIoffSRAM = 0.00000032;\n\
         IoffP = 0.00000102;\nIoffN = 0.00000102;\nCg_pwr = 0.000000000000000534;\n\
         Cd_pwr = 0.000000000000000267;\nCgdl = 0.0000000000000001068;\n\
         Cg = 0.000000000000000534;\nCd = 0.000000000000000267;\nLAMBDA = 0.016;\n\
         MetalPitch = 0.000080;\nRw = 0.720044;\nCw_gnd = 0.000000000000267339;\n\
         Cw_cpl = 0.000000000000267339;\nwire_length = 3.0;\n",
    );
    let text = format!(
        "{}sim_power = 1;\nchannel_width = 64;\ntech_file = {};\n",
        LINE.replace("mesh", "torus"),
        tech.display()
    );
    let config = cfg("power.cfg", &text);
    let (netlist, mapping) = import(&config, &[]);
    assert!(mapping.contains("--cost-model booksim"), "{mapping}");
    let toml = std::fs::read_to_string(&netlist).unwrap();
    // A BookSim torus channel has latency 2 (use_noc_latency): 6 mm; terminal channels 3 mm.
    for line in [
        "flit_width = 64",
        "channel_length_mm = 6.0",
        "terminal_channel_length_mm = 3.0",
    ] {
        assert!(toml.contains(line), "missing `{line}` in\n{toml}");
    }
    let sweep = cfg("sweep.cfg", &format!("{LINE}channel_sweep = 8;\n"));
    let (code, _, stderr) = flitsim(&["import", "booksim", sweep.to_str().unwrap()]);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("`channel_sweep = 8` cannot be imported"),
        "{stderr}"
    );
}

#[test]
fn every_refused_setting_is_reported_in_one_pass_under_one_error_prefix() {
    let config = cfg(
        "three-refused.cfg",
        &format!("{LINE}hold_switch_for_packet = 1;\ninternal_speedup = 2.0;\nnum_vc = 4;\n"),
    );
    let (code, _, stderr) = flitsim(&["import", "booksim", config.to_str().unwrap()]);
    assert_eq!(code, 1, "{stderr}");
    for key in [
        "`hold_switch_for_packet = 1` cannot be imported",
        "`internal_speedup = 2.0` cannot be imported",
        "unknown BookSim key `num_vc`",
        "3 settings cannot be imported",
    ] {
        assert!(stderr.contains(key), "missing `{key}` in\n{stderr}");
    }
    assert_eq!(stderr.matches("error:").count(), 1, "{stderr}");
}

#[test]
fn allocator_parameters_are_honoured_and_alloc_iters_and_arb_type_ignored_as_booksim_does() {
    let netlist_of = |name: &str, keys: &str| {
        let text = LINE
            .replace("vc_allocator = separable_output_first;\n", "")
            .replace("sw_allocator = separable_output_first;\n", "");
        let (netlist, mapping) = import(&cfg(name, &format!("{text}{keys}")), &[]);
        (std::fs::read_to_string(netlist).unwrap(), mapping)
    };
    let (two, _) = netlist_of(
        "islip2.cfg",
        "vc_allocator = islip(2);\nsw_allocator = islip(2);\n",
    );
    assert!(two.contains("alloc_iters = 2"), "{two}");
    // BookSim's IQ router never reads alloc_iters: one round, as with no key at all.
    let (ignored, mapping) = netlist_of("iters2.cfg", "alloc_iters = 2;\n");
    let (plain, _) = netlist_of("plain.cfg", "");
    assert_eq!(
        ignored.replace("iters2", "plain"),
        plain,
        "alloc_iters changes nothing"
    );
    assert!(plain.contains("alloc_iters = 1"), "{plain}");
    assert!(
        mapping.contains("ignored, as BookSim's IQ router does"),
        "{mapping}"
    );
    let (matrix, _) = netlist_of(
        "matrix.cfg",
        "vc_allocator = separable_input_first(matrix);\nsw_allocator = separable_input_first(matrix);\n",
    );
    assert!(matrix.contains("arbiter = \"matrix\""), "{matrix}");
    let (arb_type, _) = netlist_of(
        "arbtype.cfg",
        "vc_allocator = separable_input_first;\nsw_allocator = separable_input_first;\narb_type = matrix;\n",
    );
    assert!(arb_type.contains("arbiter = \"round-robin\""), "{arb_type}");
    // Rounds flitsim cannot give each allocator apart are refused by name.
    let mixed = cfg(
        "mixed.cfg",
        &format!("{LINE}vc_allocator = islip;\nsw_allocator = islip(2);\n"),
    );
    let (code, _, stderr) = flitsim(&["import", "booksim", mixed.to_str().unwrap()]);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("`sw_allocator = islip(2)` cannot be imported"),
        "{stderr}"
    );
}

#[test]
fn an_anynet_listing_imports_as_explicit_routers_and_runs() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("anynet");
    std::fs::create_dir_all(&dir).unwrap();
    let listing = |text: &str| std::fs::write(dir.join("net.txt"), text).unwrap();
    let config = dir.join("anynet.cfg");
    std::fs::write(
        &config,
        "topology = anynet;\nnetwork_file = net.txt;\nrouting_function = min;\nnum_vcs = 2;\ntraffic = uniform;\ninjection_rate = 0.01;\nsample_period = 1000;\n",
    )
    .unwrap();
    // A line of three routers, two nodes each; the channel 0 -> 1 takes 3 cycles.
    listing("router 0 node 0 node 1 router 1 3\nrouter 1 node 2 node 3 router 2\nrouter 2 node 4 node 5\n");
    let (netlist, mapping) = import(&config, &[]);
    assert!(mapping.contains("3 routers"), "{mapping}");
    assert!(mapping.contains("routing = \"table\""), "{mapping}");
    let toml = std::fs::read_to_string(&netlist).unwrap();
    for line in [
        "name = \"r1\"\nterminals = 2\nports = [{ name = \"r0\" }, { name = \"r2\" }]",
        "from = \"r0.r1\"\nto = \"r1.r0\"\nlatency = 4",
        "from = \"r1.r0\"\nto = \"r0.r1\"\nlatency = 2",
    ] {
        assert!(toml.contains(line), "missing `{line}` in\n{toml}");
    }
    // One packet from node 0 to node 2 crosses the 3-cycle channel; back, the 1-cycle one.
    let there = one_packet(&netlist, 0, 2, 1);
    let back = one_packet(&netlist, 2, 0, 1);
    assert_eq!(there, back + 2, "{there} {back}");
    for (text, expected) in [
        ("node 0 router 0\n", "starts with `node`"),
        (
            "router 0 node 0 2 router 1\n",
            "BookSim records it as a channel",
        ),
        (
            "router 0 node 1 router 1\nrouter 1 node 0\n",
            "router by router",
        ),
        ("router 0 node 0 router 2\n", "without a gap"),
        ("router 0 node 0 nodes 1\n", "neither `node` nor `router`"),
    ] {
        listing(text);
        let (code, _, stderr) = flitsim(&["import", "booksim", config.to_str().unwrap()]);
        assert_eq!(code, 1, "{text}: {stderr}");
        assert!(
            stderr.contains(expected),
            "{text}: missing `{expected}` in\n{stderr}"
        );
        assert!(stderr.contains("net.txt:"), "{stderr}");
    }
}
