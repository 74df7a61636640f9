//! Torus dimension-order routing with the balanced tie rule loads both directions of each
//! dimension equally under uniform traffic; with every tie going `+` it does not.
//!
//! Expected load, computed here: on an 8x8 torus the destinations of uniform traffic (63
//! other terminals) lie 0, 1, 2, 3, 4, 3, 2, 1 hops away in each dimension, 8 terminals per
//! coordinate, so a packet crosses 8 (1 + 2 + 3 + 4 + 3 + 2 + 1) / 63 = 128/63 channels per
//! dimension. Split evenly between the directions, each of the 64 channels of a
//! (dimension, direction) carries `accepted x 64/63` flits per cycle; with ties going `+`
//! the `+` channels carry the 8 four-hop destinations too: `accepted x 80/63` against
//! `accepted x 48/63`.

use flitsim::engine::{SimConfig, Simulation};
use flitsim::netlist::topology::torus;
use std::collections::BTreeMap;

/// Accepted flits/terminal/cycle and the mean utilisation of each channel class
/// (`dim0+`, `dim0-`, ...) of torus 8x8 DOR under uniform 12-flit traffic at 0.30
/// flits/terminal/cycle with tie rule `tie`.
fn class_utilization(tie: &str) -> (f64, BTreeMap<String, f64>) {
    let mut n = torus(&[8, 8]);
    n.set("dor_tie", tie).unwrap();
    let config = SimConfig {
        rate: 0.30 / 12.0,
        length: 12,
        warmup: 3_000,
        cycles: 15_000,
        drain: 0,
        seed: 3,
        ..SimConfig::default()
    };
    let mut sim = Simulation::new(&n, &config).unwrap();
    let report = sim.run();
    assert!(report.deadlock.is_none());
    let accepted = report.accepted.flits_per_terminal_cycle;
    let (_, classes) = sim.channel_stats(&n);
    let per_class = classes
        .into_iter()
        .map(|c| (c.class, c.utilization))
        .collect();
    (accepted, per_class)
}

#[test]
fn balanced_ties_load_both_directions_within_three_percent() {
    let (accepted, u) = class_utilization("balanced");
    let expected = accepted * 64.0 / 63.0;
    assert_eq!(u.len(), 4, "{u:?}");
    for (class, &x) in &u {
        assert!(
            (x - expected).abs() <= 0.03 * expected,
            "{class}: {x} vs {expected} ({u:?})"
        );
    }
    let (lo, hi) = u
        .values()
        .fold((f64::MAX, 0.0f64), |(a, b), &x| (a.min(x), b.max(x)));
    assert!(hi - lo <= 0.03 * hi, "{u:?}");
}

#[test]
fn plus_ties_overload_the_plus_channels() {
    let (accepted, u) = class_utilization("plus");
    for d in 0..2 {
        let (plus, minus) = (u[&format!("dim{d}+")], u[&format!("dim{d}-")]);
        let (want_plus, want_minus) = (accepted * 80.0 / 63.0, accepted * 48.0 / 63.0);
        assert!((plus - want_plus).abs() <= 0.03 * want_plus, "{u:?}");
        assert!((minus - want_minus).abs() <= 0.03 * want_minus, "{u:?}");
    }
}
