//! Per-channel head arrival rates under P-cube (paper 002) with random selection at low
//! load on hypercube-6 match the exact expected rates, computed here independently by
//! enumerating every source/destination pair and every minimal P-cube path (all equally
//! likely when every candidate is free, as at low load: the random selection picks each of
//! the `a` phase-1 dimensions with probability 1/a, then each of the remaining, ...), and
//! the channels next to node 0 carry the most.

use flitsim::analysis::papers::p002_patooghy::channel_rate;
use flitsim::engine::{SimConfig, Simulation};
use flitsim::netlist::topology::hypercube;
use flitsim::netlist::{ChannelId, RouterId};

const N: u32 = 6;

/// Adds `weight` to every channel (`from`, `dim`) of every P-cube path from `at` to `t`.
fn enumerate(at: u32, t: u32, weight: f64, load: &mut [[f64; N as usize]]) {
    if at == t {
        return;
    }
    let ones_to_clear: Vec<u32> = (0..N)
        .filter(|&d| at >> d & 1 == 1 && t >> d & 1 == 0)
        .collect();
    let dims = if ones_to_clear.is_empty() {
        (0..N)
            .filter(|&d| at >> d & 1 == 0 && t >> d & 1 == 1)
            .collect()
    } else {
        ones_to_clear
    };
    let w = weight / dims.len() as f64;
    for d in dims {
        load[at as usize][d as usize] += w;
        enumerate(at ^ (1 << d), t, w, load);
    }
}

#[test]
fn pcube_channel_rates_match_the_path_enumeration() {
    let nodes = 1u32 << N;
    // Expected heads per cycle on channel (a, d) per unit of per-terminal packet rate.
    let mut factor = vec![[0.0f64; N as usize]; nodes as usize];
    for s in 0..nodes {
        for t in (0..nodes).filter(|&t| t != s) {
            enumerate(s, t, 1.0 / f64::from(nodes - 1), &mut factor);
        }
    }
    // The enumeration agrees with paper 002's closed form (eqs 1-2).
    for a in 0..nodes {
        for d in 0..N {
            let closed = channel_rate(N, a, d, 1.0);
            assert!(
                (factor[a as usize][d as usize] - closed).abs() < 1e-9,
                "{a} {d}"
            );
        }
    }
    let mut n = hypercube(N);
    n.set("routing", "pcube").unwrap();
    n.set("selection", "random").unwrap();
    let rate = 0.02; // packets/terminal/cycle, 4-flit packets: channel utilisation ~0.04
    let window = 40_000u64;
    let config = SimConfig {
        rate,
        length: 4,
        warmup: 2_000,
        cycles: window,
        drain: 0,
        seed: 7,
        ..SimConfig::default()
    };
    let mut sim = Simulation::new(&n, &config).unwrap();
    let report = sim.run();
    assert!(report.deadlock.is_none());
    // No drain: the channel counters (reset when the window opens) cover exactly the window.
    assert_eq!(report.cycles.total, 2_000 + window);
    let (channels, _) = sim.channel_stats(&n);
    assert_eq!(channels.len(), (nodes * N) as usize);
    let mut near0 = Vec::new();
    let mut others = Vec::new();
    let mut chi2 = 0.0;
    for c in &channels {
        let ch = n.channel(ChannelId(c.id));
        let a = ch.from.0;
        let d = (a ^ ch.to.0).trailing_zeros();
        let expected = factor[a as usize][d as usize] * rate * window as f64;
        let measured = c.packets_per_cycle * window as f64;
        // A head count is a sum of many rare independent events (each generated packet
        // crosses the channel with a small probability): Poisson, sigma = sqrt(expected)
        // (about 20 heads of about 400). 5 sigma per channel, plus one count of slack for
        // the heads in flight at the window edges.
        let sigma = expected.sqrt();
        let tol = 5.0 * sigma + 1.0;
        assert!(
            (measured - expected).abs() <= tol,
            "channel {} ({} -> {}): {measured} heads, expected {expected:.1} +- {tol:.1}",
            c.id,
            c.from,
            c.to
        );
        chi2 += ((measured - expected) / sigma).powi(2);
        // Utilisation = heads x 4 flits (up to the packets cut by the window edges).
        assert!(
            (c.utilization - 4.0 * c.packets_per_cycle).abs() <= 8.0 / window as f64,
            "channel {}: utilization {} vs 4 x {}",
            c.id,
            c.utilization,
            c.packets_per_cycle
        );
        if ch.from == RouterId(0) || ch.to == RouterId(0) {
            near0.push(c.packets_per_cycle);
        } else {
            others.push(c.packets_per_cycle);
        }
    }
    // No systematic deviation either: the mean squared z-score is about 1 (chi-square with
    // 384 degrees of freedom: mean 1, standard deviation sqrt(2/384) = 0.07 per channel).
    let per_channel = chi2 / channels.len() as f64;
    assert!(
        (0.7..1.35).contains(&per_channel),
        "chi-square per channel {per_channel}"
    );
    // The channels next to node 0 carry the most: the expected rates say so (all 12, into
    // and out of node 0, share the maximum, 1.76 heads per unit rate; the next is 0.92) ...
    let max_expected = factor.iter().flatten().cloned().fold(0.0, f64::max);
    for d in 0..N {
        for (a, what) in [(1 << d, "into"), (0, "out of")] {
            assert!(
                (factor[a as usize][d as usize] - max_expected).abs() < 1e-12,
                "channel {what} node 0 along dim {d}"
            );
        }
    }
    // ... and so does the simulation: they are the 12 busiest channels measured.
    let quietest_near0 = near0.iter().cloned().fold(f64::INFINITY, f64::min);
    let busiest_other = others.iter().cloned().fold(0.0, f64::max);
    assert_eq!(near0.len(), 2 * N as usize);
    assert!(
        quietest_near0 > busiest_other,
        "next to node 0 at least {quietest_near0}, elsewhere up to {busiest_other}"
    );
}
