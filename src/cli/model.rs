//! `flitsim model NAME [params] [--json]`: print the predictions of an analytical model.
//!
//! Each model is one variant of [`ModelCommand`] with its own argument struct; models that
//! take a traffic rate accept `--rate R` (one point) or `--rates A:B:STEP` (a table) through
//! [`RateArgs`]. Output is a text table on stdout, or with `--json` one JSON object
//! (a point) or `{"model": ..., "points": [...]}` (a range). A saturated point is printed as
//! `saturated` in the table and `"saturated": true` in JSON, never as a number.

use std::process::ExitCode;

use clap::{Args, Subcommand};
use serde_json::{json, Value};

use crate::studies::models::{self, ModelTable, RateSpec};

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
    /// The rates as the models take them.
    pub fn spec(&self) -> RateSpec {
        RateSpec {
            rate: self.rate,
            rates: self.rates.clone(),
        }
    }
}

/// Print the points of `table` as a text table, or as JSON: the single object when one
/// point was asked for, else `{"model": name, "points": rows}`.
pub fn emit(json_out: bool, table: &ModelTable) -> std::io::Result<()> {
    let ModelTable {
        name,
        single,
        columns,
        rows,
    } = table;
    if json_out {
        let v = if *single && rows.len() == 1 {
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
    let table = match &args.model {
        ModelCommand::Markov(a) => models::markov(&models::Markov {
            lambda: a.lambda,
            service: a.service,
            vcs: a.vcs,
        })?,
        ModelCommand::Mg1(a) => models::mg1(&models::Mg1 {
            lambda: a.lambda,
            service: a.service,
            variance: a.variance,
            min: a.min,
        })?,
        ModelCommand::Safaei(a) => {
            let p = models::Safaei {
                k: a.k,
                v1: a.v1,
                v2: a.v2,
                length: a.length,
                exact_distance: a.exact_distance,
            };
            models::safaei(&p, &a.rates.spec(), |w| eprintln!("warning: {w}"))?
        }
        ModelCommand::Patooghy(a) => {
            let p = models::Patooghy {
                n: a.n,
                vcs: a.vcs,
                length: a.length,
            };
            models::patooghy(&p, &a.rates.spec())?
        }
        ModelCommand::Vct(a) => {
            let p = models::Vct {
                distance: a.distance,
                length: a.length,
            };
            models::vct(&p, &a.rates.spec())?
        }
        ModelCommand::Quaglia(a) => {
            let p = models::Quaglia {
                k: a.k,
                length: a.length,
                printed: a.printed,
            };
            models::quaglia(&p, &a.rates.spec())?
        }
        ModelCommand::HuKleinrock(a) => {
            let p = models::HuKleinrock {
                length: a.length,
                timeout: a.timeout,
                propagation: a.propagation,
            };
            models::hu_kleinrock(&p, &a.rates.spec())?
        }
    };
    emit(args.json, &table)?;
    Ok(ExitCode::SUCCESS)
}
