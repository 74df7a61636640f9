//! The CSV of a sweep (`flitsim sweep --csv`): one row per simulated point.

use super::curve::Curve;
use std::path::Path;

/// Writes the points of `curves` as CSV, one row per point: the curve, its netlist and
/// routing function, its value of each design key in `columns`, then the measurements.
///
/// # Errors
/// An unwritable file.
pub fn write_csv(path: &Path, curves: &[Curve], columns: &[String]) -> anyhow::Result<()> {
    // Only rank 0 of an MPI job writes files (every rank computes the same ones).
    if !crate::cluster::is_root() {
        return Ok(());
    }
    let mut w = csv::Writer::from_writer(Vec::new());
    let head = ["curve", "netlist", "routing"].map(String::from);
    let tail = [
        "rate",
        "offered_flits",
        "accepted_flits",
        "accepted_ci95",
        "latency",
        "latency_ci95",
        "saturated",
        "converged",
        "cycles",
        "power_mw",
        "pj_per_flit",
        "latency_p99",
        "latency_p99_ci95",
    ]
    .map(String::from);
    w.write_record(head.iter().chain(columns).chain(&tail))?;
    let o = |x: Option<f64>| x.map_or_else(String::new, |v| v.to_string());
    for c in curves {
        for p in &c.points {
            let design = c.design.iter().map(|s| s.value.clone());
            let head = [c.label.clone(), c.netlist.clone(), c.routing.clone()];
            w.write_record(head.into_iter().chain(design).chain([
                p.rate.to_string(),
                p.offered.to_string(),
                p.accepted.to_string(),
                o(p.accepted_ci95),
                o(p.latency),
                o(p.latency_ci95),
                p.saturated.to_string(),
                p.converged.to_string(),
                p.cycles.to_string(),
                o(p.power_mw),
                o(p.pj_per_flit),
                p.latency_p99.map_or_else(String::new, |v| v.to_string()),
                o(p.latency_p99_ci95),
            ]))?;
        }
    }
    let bytes = w.into_inner().map_err(|e| anyhow::anyhow!("{e}"))?;
    crate::whole_file::write_whole(path, &bytes)?;
    Ok(())
}
