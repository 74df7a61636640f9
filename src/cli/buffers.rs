//! `flitsim buffers`: the buffer hardware a router needs. Without `--rate`, `main` runs
//! the sizing over a load range of `buffers_sizing`; with it, this sizes for that load: the flags, the
//! fixed window every run shares (so all see the same generated packets), the report and
//! `--plot` (a heat map of peak occupancy per router); the search is
//! [`crate::experiments::buffer_depth`].

use super::args::RunArgs;
use crate::experiments::{by_port, search_depth, simulate_buffers, DepthSearch};
use anyhow::{bail, Context};
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

pub use crate::experiments::{PortBuffers, Tried};

/// Flags of `flitsim buffers`.
#[derive(Args, Debug, Clone)]
pub struct BuffersArgs {
    /// The run flags (`--rate` is the load to size the buffers for).
    #[command(flatten)]
    pub run: RunArgs,

    /// Required throughput as a fraction of the unbounded-buffer throughput.
    #[arg(
        long,
        value_name = "F",
        default_value_t = 0.99,
        allow_negative_numbers = true
    )]
    pub fraction: f64,

    /// Only report occupancies with unbounded buffers (no depth search).
    #[arg(long)]
    pub no_search: bool,

    /// Draw a heat map per router (2-D topologies) to FILE (SVG, PNG or PDF by its
    /// extension): with `--rate`, the peak occupancy with unbounded buffers; without, the
    /// p99 occupancy at the load that decided the depth, with that depth.
    #[arg(long, value_name = "FILE")]
    pub plot: Option<PathBuf>,

    /// Sizing over a load range (without `--rate`): the range ends at this fraction of
    /// the unbounded-buffer saturation rate.
    #[arg(
        long,
        value_name = "F",
        default_value_t = 0.8,
        allow_negative_numbers = true
    )]
    pub up_to: f64,

    /// Sizing over a load range: loads checked, evenly spaced up to `--up-to`.
    #[arg(long, value_name = "N", default_value_t = 4, value_parser = clap::value_parser!(u64).range(1..=32))]
    pub loads: u64,

    /// Sizing over a load range: the mean latency at each load may exceed the
    /// unbounded-buffer latency by at most this fraction.
    #[arg(
        long,
        value_name = "F",
        default_value_t = 0.10,
        allow_negative_numbers = true
    )]
    pub latency_tolerance: f64,

    /// Sizing over a load range: the saturation throughput may fall short of the
    /// unbounded-buffer one by at most this fraction.
    #[arg(
        long,
        value_name = "F",
        default_value_t = 0.05,
        allow_negative_numbers = true
    )]
    pub saturation_tolerance: f64,

    /// Sizing over a load range: cycle budget of each probe of the unbounded saturation
    /// search.
    #[arg(long, value_name = "C", default_value_t = 30_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub probe_cycles: u64,

    /// `--rate` was given (set by `main`): size for that one load by `--fraction`;
    /// otherwise size over a load range.
    #[arg(skip)]
    pub rate_given: bool,
}

/// Runs `flitsim buffers`.
///
/// # Errors
/// A bad netlist or flag, a deadlock, or an unwritable plot.
pub fn run(args: &BuffersArgs) -> anyhow::Result<ExitCode> {
    if !(args.fraction > 0.0 && args.fraction <= 1.0) {
        bail!(
            "--fraction {} is out of range\nhelp: give a fraction in (0, 1], e.g. 0.99",
            args.fraction
        );
    }
    let netlist = args.run.load_netlist()?;
    let (tech, options) = args.run.cost.resolve()?;
    let mut config = args.run.sim_config()?;
    super::args::check_writable("--plot", args.plot.as_deref())?;
    crate::plot::file::check_format("--plot", args.plot.as_deref())?;
    if config.auto.is_some() {
        // Same window for every depth: identical generated traffic.
        config.auto = None;
        config.warmup = 2_000;
        config.cycles = 20_000;
    }
    config.stop_on_saturation = false;
    let bar = super::progress::spinner(args.run.quiet, "simulating unbounded buffers");
    let (reference, buffers) = simulate_buffers(&netlist, "unbounded", &config)?;
    let ports = by_port(&buffers);
    let peak = buffers.iter().map(|b| b.max).max().unwrap_or(1).max(1);
    let search = if !args.no_search && reference > 0.0 {
        let floor = crate::experiments::buffer_sizing::floor(&netlist, &config);
        search_depth(
            &netlist,
            &config,
            (reference, args.fraction),
            (floor, peak),
            &super::progress::StudyBar(&bar),
        )?
    } else {
        DepthSearch::default()
    };
    let (tried, required) = (search.tried, search.required);
    let required_cost = required
        .map(|d| crate::cost::buffers_at_depth(&netlist, d, &tech, &options))
        .transpose()?;
    bar.finish_and_clear();
    if let Some(path) = &args.plot {
        crate::plot::buffers::draw(path, &netlist, &buffers)
            .with_context(|| format!("--plot {}", path.display()))?;
    }
    if args.run.json {
        let v = serde_json::json!({
            "config": crate::studies::run_report::effective_config(
                &netlist,
                &config,
                args.run.experiment.as_deref(),
                &args.run.set,
            ),
            "rate": config.rate,
            "unbounded": {
                "accepted_flits_per_terminal_cycle": reference,
                "peak": peak,
                "ports": ports,
                "vcs": buffers,
            },
            "search": {
                "fraction": args.fraction,
                "required_depth": required,
                "required_input_area_mm2": required_cost.map(|c| c.0),
                "required_input_leakage_mw": required_cost.map(|c| c.1),
                "tech": args.run.cost.tech,
                "tried": tried,
            },
        });
        crate::cli::outln!("{}", serde_json::to_string_pretty(&v)?)?;
    } else {
        crate::cli::out!(
            "{}",
            summary(reference, &ports, &tried, required, args.fraction)
        )?;
        if let Some((area, leakage)) = required_cost {
            crate::cli::outln!(
                "input buffers at that depth: {area:.4} mm^2, leakage {leakage:.3} mW ({})",
                args.run.cost.tech
            )?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn summary(
    reference: f64,
    ports: &[PortBuffers],
    tried: &[Tried],
    required: Option<u32>,
    fraction: f64,
) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "unbounded buffers: accepted {reference:.4} flits/terminal/cycle"
    );
    let _ = writeln!(
        s,
        "{:<8} {:<8} {:>4} {:>10} {:>5} {:>5}",
        "router", "port", "vcs", "mean", "p99", "peak"
    );
    for p in ports {
        let _ = writeln!(
            s,
            "{:<8} {:<8} {:>4} {:>10.3} {:>5} {:>5}",
            p.router, p.port, p.vcs, p.mean, p.p99, p.peak
        );
    }
    if !tried.is_empty() {
        let _ = writeln!(s, "depth per VC -> accepted (fraction of unbounded)");
        for t in tried {
            let _ = writeln!(
                s,
                "{:>5} flits -> {:.4} ({:.2}%){}",
                t.depth,
                t.accepted,
                100.0 * t.fraction,
                if t.reaches { "" } else { "  short" }
            );
        }
    }
    match required {
        Some(d) => {
            let _ = writeln!(
                s,
                "required depth: {d} flits per VC reach {:.0}% of the unbounded throughput",
                100.0 * fraction
            );
        }
        None if !tried.is_empty() => {
            let _ = writeln!(s, "no depth tried reached the target");
        }
        None => {}
    }
    s
}
