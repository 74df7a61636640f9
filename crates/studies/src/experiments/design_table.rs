//! The design table of a study (`flitsim sweep --rates auto` with several curves): per
//! design its zero-load latency, its saturation throughput with the bracket the search
//! found, its mean latency at common loads (fractions of the weakest design's saturation
//! rate, simulated for the table), and the columns of a cost model if one is given.
//!
//! The cost model is a hook: [`CostModel`] takes a design's netlist and its measured
//! curve and returns named columns; [`NoCost`] returns none.

use super::curve::{simulate_jobs, Bracket, Curve, CurveSpec};
use super::pool::Progress;
use flitsim_engine::SimConfig;
use flitsim_netlist::Netlist;
use serde::Serialize;

/// Cost figures of a design (area, leakage, energy per flit, ...), from its netlist and
/// its measured activity.
pub trait CostModel {
    /// Named columns with their units in the name (`area_mm2`); `None` where the model
    /// has no figure for this design.
    fn columns(&self, netlist: &Netlist, measured: &Curve) -> Vec<(String, Option<f64>)>;
}

/// No cost model: no cost columns.
pub struct NoCost;

impl CostModel for NoCost {
    fn columns(&self, _: &Netlist, _: &Curve) -> Vec<(String, Option<f64>)> {
        Vec::new()
    }
}

/// One design's row.
#[derive(Clone, Debug, Serialize)]
pub struct DesignRow {
    /// The curve's label.
    pub label: String,
    /// Zero-load latency from the documented formula (cycles).
    pub zero_load_latency: Option<f64>,
    /// The saturation bracket (packets per terminal per cycle).
    pub saturation: Bracket,
    /// The bracket in flits per terminal per cycle.
    pub saturation_flits: (f64, f64),
    /// Mean latency at each of the table's loads (`null`: saturated before measuring).
    pub latency_at: Vec<Option<f64>>,
    /// The cost model's columns.
    pub cost: Vec<(String, Option<f64>)>,
}

/// The design table.
#[derive(Clone, Debug, Serialize)]
pub struct DesignTable {
    /// The loads of the latency columns (packets per terminal per cycle).
    pub loads: Vec<f64>,
    /// The fractions of the weakest design's saturation rate they are.
    pub fractions: Vec<f64>,
    /// One row per design.
    pub rows: Vec<DesignRow>,
}

/// Builds the table of `curves` (their specs in `specs`, each with a saturation bracket):
/// simulates every design at `fractions` of the lowest unsaturated rate of all designs.
///
/// # Errors
/// A configuration the engine refuses.
pub fn design_table(
    specs: &[CurveSpec],
    curves: &[Curve],
    fractions: &[f64],
    cost: &dyn CostModel,
    (threads, progress): (usize, &dyn Progress),
) -> anyhow::Result<Option<DesignTable>> {
    let brackets: Option<Vec<Bracket>> = curves.iter().map(|c| c.saturation).collect();
    let Some(brackets) = brackets else {
        return Ok(None);
    };
    let weakest = brackets
        .iter()
        .map(|b| b.unsaturated)
        .fold(f64::INFINITY, f64::min);
    let loads: Vec<f64> = fractions.iter().map(|f| f * weakest).collect();
    let jobs: Vec<(usize, SimConfig)> = (0..specs.len())
        .flat_map(|c| {
            loads.iter().map(move |&rate| {
                let mut config = specs[c].config.clone();
                config.rate = rate;
                (c, config)
            })
        })
        .collect();
    let reports = simulate_jobs(specs, &jobs, threads, progress)?
            .into_iter()
            .map(|(r, _)| r)
            .collect::<Vec<_>>();
    let n = loads.len();
    let rows = specs
        .iter()
        .zip(curves)
        .zip(&brackets)
        .enumerate()
        .map(|(c, ((s, curve), b))| {
            let mine = &reports[c * n..(c + 1) * n];
            DesignRow {
                label: curve.label.clone(),
                zero_load_latency: mine.first().map(|r| r.zero_load_latency),
                saturation: *b,
                saturation_flits: (b.unsaturated_flits, b.saturated * s.config.lengths().mean()),
                latency_at: mine.iter().map(|r| r.latency.mean).collect(),
                cost: cost.columns(&s.netlist, curve),
            }
        })
        .collect();
    Ok(Some(DesignTable {
        loads,
        fractions: fractions.to_vec(),
        rows,
    }))
}

impl DesignTable {
    /// The table as text.
    pub fn render(&self) -> String {
        use std::fmt::Write;
        let mut s = String::from("# designs\n");
        let width = self
            .rows
            .iter()
            .map(|r| r.label.len())
            .max()
            .unwrap_or(6)
            .max(6);
        let _ = write!(
            s,
            "{:<width$} {:>9} {:>23}",
            "design", "zero-load", "saturation (flits)"
        );
        for (l, f) in self.loads.iter().zip(&self.fractions) {
            let _ = write!(s, " {:>16}", format!("lat@{l:.4} ({:.0}%)", 100.0 * f));
        }
        for (name, _) in self.rows.first().map_or(&[][..], |r| &r.cost[..]) {
            let _ = write!(s, " {name:>12}");
        }
        s.push('\n');
        for r in &self.rows {
            let sat = format!("{:.4} - {:.4}", r.saturation_flits.0, r.saturation_flits.1);
            let zl = r
                .zero_load_latency
                .map_or("-".into(), |z| format!("{z:.2}"));
            let _ = write!(s, "{:<width$} {zl:>9} {sat:>23}", r.label);
            for l in &r.latency_at {
                let _ = write!(
                    s,
                    " {:>16}",
                    l.map_or("saturated".into(), |v| format!("{v:.2}"))
                );
            }
            for (_, v) in &r.cost {
                let _ = write!(s, " {:>12}", v.map_or("-".into(), |v| format!("{v:.4}")));
            }
            s.push('\n');
        }
        s
    }
}
