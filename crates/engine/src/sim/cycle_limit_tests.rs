//! The cycle limit of the flits' 32-bit stamps ([`Stamp::LAST`]): runs that would pass it
//! are refused before they start, and a library run that reaches it stops there with
//! `SimError::CycleLimit`.

use super::*;
use crate::error::ConfigError;
use crate::stats::AutoConfig;
use flitsim_netlist::topology::torus;
use flitsim_router::Stamp;

#[test]
fn a_run_past_the_last_stamp_is_refused_before_it_starts() {
    let last = Stamp::LAST.0;
    let fits = SimConfig {
        warmup: 1000,
        cycles: last - 1000 - 10_000,
        drain: 10_000,
        ..SimConfig::default()
    };
    assert_eq!(fits.validate(), Ok(()));
    let over = SimConfig {
        cycles: fits.cycles + 1,
        ..fits.clone()
    };
    assert_eq!(
        over.validate(),
        Err(ConfigError::RunTooLong {
            cycles: u128::from(last) + 1,
            last
        })
    );
    // Sums past u64 are reported whole, not wrapped.
    let huge = SimConfig {
        warmup: u64::MAX,
        cycles: u64::MAX,
        ..SimConfig::default()
    };
    let Err(ConfigError::RunTooLong { cycles, .. }) = huge.validate() else {
        panic!("a run of 2^65 cycles accepted");
    };
    assert_eq!(cycles, 2 * u128::from(u64::MAX) + 10_000);
    let msg = ConfigError::RunTooLong { cycles, last }.to_string();
    assert!(msg.contains("help: lower --warmup"), "{msg}");
    // The automatic measurement's budget counts instead of --warmup and --cycles.
    let auto = SimConfig {
        auto: Some(AutoConfig {
            max_cycles: last,
            ..AutoConfig::default()
        }),
        ..SimConfig::default()
    };
    assert!(matches!(
        auto.validate(),
        Err(ConfigError::RunTooLong { .. })
    ));
}

#[test]
fn the_automatic_measurement_counts_the_batch_it_may_overrun() {
    let last = Stamp::LAST.0;
    let auto = |max_cycles| SimConfig {
        rate: 0.05,
        length: 4,
        auto: Some(AutoConfig {
            max_cycles,
            batch_cycles: 500,
            ..AutoConfig::default()
        }),
        ..SimConfig::default()
    };
    let n = torus(&[4, 4]);
    // Drain 10,000: within the limit for `validate`, past it by the batch's overrun.
    let over = auto(last - 10_000 - 100);
    assert_eq!(over.validate(), Ok(()));
    let Err(ConfigError::RunTooLong { cycles, .. }) = Simulation::new(&n, &over) else {
        panic!("a run that may pass the last cycle accepted");
    };
    assert_eq!(cycles, u128::from(last) - 100 + 500);
    assert!(Simulation::new(&n, &auto(last - 10_000 - 500)).is_ok());
}

#[test]
fn a_library_run_stops_at_the_last_cycle_with_an_error() {
    let config = SimConfig {
        rate: 0.05,
        length: 4,
        ..SimConfig::default()
    };
    let mut sim = Simulation::new(&torus(&[4, 4]), &config).unwrap();
    sim.last = Cycle(700);
    // A run that ends before the limit is not affected by it.
    sim.run_for(500).unwrap();
    assert_eq!(sim.now(), Cycle(500));
    // One that would pass it stops there: nothing past it is simulated.
    let err = SimError::CycleLimit { cycle: Cycle(700) };
    assert_eq!(sim.run_for(u64::MAX), Err(err.clone()));
    assert_eq!(sim.now(), Cycle(700));
    assert_eq!(sim.error(), Some(&err));
    // Like the watchdog's errors, it sticks.
    assert_eq!(sim.step(), Err(err.clone()));
    assert_eq!(sim.now(), Cycle(700));
    assert!(err.to_string().contains("help: run fewer cycles"), "{err}");
}

#[test]
fn a_run_that_empties_before_the_limit_is_not_an_error() {
    // Generation stops at the end of the window (cycle 300).
    let config = SimConfig {
        rate: 0.05,
        length: 4,
        warmup: 100,
        cycles: 200,
        drain_all: true,
        ..SimConfig::default()
    };
    let mut sim = Simulation::new(&torus(&[4, 4]), &config).unwrap();
    sim.last = Cycle(2000);
    sim.run_for(300).unwrap();
    assert_eq!(sim.run_until_idle(u64::MAX), Ok(true));
    assert!(sim.now() < Cycle(2000), "{}", sim.now());
    assert_eq!(sim.error(), None);
}
