//! The HyperX under load: every routing survives saturation without deadlock on the fewest
//! VCs its classes need (debug builds check flit and credit conservation after every
//! cycle), and under bit-reversal traffic on the 4x4x4 HyperX UGAL-L carries more than
//! dimension order, which loads 8 channels of dimension 1 with 4 flows each and so caps
//! the 32 terminals sending across them at 1/4 flit per cycle.

use flitsim::engine::{RunReport, SimConfig, Simulation, TrafficKind};
use flitsim::netlist::topology::hyperx;

/// The report of `routing` with `vcs` VCs on the HyperX `radix` under `traffic` offered
/// at `offered` flits per terminal per cycle (4-flit packets).
fn run(radix: &[u32], routing: &str, vcs: u8, traffic: TrafficKind, offered: f64) -> RunReport {
    let mut n = hyperx(radix);
    n.set("vcs", &vcs.to_string()).unwrap();
    n.set("routing", routing).unwrap();
    let config = SimConfig {
        rate: offered / 4.0,
        length: 4,
        traffic,
        warmup: 1000,
        cycles: 3000,
        watchdog: 1000,
        ..SimConfig::default()
    };
    let r = Simulation::new(&n, &config).unwrap().run();
    assert!(r.deadlock.is_none(), "{routing}: {:?}", r.deadlock);
    r
}

#[test]
fn ugal_beats_minimal_under_bit_reversal() {
    let accepted = |routing: &str, traffic: TrafficKind| {
        run(&[4, 4, 4], routing, 4, traffic, 0.4)
            .accepted
            .flits_per_terminal_cycle
    };
    let minimal = accepted("minimal", TrafficKind::BitReversal);
    let ugal = accepted("ugal-l", TrafficKind::BitReversal);
    // The 32 terminals whose packets cross those channels get 1/4, the other 32 the 0.4
    // offered: 0.325 on average.
    assert!(minimal < 0.34, "minimal {minimal}");
    assert!(ugal > 0.38, "ugal-l {ugal}");
    // Below both routings' saturation, uniform traffic is carried whole.
    for routing in ["minimal", "ugal-l"] {
        let a = accepted(routing, TrafficKind::Uniform);
        assert!((a - 0.4).abs() < 0.03, "{routing}: {a}");
    }
}

#[test]
fn every_routing_survives_saturation_on_the_fewest_vcs() {
    for (routing, vcs) in [("minimal", 1), ("valiant", 2), ("ugal-l", 2)] {
        let r = run(&[4, 4], routing, vcs, TrafficKind::Uniform, 1.0);
        let accepted = r.accepted.flits_per_terminal_cycle;
        assert!(r.saturated, "{routing}: accepted {accepted}");
        assert!(accepted > 0.3, "{routing} still delivers: {accepted}");
    }
}
