//! Runs a simulation and collects, besides the engine's report, what the cross-checks
//! need per router-to-router channel: the distribution of the number of busy VCs, the
//! packet arrival rate and the mean VC holding time.
//!
//! These come from the engine's per-channel statistics (`Simulation::channel_stats`, the
//! `--channel-stats` fields of `flitsim run`): the routers' lazily accumulated occupancy
//! counters, restarted when the measurement window opens and read after the drain (the
//! traffic goes on during the drain, so the interval is the window plus the drain, one
//! stationary stretch for a point below saturation). A VC is busy from its allocation
//! until its tail has left and all its credits are home; `lambda` is the VC allocations
//! per cycle and `S` the summed busy periods per allocation, so `lambda S` is the mean
//! number of busy VCs up to the busy periods still open when it is read (Little's law on
//! the VCs).
//!
//! The latency confidence interval: the engine's `latency.ci95` when it reports one,
//! otherwise batch means over 10 equal slices of the window by generation cycle.

use crate::crosscheck::ChannelMeasurement;
use flitsim_engine::stats::batch_means::from_batch_means;
use flitsim_engine::{RunReport, SimConfig, Simulation};
use flitsim_netlist::{InPort, Netlist, VcId};

/// A run with per-channel measurements.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Measured {
    /// The engine's report.
    pub report: RunReport,
    /// One entry per router-to-router channel, in netlist channel order.
    pub channels: Vec<ChannelMeasurement>,
    /// Cycles the channel measurements cover (the window and the drain).
    pub channel_cycles: u64,
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
    let report = sim.run();
    let (stats, _) = sim.channel_stats(netlist);
    let channels = netlist
        .channels()
        .zip(stats)
        .map(|(c, s)| ChannelMeasurement {
            name: s.from,
            class: netlist.router(c.from).ports[c.from_port.index()]
                .name
                .clone(),
            router: c.from.0,
            port: c.from_port.0,
            packets: sim.router(c.from).stats().packets_sent[c.from_port.index()],
            packets_per_cycle: s.head_arrival_rate,
            holding_time: s.holding_time_mean,
            p: s.p_busy,
        })
        .collect();
    let deliveries = sim.take_deliveries();
    let mut sums = vec![(0u64, 0u64); BATCHES as usize];
    for d in deliveries.iter().filter(|d| window.contains(d.created)) {
        let b = ((d.created.0 - window.start.0) * BATCHES / window.len().max(1)) as usize;
        let b = b.min(sums.len() - 1);
        sums[b].0 += d.measured;
        sums[b].1 += 1;
    }
    let batches: Vec<f64> = sums
        .iter()
        .filter(|s| s.1 > 0)
        .map(|s| s.0 as f64 / s.1 as f64)
        .collect();
    let total: (u64, u64) = sums.iter().fold((0, 0), |a, s| (a.0 + s.0, a.1 + s.1));
    // Router-to-router input ports only (port 0 is the terminal's injection port).
    let mut max_buffer_occupancy = 0;
    for r in netlist.routers() {
        let router = sim.router(r.id);
        for (p, port) in r.ports.iter().enumerate().skip(1) {
            for v in 0..port.vcs {
                let m = router.max_buffer_occupancy(InPort(p as u8), VcId(v));
                max_buffer_occupancy = max_buffer_occupancy.max(m);
            }
        }
    }
    Ok(Measured {
        latency_ci95: report
            .latency
            .ci95
            .or_else(|| from_batch_means(&batches).map(|i| i.half_width)),
        latency_mean: (total.1 > 0).then(|| total.0 as f64 / total.1 as f64),
        report,
        channels,
        channel_cycles: sim.stats_cycles(),
        max_buffer_occupancy,
    })
}

#[cfg(test)]
mod tests {
    use flitsim_engine::stats::batch_means::from_batch_means;

    #[test]
    fn ci_of_identical_batches_is_zero_and_t_quantile_applies() {
        let ci95 = |b: &[f64]| from_batch_means(b).map(|i| i.half_width);
        assert_eq!(ci95(&[5.0, 5.0, 5.0]), Some(0.0));
        // Two batches 1 and 3: mean 2, s = sqrt(2), half-width 12.706 * sqrt(2)/sqrt(2).
        assert!((ci95(&[1.0, 3.0]).unwrap() - 12.706).abs() < 1e-9);
        assert_eq!(ci95(&[1.0]), None);
    }
}
