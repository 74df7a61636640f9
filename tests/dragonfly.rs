//! The dragonfly under load: every routing delivers without deadlock (debug builds check
//! flit and credit conservation after every cycle), and under group-shift traffic UGAL-L
//! carries more than minimal routing, whose one global channel per pair of groups caps a
//! group's terminals at 1/a flits per cycle each.

use flitsim::engine::{SimConfig, Simulation, TrafficKind};
use flitsim::netlist::topology::dragonfly;

/// Accepted flits per terminal per cycle of `routing` on the a = 4, h = 1 dragonfly (5
/// groups) under `traffic` offered at 0.4 flits per terminal per cycle.
fn accepted(routing: &str, traffic: TrafficKind) -> f64 {
    let mut n = dragonfly(4, 1);
    n.set("vcs", "4").unwrap();
    n.set("routing", routing).unwrap();
    let config = SimConfig {
        rate: 0.1,
        length: 4,
        traffic,
        warmup: 1000,
        cycles: 3000,
        ..SimConfig::default()
    };
    let r = Simulation::new(&n, &config).unwrap().run();
    assert!(r.deadlock.is_none(), "{routing}");
    r.accepted.flits_per_terminal_cycle
}

#[test]
fn ugal_beats_minimal_under_group_shift() {
    let minimal = accepted("minimal", TrafficKind::GroupShift);
    let valiant = accepted("valiant", TrafficKind::GroupShift);
    let ugal = accepted("ugal-l", TrafficKind::GroupShift);
    // Minimal saturates at 1/a = 0.25; the others spread over the other groups' channels,
    // Valiant every packet (two global hops each), UGAL-L only what minimal cannot carry.
    assert!(minimal < 0.27, "minimal {minimal}");
    assert!(
        valiant > minimal + 0.03,
        "valiant {valiant}, minimal {minimal}"
    );
    assert!(ugal > 0.35, "ugal-l {ugal}");
    // Below every routing's saturation, uniform traffic is carried whole.
    for routing in ["minimal", "valiant", "ugal-l"] {
        let a = accepted(routing, TrafficKind::Uniform);
        assert!((a - 0.4).abs() < 0.03, "{routing}: {a}");
    }
}

/// Valiant and UGAL-L draw their intermediate group from the packet's source: with two
/// terminals per router the source is a terminal, not a router, and the routing must
/// still see its router. Offered well below saturation, every routing carries the load.
#[test]
fn non_minimal_routings_carry_a_light_load_under_concentration() {
    for routing in ["minimal", "valiant", "ugal-l"] {
        let mut n = dragonfly(4, 1);
        n.set("vcs", "4").unwrap();
        n.set("routing", routing).unwrap();
        n.set("concentration", "2").unwrap();
        let config = SimConfig {
            rate: 0.02,
            length: 4,
            warmup: 500,
            cycles: 2000,
            ..SimConfig::default()
        };
        let r = Simulation::new(&n, &config).unwrap().run();
        let (offered, accepted) = (0.08, r.accepted.flits_per_terminal_cycle);
        assert!(r.deadlock.is_none(), "{routing}");
        assert!(
            (accepted - offered).abs() < 0.1 * offered,
            "{routing}: accepted {accepted} of {offered}"
        );
    }
}
