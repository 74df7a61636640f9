//! `flitsim sweep`: latency-throughput curves, one per NETLIST argument times each
//! routing function of `--routing dor,duato`, at `--rates A:B:STEP`, a list, or `auto`
//! (the saturation search of [`crate::experiments::saturation`] first). The flags, the
//! table, `--json`, `--csv` and `--plot`; the simulations run in [`crate::experiments`].

use super::args::RunArgs;
use crate::experiments::curve_csv::write_csv;
use crate::experiments::rates::{compare_at, parse_rates};
use crate::experiments::{auto_rates, find_saturation, sample_curves};
use anyhow::{anyhow, bail, Context};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use std::path::PathBuf;
use std::process::ExitCode;

pub use crate::experiments::{Bracket, Curve, Point};

/// Flags of `flitsim sweep` (the run flags apply to every point; `--rate` is ignored).
#[derive(Args, Debug, Clone)]
pub struct SweepArgs {
    /// The run flags, shared by every point (the first NETLIST is part of them).
    #[command(flatten)]
    pub run: RunArgs,

    /// More netlist files: one curve each, on the same axes.
    #[arg(value_name = "NETLIST")]
    pub more: Vec<PathBuf>,

    /// Offered loads in packets per terminal per cycle: `A:B:STEP` (A, A+STEP, ... <= B),
    /// a list `R1,R2,...`, or `auto` (find the saturation rate, then sample up to it).
    /// Required, here or in each experiment file.
    #[arg(long, value_name = "A:B:STEP|auto")]
    pub rates: Option<String>,

    /// A design study: one curve per value of a router or channel key of the netlist, or
    /// of `routing`, `traffic`, `length`, `switching`, `injection`, `selection`, `timeout`
    /// (values holding a comma are separated by `;`). Repeated: every combination.
    #[arg(long, value_name = "KEY=V1,V2,...")]
    pub vary: Vec<String>,

    /// Pair the i-th values of every `--vary` (one design per position) instead of
    /// taking every combination.
    #[arg(long)]
    pub zip: bool,

    /// Label of this input's curves (default: the settings that differ between the
    /// curves, or `NETLIST ROUTING` when only those differ); with `--vary`, followed by
    /// the design's values.
    #[arg(long, value_name = "TEXT")]
    pub label: Option<String>,

    /// The latency axis of `--plot` from A to B cycles (default: fitted to the converged
    /// points).
    #[arg(long, value_name = "A:B")]
    pub ylim: Option<String>,

    /// A logarithmic latency axis in `--plot`.
    #[arg(long)]
    pub log_y: bool,

    /// Points per curve with `--rates auto`.
    #[arg(long, value_name = "N", default_value_t = 8)]
    pub points: usize,

    /// Probes per round of the saturation search with `--rates auto`: evenly spaced rates
    /// run at once (on `--threads` workers). The bracket found depends on it, never on
    /// `--threads`.
    #[arg(long, value_name = "K", default_value_t = 4, value_parser = clap::value_parser!(u64).range(2..=64))]
    pub probes: u64,

    /// Cycle budget of each saturation probe with `--rates auto`.
    #[arg(long, value_name = "C", default_value_t = 30_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub probe_cycles: u64,

    /// With `--rates auto` and several curves, the design table's loads: fractions of the
    /// lowest saturation rate among the designs, each simulated for every design.
    #[arg(long, value_name = "F1,F2,...", default_value = "0.5,0.8")]
    pub compare_at: String,

    /// Also write the table as CSV to FILE.
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,

    /// Draw the curves to FILE: SVG, PNG or PDF by its extension.
    #[arg(long, value_name = "FILE")]
    pub plot: Option<PathBuf>,

    /// One per NETLIST argument when some are experiment files, each with its own flags
    /// (set by `main`); empty otherwise.
    #[arg(skip)]
    pub inputs: Vec<SweepArgs>,

    /// The file this input came from (set by `main`).
    #[arg(skip)]
    pub source: Option<PathBuf>,

    /// The `[[design]]` entries of this input's experiment file (set by `main`).
    #[arg(skip)]
    pub designs: Vec<flitsim_studies::experiment_file::Design>,
}

/// Runs `flitsim sweep`.
///
/// # Errors
/// A bad netlist, flag or output file.
pub fn run(args: &SweepArgs) -> anyhow::Result<ExitCode> {
    let study = super::sweep_designs::study(&inputs(args))?;
    let specs = &study.specs;
    let axis = crate::plot::sweep::Axis::parse(args.ylim.as_deref(), args.log_y)?;
    let fractions = compare_at(&args.compare_at)?;
    super::args::check_writable("--csv", args.csv.as_deref())?;
    super::args::check_writable("--plot", args.plot.as_deref())?;
    crate::plot::file::check_format("--plot", args.plot.as_deref())?;
    // `--threads` (shared with `run`) also sets how many points run at once.
    let threads = match args.run.threads {
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
        Some(n) => n as usize,
    };
    let bar = runs_bar(args.run.quiet)?;
    let auto: Vec<bool> = study.rates.iter().map(|r| r.trim() == "auto").collect();
    if auto.iter().any(|&a| a != auto[0]) {
        bail!("--rates: some inputs give `auto` and others a list\nhelp: give every input `auto`, or every input a list");
    }
    let (brackets, rates): (Option<Vec<Bracket>>, Vec<Vec<f64>>) = if auto[0] {
        if study.points.contains(&0) {
            bail!("--points 0: a curve needs at least one point");
        }
        bar.set_message("finding the saturation rate");
        let b = find_saturation(
            specs,
            args.probe_cycles,
            args.probes as usize,
            threads,
            &super::progress::StudyBar(&bar),
        )?;
        let rates = b
            .iter()
            .zip(&study.points)
            .map(|(b, &n)| auto_rates(b, n))
            .collect();
        (Some(b), rates)
    } else {
        let r = study
            .rates
            .iter()
            .map(|r| parse_rates(r))
            .collect::<anyhow::Result<Vec<_>>>()?;
        (None, r)
    };
    bar.set_message("sampling the curves");
    let curves = sample_curves(
        specs,
        &rates,
        brackets.as_deref(),
        threads,
        &super::progress::StudyBar(&bar),
    )?;
    let designs = if curves.len() > 1 && auto[0] {
        bar.set_message("simulating the design table's loads");
        let cost = crate::experiments::design_table::NoCost;
        crate::experiments::design_table::design_table(
            specs,
            &curves,
            &fractions,
            &cost,
            (threads, &super::progress::StudyBar(&bar)),
        )?
    } else {
        None
    };
    bar.finish_and_clear();
    if let Some(path) = &args.csv {
        write_csv(path, &curves, &study.columns)
            .with_context(|| format!("--csv {}", path.display()))?;
    }
    if let Some(path) = &args.plot {
        let title = crate::plot::sweep::title(&study.common, &curves);
        crate::plot::sweep::draw(path, &curves, &title, axis)
            .with_context(|| format!("--plot {}", path.display()))?;
    }
    if args.run.json {
        let mut v = serde_json::json!({
            "latency": specs.first().map(|s| s.config.latency),
            "curves": curves,
        });
        if let Some(d) = &designs {
            v["designs"] = serde_json::to_value(d)?;
        }
        crate::cli::outln!("{}", serde_json::to_string_pretty(&v)?)?;
    } else {
        crate::cli::out!("{}", table(&curves))?;
        if let Some(d) = &designs {
            crate::cli::out!("{}", d.render())?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The bar counting the sweep's runs (hidden with `--quiet` or without a terminal).
fn runs_bar(quiet: bool) -> anyhow::Result<ProgressBar> {
    if !super::progress::shown(quiet) {
        return Ok(ProgressBar::hidden());
    }
    let b = ProgressBar::new(0);
    b.set_style(
        ProgressStyle::with_template("{spinner} {msg} [{bar:30}] {pos}/{len} runs {elapsed}")
            .map_err(|e| anyhow!("{e}"))?
            .progress_chars("=> "),
    );
    Ok(b)
}

/// The NETLIST arguments with their own flags: `args.inputs` when `main` parsed them one
/// by one (experiment files among them), else each path with the command line's flags.
fn inputs(args: &SweepArgs) -> Vec<super::sweep_designs::Input> {
    let one = |a: &SweepArgs| super::sweep_designs::Input {
        run: a.run.clone(),
        vary: a.vary.clone(),
        designs: a.designs.clone(),
        zip: a.zip,
        label: a.label.clone(),
        rates: a.rates.clone(),
        points: a.points,
        source: a.source.clone().unwrap_or_else(|| a.run.netlist.clone()),
    };
    if !args.inputs.is_empty() {
        return args.inputs.iter().map(one).collect();
    }
    std::iter::once(&args.run.netlist)
        .chain(&args.more)
        .map(|p| {
            let mut a = one(args);
            a.run.netlist = p.clone();
            a.source = p.clone();
            a
        })
        .collect()
}

fn opt(x: Option<f64>, d: usize) -> String {
    x.map_or_else(|| "-".to_string(), |v| format!("{v:.d$}"))
}

/// The table printed on stdout.
pub fn table(curves: &[Curve]) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    for c in curves {
        let _ = writeln!(s, "# {}", c.label);
        if let Some(b) = c.saturation {
            let _ = writeln!(
                s,
                "# saturation between {:.5} and {:.5} packets/terminal/cycle ({:.4} flits/terminal/cycle)",
                b.unsaturated, b.saturated, b.unsaturated_flits
            );
        }
        let _ = writeln!(
            s,
            "{:>9} {:>9} {:>9} {:>8} {:>9} {:>8} {:>9} {:>9} {:>8} {:>9} {:>8}",
            "rate",
            "offered",
            "accepted",
            "+-",
            "latency",
            "+-",
            "saturated",
            "converged",
            "cycles",
            "mW",
            "pJ/flit"
        );
        for p in &c.points {
            let _ = writeln!(
                s,
                "{:>9.5} {:>9.4} {:>9.4} {:>8} {:>9} {:>8} {:>9} {:>9} {:>8} {:>9} {:>8}",
                p.rate,
                p.offered,
                p.accepted,
                opt(p.accepted_ci95, 4),
                opt(p.latency, 2),
                opt(p.latency_ci95, 2),
                p.saturated,
                p.converged,
                p.cycles,
                opt(p.power_mw, 1),
                opt(p.pj_per_flit, 1)
            );
        }
    }
    s
}
