//! `flitsim sweep`: latency-throughput curves. For every curve (each NETLIST argument,
//! times each routing function of `--routing dor,duato`) the offered load steps through
//! `--rates A:B:STEP`, or with `--rates auto` the saturation rate is found first (by
//! k-section: the worker threads probe evenly spaced rates between the highest rate known
//! unsaturated and the lowest known saturated, shrinking the bracket each round) and the
//! curve is then sampled at `--points` rates up to 95% of it, plus one point 10% above
//! it (saturated: it shows the accepted-throughput plateau).
//!
//! Each point is an independent, deterministic simulation (automatic warm-up, measured to
//! `--ci-target`, stopped early when saturated); points run on `--threads` worker threads
//! and results are ordered by rate, so the output never depends on the thread count.
//! Output: a table on stdout (or one JSON object with `--json`), `--csv FILE`, and
//! `--plot FILE.svg` (latency with 95% CI bars, and accepted vs offered throughput).

use super::args::RunArgs;
use anyhow::{anyhow, bail, Context};
use clap::Args;
use flitsim_engine::{RunReport, SimConfig, Simulation};
use flitsim_netlist::Netlist;
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

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
    #[arg(long, value_name = "A:B:STEP|auto")]
    pub rates: String,

    /// Points per curve with `--rates auto`.
    #[arg(long, value_name = "N", default_value_t = 8)]
    pub points: usize,

    /// Cycle budget of each saturation probe with `--rates auto`.
    #[arg(long, value_name = "C", default_value_t = 30_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub probe_cycles: u64,

    /// Also write the table as CSV to FILE.
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,

    /// Draw the curves as SVG to FILE.
    #[arg(long, value_name = "FILE")]
    pub plot: Option<PathBuf>,
}

/// One simulated point of a curve.
#[derive(Clone, Debug, Serialize)]
pub struct Point {
    /// Offered packets per terminal per cycle.
    pub rate: f64,
    /// Offered flits per terminal per cycle.
    pub offered: f64,
    /// Accepted flits per terminal per cycle.
    pub accepted: f64,
    /// 95% half-width of `accepted`.
    pub accepted_ci95: Option<f64>,
    /// Mean packet latency (cycles); `null` when saturated before measuring.
    pub latency: Option<f64>,
    /// 95% half-width of `latency`.
    pub latency_ci95: Option<f64>,
    /// The saturation verdict.
    pub saturated: bool,
    /// The confidence target was met.
    pub converged: bool,
    /// Cycles simulated.
    pub cycles: u64,
}

/// One curve: a netlist with one routing function.
#[derive(Clone, Debug, Serialize)]
pub struct Curve {
    /// `netlist routing`.
    pub label: String,
    /// Netlist name.
    pub netlist: String,
    /// Routing function.
    pub routing: String,
    /// With `--rates auto`: the highest probed rate found unsaturated and the lowest found
    /// saturated (packets per terminal per cycle).
    pub saturation: Option<Bracket>,
    /// The points, by rate.
    pub points: Vec<Point>,
}

/// The saturation rate lies in `[unsaturated, saturated]`.
#[derive(Copy, Clone, Debug, Serialize)]
pub struct Bracket {
    /// Highest rate probed without the saturation verdict.
    pub unsaturated: f64,
    /// Lowest rate probed with it.
    pub saturated: f64,
    /// `unsaturated` in flits per terminal per cycle.
    pub unsaturated_flits: f64,
}

/// Parses `A:B:STEP` or `R1,R2,...` (packets per terminal per cycle).
///
/// # Errors
/// A malformed or out-of-range specification.
pub fn parse_rates(spec: &str) -> anyhow::Result<Vec<f64>> {
    let num = |s: &str| -> anyhow::Result<f64> {
        s.trim()
            .parse::<f64>()
            .map_err(|_| anyhow!("--rates {spec}: `{s}` is not a number\nhelp: use A:B:STEP (e.g. 0.002:0.02:0.002), R1,R2,... or auto"))
    };
    let rates = if let Some((a, rest)) = spec.split_once(':') {
        let (b, step) = rest.split_once(':').ok_or_else(|| {
            anyhow!("--rates {spec}: expected A:B:STEP\nhelp: for example 0.002:0.02:0.002")
        })?;
        let (a, b, step) = (num(a)?, num(b)?, num(step)?);
        if step <= 0.0 || b < a {
            bail!("--rates {spec}: needs STEP > 0 and B >= A\nhelp: for example 0.002:0.02:0.002");
        }
        let n = ((b - a) / step + 1e-9).floor() as usize;
        (0..=n).map(|i| a + step * i as f64).collect()
    } else {
        spec.split(',')
            .map(num)
            .collect::<anyhow::Result<Vec<_>>>()?
    };
    if let Some(r) = rates.iter().find(|r| !(0.0..=1.0).contains(*r)) {
        bail!("--rates {spec}: rate {r} is not in [0, 1]\nhelp: rates are packets per terminal per cycle");
    }
    Ok(rates)
}

struct CurveSpec {
    netlist: Netlist,
    config: SimConfig,
    label: String,
    netlist_name: String,
    routing: String,
}

/// Runs the jobs `(curve, rate, config)` on `threads` workers; results in job order.
fn run_jobs(
    specs: &[CurveSpec],
    jobs: &[(usize, SimConfig)],
    threads: usize,
    bar: &ProgressBar,
) -> anyhow::Result<Vec<RunReport>> {
    #[cfg(feature = "mpi")]
    if crate::cluster::ranks() > 1 {
        let run = |(c, config): &(usize, SimConfig)| {
            Simulation::new(&specs[*c].netlist, config)
                .map(|mut sim| sim.run())
                .map_err(|e| format!("{:#}", anyhow::Error::from(e)))
        };
        return crate::cluster::map(jobs, run)
            .into_iter()
            .map(|r| r.map_err(|e| anyhow!(e)))
            .collect();
    }
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<anyhow::Result<RunReport>>>> =
        Mutex::new(jobs.iter().map(|_| None).collect());
    std::thread::scope(|s| {
        for _ in 0..threads.min(jobs.len()).max(1) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some((c, config)) = jobs.get(i) else {
                    break;
                };
                let r = Simulation::new(&specs[*c].netlist, config)
                    .map(|mut sim| sim.run())
                    .map_err(anyhow::Error::from);
                bar.inc(1);
                results.lock().expect("a sweep worker panicked")[i] = Some(r);
            });
        }
    });
    results
        .into_inner()
        .expect("a sweep worker panicked")
        .into_iter()
        .map(|r| r.expect("every job ran"))
        .collect()
}

fn point(r: &RunReport) -> Point {
    Point {
        rate: r.offered.packets_per_terminal_cycle,
        offered: r.offered.flits_per_terminal_cycle,
        accepted: r.accepted.flits_per_terminal_cycle,
        accepted_ci95: r.accepted.ci95,
        latency: r.latency.mean,
        latency_ci95: r.latency.ci95,
        saturated: r.saturated,
        converged: r.measurement.converged,
        cycles: r.cycles.total,
    }
}

/// Finds the saturation bracket of every curve by k-section with `threads` probes per round.
fn find_saturation(
    specs: &[CurveSpec],
    args: &SweepArgs,
    threads: usize,
    bar: &ProgressBar,
) -> anyhow::Result<Vec<Bracket>> {
    let k = threads.max(2);
    let mut brackets: Vec<(f64, f64)> = specs
        .iter()
        .map(|s| (0.0, (1.0 / s.config.lengths().mean()).min(1.0)))
        .collect();
    // Stop when the bracket is within 2% of its upper end (or after 12 rounds).
    for _round in 0..12 {
        let open: Vec<usize> = (0..specs.len())
            .filter(|&c| brackets[c].1 - brackets[c].0 > 0.02 * brackets[c].1)
            .collect();
        if open.is_empty() {
            break;
        }
        let mut jobs = Vec::new();
        for &c in &open {
            let (lo, hi) = brackets[c];
            for j in 1..=k {
                let rate = lo + (hi - lo) * j as f64 / (k + 1) as f64;
                let mut config = specs[c].config.clone();
                config.rate = rate;
                config.auto = Some(flitsim_engine::stats::AutoConfig {
                    ci_target: 0.05,
                    max_cycles: args.probe_cycles,
                    batch_cycles: 0,
                });
                jobs.push((c, config));
            }
        }
        bar.inc_length(jobs.len() as u64);
        let reports = run_jobs(specs, &jobs, threads, bar)?;
        for (ci, &c) in open.iter().enumerate() {
            let (mut lo, mut hi) = brackets[c];
            let rs = &reports[ci * k..(ci + 1) * k];
            let rates: Vec<f64> = jobs[ci * k..(ci + 1) * k]
                .iter()
                .map(|j| j.1.rate)
                .collect();
            // The first saturated probe bounds from above; the probe below it from below.
            match rs.iter().position(|r| r.saturated) {
                Some(0) => hi = rates[0],
                Some(j) => {
                    lo = rates[j - 1];
                    hi = rates[j];
                }
                None => lo = rates[k - 1],
            }
            brackets[c] = (lo, hi);
        }
    }
    Ok(specs
        .iter()
        .zip(&brackets)
        .map(|(s, &(lo, hi))| Bracket {
            unsaturated: lo,
            saturated: hi,
            unsaturated_flits: lo * s.config.lengths().mean(),
        })
        .collect())
}

fn curve_specs(args: &SweepArgs) -> anyhow::Result<Vec<CurveSpec>> {
    let mut paths = vec![args.run.netlist.clone()];
    paths.extend(args.more.iter().cloned());
    let routings: Vec<Option<String>> = match &args.run.routing {
        Some(r) => r.split(',').map(|s| Some(s.trim().to_string())).collect(),
        None => vec![None],
    };
    let mut specs = Vec::new();
    for path in &paths {
        for routing in &routings {
            let mut run = args.run.clone();
            run.netlist = path.clone();
            run.routing = routing.clone();
            let netlist = run.load_netlist()?;
            let config = run.sim_config()?;
            let routing = netlist.routers().next().map_or("-", |r| {
                flitsim_router::routing::kind_name(r.config.routing)
            });
            specs.push(CurveSpec {
                label: format!("{} {}", netlist.name, routing),
                netlist_name: netlist.name.clone(),
                routing: routing.to_string(),
                config,
                netlist,
            });
        }
    }
    Ok(specs)
}

/// Runs `flitsim sweep`.
///
/// # Errors
/// A bad netlist, flag or output file.
pub fn run(args: &SweepArgs) -> anyhow::Result<ExitCode> {
    let specs = curve_specs(args)?;
    super::args::check_writable("--csv", args.csv.as_deref())?;
    super::args::check_writable("--plot", args.plot.as_deref())?;
    // `--threads` (shared with `run`) also sets how many points run at once.
    let threads = match args.run.threads {
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
        Some(n) => n as usize,
    };
    let bar = if super::progress::shown(args.run.quiet) {
        let b = ProgressBar::new(0);
        b.set_style(
            ProgressStyle::with_template("{spinner} {msg} [{bar:30}] {pos}/{len} runs {elapsed}")
                .map_err(|e| anyhow!("{e}"))?
                .progress_chars("=> "),
        );
        b
    } else {
        ProgressBar::hidden()
    };
    let auto = args.rates.trim() == "auto";
    let (brackets, rates): (Option<Vec<Bracket>>, Vec<Vec<f64>>) = if auto {
        if args.points == 0 {
            bail!("--points 0: a curve needs at least one point");
        }
        bar.set_message("finding the saturation rate");
        let b = find_saturation(&specs, args, threads, &bar)?;
        let rates = b
            .iter()
            .map(|b| {
                // Up to 95% of the highest unsaturated rate (the edge itself never
                // converges), plus one point 10% above saturation for the plateau.
                let mut r: Vec<f64> = (1..=args.points)
                    .map(|i| 0.95 * b.unsaturated * i as f64 / args.points as f64)
                    .collect();
                r.push((1.1 * b.saturated).min(1.0));
                r
            })
            .collect();
        (Some(b), rates)
    } else {
        let r = parse_rates(&args.rates)?;
        (None, specs.iter().map(|_| r.clone()).collect())
    };
    bar.set_message("sampling the curves");
    let jobs: Vec<(usize, SimConfig)> = specs
        .iter()
        .enumerate()
        .flat_map(|(c, s)| {
            rates[c].iter().map(move |&rate| {
                let mut config = s.config.clone();
                config.rate = rate;
                (c, config)
            })
        })
        .collect();
    bar.inc_length(jobs.len() as u64);
    let reports = run_jobs(&specs, &jobs, threads, &bar)?;
    bar.finish_and_clear();
    let mut curves: Vec<Curve> = specs
        .iter()
        .enumerate()
        .map(|(c, s)| Curve {
            label: s.label.clone(),
            netlist: s.netlist_name.clone(),
            routing: s.routing.clone(),
            saturation: brackets.as_ref().map(|b| b[c]),
            points: Vec::new(),
        })
        .collect();
    for ((c, _), r) in jobs.iter().zip(&reports) {
        curves[*c].points.push(point(r));
    }
    if let Some(path) = &args.csv {
        write_csv(path, &curves).with_context(|| format!("--csv {}", path.display()))?;
    }
    if let Some(path) = &args.plot {
        super::sweep_plot::draw(path, &curves)
            .with_context(|| format!("--plot {}", path.display()))?;
    }
    if args.run.json {
        crate::cli::outln!(
            "{}",
            serde_json::to_string_pretty(&serde_json::json!({
                "latency": specs.first().map(|s| s.config.latency),
                "curves": curves,
            }))?
        )?;
    } else {
        crate::cli::out!("{}", table(&curves))?;
    }
    Ok(ExitCode::SUCCESS)
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
            "{:>9} {:>9} {:>9} {:>8} {:>9} {:>8} {:>9} {:>9} {:>8}",
            "rate",
            "offered",
            "accepted",
            "+-",
            "latency",
            "+-",
            "saturated",
            "converged",
            "cycles"
        );
        for p in &c.points {
            let _ = writeln!(
                s,
                "{:>9.5} {:>9.4} {:>9.4} {:>8} {:>9} {:>8} {:>9} {:>9} {:>8}",
                p.rate,
                p.offered,
                p.accepted,
                opt(p.accepted_ci95, 4),
                opt(p.latency, 2),
                opt(p.latency_ci95, 2),
                p.saturated,
                p.converged,
                p.cycles
            );
        }
    }
    s
}

fn write_csv(path: &std::path::Path, curves: &[Curve]) -> anyhow::Result<()> {
    // Only rank 0 of an MPI job writes files (every rank computes the same ones).
    if !crate::cluster::is_root() {
        return Ok(());
    }
    let mut w = csv::Writer::from_path(path)?;
    w.write_record([
        "curve",
        "netlist",
        "routing",
        "rate",
        "offered_flits",
        "accepted_flits",
        "accepted_ci95",
        "latency",
        "latency_ci95",
        "saturated",
        "converged",
        "cycles",
    ])?;
    let o = |x: Option<f64>| x.map_or_else(String::new, |v| v.to_string());
    for c in curves {
        for p in &c.points {
            w.write_record([
                c.label.clone(),
                c.netlist.clone(),
                c.routing.clone(),
                p.rate.to_string(),
                p.offered.to_string(),
                p.accepted.to_string(),
                o(p.accepted_ci95),
                o(p.latency),
                o(p.latency_ci95),
                p.saturated.to_string(),
                p.converged.to_string(),
                p.cycles.to_string(),
            ])?;
        }
    }
    w.flush()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_ranges_and_lists() {
        let r = parse_rates("0.01:0.05:0.01").unwrap();
        assert_eq!(r.len(), 5);
        assert!((r[4] - 0.05).abs() < 1e-12);
        assert_eq!(parse_rates("0.1,0.2").unwrap(), vec![0.1, 0.2]);
        assert!(parse_rates("0.1:0.05:0.01").is_err());
        assert!(parse_rates("0.1:0.2").is_err());
        assert!(parse_rates("2").is_err());
        assert!(parse_rates("x").is_err());
    }
}
