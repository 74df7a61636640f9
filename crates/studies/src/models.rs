//! The analytical models `flitsim model` evaluates: each takes its parameters and the rates
//! to evaluate and returns a [`ModelTable`], one JSON object per point. A saturated point
//! carries `"saturated": true` and no latency.

use anyhow::{bail, Context};
use serde_json::{json, Value};

use flitsim_analysis::markov::{multiplexing_degree, vc_occupancy};
use flitsim_analysis::papers::{
    p000_quaglia, p001_safaei, p002_patooghy, p003_hu_kleinrock, p004_vct,
};
use flitsim_analysis::queueing::{mg1_wait, ServiceVariance};

/// The points of one model evaluation.
#[derive(Debug, Clone)]
pub struct ModelTable {
    /// The model's name (`"model"` in the JSON of a range).
    pub name: &'static str,
    /// One point was asked for (`--rate`), not a range.
    pub single: bool,
    /// The columns of the text table.
    pub columns: &'static [&'static str],
    /// One JSON object per point.
    pub rows: Vec<Value>,
}

/// One rate, or a range `A:B:STEP` (a default range when neither is given).
#[derive(Debug, Clone, Default)]
pub struct RateSpec {
    /// One packet generation rate (packets per terminal per cycle).
    pub rate: Option<f64>,
    /// A range of rates `A:B:STEP`, A and B included.
    pub rates: Option<String>,
}

impl RateSpec {
    /// The rates to evaluate, and whether a single point was asked for.
    pub fn resolve(&self, default: &str) -> anyhow::Result<(Vec<f64>, bool)> {
        if let Some(r) = self.rate {
            if !(r.is_finite() && r >= 0.0) {
                bail!("--rate must be a finite number >= 0, got {r}");
            }
            return Ok((vec![r], true));
        }
        let spec = self.rates.as_deref().unwrap_or(default);
        Ok((parse_rates(spec)?, false))
    }
}

/// Parameters of Dally's Markov model.
#[derive(Debug, Clone)]
pub struct Markov {
    /// Arrival rate on the channel (flits per cycle).
    pub lambda: f64,
    /// Mean service time (cycles).
    pub service: f64,
    /// VCs on the channel.
    pub vcs: usize,
}

/// Parameters of the M/G/1 queue.
#[derive(Debug, Clone)]
pub struct Mg1 {
    /// Arrival rate.
    pub lambda: f64,
    /// Mean service time.
    pub service: f64,
    /// Exact service-time variance.
    pub variance: Option<f64>,
    /// Minimum service time: variance `(service - min)^2`.
    pub min: Option<f64>,
}

/// Parameters of paper 001's model.
#[derive(Debug, Clone)]
pub struct Safaei {
    /// Torus radix.
    pub k: u32,
    /// Fully adaptive VCs per channel (V1).
    pub v1: u32,
    /// Escape (negative-hop) VCs per channel (V2).
    pub v2: u32,
    /// Packet length in flits.
    pub length: u32,
    /// Exact mean distance instead of Agarwal's approximation.
    pub exact_distance: bool,
}

/// Parameters of paper 002's model.
#[derive(Debug, Clone)]
pub struct Patooghy {
    /// Hypercube dimension.
    pub n: u32,
    /// VCs per channel.
    pub vcs: usize,
    /// Packet length in flits.
    pub length: u32,
}

/// Parameters of paper 004's model.
#[derive(Debug, Clone)]
pub struct Vct {
    /// Distance l (hops) from every source to its destination.
    pub distance: u32,
    /// Packet length in flits.
    pub length: u32,
}

/// Parameters of paper 000's model.
#[derive(Debug, Clone)]
pub struct Quaglia {
    /// Torus radix.
    pub k: u32,
    /// Packet length in flits.
    pub length: u32,
    /// The equations as printed instead of the reading that matches the paper's tables.
    pub printed: bool,
}

/// Parameters of paper 003's model.
#[derive(Debug, Clone)]
pub struct HuKleinrock {
    /// Mean packet length in flits (exponentially distributed).
    pub length: f64,
    /// Timeout threshold in cycles.
    pub timeout: f64,
    /// Propagation delay in cycles.
    pub propagation: f64,
}

/// Parse `A:B:STEP` into the rates A, A+STEP, ..., up to B (inclusive within 1e-9 STEP).
pub fn parse_rates(spec: &str) -> anyhow::Result<Vec<f64>> {
    let parts: Vec<&str> = spec.split(':').collect();
    if parts.len() != 3 {
        bail!("--rates takes A:B:STEP (for example 0.001:0.01:0.001), got `{spec}`");
    }
    let num = |s: &str| -> anyhow::Result<f64> {
        s.trim()
            .parse::<f64>()
            .with_context(|| format!("--rates: `{s}` is not a number"))
    };
    let (a, b, step) = (num(parts[0])?, num(parts[1])?, num(parts[2])?);
    if !(step > 0.0 && a >= 0.0 && b >= a && a.is_finite() && b.is_finite()) {
        bail!("--rates A:B:STEP needs 0 <= A <= B and STEP > 0, got `{spec}`");
    }
    let n = ((b - a) / step + 1e-9).floor() as usize;
    if n > 100_000 {
        bail!("--rates `{spec}` has more than 100000 points; use a larger STEP");
    }
    Ok((0..=n).map(|i| a + i as f64 * step).collect())
}

/// Merge the fields of `extra` into the object `base`.
pub fn merge(mut base: Value, extra: Value) -> Value {
    if let (Some(b), Value::Object(e)) = (base.as_object_mut(), extra) {
        b.extend(e);
    }
    base
}

/// Dally's Markov model of busy VCs on one channel.
pub fn markov(a: &Markov) -> anyhow::Result<ModelTable> {
    let row = match vc_occupancy(a.lambda, a.service, a.vcs) {
        Ok(p) => json!({
            "lambda": a.lambda, "service": a.service, "vcs": a.vcs,
            "saturated": false,
            "p": p, "multiplexing": multiplexing_degree(&p),
        }),
        Err(flitsim_analysis::markov::VcOccupancyError::Saturated { rho }) => json!({
            "lambda": a.lambda, "service": a.service, "vcs": a.vcs,
            "saturated": true, "rho": rho,
        }),
        Err(e) => bail!("{e}"),
    };
    Ok(ModelTable {
        name: "markov",
        single: true,
        columns: &["lambda", "service", "vcs", "p", "multiplexing"],
        rows: vec![row],
    })
}

/// M/G/1 (Pollaczek-Khinchine) mean waiting time.
pub fn mg1(a: &Mg1) -> anyhow::Result<ModelTable> {
    if let Some(m) = a.min {
        if !(0.0..=a.service).contains(&m) {
            bail!(
                "--min {m} with --service {}: the minimum service time must be in [0, mean service time]\nhelp: give --min at most --service (--min is the packet length M, --service the mean)",
                a.service
            );
        }
    }
    let variance = match (a.variance, a.min) {
        (Some(v), _) => ServiceVariance::Exact(v),
        (None, Some(m)) => ServiceVariance::MinusMinimum(m),
        (None, None) => ServiceVariance::Exponential,
    };
    let base = json!({
        "lambda": a.lambda, "service": a.service,
        "variance": variance.variance(a.service),
        "utilisation": a.lambda * a.service,
    });
    let row = match mg1_wait(a.lambda, a.service, variance) {
        Ok(w) => merge(base, json!({"saturated": false, "wait": w})),
        Err(flitsim_analysis::queueing::QueueError::Saturated { .. }) => {
            merge(base, json!({"saturated": true}))
        }
        Err(e) => bail!("{e}"),
    };
    Ok(ModelTable {
        name: "mg1",
        single: true,
        columns: &["lambda", "service", "variance", "utilisation", "wait"],
        rows: vec![row],
    })
}

/// Paper 001: Duato-Nbc on a k x k torus; `warn` gets the VC split warning, if any,
/// once the rates are known.
pub fn safaei(a: &Safaei, rates: &RateSpec, warn: impl FnOnce(&str)) -> anyhow::Result<ModelTable> {
    let (rates, single) = rates.resolve("0.001:0.02:0.001")?;
    let warning = p001_safaei::split_warning(a.k, a.v1, a.v2);
    if let Some(w) = &warning {
        warn(w);
    }
    let mut rows = Vec::new();
    for rate in rates {
        let cfg = p001_safaei::SafaeiConfig {
            k: a.k,
            v1: a.v1,
            v2: a.v2,
            length: a.length,
            rate,
            distance: if a.exact_distance {
                p001_safaei::MeanDistance::Exact
            } else {
                p001_safaei::MeanDistance::Agarwal
            },
        };
        let base = json!({
            "rate": rate, "k": a.k, "v1": a.v1, "v2": a.v2, "length": a.length,
            "warning": warning,
        });
        rows.push(match p001_safaei::solve(cfg)? {
            p001_safaei::SafaeiOutcome::Solved(s) => merge(
                base,
                json!({
                    "saturated": false, "latency": s.latency,
                    "network_latency": s.network_latency, "source_wait": s.source_wait,
                    "multiplexing": s.multiplexing, "channel_rate": s.channel_rate,
                    "channel_service": s.channel_service, "channel_wait": s.channel_wait,
                    "p": s.p,
                }),
            ),
            p001_safaei::SafaeiOutcome::Saturated { reason } => {
                merge(base, json!({"saturated": true, "reason": reason}))
            }
        });
    }
    Ok(ModelTable {
        name: "safaei",
        single,
        columns: &WAIT_COLUMNS,
        rows,
    })
}

/// The columns of the two wait-decomposition models (Safaei's and P-cube's): latency,
/// its network part, the source wait and the multiplexing degree.
static WAIT_COLUMNS: [&str; 6] = [
    "rate",
    "latency",
    "network_latency",
    "source_wait",
    "multiplexing",
    "channel_service",
];

/// Paper 002: P-cube on an n-cube.
pub fn patooghy(a: &Patooghy, rates: &RateSpec) -> anyhow::Result<ModelTable> {
    if !(1..=12).contains(&a.n) || a.vcs == 0 || a.length == 0 {
        bail!("patooghy needs 1 <= --n <= 12, --vcs >= 1 and --length >= 1");
    }
    let (rates, single) = rates.resolve("0.001:0.01:0.001")?;
    let mut rows = Vec::new();
    for rate in rates {
        let cfg = p002_patooghy::PcubeConfig {
            n: a.n,
            vcs: a.vcs,
            length: a.length,
            rate,
        };
        let base = json!({"rate": rate, "n": a.n, "vcs": a.vcs, "length": a.length});
        rows.push(match p002_patooghy::solve(cfg) {
            p002_patooghy::PcubeOutcome::Solved(s) => {
                let channels: Vec<Value> = s
                    .channels
                    .iter()
                    .map(|c| {
                        json!({
                            "sign": format!("{:?}", c.sign).to_lowercase(), "zeros": c.zeros,
                            "rate": c.rate, "service": c.service, "p": c.p,
                            "multiplexing": c.multiplexing, "wait": c.wait,
                        })
                    })
                    .collect();
                merge(
                    base,
                    json!({
                        "saturated": false, "latency": s.latency,
                        "network_latency": s.network_latency, "source_wait": s.source_wait,
                        "multiplexing": s.multiplexing, "eject_wait": s.eject_wait,
                        "channels": channels,
                    }),
                )
            }
            p002_patooghy::PcubeOutcome::Saturated { reason } => {
                merge(base, json!({"saturated": true, "reason": reason}))
            }
        });
    }
    Ok(ModelTable {
        name: "patooghy",
        single,
        // P-cube reports no single channel service time.
        columns: &WAIT_COLUMNS[..5],
        rows,
    })
}

/// Paper 004: virtual cut-through on a torus, destinations at distance l.
pub fn vct(a: &Vct, rates: &RateSpec) -> anyhow::Result<ModelTable> {
    if a.distance == 0 || a.length == 0 {
        bail!("vct needs --distance >= 1 and --length >= 1");
    }
    let (l, m) = (a.distance, a.length);
    let cr = p004_vct::critical_rate(l, m);
    let default = format!("0:{}:{}", cr * 0.95, cr / 20.0);
    let (rates, single) = rates.resolve(&default)?;
    let rows: Vec<Value> = rates
        .into_iter()
        .map(|rate| {
            let rho = p004_vct::utilisation(rate, l, m);
            let base = json!({
                "rate": rate, "distance": l, "length": m, "utilisation": rho,
                "base_latency": p004_vct::base_latency(l, m),
                "critical_rate": cr,
                "empirical_saturation_rate": p004_vct::empirical_saturation_rate(m),
            });
            match (
                p004_vct::latency(rate, l, m),
                p004_vct::buffer_size(rho, l, m),
            ) {
                (Ok(t), Ok(b)) => merge(
                    base,
                    json!({"saturated": false, "latency": t, "buffer_size": b}),
                ),
                _ => merge(base, json!({"saturated": true})),
            }
        })
        .collect();
    Ok(ModelTable {
        name: "vct",
        single,
        columns: &["rate", "utilisation", "latency", "buffer_size"],
        rows,
    })
}

/// Paper 000: minimal fully adaptive wormhole on a k x k torus, no VCs.
pub fn quaglia(a: &Quaglia, rates: &RateSpec) -> anyhow::Result<ModelTable> {
    let (rates, single) = rates.resolve("0.001:0.011:0.001")?;
    let reading = if a.printed {
        p000_quaglia::Reading::Printed
    } else {
        p000_quaglia::Reading::Tables
    };
    let mut rows = Vec::new();
    for rate in rates {
        let cfg = p000_quaglia::QuagliaConfig {
            k: a.k,
            lambda: rate,
            length: a.length,
            reading,
        };
        let base = json!({"rate": rate, "k": a.k, "length": a.length});
        rows.push(match p000_quaglia::predict(&cfg) {
            Ok(p) => merge(
                base,
                json!({
                    "saturated": false, "latency": p.latency,
                    "zero_load_latency": p.zero_load_latency,
                    "adaptive_latency": p.adaptive_latency,
                    "x_only_latency": p.x_only_latency, "y_only_latency": p.y_only_latency,
                    "wait_we": p.waits.west_east, "wait_ne": p.waits.north_east,
                    "wait_ns": p.waits.north_south, "wait_ws": p.waits.west_south,
                    "p_x": p.p_x, "p_y": p.p_y, "iterations": p.iterations,
                }),
            ),
            Err(e) if e.is_saturated() => {
                merge(base, json!({"saturated": true, "reason": e.to_string()}))
            }
            Err(e) => bail!("{e}"),
        });
    }
    Ok(ModelTable {
        name: "quaglia",
        single,
        columns: &[
            "rate", "latency", "wait_we", "wait_ne", "wait_ns", "wait_ws", "p_x",
        ],
        rows,
    })
}

/// Paper 003: one channel with timeout reset feeding a host queue with retries.
pub fn hu_kleinrock(a: &HuKleinrock, rates: &RateSpec) -> anyhow::Result<ModelTable> {
    if !(a.length > 0.0 && a.timeout > 0.0 && a.propagation >= 0.0) {
        bail!("hu-kleinrock needs --length > 0, --timeout > 0 and --propagation >= 0");
    }
    let (b1, b2) = (a.length, 2.0 * a.length * a.length);
    let default = format!("{}:{}:{}", 0.5 / b1 / 10.0, 0.5 / b1, 0.5 / b1 / 10.0);
    let (rates, single) = rates.resolve(&default)?;
    let mut rows = Vec::new();
    for rate in rates {
        // Retries raise the channel rate to rate / P_S (eq 4); P_T is iterated to a fixed point.
        let base = json!({"rate": rate, "length": a.length, "timeout": a.timeout});
        rows.push(
            match p003_hu_kleinrock::single_channel(rate, b1, b2, a.timeout, a.propagation) {
                Ok(m) => merge(
                    base,
                    json!({
                        "saturated": false, "p_timeout": m.channel.p_timeout,
                        "channel_wait": m.channel.mean_wait, "phi0": m.channel.phi0,
                        "channel_rate": m.channel_rate, "host_wait": m.host.wait,
                        "latency": m.host.latency,
                    }),
                ),
                Err(flitsim_analysis::queueing::QueueError::Saturated { .. }) => merge(
                    base,
                    json!({
                        "saturated": true,
                        "saturation_rate": p003_hu_kleinrock::single_channel_saturation(b1, b2, a.timeout),
                    }),
                ),
                Err(e) => bail!("{e}"),
            },
        );
    }
    Ok(ModelTable {
        name: "hu-kleinrock",
        single,
        columns: &["rate", "p_timeout", "channel_wait", "host_wait", "latency"],
        rows,
    })
}
