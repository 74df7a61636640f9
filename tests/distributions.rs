//! Latency distributions: percentiles against an analytical queue, and byte-identical
//! histograms for any thread count.

use flitsim::analysis::queueing::geo_d1::{geo_d1_wait_pmf, pmf_quantile};
use flitsim::engine::{SimConfig, Simulation, TrafficKind};

/// Neighbour traffic on a ring: every source sends to the next terminal over its own east
/// channel, so each injection channel is a single server fed by Bernoulli arrivals
/// (probability `p` a cycle) with deterministic service (`d` flits, one a cycle): a
/// Geo/D/1 queue whose waiting-time distribution is exact (`geo_d1`). The measured
/// source-queue percentiles must equal the analytical ones within their batch-means
/// intervals (at least one cycle: the quantiles of an integer distribution move in steps of one).
#[test]
fn source_queue_percentiles_follow_the_geo_d1_queue() {
    let (p, d) = (0.15, 4u32);
    let net = flitsim::netlist::topology::ring(8);
    let cfg = SimConfig {
        rate: p,
        length: d,
        traffic: TrafficKind::Neighbor,
        warmup: 1000,
        cycles: 30_000,
        percentiles: vec![50.0, 75.0, 90.0, 95.0, 99.0],
        ..SimConfig::default()
    };
    let report = Simulation::new(&net, &cfg).unwrap().run();
    let pmf = geo_d1_wait_pmf(p, d).unwrap();
    let q = &report.distributions.source_queue_time;
    assert!(report.packets.delivered > 30_000);
    for pc in &q.percentiles {
        let exact = pmf_quantile(&pmf, pc.p / 100.0) as f64;
        let got = pc.value.unwrap() as f64;
        let ci = pc.ci95.expect("enough batches for an interval");
        assert!(
            (got - exact).abs() <= ci.max(1.0),
            "p{}: measured {got} +- {ci}, Geo/D/1 {exact}",
            pc.p
        );
    }
    // The tail is where queueing shows: p99 waits several packet times.
    assert!(q.value(99.0).unwrap() >= 3 * u64::from(d));
    // Every latency is at least the zero-load latency.
    let lowest = report.distributions.packet_latency.histogram[0][0];
    assert!(lowest as f64 >= report.zero_load_latency - 1e-9);
}

/// Percentiles and histograms are the same bytes at 1, 2, 3 and 8 workers (every window
/// parallel).
#[test]
fn distributions_are_identical_at_any_thread_count() {
    let net = flitsim::netlist::topology::torus(&[8, 8]);
    let run = |threads: usize| {
        let cfg = SimConfig {
            rate: 0.05,
            length: 4,
            warmup: 300,
            cycles: 2000,
            threads,
            min_parallel_work: if threads == 1 { u64::MAX } else { 0 },
            cycle_checks: false,
            ..SimConfig::default()
        };
        let r = Simulation::new(&net, &cfg).unwrap().run();
        serde_json::to_vec(&r.distributions).unwrap()
    };
    let one = run(1);
    assert!(one.len() > 500, "a histogram with many buckets");
    for threads in [2, 3, 8] {
        assert_eq!(run(threads), one, "{threads} threads");
    }
}

/// A percentile outside (0, 100] is refused before anything runs.
#[test]
fn bad_percentiles_are_refused() {
    let cfg = SimConfig {
        percentiles: vec![50.0, 120.0],
        ..SimConfig::default()
    };
    let e = cfg.validate().unwrap_err();
    assert_eq!(e.code(), "bad-percentiles");
    assert!(e.help().unwrap().contains("--percentiles 50,99,99.9"));
}
