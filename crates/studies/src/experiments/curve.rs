//! Latency-throughput curves: the curves to simulate, their points, and the runs that
//! sample them at given rates.

#[cfg(feature = "mpi")]
use super::pool::parallel_map;
use super::pool::{map_on_threads, Progress};
use flitsim_engine::{RunReport, SimConfig, Simulation};
use flitsim_netlist::Netlist;
use serde::Serialize;

/// A curve to simulate: a netlist, its run configuration (the rate is set per point) and
/// its names.
pub struct CurveSpec {
    /// The network.
    pub netlist: Netlist,
    /// The run configuration.
    pub config: SimConfig,
    /// `netlist routing`.
    pub label: String,
    /// Netlist name.
    pub netlist_name: String,
    /// Routing function.
    pub routing: String,
    /// What prices each point (`None`: no cost columns, e.g. unbounded buffers).
    pub cost: Option<crate::cost::Costing>,
    /// The settings that set this design apart from the others of its study
    /// (`[("vcs", "2")]`); empty outside a study.
    pub design: Vec<(String, String)>,
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
    /// Average power, mW (docs/power.md).
    pub power_mw: Option<f64>,
    /// Energy per flit delivered, pJ.
    pub pj_per_flit: Option<f64>,
    /// 99th percentile of packet latency (cycles; `distributions` in `run --json`).
    pub latency_p99: Option<u64>,
    /// 95% half-width of `latency_p99`.
    pub latency_p99_ci95: Option<f64>,
}

impl From<&RunReport> for Point {
    fn from(r: &RunReport) -> Point {
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
            power_mw: None,
            pj_per_flit: None,
            latency_p99: r.distributions.packet_latency.value(99.0),
            latency_p99_ci95: r
                .distributions
                .packet_latency
                .percentiles
                .iter()
                .find(|x| x.p == 99.0)
                .and_then(|x| x.ci95),
        }
    }
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
    /// The settings that set this design apart from the others of its study, as
    /// `{"key": ..., "value": ...}` objects; left out of JSON when empty.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub design: Vec<Setting>,
    /// With `--rates auto`: the highest probed rate found unsaturated and the lowest found
    /// saturated (packets per terminal per cycle).
    pub saturation: Option<Bracket>,
    /// The points, by rate.
    pub points: Vec<Point>,
}

/// One setting of a design.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Setting {
    /// The key (`vcs`, `routing`, ...).
    pub key: String,
    /// Its value.
    pub value: String,
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

/// Runs the jobs `(curve, config)` on `threads` workers; reports in job order, or the
/// first error in job order.
///
/// # Errors
/// A configuration the engine refuses.
pub fn simulate_jobs(
    specs: &[CurveSpec],
    jobs: &[(usize, SimConfig)],
    threads: usize,
    progress: &dyn Progress,
) -> anyhow::Result<Vec<(RunReport, Option<crate::cost::PointCost>)>> {
    progress.queued(jobs.len() as u64);
    #[cfg(feature = "mpi")]
    if crate::cluster::ranks() > 1 {
        // Over an MPI job an error travels as its text.
        return parallel_map(jobs, threads, |(c, config)| {
            Simulation::new(&specs[*c].netlist, config)
                .map(|mut sim| (sim.run(), point_cost(&specs[*c], &sim)))
                .map_err(|e| format!("{:#}", anyhow::Error::from(e)))
        })
        .into_iter()
        .map(|r| r.map_err(|e| anyhow::anyhow!(e)))
        .collect();
    }
    map_on_threads(jobs, threads, |(c, config)| {
        let r = Simulation::new(&specs[*c].netlist, config)
            .map(|mut sim| (sim.run(), point_cost(&specs[*c], &sim)))
            .map_err(anyhow::Error::from);
        progress.finished();
        r
    })
    .into_iter()
    .collect()
}

/// The cost figures of a point (after its run).
fn point_cost(spec: &CurveSpec, sim: &Simulation) -> Option<crate::cost::PointCost> {
    spec.cost.as_ref().and_then(|c| c.point(&spec.netlist, sim))
}

/// Simulates each curve at its `rates` (one list per curve) and assembles the curves,
/// with their saturation brackets if searched.
///
/// # Errors
/// A configuration the engine refuses.
pub fn sample_curves(
    specs: &[CurveSpec],
    rates: &[Vec<f64>],
    brackets: Option<&[Bracket]>,
    threads: usize,
    progress: &dyn Progress,
) -> anyhow::Result<Vec<Curve>> {
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
    let reports = simulate_jobs(specs, &jobs, threads, progress)?;
    let mut curves: Vec<Curve> = specs
        .iter()
        .enumerate()
        .map(|(c, s)| Curve {
            label: s.label.clone(),
            netlist: s.netlist_name.clone(),
            routing: s.routing.clone(),
            design: s
                .design
                .iter()
                .map(|(key, value)| Setting {
                    key: key.clone(),
                    value: value.clone(),
                })
                .collect(),
            saturation: brackets.map(|b| b[c]),
            points: Vec::new(),
        })
        .collect();
    for ((c, _), (r, cost)) in jobs.iter().zip(&reports) {
        let mut p = Point::from(r);
        if let Some(k) = cost {
            (p.power_mw, p.pj_per_flit) = (Some(k.power_mw), k.pj_per_flit);
        }
        curves[*c].points.push(p);
    }
    Ok(curves)
}
