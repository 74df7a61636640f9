//! `flitsim model NAME [params] [--json]`: print the predictions of an analytical model.
//!
//! Each model is one variant of [`ModelCommand`] with its own argument struct; models that
//! take a traffic rate accept `--rate R` (one point) or `--rates A:B:STEP` (a table) through
//! [`RateArgs`]. Output is a text table on stdout, or with `--json` one JSON object
//! (a point) or `{"model": ..., "points": [...]}` (a range). A saturated point is printed as
//! `saturated` in the table and `"saturated": true` in JSON, never as a number.

use std::process::ExitCode;

use anyhow::{bail, Context};
use clap::{Args, Subcommand};
use serde_json::{json, Value};

use flitsim_analysis::markov::{multiplexing_degree, vc_occupancy};
use flitsim_analysis::papers::{
    p000_quaglia, p001_safaei, p002_patooghy, p003_hu_kleinrock, p004_vct,
};
use flitsim_analysis::queueing::{mg1_wait, ServiceVariance};

/// Arguments of `flitsim model`.
#[derive(Debug, Args)]
pub struct ModelArgs {
    /// Print one JSON object instead of a table.
    #[arg(long, global = true)]
    pub json: bool,
    /// The model to evaluate.
    #[command(subcommand)]
    pub model: ModelCommand,
}

/// The analytical models `flitsim model` can evaluate.
#[derive(Debug, Subcommand)]
pub enum ModelCommand {
    /// Dally's Markov model of busy VCs on one channel (papers 001 eq 20, 002 eqs 19-20)
    /// and the average multiplexing degree (001 eq 21).
    Markov(MarkovArgs),
    /// M/G/1 (Pollaczek-Khinchine) mean waiting time.
    Mg1(Mg1Args),
    /// Paper 001: Duato-Nbc on a k x k torus (eqs 1-21).
    Safaei(SafaeiArgs),
    /// Paper 002: P-cube on an n-cube (eqs 1-25).
    Patooghy(PatooghyArgs),
    /// Paper 004: virtual cut-through on a torus, destinations at distance l.
    Vct(VctArgs),
    /// Paper 000: minimal fully adaptive wormhole on a k x k torus, no VCs (eqs 1-46).
    Quaglia(QuagliaArgs),
    /// Paper 003: one channel with timeout reset (eqs 9-15) feeding a host queue with
    /// retries (eqs 16-20); exponential packet lengths, no downstream blocking.
    HuKleinrock(HuKleinrockArgs),
}

/// Arguments of `flitsim model hu-kleinrock`.
#[derive(Debug, Args)]
pub struct HuKleinrockArgs {
    /// Mean packet length in flits (exponentially distributed).
    #[arg(long, allow_negative_numbers = true, default_value_t = 100.0)]
    pub length: f64,
    /// Timeout threshold in cycles.
    #[arg(long, allow_negative_numbers = true, default_value_t = 20.0)]
    pub timeout: f64,
    /// Propagation delay of the path in cycles (eq 20).
    #[arg(long, allow_negative_numbers = true, default_value_t = 1.0)]
    pub propagation: f64,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub rates: RateArgs,
}

/// Arguments of `flitsim model safaei`.
#[derive(Debug, Args)]
pub struct SafaeiArgs {
    /// Torus radix k (k x k nodes).
    #[arg(long, default_value_t = 8)]
    pub k: u32,
    /// Fully adaptive VCs per channel (V1).
    #[arg(long, default_value_t = 5)]
    pub v1: u32,
    /// Escape (negative-hop) VCs per channel (V2); V2 >= k/2 + 1 for even k is
    /// deadlock-free, a shorter split is evaluated with a warning.
    #[arg(long, default_value_t = 5)]
    pub v2: u32,
    /// Packet length M in flits.
    #[arg(long, default_value_t = 32)]
    pub length: u32,
    /// Use the exact mean distance instead of Agarwal's k/2 (eqs 2-3).
    #[arg(long)]
    pub exact_distance: bool,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub rates: RateArgs,
}

/// Arguments of `flitsim model patooghy`.
#[derive(Debug, Args)]
pub struct PatooghyArgs {
    /// Cube dimension n (2^n nodes).
    #[arg(long, default_value_t = 6)]
    pub n: u32,
    /// VCs per channel.
    #[arg(long, default_value_t = 3)]
    pub vcs: usize,
    /// Packet length M in flits.
    #[arg(long, default_value_t = 32)]
    pub length: u32,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub rates: RateArgs,
}

/// Arguments of `flitsim model vct`.
#[derive(Debug, Args)]
pub struct VctArgs {
    /// Distance l (hops) from every source to its destination.
    #[arg(long, default_value_t = 2)]
    pub distance: u32,
    /// Packet length m in flits.
    #[arg(long, default_value_t = 10)]
    pub length: u32,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub rates: RateArgs,
}

/// Arguments of `flitsim model quaglia`.
#[derive(Debug, Args)]
pub struct QuagliaArgs {
    /// Torus radix k (k x k nodes), a multiple of 4.
    #[arg(long, default_value_t = 8)]
    pub k: u32,
    /// Packet length M in flits.
    #[arg(long, default_value_t = 12)]
    pub length: u32,
    /// Evaluate the equations as printed (with typographic fixes) instead of the reading
    /// that reproduces the paper's Tables 1-2.
    #[arg(long)]
    pub printed: bool,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub rates: RateArgs,
}

/// Arguments of `flitsim model markov`.
#[derive(Debug, Args)]
pub struct MarkovArgs {
    /// Packet arrival rate on the channel (packets per cycle).
    #[arg(long, allow_negative_numbers = true)]
    pub lambda: f64,
    /// Mean VC holding (service) time in cycles.
    #[arg(long, allow_negative_numbers = true)]
    pub service: f64,
    /// Number of virtual channels of the physical channel.
    #[arg(long, default_value_t = 4)]
    pub vcs: usize,
}

/// Arguments of `flitsim model mg1`.
#[derive(Debug, Args)]
pub struct Mg1Args {
    /// Arrival rate (customers per cycle).
    #[arg(long, allow_negative_numbers = true)]
    pub lambda: f64,
    /// Mean service time in cycles.
    #[arg(long, allow_negative_numbers = true)]
    pub service: f64,
    /// Service-time variance (default: the papers' approximation `(service - min)^2` when
    /// `--min` is given, else exponential service).
    #[arg(long, allow_negative_numbers = true, conflicts_with = "min")]
    pub variance: Option<f64>,
    /// Minimum service time (the packet length M): variance `(service - min)^2`.
    #[arg(long, allow_negative_numbers = true)]
    pub min: Option<f64>,
}

/// `--rate R` (one point) or `--rates A:B:STEP` (a table from A to B inclusive).
#[derive(Debug, Clone, Args)]
pub struct RateArgs {
    /// One packet generation rate (packets per terminal per cycle).
    #[arg(long, allow_negative_numbers = true, conflicts_with = "rates")]
    pub rate: Option<f64>,
    /// A range of rates `A:B:STEP`, A and B included.
    #[arg(long)]
    pub rates: Option<String>,
}

impl RateArgs {
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

/// Print `rows` (one JSON object per point) as a table with `columns`, or as JSON: the
/// single object when `single`, else `{"model": name, "points": rows}`.
pub fn emit(
    json_out: bool,
    name: &str,
    single: bool,
    columns: &[&str],
    rows: &[Value],
) -> std::io::Result<()> {
    if json_out {
        let v = if single && rows.len() == 1 {
            rows[0].clone()
        } else {
            json!({ "model": name, "points": rows })
        };
        crate::cli::outln!(
            "{}",
            serde_json::to_string_pretty(&v).expect("JSON values serialise")
        )?;
        return Ok(());
    }
    let cells: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            columns
                .iter()
                .map(|c| {
                    if r.get("saturated") == Some(&Value::Bool(true)) && r.get(*c).is_none() {
                        "saturated".to_string()
                    } else {
                        fmt_cell(r.get(*c))
                    }
                })
                .collect()
        })
        .collect();
    let widths: Vec<usize> = columns
        .iter()
        .enumerate()
        .map(|(i, c)| cells.iter().map(|r| r[i].len()).fold(c.len(), usize::max))
        .collect();
    let line = |xs: Vec<String>| {
        xs.iter()
            .zip(&widths)
            .map(|(x, w)| format!("{x:>w$}"))
            .collect::<Vec<_>>()
            .join("  ")
    };
    crate::cli::outln!("{}", line(columns.iter().map(|c| c.to_string()).collect()))?;
    for r in cells {
        crate::cli::outln!("{}", line(r))?;
    }
    Ok(())
}

fn fmt_cell(v: Option<&Value>) -> String {
    match v {
        None | Some(Value::Null) => "-".into(),
        Some(Value::Number(n)) => match n.as_f64() {
            Some(x) if n.is_f64() => format!("{x:.6}"),
            _ => n.to_string(),
        },
        Some(Value::Array(a)) => a
            .iter()
            .map(|x| fmt_cell(Some(x)))
            .collect::<Vec<_>>()
            .join(" "),
        Some(Value::Bool(b)) => b.to_string(),
        Some(Value::String(s)) => s.clone(),
        Some(o) => o.to_string(),
    }
}

/// Run `flitsim model`.
pub fn run(args: &ModelArgs) -> anyhow::Result<ExitCode> {
    match &args.model {
        ModelCommand::Markov(a) => markov(a, args.json),
        ModelCommand::Mg1(a) => mg1(a, args.json),
        ModelCommand::Safaei(a) => safaei(a, args.json),
        ModelCommand::Patooghy(a) => patooghy(a, args.json),
        ModelCommand::Vct(a) => vct(a, args.json),
        ModelCommand::Quaglia(a) => quaglia(a, args.json),
        ModelCommand::HuKleinrock(a) => hu_kleinrock(a, args.json),
    }
}

fn markov(a: &MarkovArgs, json_out: bool) -> anyhow::Result<ExitCode> {
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
    emit(
        json_out,
        "markov",
        true,
        &["lambda", "service", "vcs", "p", "multiplexing"],
        &[row],
    )?;
    Ok(ExitCode::SUCCESS)
}

fn mg1(a: &Mg1Args, json_out: bool) -> anyhow::Result<ExitCode> {
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
    emit(
        json_out,
        "mg1",
        true,
        &["lambda", "service", "variance", "utilisation", "wait"],
        &[row],
    )?;
    Ok(ExitCode::SUCCESS)
}

/// Merge the fields of `extra` into the object `base`.
pub fn merge(mut base: Value, extra: Value) -> Value {
    if let (Some(b), Value::Object(e)) = (base.as_object_mut(), extra) {
        b.extend(e);
    }
    base
}

fn safaei(a: &SafaeiArgs, json_out: bool) -> anyhow::Result<ExitCode> {
    let (rates, single) = a.rates.resolve("0.001:0.02:0.001")?;
    let warning = p001_safaei::split_warning(a.k, a.v1, a.v2);
    if let Some(w) = &warning {
        eprintln!("warning: {w}");
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
    emit(
        json_out,
        "safaei",
        single,
        &[
            "rate",
            "latency",
            "network_latency",
            "source_wait",
            "multiplexing",
            "channel_service",
        ],
        &rows,
    )?;
    Ok(ExitCode::SUCCESS)
}

fn patooghy(a: &PatooghyArgs, json_out: bool) -> anyhow::Result<ExitCode> {
    if !(1..=12).contains(&a.n) || a.vcs == 0 || a.length == 0 {
        bail!("patooghy needs 1 <= --n <= 12, --vcs >= 1 and --length >= 1");
    }
    let (rates, single) = a.rates.resolve("0.001:0.01:0.001")?;
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
    emit(
        json_out,
        "patooghy",
        single,
        &[
            "rate",
            "latency",
            "network_latency",
            "source_wait",
            "multiplexing",
        ],
        &rows,
    )?;
    Ok(ExitCode::SUCCESS)
}

fn vct(a: &VctArgs, json_out: bool) -> anyhow::Result<ExitCode> {
    if a.distance == 0 || a.length == 0 {
        bail!("vct needs --distance >= 1 and --length >= 1");
    }
    let (l, m) = (a.distance, a.length);
    let cr = p004_vct::critical_rate(l, m);
    let default = format!("0:{}:{}", cr * 0.95, cr / 20.0);
    let (rates, single) = a.rates.resolve(&default)?;
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
    emit(
        json_out,
        "vct",
        single,
        &["rate", "utilisation", "latency", "buffer_size"],
        &rows,
    )?;
    Ok(ExitCode::SUCCESS)
}

fn quaglia(a: &QuagliaArgs, json_out: bool) -> anyhow::Result<ExitCode> {
    let (rates, single) = a.rates.resolve("0.001:0.011:0.001")?;
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
    emit(
        json_out,
        "quaglia",
        single,
        &[
            "rate", "latency", "wait_we", "wait_ne", "wait_ns", "wait_ws", "p_x",
        ],
        &rows,
    )?;
    Ok(ExitCode::SUCCESS)
}

fn hu_kleinrock(a: &HuKleinrockArgs, json_out: bool) -> anyhow::Result<ExitCode> {
    if !(a.length > 0.0 && a.timeout > 0.0 && a.propagation >= 0.0) {
        bail!("hu-kleinrock needs --length > 0, --timeout > 0 and --propagation >= 0");
    }
    let (b1, b2) = (a.length, 2.0 * a.length * a.length);
    let default = format!("{}:{}:{}", 0.5 / b1 / 10.0, 0.5 / b1, 0.5 / b1 / 10.0);
    let (rates, single) = a.rates.resolve(&default)?;
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
    emit(
        json_out,
        "hu-kleinrock",
        single,
        &["rate", "p_timeout", "channel_wait", "host_wait", "latency"],
        &rows,
    )?;
    Ok(ExitCode::SUCCESS)
}
