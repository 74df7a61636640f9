//! `flitsim run`: one simulation of a netlist; a readable summary or one JSON object.
//!
//! Exit status: 0 on success, 1 on a bad netlist or flag (nothing simulated), 3 when the
//! deadlock watchdog stopped the run (the report is on stderr and in the JSON).

use super::args::RunArgs;
use crate::studies::run_report::{effective_config, offered_lines, run_json, with_perf, RunJson};
use flitsim_engine::{RunReport, SetupProgress, SimConfig, Simulation};
use flitsim_netlist::Netlist;
use flitsim_routing::describe_topology;
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
        crate::cli::out!("{}", summary(&netlist, &config, &report))?;
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

fn opt(x: Option<f64>, digits: usize) -> String {
    x.map_or_else(|| "n/a".to_string(), |v| format!("{v:.digits$}"))
}

/// The readable summary printed without `--json`.
pub fn summary(netlist: &Netlist, config: &SimConfig, r: &RunReport) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    let routing = netlist
        .routers()
        .next()
        .map_or("-", |r| flitsim_routing::kind_name(r.config.routing));
    // Terminals are named only where they differ from the routers (concentration, fat trees).
    let terminals = match netlist.num_terminals() {
        t if t == netlist.num_routers() => String::new(),
        t => format!(", {t} terminals"),
    };
    let _ = writeln!(
        s,
        "netlist {} ({}, {} routers{terminals}), routing {}, traffic {}",
        netlist.name,
        describe_topology(&netlist.topology),
        netlist.num_routers(),
        routing,
        config.traffic
    );
    s.push_str(&offered_lines(config, r));
    let _ = writeln!(
        s,
        "cycles    warm-up {}, measured {}, drain {} (total {})",
        r.cycles.warmup, r.cycles.measured, r.cycles.drain, r.cycles.total
    );
    let _ = writeln!(
        s,
        "accepted  {:.4} flits/terminal/cycle ({:.5} packets/terminal/cycle)",
        r.accepted.flits_per_terminal_cycle, r.accepted.packets_per_terminal_cycle
    );
    let _ = writeln!(
        s,
        "packets   generated {}, delivered {}, in flight at end {}",
        r.packets.generated, r.packets.delivered, r.packets.in_flight_end
    );
    let _ = writeln!(
        s,
        "latency   mean {} cycles, p99 {} (zero-load {:.2}{}), max {}, {}",
        opt(r.latency.mean, 2),
        r.distributions
            .packet_latency
            .value(99.0)
            .map_or("n/a".into(), |v| v.to_string()),
        r.zero_load_latency,
        r.zero_load_latency_ci
            .map_or_else(String::new, |h| format!(" +- {h:.2}, sampled")),
        r.latency
            .max
            .map_or_else(|| "n/a".to_string(), |m| m.to_string()),
        config.latency
    );
    let _ = writeln!(
        s,
        "          network {}, source queue {}, hops {}",
        opt(r.network_latency.mean, 2),
        opt(r.source_queue_time.mean, 2),
        opt(r.hops.mean, 3)
    );
    let _ = writeln!(
        s,
        "little    measured {:.3} packets in system, predicted {} (error {})",
        r.little.measured,
        opt(r.little.predicted, 3),
        r.little
            .relative_error
            .map_or_else(|| "n/a".to_string(), |e| format!("{:+.2}%", e * 100.0))
    );
    let m = &r.measurement;
    let _ = writeln!(
        s,
        "95% CI    latency +-{} cycles ({}), accepted +-{} flits/terminal/cycle; {} batches of the samples taken every {} cycles",
        opt(r.latency.ci95, 2),
        m.latency_ci95_relative
            .map_or_else(|| "n/a".to_string(), |x| format!("{:.2}%", x * 100.0)),
        opt(r.accepted.ci95, 4),
        m.batches,
        m.batch_cycles
    );
    let _ = writeln!(
        s,
        "method    {} ({}){}",
        m.mode,
        m.message,
        m.warmup_detected.map_or_else(String::new, |c| format!(
            ", MSER-5 warm-up end at cycle {c}"
        ))
    );
    let _ = writeln!(s, "saturated {}", r.saturated);
    if let Some(d) = &r.deadlock {
        let _ = writeln!(
            s,
            "deadlock  at cycle {}: {}",
            d.cycle,
            d.waiting.join(" -> ")
        );
    }
    s
}
