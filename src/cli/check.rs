//! `flitsim check NETLIST [run flags] [--json] [--plot FILE.svg] [--per-channel]`:
//! simulate, then compare each channel's measured VC occupancy `P(v)` with Dally's
//! Markov chain fed with that channel's measured arrival rate and holding time
//! (total-variation distance, multiplexing degree), averaged per channel class, and the
//! measured mean latency with the matching paper model's, where one applies.

use super::args::RunArgs;
use crate::check::{chart, compute, latency_error, to_json, CheckResult};
use crate::plot;
use clap::Args;
use std::fmt::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// `flitsim check` flags.
#[derive(Args, Debug, Clone)]
pub struct CheckArgs {
    /// The simulation flags (as `flitsim run`).
    #[command(flatten)]
    pub run: RunArgs,

    /// Write P(v) measured vs predicted per channel class as a chart: SVG, PNG or PDF by
    /// the extension.
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,

    /// Also print one line per channel.
    #[arg(long)]
    pub per_channel: bool,
}

/// Runs `flitsim check`.
///
/// # Errors
/// Netlist, flag or routing errors, or an unwritable plot.
pub fn run(args: &CheckArgs) -> anyhow::Result<ExitCode> {
    let netlist = args.run.load_netlist()?;
    let config = args.run.sim_config()?;
    super::args::check_writable("--plot", args.plot.as_deref())?;
    crate::plot::file::check_format("--plot", args.plot.as_deref())?;
    let bar = super::progress::spinner(args.run.quiet, &format!("simulating {}", netlist.name));
    let r = compute(&netlist, &config)?;
    bar.finish_and_clear();
    if args.run.json {
        let config_json = crate::studies::run_report::effective_config(
            &netlist,
            &config,
            args.run.experiment.as_deref(),
            &args.run.set,
        );
        crate::cli::outln!(
            "{}",
            serde_json::to_string_pretty(&to_json(&r, config_json))?
        )?;
    } else {
        crate::cli::out!("{}", table(&r, args.per_channel))?;
    }
    if let Some(path) = &args.plot {
        plot::write_svg(&chart(&r), path)?;
    }
    if let Some(d) = &r.measured.report.deadlock {
        eprintln!("error: {}", d.message);
        return Ok(ExitCode::from(super::run::EXIT_DEADLOCK));
    }
    Ok(ExitCode::SUCCESS)
}

fn opt(x: Option<f64>, digits: usize) -> String {
    x.map_or_else(|| "-".into(), |v| format!("{v:.digits$}"))
}

fn pct(x: Option<f64>) -> String {
    x.map_or_else(|| "-".into(), |v| format!("{:+.1}%", v * 100.0))
}

/// The stdout table.
pub fn table(r: &CheckResult, per_channel: bool) -> String {
    let mut s = String::new();
    let st = &r.setup;
    let rep = &r.measured.report;
    let _ = writeln!(
        s,
        "check: {} {:?}, routing {}, switching {}, traffic {}, rate {} packets/terminal/cycle, length {}, {} VCs",
        st.topology, st.radix, st.routing, st.switching, st.traffic, st.rate, st.length, st.vcs
    );
    let _ = writeln!(
        s,
        "latency: measured {} +- {} cycles (95% CI), accepted {:.4} flits/terminal/cycle",
        opt(rep.latency.mean, 2),
        opt(r.measured.latency_ci95, 2),
        rep.accepted.flits_per_terminal_cycle
    );
    match &r.model {
        Some(m) => {
            let which = serde_json::to_value(&m.model)
                .ok()
                .and_then(|v| v.get("paper").and_then(|p| p.as_str().map(String::from)))
                .unwrap_or_default();
            let _ = writeln!(
                s,
                "model:   paper {which} predicts {} cycles{} (error {})",
                opt(m.latency, 2),
                m.note.as_ref().map_or(String::new(), |n| format!(" ({n})")),
                pct(latency_error(r))
            );
        }
        None => {
            let _ = writeln!(s, "model:   no paper model for this configuration");
        }
    }
    let _ = writeln!(
        s,
        "VC occupancy vs Dally's chain (per class: mean over channels)"
    );
    let _ = writeln!(
        s,
        "{:<8} {:>5} {:>9} {:>8} {:>7} {:>7} {:>8} {:>8} {:>8} {:>8} {:>8}",
        "class", "chans", "lambda", "S", "rho", "rhomax", "TV", "TVmax", "mux", "muxpred", "muxerr"
    );
    for c in &r.classes {
        let _ = writeln!(
            s,
            "{:<8} {:>5} {:>9.5} {:>8} {:>7.4} {:>7.4} {:>8} {:>8} {:>8.4} {:>8} {:>8}",
            c.class,
            c.channels,
            c.lambda,
            opt(c.holding_time, 2),
            c.rho,
            c.rho_max,
            opt(c.tv_mean, 4),
            opt(c.tv_max, 4),
            c.multiplexing_measured,
            opt(c.multiplexing_predicted, 4),
            pct(c.multiplexing_error)
        );
    }
    let _ = writeln!(s, "P(v), class mean: measured / predicted");
    for c in &r.classes {
        let fmt = |p: &[f64]| {
            p.iter()
                .map(|x| format!("{x:.4}"))
                .collect::<Vec<_>>()
                .join(" ")
        };
        let _ = writeln!(
            s,
            "{:<8} {} / {}",
            c.class,
            fmt(&c.measured),
            c.predicted.as_deref().map_or("-".into(), fmt)
        );
    }
    if per_channel {
        for c in &r.channels {
            let _ = writeln!(
                s,
                "{:<14} lambda {:.5} S {} rho {:.4} TV {} mux {:.4}/{}",
                c.name,
                c.lambda,
                opt(c.holding_time, 2),
                c.rho,
                opt(c.tv, 4),
                c.multiplexing_measured,
                opt(c.multiplexing_predicted, 4)
            );
        }
    }
    s
}
