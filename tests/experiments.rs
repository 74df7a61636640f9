//! The experiment library (`flitsim::studies::experiments`) called directly, as a test or bench
//! would: curves sampled on the job pool do not depend on the thread count, and the
//! saturation search's bracket agrees with the probes it is built from.

use flitsim::engine::stats::AutoConfig;
use flitsim::engine::{SimConfig, Simulation};
use flitsim::netlist::topology::torus;
use flitsim::studies::experiments::{find_saturation, probe_saturated, sample_curves, CurveSpec};

fn spec() -> CurveSpec {
    CurveSpec {
        netlist: torus(&[4, 4]),
        config: SimConfig {
            length: 4,
            warmup: 200,
            cycles: 800,
            ..SimConfig::default()
        },
        label: "torus-4x4 dor".into(),
        netlist_name: "torus-4x4".into(),
        routing: "dor".into(),
        cost: None,
        design: Vec::new(),
    }
}

#[test]
fn sampled_curves_do_not_depend_on_the_thread_count() {
    let specs = [spec(), spec()];
    let rates = vec![vec![0.02, 0.1], vec![0.05]];
    let one = sample_curves(&specs, &rates, None, 1, &()).unwrap();
    let three = sample_curves(&specs, &rates, None, 3, &()).unwrap();
    assert_eq!(
        serde_json::to_string(&one).unwrap(),
        serde_json::to_string(&three).unwrap()
    );
    let got: Vec<Vec<f64>> = one
        .iter()
        .map(|c| c.points.iter().map(|p| p.rate).collect())
        .collect();
    assert_eq!(got, rates);
}

#[test]
fn the_saturation_bracket_is_narrow_and_its_lower_end_unsaturated() {
    let specs = [spec()];
    let b = find_saturation(&specs, 2_000, 2, 2, &()).unwrap()[0];
    assert!(0.0 < b.unsaturated && b.unsaturated < b.saturated, "{b:?}");
    assert!(b.saturated - b.unsaturated <= 0.02 * b.saturated, "{b:?}");
    assert_eq!(b.unsaturated_flits, 4.0 * b.unsaturated);
    // The lower end was a probe: the same probe again gives the same verdict.
    let probe = SimConfig {
        rate: b.unsaturated,
        auto: Some(AutoConfig {
            ci_target: 0.05,
            max_cycles: 2_000,
            batch_cycles: 0,
        }),
        ..spec().config
    };
    let r = Simulation::new(&specs[0].netlist, &probe).unwrap().run();
    assert!(!probe_saturated(&r));
}

/// A run of the fixed window `cycles` at `rate`: (offered, accepted) flits per terminal
/// per cycle.
fn fixed_run(rate: f64, cycles: u64) -> (f64, f64) {
    let config = SimConfig {
        rate,
        warmup: 1_000,
        cycles,
        ..spec().config
    };
    let r = Simulation::new(&spec().netlist, &config).unwrap().run();
    (
        r.offered.flits_per_terminal_cycle,
        r.accepted.flits_per_terminal_cycle,
    )
}

/// Probes too short for the engine's verdict (it needs 40 samples) still find the
/// saturation rate a long fixed window shows: the network carries what is offered 10%
/// below the bracket and falls short 10% above it.
#[test]
fn short_probes_find_the_saturation_a_long_window_shows() {
    let b = find_saturation(&[spec()], 2_000, 4, 1, &()).unwrap()[0];
    let (offered, accepted) = fixed_run(0.9 * b.unsaturated, 5_000);
    assert!(accepted >= 0.97 * offered, "{b:?}: {accepted} of {offered}");
    let (offered, accepted) = fixed_run(1.1 * b.saturated, 5_000);
    assert!(accepted < 0.97 * offered, "{b:?}: {accepted} of {offered}");
}

#[test]
fn the_saturation_bracket_does_not_depend_on_the_thread_count() {
    let specs = [spec()];
    let one = find_saturation(&specs, 2_000, 3, 1, &()).unwrap()[0];
    let three = find_saturation(&specs, 2_000, 3, 3, &()).unwrap()[0];
    assert_eq!(format!("{one:?}"), format!("{three:?}"));
}
