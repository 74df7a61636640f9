//! Serial and parallel windows: a run gives the same report whether its windows
//! of cycles run serially (one thread steps every partition while the other workers sleep),
//! in parallel, or switch between the two by load, including a run that
//! stops inside a window and a run whose watchdog fires. The switches themselves (through
//! the gate, inside one run) are unit-tested in `crates/engine/src/sim/tests.rs`.

use flitsim::engine::{SimConfig, SimError, Simulation, WINDOW_CYCLES};
use flitsim::netlist::topology::torus;
use flitsim::netlist::Netlist;

/// `min_parallel_work` values: every window serial, every window parallel, by load at a
/// threshold that torus 8x8 on two workers crosses (the default, 64, keeps it serial).
const SERIAL: u64 = u64::MAX;
const PARALLEL: u64 = 0;
const BY_LOAD: u64 = 24;

/// Runs `config` on one worker, then on 2 and 3 workers in every window mode; every
/// report and watchdog error must equal the one-worker run's. Returns that report's error.
fn same_in_every_mode(n: &Netlist, config: &SimConfig) -> Option<SimError> {
    let run = |threads, min_parallel_work| {
        let mut sim = Simulation::new(
            n,
            &SimConfig {
                threads,
                min_parallel_work,
                ..config.clone()
            },
        )
        .unwrap();
        let report = sim.run();
        let fraction = sim.perf().serial_cycles_fraction;
        (report, sim.error().cloned(), sim.now(), fraction)
    };
    let (report, error, end, _) = run(1, SimConfig::default().min_parallel_work);
    for threads in [2, 3] {
        for min in [
            SERIAL,
            PARALLEL,
            BY_LOAD,
            SimConfig::default().min_parallel_work,
        ] {
            let (r, e, now, fraction) = run(threads, min);
            assert_eq!(r, report, "{threads} threads, min_parallel_work {min}");
            assert_eq!(e, error, "{threads} threads, min_parallel_work {min}");
            assert_eq!(now, end, "{threads} threads, min_parallel_work {min}");
            match min {
                SERIAL => assert_eq!(fraction, 1.0),
                PARALLEL => assert_eq!(fraction, 0.0),
                _ => {}
            }
        }
    }
    error
}

#[test]
fn a_run_ending_inside_a_window_is_the_same_in_every_mode() {
    let config = SimConfig {
        rate: 0.15 / 12.0,
        length: 12,
        warmup: 300,
        cycles: 1000,
        drain_all: true,
        ..SimConfig::default()
    };
    assert!(same_in_every_mode(&torus(&[8, 8]), &config).is_none());
}

#[test]
fn a_deadlock_is_reported_the_same_in_every_mode() {
    let (n, config) = crate::deadlock::deadlocking_torus();
    let Some(SimError::Deadlock { cycle, .. }) = same_in_every_mode(&n, &config) else {
        panic!("dor-nodateline on a torus deadlocks");
    };
    assert_ne!(
        cycle.0 % WINDOW_CYCLES,
        0,
        "the watchdog fires inside a window"
    );
}

#[test]
fn stepping_cycle_by_cycle_across_a_window_boundary_is_the_same_in_every_mode() {
    let n = torus(&[4, 4]);
    let config = SimConfig {
        rate: 0.2 / 4.0,
        length: 4,
        ..SimConfig::default()
    };
    let mut sims: Vec<Simulation> = [(1, PARALLEL), (2, SERIAL), (2, PARALLEL), (3, 2)]
        .into_iter()
        .map(|(threads, min_parallel_work)| {
            let c = SimConfig {
                threads,
                min_parallel_work,
                ..config.clone()
            };
            Simulation::new(&n, &c).unwrap()
        })
        .collect();
    for sim in &mut sims {
        sim.run_for(WINDOW_CYCLES - 5).unwrap();
    }
    for _ in 0..10 {
        for sim in &mut sims {
            sim.step().unwrap();
        }
        let first = (sims[0].stats(), sims[0].router_steps());
        for sim in &sims[1..] {
            assert_eq!((sim.stats(), sim.router_steps()), first, "at {}", sim.now());
        }
    }
    let first = sims[0].report();
    for sim in &sims[1..] {
        assert_eq!(sim.report(), first);
    }
}
