//! The designs of `flitsim sweep`: each NETLIST argument (with its own flags when it is an
//! experiment file) times each routing function of `--routing` times each design of
//! `--vary`, as curves to simulate, labelled by what differs between them.

use super::args::RunArgs;
use crate::experiments::labels::{label, Pending, Study};
use crate::experiments::vary;
use crate::experiments::CurveSpec;
use anyhow::{anyhow, Context};
use flitsim_studies::experiment_designs::{curve_label, study_designs};
use std::path::PathBuf;

/// The run flags `--vary KEY=VALUE` sets: the flags named by the key, else a `--set`.
fn apply(run: &mut RunArgs, key: &str, value: &str) -> anyhow::Result<()> {
    match key {
        "routing" => run.routing = Some(value.into()),
        "traffic" => run.traffic = value.into(),
        "length" => run.length = value.into(),
        "switching" => run.switching = Some(value.into()),
        "injection" => run.injection = value.into(),
        "selection" => run.selection = Some(value.into()),
        "timeout" => {
            run.timeout = Some(
                value
                    .parse()
                    .map_err(|_| anyhow!("--vary timeout={value}: not a whole number of cycles"))?,
            )
        }
        _ => run.set.push(format!("{key}={value}")),
    }
    Ok(())
}

/// The settings that describe a design: netlist name, routing function, traffic,
/// injection, lengths, then the overrides in the order given.
fn settings(run: &RunArgs, netlist: &str, routing: &str) -> Vec<(String, String)> {
    let mut s: Vec<(String, String)> = [
        ("netlist", netlist),
        ("routing", routing),
        ("traffic", run.traffic.as_str()),
        ("injection", run.injection.as_str()),
        ("length", run.length.as_str()),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect();
    let flags = [
        ("switching", run.switching.clone()),
        ("selection", run.selection.clone()),
        ("timeout", run.timeout.map(|t| t.to_string())),
    ];
    s.extend(
        flags
            .into_iter()
            .filter_map(|(k, v)| v.map(|v| (k.to_string(), v))),
    );
    for kv in &run.set {
        if let Some((k, v)) = kv.split_once('=') {
            s.push((k.trim().to_string(), v.trim().to_string()));
        }
    }
    s.push(("seed".into(), run.seed.to_string()));
    s
}

/// One NETLIST argument of `sweep` with its own flags: what the designs are made from.
#[derive(Clone, Debug)]
pub struct Input {
    /// The run flags.
    pub run: RunArgs,
    /// `--vary` specifications.
    pub vary: Vec<String>,
    /// `[[design]]` entries of the experiment file (instead of `vary`).
    pub designs: Vec<flitsim_studies::experiment_file::Design>,
    /// `--zip`.
    pub zip: bool,
    /// `--label`.
    pub label: Option<String>,
    /// `--rates`.
    pub rates: Option<String>,
    /// `--points`.
    pub points: usize,
    /// The file the input came from.
    pub source: PathBuf,
}
fn input_curves(input: &Input, out: &mut Vec<Pending>) -> anyhow::Result<()> {
    let source = input.source.clone();
    let designs = study_designs(&input.vary, input.zip, &input.designs, &source)?;
    let named = input.label.as_deref();
    let routings: Vec<Option<String>> = match &input.run.routing {
        Some(r) => r.split(',').map(|s| Some(s.trim().to_string())).collect(),
        None => vec![None],
    };
    let rates = input.rates.clone().ok_or_else(|| {
        anyhow!(
            "{}: no --rates\nhelp: give --rates A:B:STEP, R1,R2,... or auto (or `rates` in the experiment file)",
            source.display()
        )
    })?;
    for routing in &routings {
        for (design, given) in &designs {
            let mut run = input.run.clone();
            run.routing = routing.clone();
            for (k, v) in design {
                apply(&mut run, k, v)?;
            }
            let what = || format!("{}: {}", source.display(), vary::label_all(design));
            let netlist = run.load_netlist().with_context(what)?;
            let config = run.sim_config().with_context(what)?;
            let routing = netlist
                .routers()
                .next()
                .map_or("-", |r| flitsim_routing::kind_name(r.config.routing));
            let label = curve_label(named, given.as_deref(), design, designs.len());
            let router = netlist
                .routers()
                .next()
                .and_then(|r| serde_json::to_value(&r.config).ok());
            out.push(Pending {
                router,
                settings: settings(&run, &netlist.name, routing),
                spec: CurveSpec {
                    label: format!("{} {}", netlist.name, routing),
                    netlist_name: netlist.name.clone(),
                    routing: routing.to_string(),
                    design: Vec::new(),
                    // A wire the cost model cannot design costs the curve its cost columns.
                    cost: run
                        .cost
                        .resolve()
                        .and_then(|(tech, options)| {
                            crate::cost::Costing::new(&netlist, tech, options)
                        })
                        .unwrap_or_else(|e| {
                            eprintln!("warning: {}: no cost figures: {e:#}", netlist.name);
                            None
                        }),
                    config,
                    netlist,
                },
                label,
                source: source.display().to_string(),
                rates: rates.clone(),
                points: input.points,
            });
        }
    }
    Ok(())
}

/// The curves of `inputs` (one per NETLIST argument), labelled by what differs; two
/// curves with one label are refused.
///
/// # Errors
/// A bad netlist, flag or `--vary`, or two curves with the same label.
pub fn study(inputs: &[Input]) -> anyhow::Result<Study> {
    let mut pending = Vec::new();
    for input in inputs {
        input_curves(input, &mut pending)?;
    }
    label(pending)
}
