//! `flitsim run`: one simulation of a netlist; a readable summary or one JSON object.
//!
//! Exit status: 0 on success, 1 on a bad netlist or flag (nothing simulated), 3 when the
//! deadlock watchdog stopped the run (the report is on stderr and in the JSON).

use super::args::RunArgs;
use crate::studies::run_report::{effective_config, run_json, with_perf, RunJson};
use flitsim_engine::{SetupProgress, Simulation};
use std::process::ExitCode;

/// Exit status of a run the watchdog stopped.
pub const EXIT_DEADLOCK: u8 = 3;

/// Runs `flitsim run`.
///
/// # Errors
/// A netlist that does not load, a bad flag, or a routing function that does not fit.
pub fn run(args: &RunArgs) -> anyhow::Result<ExitCode> {
    let bar = super::progress::spinner(args.quiet, "loading the netlist");
    let netlist = args.load_netlist()?;
    let config = args.sim_config()?;
    let (tech, cost_options) = args.cost.resolve()?;
    // A wire the cost model cannot design costs the run its cost figures, not the run.
    let cost_design = crate::cost::prepare(&netlist, &tech, &cost_options).unwrap_or_else(|e| {
        bar.suspend(|| eprintln!("warning: no cost figures: {e:#}"));
        None
    });
    let warning = flitsim_routing::deadlock_warning(&netlist);
    if let Some(w) = &warning {
        bar.suspend(|| eprintln!("warning: {w}"));
    }
    let setup = super::progress::SetupBar(&bar);
    let mut sim = Simulation::with_progress(&netlist, &config, &setup)?;
    setup.start(&format!("simulating {}", netlist.name), 0);
    let report = sim.run();
    bar.finish_and_clear();
    let config_json = effective_config(&netlist, &config, args.experiment.as_deref(), &args.set);
    let timeouts_on = netlist.routers().any(|r| r.config.timeout > 0);
    let sw = sim.switching_stats();
    let cost = cost_design
        .map(|d| crate::cost::of_run(&netlist, &d, &sim, &tech, &cost_options))
        .transpose()?;
    if args.json {
        let v = run_json(
            &RunJson {
                netlist: &netlist,
                config: &config,
                sim: &sim,
                report: &report,
                warning: warning.as_deref(),
                cost: cost.as_ref(),
                channel_stats: args.channel_stats,
            },
            config_json,
        )?;
        let v = with_perf(v, &sim.perf())?;
        crate::cli::outln!("{}", serde_json::to_string_pretty(&v)?)?;
    } else {
        crate::cli::out!(
            "{}",
            crate::studies::run_summary::summary(&netlist, &config, &report)
        )?;
        if let Some((_, cost)) = &cost {
            crate::cli::out!("{}", crate::cost::summary_line(cost))?;
        }
        if timeouts_on {
            crate::cli::outln!(
                "timeouts  {} (retransmissions {}, flits discarded {}), goodput {:.4} flits/terminal/cycle",
                sw.timeouts, sw.retransmissions, sw.flits_discarded, report.accepted.flits_per_terminal_cycle
            )?;
        }
    }
    if sim.drain_limit_hit() {
        eprintln!(
            "warning: --drain stopped at its limit of {} cycles with packets undelivered\nhelp: raise --drain-cycles",
            config.drain
        );
    }
    if let Some(e) = sim.error() {
        eprintln!("error: {e}");
        return Ok(ExitCode::from(EXIT_DEADLOCK));
    }
    if report.saturated {
        eprintln!("warning: {}", report.measurement.message);
        eprintln!("help: the offered load is above the saturation throughput; lower --rate");
    }
    Ok(ExitCode::SUCCESS)
}
