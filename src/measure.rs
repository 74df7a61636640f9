//! Runs a simulation and measures, besides the engine's report, what the cross-checks
//! need per router-to-router channel: the distribution of the number of busy VCs, the
//! packet arrival rate and the mean VC holding time, over the measurement window.
//!
//! The engine is stepped cycle by cycle; after each window cycle every router's output
//! ports are sampled (`Router::busy_vcs`: VCs owned by a packet or with credits out, the
//! VC holding of Dally's model under flitsim's conservative release). Packets per channel
//! are the difference of `RouterStats::packets_sent` across the window. The holding time
//! is (sum of sampled busy VCs) / (packets), so `lambda * S` equals the measured mean
//! number of busy VCs (Little's law on the VCs).
//!
//! The latency confidence interval: the engine's `latency.ci95` when it reports one,
//! otherwise batch means over 10 equal slices of the window by generation cycle.

use crate::crosscheck::{batch_means_ci95, ChannelMeasurement};
use flitsim_engine::{RunReport, SimConfig, Simulation};
use flitsim_netlist::{Netlist, OutPort, RouterId};

/// A run with per-channel measurements.
#[derive(Clone, Debug)]
pub struct Measured {
    /// The engine's report.
    pub report: RunReport,
    /// One entry per router-to-router channel, in (router, port) order.
    pub channels: Vec<ChannelMeasurement>,
    /// Half-width of the 95% CI of the mean latency.
    pub latency_ci95: Option<f64>,
    /// Largest occupancy (flits) any router-to-router input VC reached during the run.
    pub max_buffer_occupancy: u32,
    /// Mean packet latency of the measured packets, from the delivery records.
    pub latency_mean: Option<f64>,
}

const BATCHES: u64 = 10;

/// Runs `config` on `netlist` (warm-up, window, drain) and measures every channel.
///
/// # Errors
/// A bad configuration or a routing function that does not fit.
pub fn run(netlist: &Netlist, config: &SimConfig) -> anyhow::Result<Measured> {
    let mut config = config.clone();
    config.record_deliveries = true;
    let mut sim = Simulation::new(netlist, &config)?;
    let window = config.window();
    // (router, out port, channel name, class, vcs)
    let ports: Vec<(RouterId, OutPort, String, String, usize)> = netlist
        .channels()
        .map(|c| {
            let r = netlist.router(c.from);
            let port = &r.ports[c.from_port.index()];
            let down = &netlist.router(c.to).ports[c.to_port.index()];
            (
                c.from,
                c.from_port,
                format!("{}.{}", r.name, port.name),
                port.name.clone(),
                usize::from(down.vcs),
            )
        })
        .collect();
    let mut hist: Vec<Vec<u64>> = ports.iter().map(|p| vec![0; p.4 + 1]).collect();
    let mut packets_at_start = vec![0u64; ports.len()];
    let mut stopped = false;
    while sim.now() < window.end {
        if sim.now() == window.start {
            for (i, p) in ports.iter().enumerate() {
                packets_at_start[i] = sim.router(p.0).stats().packets_sent[p.1.index()];
            }
        }
        let in_window = sim.now() >= window.start;
        if sim.step().is_err() {
            stopped = true;
            break;
        }
        if in_window {
            for (h, p) in hist.iter_mut().zip(&ports) {
                let busy = sim.router(p.0).busy_vcs(p.1) as usize;
                h[busy.min(p.4)] += 1;
            }
        }
    }
    let cycles = window.len().max(1) as f64;
    let channels = ports
        .iter()
        .zip(&hist)
        .zip(&packets_at_start)
        .map(|((p, h), &start)| {
            let packets = sim.router(p.0).stats().packets_sent[p.1.index()] - start;
            let samples: u64 = h.iter().sum();
            let busy: u64 = h.iter().enumerate().map(|(v, &n)| v as u64 * n).sum();
            ChannelMeasurement {
                name: p.2.clone(),
                class: p.3.clone(),
                router: p.0 .0,
                port: p.1 .0,
                packets,
                packets_per_cycle: packets as f64 / cycles,
                holding_time: (packets > 0).then(|| busy as f64 / packets as f64),
                p: h.iter()
                    .map(|&n| n as f64 / samples.max(1) as f64)
                    .collect(),
            }
        })
        .collect();
    let report = if stopped { sim.report() } else { sim.run() };
    let deliveries = sim.take_deliveries();
    let mut sums = vec![(0u64, 0u64); BATCHES as usize];
    for d in deliveries.iter().filter(|d| window.contains(d.created)) {
        let b = ((d.created.0 - window.start.0) * BATCHES / window.len().max(1)) as usize;
        let b = b.min(sums.len() - 1);
        sums[b].0 += d.consumed.0 - d.created.0;
        sums[b].1 += 1;
    }
    let batches: Vec<f64> = sums
        .iter()
        .filter(|s| s.1 > 0)
        .map(|s| s.0 as f64 / s.1 as f64)
        .collect();
    let total: (u64, u64) = sums.iter().fold((0, 0), |a, s| (a.0 + s.0, a.1 + s.1));
    let max_buffer_occupancy = netlist
        .routers()
        .flat_map(|r| {
            let stats = sim.router(r.id).stats();
            stats
                .max_occupancy
                .iter()
                .skip(1)
                .flat_map(|v| v.iter().copied())
                .max()
        })
        .max()
        .unwrap_or(0);
    Ok(Measured {
        latency_ci95: report.latency.ci95.or_else(|| batch_means_ci95(&batches)),
        latency_mean: (total.1 > 0).then(|| total.0 as f64 / total.1 as f64),
        report,
        channels,
        max_buffer_occupancy,
    })
}
