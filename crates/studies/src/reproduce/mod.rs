//! `flitsim reproduce PAPER`: each paper's validation experiment re-run with flitsim's
//! simulator and the analysis crate's model side by side, plus the paper's own numbers
//! where it prints them. One module per paper; each returns an [`Output`] (tables, charts,
//! notes, JSON) that the CLI's `reproduce` prints and writes.
//!
//! Features a paper needs that the simulator does not have (a routing function, a
//! switching mode, a traffic pattern) are detected at run time by applying them to the
//! netlist or the configuration; the simulation columns then say what is missing instead
//! of simulating something else under the paper's name.

pub mod p000;
pub mod p001;
pub mod p002;
pub mod p003;
pub mod p003_channels;
pub mod p003_switch;
pub mod p004;

use crate::measure::{self, Measured};
use crate::plot::{Chart, Series, Style};
use anyhow::bail;
use flitsim_engine::SimConfig;
use flitsim_netlist::Netlist;
use serde_json::Value;
use std::path::Path;

pub use crate::experiments::parallel_map;

/// The papers `reproduce` knows.
pub const PAPERS: [&str; 5] = ["000", "001", "002", "003", "004"];

/// Runs one paper's reproduction.
///
/// # Errors
/// An unknown paper.
pub fn compute(paper: &str, budget: &Budget) -> anyhow::Result<(&'static str, Output)> {
    let id = paper_id(paper)?;
    Ok((
        id,
        match id {
            "000" => p000::run(budget),
            "001" => p001::run(budget),
            "002" => p002::run(budget),
            "003" => p003::run(budget),
            _ => p004::run(budget),
        },
    ))
}

/// The paper's number as its directory and tables name it (`4` -> `004`).
///
/// # Errors
/// An unknown paper.
pub fn paper_id(paper: &str) -> anyhow::Result<&'static str> {
    Ok(match paper {
        "000" | "0" => "000",
        "001" | "1" => "001",
        "002" | "2" => "002",
        "003" | "3" => "003",
        "004" | "4" => "004",
        _ => bail!(
            "unknown paper `{paper}`\nhelp: choose one of {}",
            PAPERS.join(", ")
        ),
    })
}

/// A rendered table.
#[derive(Clone, Debug, Default)]
pub struct Table {
    /// Title line.
    pub title: String,
    /// Column headers.
    pub header: Vec<String>,
    /// Cells.
    pub rows: Vec<Vec<String>>,
}

impl Table {
    /// A table with these headers.
    pub fn new(title: impl Into<String>, header: &[&str]) -> Table {
        Table {
            title: title.into(),
            header: header.iter().map(|h| h.to_string()).collect(),
            rows: Vec::new(),
        }
    }

    /// Columns right-aligned to their widest cell.
    pub fn render(&self) -> String {
        let n = self.header.len();
        let mut w = vec![0; n];
        for r in std::iter::once(&self.header).chain(&self.rows) {
            for (i, c) in r.iter().enumerate().take(n) {
                w[i] = w[i].max(c.chars().count());
            }
        }
        let line = |r: &Vec<String>| {
            r.iter()
                .enumerate()
                .map(|(i, c)| format!("{c:>width$}", width = w[i.min(n - 1)]))
                .collect::<Vec<_>>()
                .join("  ")
        };
        let mut s = format!("{}\n{}\n", self.title, line(&self.header));
        for r in &self.rows {
            s.push_str(&line(r));
            s.push('\n');
        }
        s
    }
}

/// What one paper's reproduction produced.
#[derive(Clone, Debug, Default)]
pub struct Output {
    /// Tables, printed in order.
    pub tables: Vec<Table>,
    /// Charts: file name (in the output directory) and chart.
    pub charts: Vec<(String, Chart)>,
    /// Notes printed after the tables (readings, missing features).
    pub notes: Vec<String>,
    /// Everything as JSON (`results.json`).
    pub json: Value,
}

/// How much to simulate.
#[derive(Copy, Clone, Debug)]
pub struct Budget {
    /// `--quick`: few cycles (tests).
    pub quick: bool,
    /// Simulations run at the same time.
    pub threads: usize,
    /// Run seed.
    pub seed: u64,
}

/// Parses a shipped netlist (compiled in, so `reproduce` runs from any directory) and
/// applies `sets`; `Err` names the first override the simulator does not support.
pub fn preset(name: &str, src: &str, sets: &[(&str, &str)]) -> Result<Netlist, String> {
    let mut n = flitsim_netlist::parse_str(src, Path::new(name)).map_err(|d| d.to_string())?;
    n.set_all(sets.iter().copied()).map_err(|d| d.to_string())?;
    Ok(n)
}

/// One simulated point.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct SimPoint {
    /// The measurements.
    pub measured: Measured,
    /// Measured packets not delivered by the end of the drain, over those generated:
    /// above 1% the point is reported as saturated.
    pub undelivered: f64,
}

impl SimPoint {
    /// Saturated: more than 1% of the measured packets were not delivered, the network
    /// accepted under 95% of the flits generated in the window (source queues grew), the
    /// 95% interval is wider than 10% of the mean over at least 2000 packets (no steady
    /// state), or a deadlock.
    pub fn saturated(&self) -> bool {
        self.saturation_cause().is_some()
    }

    /// The first rule of [`SimPoint::saturated`] that holds: `deadlock`, `undelivered`,
    /// `throughput` or `wide interval`; `None` when the point is unsaturated.
    pub fn saturation_cause(&self) -> Option<&'static str> {
        let r = &self.measured.report;
        let offered = r.offered.measured_flits_per_terminal_cycle;
        let short = offered > 0.0 && r.accepted.flits_per_terminal_cycle < 0.95 * offered;
        // With few packets (quick runs) a wide interval is sampling noise, not instability.
        let wide = match (r.latency.mean, self.measured.latency_ci95) {
            (Some(m), Some(ci)) => ci > 0.1 * m && r.packets.delivered >= 2000,
            _ => false,
        };
        [
            (r.deadlock.is_some(), "deadlock"),
            (self.undelivered > 0.01, "undelivered"),
            (short, "throughput"),
            (wide, "wide interval"),
        ]
        .into_iter()
        .find_map(|(hit, cause)| hit.then_some(cause))
    }

    /// Mean latency, `None` when saturated.
    pub fn latency(&self) -> Option<f64> {
        if self.saturated() {
            None
        } else {
            self.measured.report.latency.mean
        }
    }

    /// 95% CI half-width.
    pub fn ci95(&self) -> Option<f64> {
        self.measured.latency_ci95
    }
}

/// Simulates one point.
pub fn simulate(netlist: &Netlist, config: &SimConfig) -> Result<SimPoint, String> {
    let measured = measure::run(netlist, config).map_err(|e| format!("{e:#}"))?;
    let p = &measured.report.packets;
    let undelivered = if p.generated == 0 {
        0.0
    } else {
        p.in_flight_end as f64 / p.generated as f64
    };
    Ok(SimPoint {
        measured,
        undelivered,
    })
}

/// `12.34`, or `-`.
pub fn f2(x: Option<f64>) -> String {
    x.map_or_else(|| "-".into(), |v| format!("{v:.2}"))
}

/// `+1.2%`, or `-`.
pub fn pct(x: Option<f64>) -> String {
    x.map_or_else(|| "-".into(), |v| format!("{:+.1}%", v * 100.0))
}

/// `12.34 +- 0.05`, `sat.`, `deadlock@CYCLE`, or the reason there is no simulation.
pub fn sim_cell(p: &Result<SimPoint, String>) -> String {
    match p {
        Ok(p) if p.measured.report.deadlock.is_some() => {
            let d = p.measured.report.deadlock.as_ref().expect("checked");
            format!("{}@{}", d.kind, d.cycle)
        }
        Ok(p) if p.saturated() => "sat.".into(),
        Ok(p) => format!("{} +- {}", f2(p.latency()), f2(p.ci95())),
        Err(_) => "n/a".into(),
    }
}

/// `(a - b) / b`.
pub fn rel(a: Option<f64>, b: Option<f64>) -> Option<f64> {
    flitsim_analysis::compare::relative_error(a?, b?)
}

/// The largest rate at which `latency(rate)` has a value (the model's saturation rate),
/// by bisection on `(0, hi]` to 1/1024 of `hi` (iterative models converge slowly right at
/// the boundary, so the bisection stops short of it).
pub fn model_saturation(latency: impl Fn(f64) -> Option<f64>, hi: f64) -> f64 {
    let (mut lo, mut hi) = (0.0, hi);
    if latency(hi).is_some() {
        return hi;
    }
    for _ in 0..10 {
        let mid = 0.5 * (lo + hi);
        if latency(mid).is_some() {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
}

/// `n` rates spread over `(0, top]`: `top * i / n`, rounded to 5 significant digits.
pub fn rates_up_to(top: f64, n: usize) -> Vec<f64> {
    (1..=n)
        .map(|i| {
            let r = top * i as f64 / n as f64;
            let scale = 10f64.powi(4 - r.log10().floor() as i32);
            (r * scale).round() / scale
        })
        .collect()
}

/// Simulates `length`-flit packets at `rate` on `net` with `(warm-up, measured)` cycles
/// and a drain of up to 20000 cycles.
pub fn simulate_at(
    net: &Netlist,
    rate: f64,
    length: u32,
    (warmup, cycles): (u64, u64),
    seed: u64,
) -> Result<SimPoint, String> {
    simulate(
        net,
        &SimConfig {
            rate,
            length,
            warmup,
            cycles,
            drain: 20_000,
            seed,
            ..SimConfig::default()
        },
    )
}

/// A point to simulate: the netlist (`Err`: why it could not be built), the rate, the
/// packet length and the (warm-up, measured) cycles.
pub type PointSpec<'a> = (&'a Result<Netlist, String>, f64, u32, (u64, u64));

/// Simulates every `(netlist, rate, length, (warm-up, measured cycles))` point,
/// `b.threads` at a time, results in input order; a point whose netlist could not be
/// built (`Err`: a feature the simulator lacks) carries that error.
pub fn simulate_points(points: &[PointSpec], b: &Budget) -> Vec<Result<SimPoint, String>> {
    parallel_map(points, b.threads, |&(net, rate, length, window)| {
        simulate_at(
            net.as_ref().map_err(Clone::clone)?,
            rate,
            length,
            window,
            b.seed,
        )
    })
}

/// A model-against-simulation latency curve over a rate range (papers 001 and 002).
pub struct Curve {
    /// The table: `rate`, `model`, `flitsim sim (95% CI)`, `model vs sim`.
    pub table: Table,
    /// The model as a line, the simulation as points, the saturated simulation points as
    /// crosses (their mean latency over the packets delivered).
    pub series: [Series; 3],
}

/// The table and chart series of one curve; `points` are (rate, model latency, simulated
/// point), `label` ends the series' names (`model {label}`, `simulation {label}`).
pub fn curve(
    title: String,
    label: &str,
    color: usize,
    points: &[(f64, Option<f64>, &Result<SimPoint, String>)],
) -> Curve {
    let mut table = Table::new(
        title,
        &["rate", "model", "flitsim sim (95% CI)", "model vs sim"],
    );
    let (mut ms, mut ss, mut sat) = (Vec::new(), Vec::new(), Vec::new());
    let mut errors = Vec::new();
    for &(rate, model, sim) in points {
        let sl = sim.as_ref().ok().and_then(|p| p.latency());
        if sl.is_some() {
            errors.push(sim.as_ref().ok().and_then(SimPoint::ci95));
        }
        table.rows.push(vec![
            format!("{rate:.5}"),
            f2(model),
            sim_cell(sim),
            pct(rel(model, sl)),
        ]);
        ms.extend(model.map(|l| (rate, l)));
        ss.extend(sl.map(|l| (rate, l)));
        if let Some(p) = sim.as_ref().ok().filter(|p| p.saturated()) {
            sat.extend(p.measured.report.latency.mean.map(|l| (rate, l)));
        }
    }
    Curve {
        table,
        series: [
            Series::new(format!("model {label}"), ms, Style::Line, color),
            Series::new(format!("simulation {label}"), ss, Style::Points, color)
                .with_errors(errors),
            Series::new(format!("saturated {label}"), sat, Style::Saturated, color),
        ],
    }
}
