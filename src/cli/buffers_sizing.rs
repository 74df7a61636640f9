//! `flitsim buffers` without `--rate`: the depth per VC that meets stated criteria over a
//! load range ([`crate::experiments::buffer_sizing`]), the storage it takes per port, per
//! router and for the network in flits and bits, and with `--plot` a heat map of what
//! drove the answer.

use super::buffers::BuffersArgs;
use crate::experiments::buffer_sizing::{
    flit_bits, size_buffers, storage_flits, storage_json, with_depth, Criteria, Sizing,
};
use crate::experiments::simulate_buffers;
use anyhow::Context;
use flitsim_netlist::Netlist;
use std::process::ExitCode;

fn criteria(args: &BuffersArgs) -> anyhow::Result<Criteria> {
    Criteria {
        up_to: args.up_to,
        loads: args.loads as usize,
        latency_tolerance: args.latency_tolerance,
        saturation_tolerance: args.saturation_tolerance,
    }
    .checked()
}

/// Runs the sizing.
///
/// # Errors
/// A bad netlist or flag, a deadlock, or an unwritable plot.
pub fn run(args: &BuffersArgs) -> anyhow::Result<ExitCode> {
    let crit = criteria(args)?;
    let netlist = args.run.load_netlist()?;
    let config = args.run.sim_config()?;
    super::args::check_writable("--plot", args.plot.as_deref())?;
    crate::plot::file::check_format("--plot", args.plot.as_deref())?;
    let threads = match args.run.threads {
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
        Some(n) => n as usize,
    };
    let bar = super::progress::spinner(args.run.quiet, "sizing the buffers");
    let sizing = size_buffers(
        &netlist,
        &config,
        crit,
        (args.probe_cycles, threads),
        &super::progress::StudyBar(&bar),
    )?;
    bar.finish_and_clear();
    let bits = flit_bits(&netlist);
    if args.run.json {
        let storage = sizing.depth.map(|d| storage_json(&netlist, d, bits));
        let v = serde_json::json!({ "sizing": sizing, "storage": storage });
        crate::cli::outln!("{}", serde_json::to_string_pretty(&v)?)?;
    } else {
        crate::cli::out!("{}", report(&netlist, &sizing, bits))?;
    }
    if let (Some(path), Some(d)) = (&args.plot, sizing.depth) {
        // What drove the answer: the occupancy at the deciding load with that depth.
        let rate = sizing.deciding_rate();
        let mut c = config.clone();
        c.rate = rate;
        let (_, stats) =
            simulate_buffers(&with_depth(&netlist, &d.to_string())?, &d.to_string(), &c)?;
        let values = crate::plot::buffers::p99s(&netlist, &stats);
        let caption = format!(
            "{}: p99 input-VC occupancy per router (flits) at {rate:.4} packets/terminal/cycle, depth {d} per VC",
            netlist.name
        );
        crate::plot::buffers::heat_map(path, &netlist, &values, &caption)
            .with_context(|| format!("--plot {}", path.display()))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The printed report: criteria, the unbounded reference, each depth tried, the answer
/// and its storage.
fn report(netlist: &Netlist, s: &Sizing, bits: u64) -> String {
    use std::fmt::Write;
    let c = &s.criteria;
    let mut o = String::new();
    let _ = writeln!(
        o,
        "criteria (set with --up-to, --loads, --latency-tolerance, --saturation-tolerance):"
    );
    let _ = writeln!(
        o,
        "  mean latency within {:.0}% of the unbounded-buffer latency at {} loads up to {:.0}% of the unbounded saturation rate",
        100.0 * c.latency_tolerance,
        c.loads,
        100.0 * c.up_to
    );
    let _ = writeln!(
        o,
        "  saturation throughput within {:.0}% of the unbounded one: unsaturated at {:.5} packets/terminal/cycle or above",
        100.0 * c.saturation_tolerance,
        s.saturation_floor
    );
    let _ = writeln!(
        o,
        "unbounded buffers: saturation between {:.5} and {:.5} packets/terminal/cycle",
        s.unbounded.unsaturated, s.unbounded.saturated
    );
    let _ = write!(o, "{:>8}", "depth");
    for (rate, unb) in &s.reference {
        let _ = write!(
            o,
            " {:>16}",
            format!(
                "{rate:.4}:{}",
                unb.map_or("-".into(), |l| format!("{l:.1}"))
            )
        );
    }
    let _ = writeln!(o, " {:>10} {:>6}", "saturation", "meets");
    for t in &s.tried {
        let _ = write!(o, "{:>8}", t.depth);
        for l in &t.loads {
            let cell = match (l.latency, l.ratio) {
                (Some(v), Some(r)) => format!("{v:.1} ({:+.0}%)", 100.0 * (r - 1.0)),
                _ => "saturated".into(),
            };
            let _ = write!(o, " {cell:>16}");
        }
        let _ = writeln!(
            o,
            " {:>10} {:>6}",
            t.saturation
                .map_or("-".into(), |b| format!("{:.5}", b.unsaturated)),
            if t.meets { "yes" } else { "no" }
        );
    }
    let _ = writeln!(
        o,
        "(columns: rate:unbounded latency; cells: latency and its excess over the unbounded one; saturation: highest rate found unsaturated, searched once the latencies meet the criterion)"
    );
    if s.floor > 1 {
        let _ = writeln!(
            o,
            "depths below {} flits not tried: the switching needs a whole packet per VC",
            s.floor
        );
    }
    match s.depth {
        Some(d) => {
            let vcs = netlist.routers().next().map_or(0, |r| r.config.vcs);
            let (router, network) = storage_flits(netlist, d);
            let _ = writeln!(o, "depth per VC: {d} flits");
            let _ = writeln!(
                o,
                "storage: {} flits per port ({vcs} VCs), {router} flits = {} bits per router, {network} flits = {} bits in the network ({bits} bits per flit)",
                u64::from(vcs) * u64::from(d),
                router * bits,
                network * bits
            );
        }
        None => {
            let _ = writeln!(
                o,
                "no depth up to {} flits met the criteria",
                flitsim_netlist::MAX_BUFFER_DEPTH
            );
        }
    }
    o
}
