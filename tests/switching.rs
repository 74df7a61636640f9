//! Switching techniques and flow control through the whole simulator: virtual
//! cut-through (paper 004's router and storage buffers), store-and-forward, the output
//! VC release rule, and the credit round trip on long channels. Expected numbers come from
//! the formulas in `crates/router/src/pipeline/mod.rs` (written out here), never from a run.

use flitsim::engine::traffic::FixedDistance;
use flitsim::engine::{SimConfig, Simulation};
use flitsim::netlist::topology::{mesh, ring, torus};
use flitsim::netlist::{InPort, Netlist, RouterId, TerminalId, VcId};

/// A network that only carries packets put in by `enqueue`.
fn scripted(net: &Netlist) -> Simulation {
    let config = SimConfig {
        rate: 0.0,
        record_deliveries: true,
        warmup: 0,
        ..SimConfig::default()
    };
    Simulation::new(net, &config).unwrap()
}

/// Latency of one packet alone in the network.
fn alone(sim: &mut Simulation, src: u32, dst: u32, len: u32) -> u64 {
    sim.enqueue(TerminalId(src), TerminalId(dst), len);
    assert!(sim.run_until_idle(100_000).unwrap());
    let d = sim.take_deliveries();
    assert_eq!(d.len(), 1);
    d[0].latency()
}

/// The shipped paper 004 preset on an `s x s` torus: rd = 1, vd = 0, sd = 1, xd = 0, VCT,
/// unbounded buffers, one VC, the paper's minimal adaptive routing.
fn paper004(s: u32) -> Netlist {
    let src = std::fs::read_to_string("netlists/paper004-torus-8x8.toml")
        .unwrap()
        .replace("radix = [8, 8]", &format!("radix = [{s}, {s}]"));
    let n = flitsim::netlist::parse_str(&src, std::path::Path::new("paper004.toml")).unwrap();
    let c = &n.routers().next().unwrap().config;
    assert_eq!(c.switching, flitsim::netlist::Switching::Vct);
    assert_eq!(c.buffer_depth, flitsim::netlist::BufferDepth::Unbounded);
    assert_eq!(c.routing, flitsim::netlist::RoutingKind::MinimalAdaptive);
    n
}

#[test]
fn paper004_vct_base_latency_is_3_l_plus_1_plus_m() {
    // Every torus side of the paper's figures with s >= 2l for l = 2 (and 3, from 6).
    for s in [4u32, 6, 8] {
        let net = paper004(s);
        let mut sim = scripted(&net);
        for l in [2u32, 3] {
            let targets = FixedDistance::new(&net, l).unwrap();
            for m in [5u32, 10, 20] {
                for src in [0u32, s + 1, s * s - 1] {
                    for &dst in targets.targets(TerminalId(src)) {
                        let t = alone(&mut sim, src, dst, m);
                        assert_eq!(
                            t,
                            u64::from(3 * (l + 1) + m),
                            "{s}x{s} l={l} m={m} {src}->{dst}"
                        );
                    }
                }
            }
        }
    }
    // Through the traffic pattern at a tiny rate: the typical packet sees no contention.
    let net = paper004(8);
    for (l, m) in [(2u32, 5u32), (3, 10), (2, 20)] {
        let config = SimConfig {
            rate: 0.0002,
            length: m,
            traffic: format!("fixed-distance:{l}").parse().unwrap(),
            warmup: 0,
            cycles: 20_000,
            drain_all: true,
            record_deliveries: true,
            ..SimConfig::default()
        };
        let mut sim = Simulation::new(&net, &config).unwrap();
        sim.run();
        let d = sim.take_deliveries();
        let base = u64::from(3 * (l + 1) + m);
        let exact = d.iter().filter(|d| d.latency() == base).count();
        assert!(d.len() > 150, "{}", d.len());
        assert!(d
            .iter()
            .all(|d| d.latency() >= base && u32::from(d.hops) == l));
        assert!(
            exact * 100 >= d.len() * 95,
            "{exact} of {} at {base}",
            d.len()
        );
    }
}

#[test]
fn saf_zero_load_latency_adds_m_minus_1_per_router() {
    // Default router: rd = vd = sd = xd = 1, L = Lt = 1; buffers hold whole packets.
    let mut net = torus(&[4, 4]);
    net.set("switching", "saf").unwrap();
    net.set("buffer_depth", "16").unwrap();
    let mut sim = scripted(&net);
    for (src, dst, h) in [
        (0u32, 1u32, 1u64),
        (0, 5, 2),
        (0, 10, 4),
        (3, 3, 0),
        (6, 13, 3),
    ] {
        for m in [1u64, 2, 7, 16] {
            let t = alone(&mut sim, src, dst, m as u32);
            let formula = 2 + (h + 1) * (4 + m - 1) + h + (m - 1);
            assert_eq!(t, formula, "{src}->{dst} M={m}");
        }
    }
    // VCT and wormhole: the wormhole formula.
    for sw in ["vct", "wormhole"] {
        net.set("switching", sw).unwrap();
        let mut sim = scripted(&net);
        assert_eq!(alone(&mut sim, 0, 10, 16), 2 + 5 * 4 + 4 + 15, "{sw}");
    }
}

#[test]
fn saf_and_vct_refuse_buffers_shallower_than_a_packet() {
    let mut net = torus(&[4, 4]);
    net.set("switching", "saf").unwrap();
    let c = SimConfig {
        length: 9,
        ..SimConfig::default()
    };
    let e = Simulation::new(&net, &c).err().unwrap().to_string();
    assert!(e.contains("below the packet length 9"), "{e}");
    let c = SimConfig {
        length_dist: Some("exp:4".parse().unwrap()),
        ..SimConfig::default()
    };
    net.set("switching", "vct").unwrap();
    let e = Simulation::new(&net, &c).err().unwrap().to_string();
    assert!(e.contains("unbounded"), "{e}");
}

/// Input port of router `r` called `name`.
fn port(net: &Netlist, r: u32, name: &str) -> InPort {
    InPort(
        net.router(RouterId(r))
            .ports
            .iter()
            .position(|p| p.name == name)
            .unwrap() as u8,
    )
}

#[test]
fn vct_with_storage_buffers_condenses_a_blocked_packet_in_one_router() {
    // A 4x2 mesh, one VC. Row y = 0: routers 0 - 1 - 2 - 3.
    // B (terminal 2 -> 3, 300 flits) holds channel 2 -> 3 for ~300 cycles. P (0 -> 3,
    // 20 flits) blocks at router 2 behind it. Q (0 -> 1, 4 flits) follows P out of
    // terminal 0 over channel 0 -> 1.
    let run = |switching: &str, depth: &str| {
        let mut net = mesh(&[4, 2]);
        net.set("vcs", "1").unwrap();
        net.set("switching", switching).unwrap();
        net.set("buffer_depth", depth).unwrap();
        let mut sim = scripted(&net);
        sim.enqueue(TerminalId(2), TerminalId(3), 300);
        sim.run_for(5).unwrap();
        sim.enqueue(TerminalId(0), TerminalId(3), 20);
        sim.run_for(55).unwrap();
        let west2 = port(&net, 2, "west");
        let west1 = port(&net, 1, "west");
        let held = (
            sim.router(RouterId(2)).buffer_len(west2, VcId(0)),
            sim.router(RouterId(1)).buffered_flits() as u32,
            sim.router(RouterId(1)).buffer_len(west1, VcId(0)),
        );
        sim.enqueue(TerminalId(0), TerminalId(1), 4);
        assert!(sim.run_until_idle(10_000).unwrap());
        let q = sim
            .take_deliveries()
            .into_iter()
            .find(|d| d.dest == TerminalId(1))
            .unwrap();
        (held, q.latency())
    };
    // Default router, H = 1, M = 4: T0 = 2 + 2*4 + 1 + 3 = 14.
    let ((at2, at1, _), q) = run("vct", "unbounded");
    assert_eq!(
        (at2, at1),
        (20, 0),
        "all of P waits in router 2's storage buffer"
    );
    assert_eq!(q, 14, "Q is not stalled behind P");
    // Wormhole with 4-flit buffers: P spans routers 0..2 and Q waits behind it.
    let ((at2, _, at1_west), q) = run("wormhole", "4");
    assert_eq!((at2, at1_west), (4, 4));
    assert!(q > 250, "wormhole Q waits for B to drain: {q}");
}

#[test]
fn a_shallow_buffer_on_a_long_channel_caps_a_flow_at_depth_over_round_trip() {
    // One 401-flit packet over one channel of latency 5 (default router: sd = xd = cd = 1).
    // Round trip RT = sd + xd + 2L + cd = 13 cycles.
    let lat = |depth: u32| {
        let mut net = ring(4);
        net.set("channel_latency", "5").unwrap();
        net.set("buffer_depth", &depth.to_string()).unwrap();
        let mut sim = scripted(&net);
        alone(&mut sim, 0, 1, 401)
    };
    // T0 = 2 + 2*4 + 5 + 400 = 415 when the buffer covers the round trip.
    assert_eq!(lat(13), 415);
    assert_eq!(lat(64), 415);
    // Depth 4: 4 flits per 13 cycles, so the 400 flits after the head take 400 * 13 / 4.
    let rate = 400.0 / (lat(4) - (415 - 400)) as f64;
    assert!((rate - 4.0 / 13.0).abs() < 0.01, "{rate}");
    let rate = 400.0 / (lat(12) - (415 - 400)) as f64;
    assert!((rate - 12.0 / 13.0).abs() < 0.01, "{rate}");
}

#[test]
fn tail_release_lifts_one_flit_packet_throughput() {
    let accepted = |release: &str| {
        let mut net = torus(&[4, 4]);
        net.set("vc_release", release).unwrap();
        let config = SimConfig {
            rate: 0.6,
            warmup: 500,
            cycles: 2000,
            drain: 0,
            ..SimConfig::default()
        };
        Simulation::new(&net, &config)
            .unwrap()
            .run()
            .accepted
            .flits_per_terminal_cycle
    };
    let (tail, credits) = (accepted("tail"), accepted("credits"));
    assert!(tail > 1.5 * credits, "tail {tail} vs credits {credits}");
}
