//! Lookahead windows: with every channel crossing a partition boundary of latency
//! L >= 2, the workers meet once per window of up to L cycles instead of twice per cycle,
//! and every result is the one of one thread and of cycles in two phases.

use super::*;
use flitsim_netlist::topology::generate;
use flitsim_netlist::{RouterConfig, Topology};

/// A `k`x`k` torus whose channels have latency `latency` (terminals 1).
fn torus(k: u32, latency: u32) -> Netlist {
    let t = Topology::Torus { radix: vec![k, k] };
    generate(&t, &RouterConfig::default(), latency, 1).expect("a valid torus")
}

fn config(threads: usize, flits: f64, (warmup, cycles): (u64, u64)) -> SimConfig {
    SimConfig {
        rate: flits / 12.0,
        length: 12,
        warmup,
        cycles,
        threads,
        min_parallel_work: 0,
        cycle_checks: false,
        ..SimConfig::default()
    }
}

/// A simulation of `n` on `threads` workers, with lookahead windows or without.
fn sim(n: &Netlist, config: &SimConfig, lookahead: bool) -> Simulation {
    let mut s = Simulation::new(n, config).expect("a valid configuration");
    s.lookahead = lookahead;
    s
}

#[test]
fn a_64x64_torus_of_latency_2_meets_half_as_often_with_one_threads_results() {
    let n = torus(64, 2);
    let c = |threads| config(threads, 0.03, (100, 100_000));
    let cycles = 200;
    let mut one = sim(&n, &c(1), true);
    let mut ahead = sim(&n, &c(2), true);
    let mut phases = sim(&n, &c(2), false);
    for s in [&mut one, &mut ahead, &mut phases] {
        s.run_for(cycles).unwrap();
    }
    for s in [&ahead, &phases] {
        assert_eq!(s.net.parts.len(), 2);
        assert_eq!(s.stats(), one.stats());
        assert_eq!(s.router_steps(), one.router_steps());
        assert_eq!(s.report(), one.report());
    }
    assert!(
        one.stats().packets_consumed > 100,
        "traffic flowed: {:?}",
        one.stats()
    );
    let (a, p) = (ahead.perf(), phases.perf());
    assert_eq!((a.lookahead, p.lookahead, one.perf().lookahead), (2, 1, 1));
    // Two meetings per cycle in two phases, one more at the end of the run.
    assert_eq!(p.barriers, 2 * cycles + 1);
    assert!(
        2 * a.barriers <= p.barriers,
        "lookahead windows met {} times, cycles in two phases {}",
        a.barriers,
        p.barriers
    );
    assert_eq!(one.perf().barriers, 0);
}

#[test]
fn whole_runs_with_lookahead_give_one_threads_report_at_any_thread_count() {
    // Warm-up and measurement not multiples of the lookahead; the drain (stop when
    // drained) meets every cycle.
    for latency in [2, 3, 5] {
        let n = torus(8, latency);
        let c = |threads| config(threads, 0.3, (101, 203));
        let one = sim(&n, &c(1), true).run();
        for threads in [2, 3, 8] {
            let mut s = sim(&n, &c(threads), true);
            let report = s.run();
            assert_eq!(report, one, "latency {latency}, {threads} threads");
            let perf = s.perf();
            assert_eq!(perf.lookahead, u64::from(latency));
            assert!(
                perf.barriers < 2 * s.now().0,
                "latency {latency}, {threads} threads: {} meetings in {} cycles",
                perf.barriers,
                s.now()
            );
        }
    }
}

#[test]
fn a_deadlock_is_caught_at_one_threads_cycle_with_lookahead() {
    let mut n = torus(8, 3);
    n.set("routing", "dor-nodateline").unwrap();
    let c = |threads| SimConfig {
        drain: 0,
        watchdog: 100,
        ..config(threads, 0.5, (0, 50_000))
    };
    let mut one = sim(&n, &c(1), true);
    let report = one.run();
    assert!(
        matches!(one.error(), Some(SimError::Deadlock { .. })),
        "{:?}",
        one.error()
    );
    for threads in [2, 3] {
        let mut s = sim(&n, &c(threads), true);
        assert_eq!(s.run(), report, "{threads} threads");
        assert_eq!(s.error(), one.error());
        assert_eq!(s.perf().lookahead, 3);
    }
}
