//! What `flitsim check` computes: one simulation, each channel's measured VC occupancy
//! against Dally's Markov chain, averaged per channel class, and the measured mean latency
//! against the matching paper model's; and the chart of P(v) per class.

use crate::crosscheck::{self, ChannelCheck, ClassCheck, ModelLatency, Setup};
use crate::measure::{self, Measured};
use crate::plot::{Chart, Series, Style};
use flitsim_engine::SimConfig;
use flitsim_netlist::{Netlist, Topology};
use serde_json::{json, Value};

/// The configuration as plain data for [`crosscheck::paper_model`].
pub fn setup(netlist: &Netlist, config: &SimConfig) -> Setup {
    let first = netlist.routers().next();
    let name = |v: Value| v.as_str().unwrap_or("-").to_string();
    let (topology, radix) = match &netlist.topology {
        Topology::Torus { radix } => ("torus", radix.clone()),
        Topology::Mesh { radix } => ("mesh", radix.clone()),
        Topology::Ring { n } => ("ring", vec![*n]),
        Topology::Hypercube { dim } => ("hypercube", vec![2; *dim as usize]),
        Topology::Dragonfly { .. } => ("dragonfly", Vec::new()),
        Topology::HyperX { radix } => ("hyperx", radix.clone()),
        Topology::FatTree { k, n } => ("fat-tree", vec![*k; *n as usize]),
        Topology::Explicit => ("explicit", Vec::new()),
    };
    Setup {
        topology: topology.into(),
        radix,
        routing: first.map_or("-".into(), |r| {
            flitsim_routing::kind_name(r.config.routing).to_string()
        }),
        switching: first.map_or("-".into(), |r| {
            name(serde_json::to_value(r.config.switching).unwrap_or(Value::Null))
        }),
        traffic: config.traffic.to_string(),
        length: config
            .length_dist
            .as_ref()
            .map_or(config.length, |d| d.mean().round() as u32),
        rate: config.rate,
        vcs: first.map_or(0, |r| u32::from(r.config.vcs)),
    }
}

/// Everything `check` computes.
pub struct CheckResult {
    /// The configuration.
    pub setup: Setup,
    /// The run and its channel measurements.
    pub measured: Measured,
    /// Per channel.
    pub channels: Vec<ChannelCheck>,
    /// Per class, then `all`.
    pub classes: Vec<ClassCheck>,
    /// The matching paper model's latency.
    pub model: Option<ModelLatency>,
}

/// Simulates and compares.
///
/// # Errors
/// Netlist, flag or routing errors.
pub fn compute(netlist: &Netlist, config: &SimConfig) -> anyhow::Result<CheckResult> {
    let setup = setup(netlist, config);
    let measured = measure::run(netlist, config)?;
    let channels = crosscheck::check_channels(&measured.channels);
    let classes = crosscheck::by_class(&channels);
    let model = crosscheck::paper_model(&setup).map(|m| crosscheck::model_latency(&m));
    Ok(CheckResult {
        setup,
        measured,
        channels,
        classes,
        model,
    })
}

/// P(v) measured (markers) vs predicted (lines) per class.
pub fn chart(r: &CheckResult) -> Chart {
    let mut series = Vec::new();
    for (i, c) in r.classes.iter().filter(|c| c.class != "all").enumerate() {
        let pts = |p: &[f64]| {
            p.iter()
                .enumerate()
                .map(|(v, &x)| (v as f64, x))
                .collect::<Vec<_>>()
        };
        series.push(Series {
            label: format!("{} measured", c.class),
            points: pts(&c.measured),
            style: Style::Points,
            color: i,
            errors: Vec::new(),
        });
        if let Some(p) = &c.predicted {
            series.push(Series {
                label: format!("{} Markov", c.class),
                points: pts(p),
                style: Style::Line,
                color: i,
                errors: Vec::new(),
            });
        }
    }
    Chart {
        title: format!(
            "P(v) busy VCs per channel: {} {:?}, {}, rate {}",
            r.setup.topology, r.setup.radix, r.setup.routing, r.setup.rate
        ),
        x_label: "busy VCs v".into(),
        y_label: "P(v)".into(),
        series,
    }
}

/// The relative error of the modelled mean latency against the measured one.
pub fn latency_error(r: &CheckResult) -> Option<f64> {
    let m = r.model.as_ref()?.latency?;
    flitsim_analysis::compare::relative_error(r.measured.report.latency.mean?, m)
}

/// The JSON of a cross-check (`flitsim check --json`): `config`, the setup, the measured
/// and modelled latency with their relative error, the classes and the channels.
pub fn to_json(r: &CheckResult, config: Value) -> Value {
    json!({
        "config": config,
        "setup": r.setup,
        "latency": {
            "measured": r.measured.report.latency.mean,
            "ci95": r.measured.latency_ci95,
            "model": r.model,
            "relative_error": latency_error(r),
        },
        "accepted_flits_per_terminal_cycle": r.measured.report.accepted.flits_per_terminal_cycle,
        "classes": r.classes,
        "channels": r.channels,
        "deadlock": r.measured.report.deadlock,
    })
}
