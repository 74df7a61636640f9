//! Per-channel statistics (`channels` in `--json` with `--channel-stats`) and their
//! averages over channels of the same class (dimension and direction).
//!
//! Measured from the start of the measurement window to the report: the router counters
//! are reset when the window opens. A VC is busy from its allocation until its release
//! (tail sent and all credits home), so P(v) is the distribution Dally's Markov model
//! predicts (`flitsim model markov`).

use serde::{Deserialize, Serialize};

/// Statistics of one router-to-router channel.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChannelStats {
    /// Channel id (netlist order).
    pub id: u32,
    /// Upstream `router.port`.
    pub from: String,
    /// Downstream `router.port`.
    pub to: String,
    /// Class: `dim{d}{+|-}` (generated topologies) or `other`.
    pub class: String,
    /// VCs of the channel (of the downstream input port).
    pub vcs: u8,
    /// Head flits (packets) sent per cycle.
    pub packets_per_cycle: f64,
    /// Flits sent per cycle (fraction of cycles the channel carries a flit).
    pub utilization: f64,
    /// Time-average distribution of the number of busy VCs: `p_busy[v]`, v = 0..=vcs.
    pub p_busy: Vec<f64>,
    /// Time-average number of busy VCs (= sum of v P(v)).
    pub busy_vcs_mean: f64,
    /// VC allocations (packet heads taking a VC of this channel) per cycle.
    pub head_arrival_rate: f64,
    /// Mean VC holding time per packet: summed busy periods (allocation to release) /
    /// allocations, so that `busy_vcs_mean = head_arrival_rate x holding_time_mean`
    /// (Little); equal to the allocation-to-release time when packets do not chain on a VC.
    pub holding_time_mean: Option<f64>,
    /// Summed busy periods of the VCs (from allocation and release times, independently of
    /// P(v)) per cycle; with one VC it is the fraction of time the channel is held.
    pub held_fraction: f64,
}

/// Averages over the channels of one class.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChannelClassStats {
    /// The class (`dim0+`, ...).
    pub class: String,
    /// Channels in it.
    pub channels: usize,
    /// Mean utilisation.
    pub utilization: f64,
    /// Mean P(v) (channels with the most VCs set the length).
    pub p_busy: Vec<f64>,
    /// Mean busy VCs.
    pub busy_vcs_mean: f64,
    /// Mean head arrival rate per channel.
    pub head_arrival_rate: f64,
    /// Holding time per packet over the whole class.
    pub holding_time_mean: Option<f64>,
}

/// Averages `channels` by class, classes sorted by name; `held[i]` = (allocations, busy
/// cycles) of channel `i`.
pub fn by_class(channels: &[ChannelStats], held: &[(u64, u64)]) -> Vec<ChannelClassStats> {
    let mut classes: Vec<String> = channels.iter().map(|c| c.class.clone()).collect();
    classes.sort();
    classes.dedup();
    classes
        .into_iter()
        .map(|class| {
            let members: Vec<usize> = (0..channels.len())
                .filter(|&i| channels[i].class == class)
                .collect();
            let n = members.len() as f64;
            let mean = |f: &dyn Fn(&ChannelStats) -> f64| {
                members.iter().map(|&i| f(&channels[i])).sum::<f64>() / n
            };
            let width = members
                .iter()
                .map(|&i| channels[i].p_busy.len())
                .max()
                .unwrap_or(0);
            let p_busy = (0..width)
                .map(|v| mean(&|c: &ChannelStats| c.p_busy.get(v).copied().unwrap_or(0.0)))
                .collect();
            let (allocations, cycles) = members
                .iter()
                .fold((0, 0), |(r, c), &i| (r + held[i].0, c + held[i].1));
            ChannelClassStats {
                channels: members.len(),
                utilization: mean(&|c| c.utilization),
                p_busy,
                busy_vcs_mean: mean(&|c| c.busy_vcs_mean),
                head_arrival_rate: mean(&|c| c.head_arrival_rate),
                holding_time_mean: (allocations > 0).then(|| cycles as f64 / allocations as f64),
                class,
            }
        })
        .collect()
}
