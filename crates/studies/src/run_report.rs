//! The JSON report of one run: the effective configuration it echoes, every field of the
//! [`RunReport`], the switching counters, why the run ended, its cost and its speed.

use flitsim_cost::{Activity, CostReport};
use flitsim_engine::{InjectionProcess, RunReport, SimConfig, Simulation};
use flitsim_netlist::{BufferDepth, Netlist, RouterConfig};
use flitsim_routing::describe_topology;
use serde_json::{json, Value};
use std::path::Path;

/// Why the run ended: `deadlock` (the watchdog, or the cycle limit), `saturation` (the
/// verdict stopped it), `drain_limit` (packets still undelivered when the drain's cycle
/// limit was reached) or `drained` (every packet it waited for was delivered).
pub fn ended_by(config: &SimConfig, report: &RunReport, drain_limit_hit: bool) -> &'static str {
    if report.deadlock.is_some() {
        "deadlock"
    } else if report.saturated && config.stop_on_saturation {
        "saturation"
    } else if drain_limit_hit || report.packets.in_flight_end > 0 {
        "drain_limit"
    } else {
        "drained"
    }
}

/// The JSON object `--json` prints: `config` plus every field of the report.
pub fn json_report(config: Value, report: &RunReport) -> anyhow::Result<Value> {
    let mut v = serde_json::to_value(report)?;
    let obj = v
        .as_object_mut()
        .ok_or_else(|| anyhow::anyhow!("report is not a JSON object"))?;
    obj.insert("config".into(), config);
    Ok(v)
}

/// Adds the `perf` object (wall-clock speed; the only fields that differ between runs of
/// the same command).
pub fn with_perf(mut v: Value, perf: &flitsim_engine::Perf) -> anyhow::Result<Value> {
    if let Some(obj) = v.as_object_mut() {
        obj.insert("perf".into(), serde_json::to_value(perf)?);
    }
    Ok(v)
}

fn depth_json(d: BufferDepth) -> Value {
    match d {
        BufferDepth::Flits(n) => json!(n),
        BufferDepth::Unbounded => json!("unbounded"),
    }
}

fn router_json(c: &RouterConfig) -> anyhow::Result<Value> {
    let mut v = serde_json::to_value(c)?;
    if let Some(o) = v.as_object_mut() {
        o.insert("buffer_depth".into(), depth_json(c.buffer_depth));
    }
    Ok(v)
}

fn min_max(it: impl Iterator<Item = u32>) -> Value {
    let v: Vec<u32> = it.collect();
    json!({ "min": v.iter().min(), "max": v.iter().max() })
}

/// The effective configuration: the netlist after overrides, the run's settings, the
/// experiment file it came from and its `--set` overrides.
pub fn effective_config(
    netlist: &Netlist,
    config: &SimConfig,
    experiment: Option<&Path>,
    set: &[String],
) -> Value {
    let first = netlist.routers().next();
    let router = first.map(|r| router_json(&r.config).unwrap_or(Value::Null));
    let identical = first.is_none_or(|f| {
        netlist.routers().all(|r| {
            r.config == f.config
                && r.ports
                    .iter()
                    .zip(&f.ports)
                    .all(|(a, b)| a.vcs == b.vcs && a.buffer_depth == b.buffer_depth)
        })
    });
    let routing = first.map(|r| flitsim_routing::kind_name(r.config.routing));
    let mut echo = json!({
        "experiment": experiment.map(|p| p.display().to_string()),
        "netlist": netlist.name,
        "path": netlist.path.as_ref().map(|p| p.display().to_string()),
        "topology": describe_topology(&netlist.topology),
        "routers": netlist.num_routers(),
        "terminals": netlist.num_terminals(),
        "concentration": netlist.concentration(),
        "channels": netlist.num_channels(),
        "routing": routing,
        "traffic": config.traffic.to_string(),
        "rate": config.rate,
        "length": config.lengths(),
        "latency": config.latency,
        "warmup": config.warmup,
        "cycles": config.cycles,
        "drain": config.drain,
        "drain_all": config.drain_all,
        "backoff": config.backoff,
        "measurement": if config.auto.is_some() { "automatic" } else { "fixed" },
        "ci_target": config.auto.map(|a| a.ci_target),
        "max_cycles": config.auto.map(|a| a.max_cycles),
        "stop_when_saturated": config.stop_on_saturation,
        "percentiles": config.percentiles,
        "seed": config.seed,
        "watchdog": config.watchdog,
        "set": set,
        "router": router,
        "routers_identical": identical,
        "channel_latency": min_max(netlist.channels().map(|c| c.latency)),
        "terminal_latency": min_max(netlist.routers().map(|r| r.terminal_latency)),
    });
    // Routers with different terminal counts (concentration null): the counts, run-length
    // encoded as [terminals, routers] in router order.
    if netlist.concentration().is_none() {
        echo["router_terminals"] = json!(terminal_runs(netlist));
    }
    // Only a process other than the default Bernoulli one is echoed.
    if config.injection != InjectionProcess::Bernoulli {
        echo["injection"] = json!(config.injection);
    }
    echo
}

/// The routers' terminal counts as runs `[terminals, routers]`, in router order.
fn terminal_runs(netlist: &Netlist) -> Vec<[u32; 2]> {
    let mut runs: Vec<[u32; 2]> = Vec::new();
    for r in netlist.routers() {
        match runs.last_mut() {
            Some(run) if run[0] == u32::from(r.terminals) => run[1] += 1,
            _ => runs.push([u32::from(r.terminals), 1]),
        }
    }
    runs
}

/// What the JSON of one run (`flitsim run --json`) is made of.
pub struct RunJson<'a> {
    /// The netlist simulated.
    pub netlist: &'a Netlist,
    /// The run's settings.
    pub config: &'a SimConfig,
    /// The simulation, after its run.
    pub sim: &'a Simulation,
    /// Its report.
    pub report: &'a RunReport,
    /// The routing function's deadlock warning, if any.
    pub warning: Option<&'a str>,
    /// The run's activity and cost, with a cost model.
    pub cost: Option<&'a (Activity, CostReport)>,
    /// Add the statistics of each channel and channel class.
    pub channel_stats: bool,
}

/// The JSON object of one run without its `perf`: `config_json`, the report, the
/// switching counters, why it ended, and the cost and channel statistics when asked for.
pub fn run_json(r: &RunJson, config_json: Value) -> anyhow::Result<Value> {
    let sw = r.sim.switching_stats();
    let mut v = json_report(config_json, r.report)?;
    if let Some(o) = v.as_object_mut() {
        let switching = r
            .netlist
            .routers()
            .next()
            .map(|x| serde_json::to_value(x.config.switching))
            .transpose()?;
        o.insert("switching".into(), json!(switching));
        if r.netlist.routers().any(|x| x.config.timeout > 0) {
            o.insert("timeouts".into(), json!(sw.timeouts));
            o.insert("retransmissions".into(), json!(sw.retransmissions));
            o.insert("flits_discarded".into(), json!(sw.flits_discarded));
            o.insert(
                "goodput".into(),
                json!({ "flits_per_terminal_cycle": r.report.accepted.flits_per_terminal_cycle }),
            );
        }
        if r.config.drain_all {
            o.insert("drain_limit_hit".into(), json!(r.sim.drain_limit_hit()));
        }
        if let Some(w) = r.warning {
            o.insert("deadlock_warning".into(), json!(w));
        }
        o.insert(
            "ended_by".into(),
            json!(ended_by(r.config, r.report, r.sim.drain_limit_hit())),
        );
    }
    if let (Some(o), Some((activity, cost))) = (v.as_object_mut(), r.cost) {
        let (energy, area, totals) = crate::cost::json_fields(r.netlist, activity, cost);
        o.insert("energy".into(), energy);
        o.insert("area".into(), area);
        o.insert("activity".into(), totals);
    }
    if r.channel_stats {
        let (channels, classes) = r.sim.channel_stats(r.netlist);
        if let Some(o) = v.as_object_mut() {
            o.insert("channels".into(), serde_json::to_value(channels)?);
            o.insert("channel_classes".into(), serde_json::to_value(classes)?);
        }
    }
    Ok(v)
}
