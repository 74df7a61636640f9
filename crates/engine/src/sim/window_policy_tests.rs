//! The window policy at the thread counts where the issue measured a cliff (torus 32x32
//! at 16 threads, 16x16 at 4): every window runs on as many workers as its work keeps
//! busy, never fewer than any smaller thread count would run, and never serially where a
//! smaller count would run in parallel. Decided from integers, so it holds on any machine.

use super::config::MIN_PARALLEL_WORK;
use super::*;
use crate::parallel::active_workers;
use crate::WINDOW_CYCLES;
use flitsim_netlist::topology::torus;

/// Runs torus `k`x`k` at `flits` flits/terminal/cycle (12-flit packets) for `windows`
/// windows on one worker and on `threads`: the results must be the same; returns the
/// routers stepped in each window and the active workers of each window at `threads`.
fn windows_at(k: u32, flits: f64, threads: usize, windows: u64) -> (Vec<u64>, Vec<usize>) {
    let n = torus(&[k, k]);
    let config = |threads| SimConfig {
        rate: flits / 12.0,
        length: 12,
        warmup: 100,
        cycles: 100_000,
        threads,
        cycle_checks: false,
        ..SimConfig::default()
    };
    let mut one = Simulation::new(&n, &config(1)).unwrap();
    let mut many = Simulation::new(&n, &config(threads)).unwrap();
    assert_eq!(
        many.net.parts.len(),
        threads,
        "every worker asked is useful"
    );
    let (mut steps, mut active) = (Vec::new(), Vec::new());
    for _ in 0..windows {
        let before = one.router_steps();
        one.run_for(WINDOW_CYCLES).unwrap();
        many.run_for(WINDOW_CYCLES).unwrap();
        assert_eq!(one.stats(), many.stats());
        assert_eq!(one.router_steps(), many.router_steps());
        steps.push(one.router_steps() - before);
        active.push(many.windows.active);
    }
    (steps, active)
}

/// The active workers of each window: the engine's, at `threads`, must be the rule's,
/// at least what every smaller count gives, and serial only if every smaller count is.
fn no_cliff(k: u32, flits: f64, threads: usize) {
    let routers = u64::from(k * k);
    let min = MIN_PARALLEL_WORK;
    let (steps, active) = windows_at(k, flits, threads, 4);
    for (w, &ran) in active.iter().enumerate() {
        let rule = |t: usize| match w {
            0 => active_workers(routers, 1, t, min),
            _ => active_workers(steps[w - 1], WINDOW_CYCLES, t, min),
        };
        assert_eq!(ran, rule(threads), "window {w}");
        for fewer in 1..threads {
            let parts = useful_workers(fewer, routers as usize, min);
            assert!(rule(parts) <= ran, "window {w}: {fewer} threads run more");
            assert!(
                ran > 1 || rule(parts) == 1,
                "window {w}: serial at {threads} only"
            );
        }
    }
    assert!(
        active[1..].iter().all(|&a| a > 1),
        "the issue's load keeps several workers busy: {active:?}"
    );
}

#[test]
fn a_32x32_torus_at_16_threads_runs_no_window_on_fewer_workers_than_fewer_threads_would() {
    no_cliff(32, 0.065, 16);
}

#[test]
fn a_16x16_torus_at_4_threads_runs_no_window_on_fewer_workers_than_fewer_threads_would() {
    no_cliff(16, 0.13, 4);
}
