//! `flitsim buffers`: the buffer hardware a router needs at a given load.
//!
//! 1. Simulates the netlist with unbounded input buffers (`buffer_depth = "unbounded"`)
//!    and reports, per router and input port, the occupancy of its VC FIFOs (time-average
//!    mean, p99, peak) and the accepted throughput: the reference.
//! 2. Finds the smallest depth per VC whose accepted throughput reaches `--fraction`
//!    (default 99%) of the reference: it halves the depth from the peak storage used (at
//!    most [`flitsim_netlist::MAX_BUFFER_DEPTH`]) until a depth falls short, then bisects
//!    between the last depth that fell short and the smallest that reached it, so the
//!    answer `d` and `d - 1` are both simulated. Every depth tried is reported with its
//!    throughput.
//!
//! All runs use the same fixed window (default warm-up 2000, window 20000 cycles) and
//! seed, so they see exactly the same generated packets: throughputs differ only by what
//! the buffers let through. `--plot FILE.svg` draws a heat map of the peak occupancy per
//! router over a 2-D topology.

use super::args::RunArgs;
use anyhow::{bail, Context};
use clap::Args;
use flitsim_engine::stats::occupancy::BufferStats;
use flitsim_engine::{SimConfig, Simulation};
use flitsim_netlist::Netlist;
use serde::Serialize;
use std::path::PathBuf;
use std::process::ExitCode;

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

    /// Draw a heat map of peak occupancy per router (2-D topologies) as SVG to FILE.
    #[arg(long, value_name = "FILE")]
    pub plot: Option<PathBuf>,
}

/// Occupancy of one input port (over its VCs).
#[derive(Clone, Debug, Serialize)]
pub struct PortBuffers {
    /// Router name.
    pub router: String,
    /// Input port name.
    pub port: String,
    /// VCs.
    pub vcs: usize,
    /// Mean occupancy summed over the port's VCs (flits).
    pub mean: f64,
    /// Largest p99 of its VCs (flits).
    pub p99: u32,
    /// Peak occupancy of any of its VCs (flits): the storage one VC needed.
    pub peak: u32,
}

/// One depth tried by the search.
#[derive(Clone, Debug, Serialize)]
pub struct Tried {
    /// Depth per VC (flits).
    pub depth: u32,
    /// Accepted flits per terminal per cycle.
    pub accepted: f64,
    /// `accepted` / unbounded throughput.
    pub fraction: f64,
    /// `fraction >= --fraction`.
    pub reaches: bool,
}

/// Runs one simulation of `netlist` and returns (accepted flits/terminal/cycle, buffers).
fn simulate(netlist: &Netlist, config: &SimConfig) -> anyhow::Result<(f64, Vec<BufferStats>)> {
    let mut sim = Simulation::new(netlist, config)?;
    let report = sim.run();
    if let Some(e) = sim.error() {
        bail!("the run stopped: {e}");
    }
    Ok((
        report.accepted.flits_per_terminal_cycle,
        sim.buffer_stats(netlist),
    ))
}

fn with_depth(netlist: &Netlist, depth: &str) -> anyhow::Result<Netlist> {
    let mut n = netlist.clone();
    n.set_all([("buffer_depth", depth)])
        .map_err(|d| anyhow::anyhow!("buffer_depth={depth}: {d}"))?;
    Ok(n)
}

/// Groups VC statistics by router and input port (network ports and injection).
pub fn by_port(buffers: &[BufferStats]) -> Vec<PortBuffers> {
    let mut out: Vec<PortBuffers> = Vec::new();
    for b in buffers {
        match out.last_mut() {
            Some(p) if p.router == b.router && p.port == b.port => {
                p.vcs += 1;
                p.mean += b.mean;
                p.p99 = p.p99.max(b.p99);
                p.peak = p.peak.max(b.max);
            }
            _ => out.push(PortBuffers {
                router: b.router.clone(),
                port: b.port.clone(),
                vcs: 1,
                mean: b.mean,
                p99: b.p99,
                peak: b.max,
            }),
        }
    }
    out
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
    let mut config = args.run.sim_config()?;
    super::args::check_writable("--plot", args.plot.as_deref())?;
    if config.auto.is_some() {
        // Same window for every depth: identical generated traffic.
        config.auto = None;
        config.warmup = 2_000;
        config.cycles = 20_000;
    }
    config.stop_on_saturation = false;
    let bar = super::progress::spinner(args.run.quiet, "simulating unbounded buffers");
    let unbounded = with_depth(&netlist, "unbounded")?;
    let (reference, buffers) = simulate(&unbounded, &config)?;
    let ports = by_port(&buffers);
    let peak = buffers.iter().map(|b| b.max).max().unwrap_or(1).max(1);
    let mut tried: Vec<Tried> = Vec::new();
    let mut required = None;
    if !args.no_search && reference > 0.0 {
        let try_depth = |d: u32, tried: &mut Vec<Tried>| -> anyhow::Result<bool> {
            if let Some(t) = tried.iter().find(|t| t.depth == d) {
                return Ok(t.reaches);
            }
            bar.set_message(format!("simulating a depth of {d} flits per VC"));
            let n = with_depth(&netlist, &d.to_string())?;
            let (acc, _) = simulate(&n, &config)?;
            let fraction = acc / reference;
            let reaches = fraction >= args.fraction;
            tried.push(Tried {
                depth: d,
                accepted: acc,
                fraction,
                reaches,
            });
            Ok(reaches)
        };
        // The peak storage used always suffices in principle; check it (at most the
        // largest depth a netlist may give), then halve.
        let mut ok = peak.min(flitsim_netlist::MAX_BUFFER_DEPTH);
        let mut bad = 0;
        if try_depth(ok, &mut tried)? {
            while ok > 1 {
                let d = ok / 2;
                if try_depth(d, &mut tried)? {
                    ok = d;
                } else {
                    bad = d;
                    break;
                }
            }
            while ok - bad > 1 && bad > 0 {
                let mid = (ok + bad) / 2;
                if try_depth(mid, &mut tried)? {
                    ok = mid;
                } else {
                    bad = mid;
                }
            }
            required = Some(ok);
        }
        tried.sort_by_key(|t| std::cmp::Reverse(t.depth));
    }
    bar.finish_and_clear();
    if let Some(path) = &args.plot {
        super::buffers_plot::draw(path, &netlist, &buffers)
            .with_context(|| format!("--plot {}", path.display()))?;
    }
    if args.run.json {
        let v = serde_json::json!({
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
                "tried": tried,
            },
        });
        crate::cli::outln!("{}", serde_json::to_string_pretty(&v)?)?;
    } else {
        crate::cli::out!(
            "{}",
            summary(reference, &ports, &tried, required, args.fraction)
        )?;
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
