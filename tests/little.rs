//! Little's law at moderate load: time-average packets in the system = accepted packet
//! rate x mean latency, within 3%.
//!
//! torus-8x8, DOR, 12-flit packets saturates at about 0.34 flits/terminal/cycle (measured);
//! half of that is 0.17.

use flitsim::engine::{SimConfig, Simulation};
use flitsim::netlist::topology::torus;

#[test]
fn littles_law_holds_at_half_saturation() {
    let config = SimConfig {
        rate: 0.17 / 12.0,
        length: 12,
        warmup: 2_000,
        cycles: 20_000,
        ..SimConfig::default()
    };
    let r = Simulation::new(&torus(&[8, 8]), &config).unwrap().run();
    let measured = r.little.measured;
    let predicted = r.little.predicted.unwrap();
    let err = (measured - predicted).abs() / predicted;
    assert!(
        err < 0.03,
        "measured {measured}, predicted {predicted}, error {err}"
    );
    // Sanity: below saturation the accepted throughput equals the offered load (within
    // Bernoulli noise) and every measured packet is delivered.
    assert_eq!(r.packets.in_flight_end, 0);
    let acc = r.accepted.flits_per_terminal_cycle;
    assert!((acc - 0.17).abs() < 0.01, "accepted {acc}");
    assert!(r.latency.mean.unwrap() > r.zero_load_latency);
}
