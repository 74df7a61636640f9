//! Buffer sizing over a load range (`flitsim buffers` without `--rate`): the smallest
//! depth per VC whose network behaves like one with unbounded buffers, by criteria an
//! architect states.
//!
//! With unbounded buffers the saturation search of `sweep --rates auto` gives a bracket
//! `[lo, hi]` of the saturation rate (each probe judged by
//! [`probe_saturated`](super::saturation::probe_saturated): unbounded buffers take what
//! the network cannot carry, so their backlog grows inside the network and shows as
//! accepted throughput below the generated load, not as growing source queues), and the
//! mean latency is measured at `loads` rates evenly spaced up to `up_to * lo`. A depth
//! meets the criteria when (1) at every one of those rates its mean latency is at most `1 + latency_tolerance` times the unbounded one, and (2) the same
//! search on that depth finds it unsaturated at `(1 - saturation_tolerance) * lo` or
//! above: its saturation throughput is within that tolerance of the unbounded one, both
//! measured alike (so a separate `sweep --rates auto` with the same probes finds the same
//! bracket). Depths are
//! tried from the floor (the longest packet under virtual cut-through and
//! store-and-forward, else 1) doubling until one meets the criteria, then bisected: the
//! answer `d` and `d - 1` (when above the floor) are both simulated. The doubling stops
//! at the peak occupancy of any VC with unbounded buffers at the top load: a deeper buffer
//! never fills there. Every depth tried is kept in the result.

use super::curve::{simulate_jobs, Bracket, CurveSpec};
use super::pool::Progress;
use super::saturation::find_saturation;
use anyhow::bail;
use flitsim_engine::SimConfig;
use flitsim_netlist::{Netlist, Switching};
use serde::Serialize;

/// What a depth must meet; [`Criteria::default`] gives the documented defaults.
#[derive(Copy, Clone, Debug, Serialize)]
pub struct Criteria {
    /// The load range ends at this fraction of the unbounded saturation rate (0.8).
    pub up_to: f64,
    /// Loads checked, evenly spaced up to the end of the range (4).
    pub loads: usize,
    /// Mean latency at most this fraction above the unbounded one at each load (0.10).
    pub latency_tolerance: f64,
    /// Saturation throughput at most this fraction below the unbounded one (0.05).
    pub saturation_tolerance: f64,
}

impl Default for Criteria {
    fn default() -> Criteria {
        Criteria {
            up_to: 0.8,
            loads: 4,
            latency_tolerance: 0.10,
            saturation_tolerance: 0.05,
        }
    }
}

impl Criteria {
    /// These criteria when every fraction is in range (`up_to` in (0, 1],
    /// `saturation_tolerance` in [0, 1), `latency_tolerance` finite and >= 0).
    ///
    /// # Errors
    /// A fraction out of range, named by its `flitsim buffers` flag.
    pub fn checked(self) -> anyhow::Result<Criteria> {
        let frac = |flag: &str, v: f64, lo_open: bool| -> anyhow::Result<()> {
            let ok = if lo_open {
                v > 0.0 && v <= 1.0
            } else {
                (0.0..1.0).contains(&v)
            };
            if !ok {
                bail!("{flag} {v} is out of range\nhelp: give a fraction, e.g. {flag} 0.1");
            }
            Ok(())
        };
        frac("--up-to", self.up_to, true)?;
        frac("--saturation-tolerance", self.saturation_tolerance, false)?;
        if !(self.latency_tolerance >= 0.0 && self.latency_tolerance.is_finite()) {
            bail!(
                "--latency-tolerance {} is out of range\nhelp: give a fraction >= 0, e.g. 0.1 for 10%",
                self.latency_tolerance
            );
        }
        Ok(self)
    }
}

/// One load of one depth.
#[derive(Clone, Debug, Serialize)]
pub struct LoadCheck {
    /// Offered packets per terminal per cycle.
    pub rate: f64,
    /// Mean latency (cycles); `null` when the run saturated before measuring.
    pub latency: Option<f64>,
    /// `latency` over the unbounded latency at this rate.
    pub ratio: Option<f64>,
    /// Within the latency tolerance.
    pub ok: bool,
}

/// One depth tried.
#[derive(Clone, Debug, Serialize)]
pub struct DepthCheck {
    /// Depth per VC (flits).
    pub depth: u32,
    /// The loads of the range.
    pub loads: Vec<LoadCheck>,
    /// Its saturation bracket, searched as `sweep --rates auto` does (and as the unbounded
    /// one was) when every load met the latency tolerance; `None` otherwise.
    pub saturation: Option<Bracket>,
    /// Meets every criterion.
    pub meets: bool,
}

/// The outcome of a sizing.
#[derive(Clone, Debug, Serialize)]
pub struct Sizing {
    /// The criteria applied.
    pub criteria: Criteria,
    /// The unbounded network's saturation bracket.
    pub unbounded: Bracket,
    /// The loads of the range and the unbounded mean latency at each.
    pub reference: Vec<(f64, Option<f64>)>,
    /// The lowest saturation rate a depth may have: `1 - saturation_tolerance` times the
    /// unbounded bracket's unsaturated end, compared with the depth's unsaturated end.
    pub saturation_floor: f64,
    /// The smallest depth tried (packet length under VCT and SAF).
    pub floor: u32,
    /// Every depth tried, shallowest first.
    pub tried: Vec<DepthCheck>,
    /// The smallest depth meeting the criteria; `None` if none up to the cap did.
    pub depth: Option<u32>,
}

impl Sizing {
    /// The load that decided the answer: where the next shallower depth missed its
    /// latency tolerance by most (or the last load when it met them all, or none was
    /// tried).
    pub fn deciding_rate(&self) -> f64 {
        let last = self.reference.last().map_or(0.0, |r| r.0);
        let Some(d) = self.depth else { return last };
        let below = self
            .tried
            .iter()
            .filter(|t| t.depth < d)
            .max_by_key(|t| t.depth);
        below
            .and_then(|t| {
                t.loads
                    .iter()
                    .filter(|l| !l.ok)
                    .max_by(|a, b| {
                        a.ratio
                            .unwrap_or(f64::INFINITY)
                            .total_cmp(&b.ratio.unwrap_or(f64::INFINITY))
                    })
                    .map(|l| l.rate)
            })
            .unwrap_or(last)
    }
}

/// `netlist` with every buffer `depth` deep (`"unbounded"` or flits).
///
/// # Errors
/// A depth the netlist refuses.
pub fn with_depth(netlist: &Netlist, depth: &str) -> anyhow::Result<Netlist> {
    let mut n = netlist.clone();
    n.set_all([("buffer_depth", depth)])
        .map_err(|d| anyhow::anyhow!("buffer_depth={depth}: {d}"))?;
    Ok(n)
}

fn spec(netlist: Netlist, config: &SimConfig) -> CurveSpec {
    CurveSpec {
        label: netlist.name.clone(),
        netlist_name: netlist.name.clone(),
        routing: String::new(),
        design: Vec::new(),
        cost: None,
        config: config.clone(),
        netlist,
    }
}

/// The shallowest depth the switching technique allows: the longest packet under
/// virtual cut-through or store-and-forward, else 1.
pub fn floor(netlist: &Netlist, config: &SimConfig) -> u32 {
    let whole_packets = netlist
        .routers()
        .any(|r| !matches!(r.config.switching, Switching::Wormhole));
    if whole_packets {
        config.lengths().max().unwrap_or(config.length).max(1)
    } else {
        1
    }
}

/// Sizes the buffers of `netlist` under `config` (its rate is ignored) by `criteria`.
///
/// # Errors
/// A configuration the engine refuses, or a depth the netlist refuses.
pub fn size_buffers(
    netlist: &Netlist,
    config: &SimConfig,
    criteria: Criteria,
    (probe_cycles, threads): (u64, usize),
    progress: &dyn Progress,
) -> anyhow::Result<Sizing> {
    let unbounded = [spec(with_depth(netlist, "unbounded")?, config)];
    progress.step("finding the unbounded saturation rate");
    // Probed as `sweep --rates auto` probes, four a round.
    let bracket = find_saturation(&unbounded, probe_cycles, 4, threads, progress)?[0];
    let n = criteria.loads.max(1);
    let rates: Vec<f64> = (1..=n)
        .map(|i| criteria.up_to * bracket.unsaturated * i as f64 / n as f64)
        .collect();
    let jobs = |c: usize, rates: &[f64]| -> Vec<(usize, SimConfig)> {
        rates
            .iter()
            .map(|&rate| {
                let mut cfg = config.clone();
                cfg.rate = rate;
                (c, cfg)
            })
            .collect()
    };
    progress.step("measuring the unbounded latency over the load range");
    let reference: Vec<(f64, Option<f64>)> =
        simulate_jobs(&unbounded, &jobs(0, &rates), threads, progress)?
            .iter()
            .zip(&rates)
            .map(|(r, &rate)| (rate, r.0.latency.mean))
            .collect();
    let saturation_floor = (1.0 - criteria.saturation_tolerance) * bracket.unsaturated;
    // No depth beyond the peak occupancy with unbounded buffers at the top load can differ
    // from unbounded buffers there.
    let mut top = config.clone();
    top.rate = rates[rates.len() - 1];
    let (_, stats) = super::buffer_depth::simulate_buffers(netlist, "unbounded", &top)?;
    let peak = stats.iter().map(|b| b.max).max().unwrap_or(1);
    let mut tried: Vec<DepthCheck> = Vec::new();
    let mut check = |d: u32| -> anyhow::Result<bool> {
        if let Some(t) = tried.iter().find(|t| t.depth == d) {
            return Ok(t.meets);
        }
        progress.step(&format!("simulating a depth of {d} flits per VC"));
        let s = [spec(with_depth(netlist, &d.to_string())?, config)];
        let reports = simulate_jobs(&s, &jobs(0, &rates), threads, progress)?;
        let loads = load_checks(&reference, &reports, criteria.latency_tolerance);
        // The saturation search costs most: only a depth that met the latency criterion
        // needs it.
        let saturation = if loads.iter().all(|l| l.ok) {
            progress.step(&format!("finding the saturation rate of {d} flits per VC"));
            Some(find_saturation(&s, probe_cycles, 4, threads, progress)?[0])
        } else {
            None
        };
        let meets = saturation.is_some_and(|b| b.unsaturated >= saturation_floor);
        tried.push(DepthCheck {
            depth: d,
            loads,
            saturation,
            meets,
        });
        Ok(meets)
    };
    let low = floor(netlist, config);
    let cap = peak.max(low).min(flitsim_netlist::MAX_BUFFER_DEPTH);
    let depth = smallest_meeting(low, cap, &mut check)?;
    tried.sort_by_key(|t| t.depth);
    Ok(Sizing {
        criteria,
        unbounded: bracket,
        reference,
        saturation_floor,
        floor: low,
        tried,
        depth,
    })
}

/// Each load of the range against the unbounded `reference`: within `tolerance` of its
/// latency and not saturated.
fn load_checks(
    reference: &[(f64, Option<f64>)],
    reports: &[(flitsim_engine::RunReport, Option<crate::cost::PointCost>)],
    tolerance: f64,
) -> Vec<LoadCheck> {
    reference
        .iter()
        .zip(reports)
        .map(|(&(rate, unb), (r, _))| {
            let ratio = r.latency.mean.zip(unb).map(|(l, u)| l / u);
            LoadCheck {
                rate,
                latency: r.latency.mean,
                ratio,
                ok: !r.saturated && ratio.is_some_and(|x| x <= 1.0 + tolerance),
            }
        })
        .collect()
}

/// The smallest depth in `[low, cap]` that `meets` accepts: doubles from `low` until one
/// does, then bisects between it and the last that did not.
fn smallest_meeting(
    low: u32,
    cap: u32,
    meets: &mut dyn FnMut(u32) -> anyhow::Result<bool>,
) -> anyhow::Result<Option<u32>> {
    let mut bad = None;
    let mut d = low.min(cap);
    loop {
        if meets(d)? {
            break;
        }
        bad = Some(d);
        if d >= cap {
            return Ok(None);
        }
        d = d.saturating_mul(2).min(cap);
    }
    let mut ok = d;
    if let Some(mut bad) = bad {
        while ok - bad > 1 {
            let mid = bad + (ok - bad) / 2;
            if meets(mid)? {
                ok = mid;
            } else {
                bad = mid;
            }
        }
    }
    Ok(Some(ok))
}

/// The bits of one flit in `netlist` (its `flit_width`, by default the cost model's).
pub fn flit_bits(netlist: &Netlist) -> u64 {
    u64::from(netlist.flit_width.unwrap_or(crate::cost::DEFAULT_FLIT_BITS))
}

/// The storage of `netlist` with every VC `depth` flits deep as JSON: flits and bits per
/// router (the largest) and for the network, with `bits` per flit.
pub fn storage_json(netlist: &Netlist, depth: u32, bits: u64) -> serde_json::Value {
    let (router, network) = storage_flits(netlist, depth);
    serde_json::json!({
        "flit_bits": bits,
        "router_flits": router, "router_bits": router * bits,
        "network_flits": network, "network_bits": network * bits,
    })
}

/// Input-buffer storage of `netlist` with every VC `depth` flits deep:
/// (largest per router, whole network), in flits.
pub fn storage_flits(netlist: &Netlist, depth: u32) -> (u64, u64) {
    let per_router: Vec<u64> = netlist
        .routers()
        .map(|r| {
            r.ports
                .iter()
                .map(|p| u64::from(p.vcs) * u64::from(depth))
                .sum()
        })
        .collect();
    (
        per_router.iter().copied().max().unwrap_or(0),
        per_router.iter().sum(),
    )
}

#[cfg(test)]
mod tests {
    use super::smallest_meeting;

    #[test]
    fn the_search_finds_the_threshold_from_the_floor() {
        for (low, threshold) in [
            (1, 1),
            (1, 2),
            (1, 7),
            (12, 12),
            (12, 13),
            (12, 40),
            (4, 64),
        ] {
            let mut asked = Vec::new();
            let mut meets = |d: u32| {
                asked.push(d);
                Ok(d >= threshold)
            };
            assert_eq!(
                smallest_meeting(low, 256, &mut meets).unwrap(),
                Some(threshold)
            );
            assert!(asked.iter().all(|&d| d >= low), "{asked:?}");
            if threshold > low {
                assert!(asked.contains(&(threshold - 1)), "{threshold}: {asked:?}");
            }
        }
        assert_eq!(smallest_meeting(4, 16, &mut |d| Ok(d > 16)).unwrap(), None);
    }
}
