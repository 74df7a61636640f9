//! Simulation against theory: the only place where the engine's measurements and the
//! analysis crate's models meet. Everything here takes measured statistics as plain data
//! ([`ChannelMeasurement`], [`Setup`], a measured latency) and never runs the simulator
//! (`crate::measure` does that).
//!
//! Per channel, the measured distribution `P(v)` of the number of busy VCs is compared
//! with Dally's birth-death chain (`flitsim_analysis::markov::vc_occupancy`) fed with the
//! same channel's *measured* packet arrival rate `lambda` and mean VC holding time `S`:
//! the total-variation distance between the two distributions, and the measured against
//! the predicted multiplexing degree `sum v^2 P_v / sum v P_v`. `lambda` and `S` are the VC
//! allocations per cycle and the busy period per allocation, so the measured mean number
//! of busy VCs is `lambda S` (Little's law, up to the busy periods open at the end); the
//! comparison tests the *shape* the chain assumes (Poisson arrivals, exponential holding,
//! no correlation between VCs), not the load.
//!
//! The channels are also averaged per class (the output port's name: `east`, `d2p`, ...).
//!
//! [`paper_model`] picks the paper model that describes a configuration, if any (torus +
//! `quaglia` routing: paper 000; torus + `duato-nbc`: 001; hypercube + `pcube`: 002;
//! torus + VCT + `fixed-distance:L`: 004), and [`model_latency`] evaluates it.

use flitsim_analysis::compare::{relative_error, total_variation};
use flitsim_analysis::markov::{multiplexing_degree, vc_occupancy};
use flitsim_analysis::papers::{p000_quaglia, p001_safaei, p002_patooghy, p004_vct};
use serde::Serialize;

/// What was measured on one router-to-router channel (`crate::measure`: the window and
/// the drain).
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct ChannelMeasurement {
    /// Netlist name of the channel's output port, `r3.east`.
    pub name: String,
    /// Channel class: the output port's name (`east`, `d1m`, ...).
    pub class: String,
    /// Upstream router id.
    pub router: u32,
    /// Upstream output port.
    pub port: u8,
    /// Packets (heads) written onto the channel.
    pub packets: u64,
    /// Packet arrival rate `lambda`: VC allocations (heads taking a VC of the channel) per
    /// cycle.
    pub packets_per_cycle: f64,
    /// Mean VC holding time `S`, cycles: summed busy periods (allocation to release: tail
    /// sent and all credits home) per allocation; `None` when no packet used the channel.
    pub holding_time: Option<f64>,
    /// Fraction of cycles with `v` VCs busy, `v = 0..=V`.
    pub p: Vec<f64>,
}

/// One channel: measured against Dally's chain.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ChannelCheck {
    /// Channel name.
    pub name: String,
    /// Channel class.
    pub class: String,
    /// Measured packet arrival rate (per cycle).
    pub lambda: f64,
    /// Measured mean holding time (cycles).
    pub holding_time: Option<f64>,
    /// `lambda * S`.
    pub rho: f64,
    /// Measured `P(v)`.
    pub measured: Vec<f64>,
    /// Predicted `P(v)`; `None` when the chain has no steady state (`rho >= 1`) or the
    /// channel carried nothing.
    pub predicted: Option<Vec<f64>>,
    /// Total-variation distance between the two.
    pub tv: Option<f64>,
    /// Measured multiplexing degree.
    pub multiplexing_measured: f64,
    /// Predicted multiplexing degree.
    pub multiplexing_predicted: Option<f64>,
    /// `(measured - predicted) / predicted` of the multiplexing degree.
    pub multiplexing_error: Option<f64>,
}

/// One channel class: the channels of the class averaged.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ClassCheck {
    /// Class name (`all` for the whole network).
    pub class: String,
    /// Channels in the class.
    pub channels: usize,
    /// Channels without a prediction (saturated or idle).
    pub without_prediction: usize,
    /// Mean arrival rate.
    pub lambda: f64,
    /// Mean holding time over the channels that carried packets.
    pub holding_time: Option<f64>,
    /// Mean `rho`.
    pub rho: f64,
    /// Largest `rho`.
    pub rho_max: f64,
    /// Mean per-channel TV distance (over channels with a prediction).
    pub tv_mean: Option<f64>,
    /// Largest per-channel TV distance.
    pub tv_max: Option<f64>,
    /// Class-mean measured `P(v)`.
    pub measured: Vec<f64>,
    /// Class-mean predicted `P(v)` (channels with a prediction).
    pub predicted: Option<Vec<f64>>,
    /// Mean measured multiplexing degree (channels with a prediction).
    pub multiplexing_measured: f64,
    /// Mean predicted multiplexing degree.
    pub multiplexing_predicted: Option<f64>,
    /// Relative error of the two means.
    pub multiplexing_error: Option<f64>,
}

/// Compares one channel with the chain.
pub fn check_channel(m: &ChannelMeasurement) -> ChannelCheck {
    let vcs = m.p.len().saturating_sub(1);
    let lambda = m.packets_per_cycle;
    let rho = m.holding_time.map_or(0.0, |s| lambda * s);
    let predicted = m
        .holding_time
        .filter(|_| lambda > 0.0 && vcs > 0)
        .and_then(|s| vc_occupancy(lambda, s, vcs).ok());
    let tv = predicted.as_ref().map(|q| total_variation(&m.p, q));
    let mux_m = multiplexing_degree(&m.p);
    let mux_p = predicted.as_ref().map(|q| multiplexing_degree(q));
    ChannelCheck {
        name: m.name.clone(),
        class: m.class.clone(),
        lambda,
        holding_time: m.holding_time,
        rho,
        measured: m.p.clone(),
        predicted,
        tv,
        multiplexing_measured: mux_m,
        multiplexing_predicted: mux_p,
        multiplexing_error: mux_p.and_then(|p| relative_error(mux_m, p)),
    }
}

/// Compares every channel with the chain.
pub fn check_channels(ms: &[ChannelMeasurement]) -> Vec<ChannelCheck> {
    ms.iter().map(check_channel).collect()
}

fn mean(xs: impl Iterator<Item = f64>) -> Option<f64> {
    let (s, n) = xs.fold((0.0, 0usize), |(s, n), x| (s + x, n + 1));
    (n > 0).then(|| s / n as f64)
}

fn mean_vec<'a>(vs: impl Iterator<Item = &'a Vec<f64>>) -> Option<Vec<f64>> {
    let mut acc: Vec<f64> = Vec::new();
    let mut n = 0usize;
    for v in vs {
        if acc.len() < v.len() {
            acc.resize(v.len(), 0.0);
        }
        for (a, x) in acc.iter_mut().zip(v) {
            *a += x;
        }
        n += 1;
    }
    (n > 0).then(|| acc.into_iter().map(|a| a / n as f64).collect())
}

/// Averages the checks of `class` (all of them for `None`).
pub fn summarise(checks: &[ChannelCheck], class: Option<&str>) -> ClassCheck {
    let of: Vec<&ChannelCheck> = checks
        .iter()
        .filter(|c| class.is_none_or(|k| c.class == k))
        .collect();
    let with: Vec<&ChannelCheck> = of.iter().copied().filter(|c| c.tv.is_some()).collect();
    let mux_m = mean(with.iter().map(|c| c.multiplexing_measured)).unwrap_or(1.0);
    let mux_p = mean(with.iter().filter_map(|c| c.multiplexing_predicted));
    ClassCheck {
        class: class.unwrap_or("all").to_string(),
        channels: of.len(),
        without_prediction: of.len() - with.len(),
        lambda: mean(of.iter().map(|c| c.lambda)).unwrap_or(0.0),
        holding_time: mean(of.iter().filter_map(|c| c.holding_time)),
        rho: mean(of.iter().map(|c| c.rho)).unwrap_or(0.0),
        rho_max: of.iter().map(|c| c.rho).fold(0.0, f64::max),
        tv_mean: mean(with.iter().filter_map(|c| c.tv)),
        tv_max: with.iter().filter_map(|c| c.tv).reduce(f64::max),
        measured: mean_vec(of.iter().map(|c| &c.measured)).unwrap_or_default(),
        predicted: mean_vec(with.iter().filter_map(|c| c.predicted.as_ref())),
        multiplexing_measured: mux_m,
        multiplexing_predicted: mux_p,
        multiplexing_error: mux_p.and_then(|p| relative_error(mux_m, p)),
    }
}

/// The classes in order of first appearance, then `all`.
pub fn by_class(checks: &[ChannelCheck]) -> Vec<ClassCheck> {
    let mut names: Vec<&str> = Vec::new();
    for c in checks {
        if !names.contains(&c.class.as_str()) {
            names.push(&c.class);
        }
    }
    let mut out: Vec<ClassCheck> = names.iter().map(|n| summarise(checks, Some(n))).collect();
    out.push(summarise(checks, None));
    out
}

/// A configuration as plain data, enough to pick a paper model.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Setup {
    /// `torus`, `mesh`, `hypercube`, `ring`, `dragonfly`, `hyperx` or `explicit`.
    pub topology: String,
    /// Torus/mesh radix per dimension; for a hypercube, `[2; n]`.
    pub radix: Vec<u32>,
    /// Routing function name (`dor`, `quaglia`, `duato-nbc`, `pcube`, ...).
    pub routing: String,
    /// Switching name (`wormhole`, `vct`, `saf`).
    pub switching: String,
    /// Traffic pattern as written on the command line (`uniform`, `fixed-distance:3`).
    pub traffic: String,
    /// Packet length in flits (the mean for variable lengths).
    pub length: u32,
    /// Packets generated per terminal per cycle.
    pub rate: f64,
    /// VCs per channel.
    pub vcs: u32,
}

/// A paper model matching a configuration.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "paper")]
pub enum PaperModel {
    /// Paper 000 (Quaglia): k x k torus, adaptive routing, `k` a multiple of 4.
    #[serde(rename = "000")]
    P000 {
        /// Radix.
        k: u32,
        /// Packet length.
        length: u32,
        /// Generation rate.
        rate: f64,
    },
    /// Paper 001 (Safaei): k x k torus, Duato-Nbc with `v1` adaptive and `v2` escape VCs.
    #[serde(rename = "001")]
    P001 {
        /// Radix.
        k: u32,
        /// Adaptive VCs.
        v1: u32,
        /// Escape VCs.
        v2: u32,
        /// Packet length.
        length: u32,
        /// Generation rate.
        rate: f64,
    },
    /// Paper 002 (Patooghy): n-cube, P-cube routing.
    #[serde(rename = "002")]
    P002 {
        /// Dimension.
        n: u32,
        /// VCs per channel.
        vcs: u32,
        /// Packet length.
        length: u32,
        /// Generation rate.
        rate: f64,
    },
    /// Paper 004: 2-D torus, VCT, unbounded buffers, every destination `l` hops away.
    #[serde(rename = "004")]
    P004 {
        /// Distance.
        l: u32,
        /// Packet length.
        length: u32,
        /// Generation rate.
        rate: f64,
    },
}

/// The paper model describing `s`, if one applies.
///
/// Duato-Nbc's split: the model needs `V1`/`V2`; flitsim's routing uses the fewest escape
/// VCs that keep the torus deadlock-free (`p001_safaei::escape_vcs_needed`), the rest
/// adaptive, and so does this choice.
pub fn paper_model(s: &Setup) -> Option<PaperModel> {
    let square_torus = s.topology == "torus" && s.radix.len() == 2 && s.radix[0] == s.radix[1];
    let k = s.radix.first().copied().unwrap_or(0);
    match s.routing.as_str() {
        "quaglia" if square_torus && k % 4 == 0 && s.traffic == "uniform" => {
            Some(PaperModel::P000 {
                k,
                length: s.length,
                rate: s.rate,
            })
        }
        "duato-nbc" if square_torus && s.traffic == "uniform" => {
            let v2 = p001_safaei::escape_vcs_needed(k);
            (s.vcs > v2).then_some(PaperModel::P001 {
                k,
                v1: s.vcs - v2,
                v2,
                length: s.length,
                rate: s.rate,
            })
        }
        "pcube" if s.topology == "hypercube" && s.traffic == "uniform" => Some(PaperModel::P002 {
            n: s.radix.len() as u32,
            vcs: s.vcs,
            length: s.length,
            rate: s.rate,
        }),
        _ if square_torus && s.switching == "vct" => {
            let l = s.traffic.strip_prefix("fixed-distance:")?.parse().ok()?;
            Some(PaperModel::P004 {
                l,
                length: s.length,
                rate: s.rate,
            })
        }
        _ => None,
    }
}

/// A paper model's mean latency prediction.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ModelLatency {
    /// The model.
    pub model: PaperModel,
    /// Mean packet latency, cycles; `None` when the model has no steady state.
    pub latency: Option<f64>,
    /// Why there is no number (saturation, refused configuration).
    pub note: Option<String>,
}

/// Evaluates `m`.
pub fn model_latency(m: &PaperModel) -> ModelLatency {
    let (latency, note) = match *m {
        PaperModel::P000 { k, length, rate } => {
            let cfg = p000_quaglia::QuagliaConfig {
                length,
                ..p000_quaglia::QuagliaConfig::new(k, rate)
            };
            match p000_quaglia::predict(&cfg) {
                Ok(p) => (Some(p.latency), None),
                Err(e) => (None, Some(e.to_string())),
            }
        }
        PaperModel::P001 {
            k,
            v1,
            v2,
            length,
            rate,
        } => {
            let cfg = p001_safaei::SafaeiConfig {
                k,
                v1,
                v2,
                length,
                rate,
                distance: p001_safaei::MeanDistance::default(),
            };
            match p001_safaei::solve(cfg) {
                Ok(p001_safaei::SafaeiOutcome::Solved(s)) => (Some(s.latency), None),
                Ok(p001_safaei::SafaeiOutcome::Saturated { reason }) => {
                    (None, Some(format!("saturated: {reason}")))
                }
                Err(e) => (None, Some(e.to_string())),
            }
        }
        PaperModel::P002 {
            n,
            vcs,
            length,
            rate,
        } => {
            let cfg = p002_patooghy::PcubeConfig {
                n,
                vcs: vcs as usize,
                length,
                rate,
            };
            match p002_patooghy::solve(cfg) {
                p002_patooghy::PcubeOutcome::Solved(s) => (Some(s.latency), None),
                p002_patooghy::PcubeOutcome::Saturated { reason } => {
                    (None, Some(format!("saturated: {reason}")))
                }
            }
        }
        PaperModel::P004 { l, length, rate } => match p004_vct::latency(rate, l, length) {
            Ok(t) => (Some(t), None),
            Err(e) => (None, Some(e.to_string())),
        },
    };
    ModelLatency {
        model: m.clone(),
        latency,
        note,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn channel(p: Vec<f64>, lambda: f64, s: f64) -> ChannelMeasurement {
        ChannelMeasurement {
            name: "r0.east".into(),
            class: "east".into(),
            router: 0,
            port: 1,
            packets: 0,
            packets_per_cycle: lambda,
            holding_time: Some(s),
            p,
        }
    }

    #[test]
    fn a_channel_that_follows_the_chain_has_zero_distance() {
        // rho = 0.02 * 20 = 0.4, V = 2: (0.6, 0.24, 0.16).
        let c = check_channel(&channel(vec![0.6, 0.24, 0.16], 0.02, 20.0));
        assert!(c.tv.unwrap() < 1e-12);
        assert!(c.multiplexing_error.unwrap().abs() < 1e-12);
        // Multiplexing (0.24 + 4 * 0.16) / (0.24 + 2 * 0.16) = 0.88 / 0.56.
        assert!((c.multiplexing_measured - 0.88 / 0.56).abs() < 1e-12);
    }

    #[test]
    fn deterministic_single_vc_use_is_far_from_the_chain() {
        // rho = 0.4 but never two VCs busy: P = (0.6, 0.4, 0); chain (0.6, 0.24, 0.16).
        let c = check_channel(&channel(vec![0.6, 0.4, 0.0], 0.02, 20.0));
        assert!((c.tv.unwrap() - 0.16).abs() < 1e-12);
        assert_eq!(c.multiplexing_measured, 1.0);
    }

    #[test]
    fn saturated_channel_has_no_prediction() {
        let c = check_channel(&channel(vec![0.0, 0.0, 1.0], 0.1, 20.0));
        assert!(c.predicted.is_none() && c.tv.is_none());
        let s = summarise(&[c], None);
        assert_eq!(s.without_prediction, 1);
        assert_eq!(s.tv_mean, None);
    }

    #[test]
    fn classes_average_their_channels() {
        let mut a = channel(vec![0.6, 0.24, 0.16], 0.02, 20.0);
        let mut b = channel(vec![0.6, 0.4, 0.0], 0.02, 20.0);
        a.class = "x".into();
        b.class = "x".into();
        let checks = check_channels(&[a, b]);
        let classes = by_class(&checks);
        assert_eq!(classes.len(), 2);
        assert_eq!(classes[0].class, "x");
        assert!((classes[0].tv_mean.unwrap() - 0.08).abs() < 1e-12);
        assert!((classes[0].tv_max.unwrap() - 0.16).abs() < 1e-12);
        assert!((classes[0].measured[1] - 0.32).abs() < 1e-12);
    }

    #[test]
    fn paper_models_are_matched_by_configuration() {
        let mut s = Setup {
            topology: "torus".into(),
            radix: vec![8, 8],
            routing: "quaglia".into(),
            switching: "wormhole".into(),
            traffic: "uniform".into(),
            length: 12,
            rate: 0.005,
            vcs: 4,
        };
        assert!(matches!(
            paper_model(&s),
            Some(PaperModel::P000 { k: 8, .. })
        ));
        s.routing = "dor".into();
        assert_eq!(paper_model(&s), None);
        s.routing = "duato-nbc".into();
        s.vcs = 10;
        assert!(matches!(
            paper_model(&s),
            Some(PaperModel::P001 { v1: 5, v2: 5, .. })
        ));
        s.routing = "dor".into();
        s.switching = "vct".into();
        s.traffic = "fixed-distance:3".into();
        assert!(matches!(
            paper_model(&s),
            Some(PaperModel::P004 { l: 3, .. })
        ));
        // Paper 004 at zero load: 3(l + 1) + m.
        let m = model_latency(&PaperModel::P004 {
            l: 3,
            length: 10,
            rate: 0.0,
        });
        assert_eq!(m.latency, Some(22.0));
    }
}
