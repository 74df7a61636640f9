//! The zero-load latency a run reports: the mean of [`zero_load_latency_pair`] over the
//! packets the run's traffic would send, every source terminal equally likely.
//!
//! A pattern gives its destinations as a [`DestinationMix`]: the uniform parts use
//! [`UniformMean`]: the closed form or memoised walk of
//! [`UniformSums`](super::UniformSums), or a sample of pairs on large networks (uniform over the other terminals; over every
//! terminal it adds each terminal's self-traffic, which visits one router), and the listed
//! destinations (fixed-distance, permutations, the hot terminals of hotspot) are walked
//! pair by pair. A trace averages over its own packets, each with its own length. The
//! latency of a pair is affine in the packet length, so a pattern's mean is evaluated at
//! 1 and 2 flits and extended to the mean length.

use super::route::zero_load_latency_pair;
use super::sample::UniformMean;
use crate::setup_progress::SetupProgress;
use crate::traffic::{DestinationMix, TracePacket};
use flitsim_netlist::{Netlist, TerminalId};
use flitsim_routing::RoutingFunction;
use std::collections::BTreeMap;

/// A mean zero-load latency and, when the uniform part was sampled, the half-width of its
/// 95% confidence interval.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct ZeroLoadMean {
    /// Mean latency, cycles.
    pub mean: f64,
    /// Half-width of the 95% interval (cycles); `None` when exact.
    pub ci95: Option<f64>,
}

/// Mean zero-load latency (cycles) of packets of mean length `mean_len` flits whose
/// destinations follow `mix`; the uniform walk splits over `threads` workers, a sample
/// tells `progress` the pairs it has drawn. The uniform
/// part is sampled above [`EXACT_MAX_TERMINALS`](super::sample::EXACT_MAX_TERMINALS)
/// terminals without a closed form.
pub fn mean_over_mix(
    netlist: &Netlist,
    routing: &dyn RoutingFunction,
    mix: &DestinationMix,
    threads: usize,
    mean_len: f64,
    progress: &dyn SetupProgress,
) -> ZeroLoadMean {
    let uniform = (mix.others > 0.0 || mix.all > 0.0)
        .then(|| UniformMean::of_threads(netlist, routing, threads, progress));
    let at = |len: u32| mean_at(netlist, routing, mix, uniform.as_ref(), len);
    let (t1, t2) = (at(1), at(2));
    let n = netlist.num_terminals() as f64;
    // The uniform mean's weight: all of `others`, and of `all` the pairs of distinct terminals.
    let weight = mix.others + mix.all * (n - 1.0) / n.max(1.0);
    ZeroLoadMean {
        mean: t1 + (t2 - t1) * (mean_len - 1.0),
        ci95: uniform.and_then(|u| u.ci95(mean_len)).map(|h| weight * h),
    }
}

/// Mean zero-load latency of packets of `len` flits under `mix`.
fn mean_at(
    netlist: &Netlist,
    routing: &dyn RoutingFunction,
    mix: &DestinationMix,
    uniform: Option<&UniformMean>,
    len: u32,
) -> f64 {
    let n = netlist.num_terminals();
    let mut mean = 0.0;
    if let Some(u) = uniform {
        mean += mix.others * u.mean(len);
        if mix.all > 0.0 {
            let own: u64 = (0..n as u32)
                .map(|s| {
                    zero_load_latency_pair(netlist, routing, TerminalId(s), TerminalId(s), len)
                })
                .sum();
            let all = match u {
                UniformMean::Exact(sums) => (sums.total(len) + own) as f64 / (n * n) as f64,
                UniformMean::Sampled(_) => {
                    let pairs = (n * n.saturating_sub(1)) as f64;
                    (u.mean(len) * pairs + own as f64) / (n * n) as f64
                }
            };
            mean += mix.all * all;
        }
    }
    if mix.listed > 0.0 {
        // Per source an integer sum over its list, divided once: exact for whole means.
        let per_source = mix.lists.iter().enumerate().map(|(s, dests)| {
            let sum: u64 = dests
                .iter()
                .map(|&d| zero_load_latency_pair(netlist, routing, TerminalId(s as u32), d, len))
                .sum();
            sum as f64 / dests.len().max(1) as f64
        });
        mean += mix.listed * per_source.sum::<f64>() / n as f64;
    }
    mean
}

/// Mean zero-load latency (cycles) over the packets of a trace, each with its own length
/// (0 for an empty trace).
pub fn mean_over_events(
    netlist: &Netlist,
    routing: &dyn RoutingFunction,
    events: &[TracePacket],
) -> f64 {
    // Per (source, destination): packets and their total length.
    let mut pairs: BTreeMap<(TerminalId, TerminalId), (u64, u64)> = BTreeMap::new();
    for e in events {
        let p = pairs.entry((e.source, e.dest)).or_default();
        p.0 += 1;
        p.1 += u64::from(e.len);
    }
    let total: f64 = pairs
        .iter()
        .map(|(&(s, d), &(count, flits))| {
            let t1 = zero_load_latency_pair(netlist, routing, s, d, 1) as f64;
            let slope = zero_load_latency_pair(netlist, routing, s, d, 2) as f64 - t1;
            count as f64 * t1 + (flits - count) as f64 * slope
        })
        .sum();
    if events.is_empty() {
        0.0
    } else {
        total / events.len() as f64
    }
}
