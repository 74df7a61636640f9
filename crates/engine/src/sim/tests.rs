//! Serial and parallel windows (`crate::parallel`): the windows' modes follow the previous
//! window's work, every switch between them (through the barrier and the gate) leaves
//! results unchanged, and runs that stop or whose watchdog fires inside a serial window end
//! every worker at the same cycle.

use super::*;
use crate::stats::TerminalStats;
use crate::WINDOW_CYCLES;
use flitsim_netlist::topology::torus;

/// Torus 8x8, 12-flit packets at `flits` flits/terminal/cycle.
fn config(flits: f64, threads: usize, min_parallel_work: u64) -> SimConfig {
    SimConfig {
        rate: flits / 12.0,
        length: 12,
        warmup: 300,
        cycles: 100_000,
        threads,
        min_parallel_work,
        ..SimConfig::default()
    }
}

/// Everything a run's result is made of, for comparison across engines.
fn state(sim: &Simulation) -> (Cycle, TerminalStats, u64, u64, Option<SimError>) {
    (
        sim.now(),
        sim.stats(),
        sim.router_steps(),
        sim.flits_in_network(),
        sim.error().cloned(),
    )
}

/// Which windows of `steps` (routers stepped per window) run serially on `workers`
/// workers at threshold `min`: the rule of `WindowState`, restated (serial when the work
/// does not keep two workers busy).
fn modes(steps: &[u64], routers: u64, workers: u64, min: u64) -> Vec<bool> {
    let two = min * workers.min(2);
    let mut m = vec![routers < two];
    m.extend(
        steps[..steps.len() - 1]
            .iter()
            .map(|&s| s < two * WINDOW_CYCLES),
    );
    m
}

#[test]
fn windows_follow_the_work_of_the_previous_window_and_change_no_result() {
    let n = torus(&[8, 8]);
    let windows = 24;
    // The reference: one worker, routers stepped per window.
    let mut one = Simulation::new(&n, &config(0.1, 1, 0)).unwrap();
    let mut steps = Vec::new();
    for _ in 0..windows {
        let before = one.router_steps();
        one.run_for(WINDOW_CYCLES).unwrap();
        steps.push(one.router_steps() - before);
    }
    // Stop inside the last window.
    let total = windows * WINDOW_CYCLES - 100;
    let mut reference = Simulation::new(&n, &config(0.1, 1, 0)).unwrap();
    reference.run_for(total).unwrap();
    for workers in [2, 3] {
        // A threshold at which one run goes parallel, serial, parallel again.
        // (Only thresholds that leave `workers` partitions: see `useful_workers`.)
        let min = (1..=64 / workers)
            .find(|&m| {
                let s = modes(&steps, 64, workers, m);
                let first_serial = s.iter().position(|&x| x);
                !s[0] && first_serial.is_some_and(|i| s[i..].contains(&false))
            })
            .expect("the load fluctuates around some threshold");
        let expected: u64 = modes(&steps, 64, workers, min)
            .iter()
            .enumerate()
            .filter(|&(_, &serial)| serial)
            .map(|(w, _)| WINDOW_CYCLES.min(total - w as u64 * WINDOW_CYCLES))
            .sum();
        let mut sim = Simulation::new(&n, &config(0.1, workers as usize, min)).unwrap();
        sim.run_for(total).unwrap();
        assert_eq!(
            state(&sim),
            state(&reference),
            "{workers} workers, min {min}"
        );
        assert_eq!(sim.windows.serial_cycles, expected, "{workers} workers");
    }
}

#[test]
fn a_watchdog_firing_in_a_serial_window_ends_every_worker_at_its_cycle() {
    let mut n = torus(&[8, 8]);
    n.set("routing", "dor-nodateline").unwrap();
    let deadlocking = |threads, min| SimConfig {
        rate: 0.5 / 12.0,
        length: 12,
        warmup: 0,
        watchdog: 500,
        threads,
        min_parallel_work: min,
        ..SimConfig::default()
    };
    let mut reference = Simulation::new(&n, &deadlocking(1, 0)).unwrap();
    let err = reference.run_for(50_000).unwrap_err();
    let SimError::Deadlock { cycle, .. } = err else {
        panic!("expected a deadlock, got {err:?}");
    };
    assert!(cycle.0 > WINDOW_CYCLES && cycle.0 % WINDOW_CYCLES != 0);
    for workers in [2, 3] {
        // Serial from the second window on, in the same run: the other workers sleep
        // when the watchdog fires, and are handed the end of the run.
        let mut sim = Simulation::new(&n, &deadlocking(workers, u64::MAX)).unwrap();
        sim.windows.active = workers;
        assert_eq!(sim.run_for(50_000), Err(err.clone()));
        assert_eq!(state(&sim), state(&reference), "{workers} workers");
        assert_eq!(sim.windows.serial_cycles, sim.now().0 - WINDOW_CYCLES);
        assert_eq!(sim.step(), Err(err.clone()));
        // Always parallel.
        let mut sim = Simulation::new(&n, &deadlocking(workers, 0)).unwrap();
        assert_eq!(sim.run_for(50_000), Err(err.clone()));
        assert_eq!(state(&sim), state(&reference), "{workers} workers");
        assert_eq!(sim.windows.serial_cycles, 0);
    }
}

#[test]
fn runs_stopping_inside_windows_of_either_mode_resume_identically() {
    let n = torus(&[8, 8]);
    let mut reference = Simulation::new(&n, &config(0.1, 1, 0)).unwrap();
    let mut sim = Simulation::new(&n, &config(0.1, 2, u64::MAX)).unwrap();
    sim.windows.active = 2;
    // (threshold for the run, cycles, serial cycles after it)
    let runs = [
        // parallel, then serial through the gate, ends inside a serial window: 700
        (u64::MAX, 700, 700 - 256),
        // serial until 768 before any worker is spawned, then parallel until 1300
        (0, 600, 444 + 68),
        // parallel until 1536, serial through the gate until 2200
        (u64::MAX, 900, 512 + 664),
        // serial until 2304, parallel until 2533
        (0, 333, 1176 + 104),
        // one cycle, still inside the parallel window
        (u64::MAX, 1, 1280),
    ];
    for (min, cycles, serial) in runs {
        sim.config.min_parallel_work = min;
        sim.run_for(cycles).unwrap();
        reference.run_for(cycles).unwrap();
        assert_eq!(state(&sim), state(&reference), "at {}", sim.now());
        assert_eq!(sim.windows.serial_cycles, serial, "at {}", sim.now());
    }
    // One cycle at a time, across the boundary at 2560 into a serial window.
    for _ in 0..40 {
        sim.step().unwrap();
        reference.step().unwrap();
        assert_eq!(state(&sim), state(&reference), "at {}", sim.now());
    }
    assert_eq!(sim.windows.serial_cycles, 1280 + (2574 - 2560));
    assert_eq!(sim.report(), reference.report());
}

/// A hub router with more ports (71) than a port mask covers, each leaf behind its own
/// port: every flit the hub writes, on ports past 64 too, reaches its leaf (the debug
/// build's per-cycle conservation check would stop a flit left in an outbox), and every
/// measured packet is delivered.
#[test]
fn a_router_wider_than_a_port_mask_delivers_on_every_port() {
    let leaves = 70;
    let mut src = String::from(
        "[defaults]\nvcs = 1\nrouting = \"table\"\n\n[[router]]\nname = \"hub\"\nports = [",
    );
    src += &(0..leaves)
        .map(|i| format!("{{ name = \"p{i}\" }}"))
        .collect::<Vec<_>>()
        .join(", ");
    src += "]\n";
    for i in 0..leaves {
        src += &format!("\n[[router]]\nname = \"l{i}\"\nports = [{{ name = \"hub\" }}]\n");
    }
    for i in 0..leaves {
        src += &format!("\n[[channel]]\nfrom = \"hub.p{i}\"\nto = \"l{i}.hub\"\n");
        src += &format!("\n[[channel]]\nfrom = \"l{i}.hub\"\nto = \"hub.p{i}\"\n");
    }
    let n = flitsim_netlist::parse_str(&src, std::path::Path::new("star.toml")).unwrap();
    let mut sim = Simulation::new(
        &n,
        &SimConfig {
            rate: 0.005,
            length: 4,
            warmup: 200,
            cycles: 2000,
            drain_all: true,
            ..SimConfig::default()
        },
    )
    .unwrap();
    let report = sim.run();
    assert!(report.packets.generated > 300, "{:?}", report.packets);
    assert_eq!(report.packets.delivered, report.packets.generated);
    assert_eq!(sim.flits_in_network(), 0);
}
