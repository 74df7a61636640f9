//! Paper 001 (Safaei et al. 2007): Duato-Nbc fully adaptive routing on 8x8 and 16x16 tori,
//! V = 10 VCs, M = 32 and 64 flits, uniform traffic: latency vs generation rate, the
//! simulation (`--routing duato-nbc`, the one-cycle-per-hop router of paper 000's
//! netlists with `vcs = 10`) against the model (`p001_safaei::solve`).
//!
//! The split: the model needs V1 (adaptive) and V2 (escape) with the negative-hop scheme
//! deadlock-free, V2 >= k/2 + 1: (5, 5) on 8x8 (the most adaptive VCs allowed) and (1, 9)
//! on 16x16 (the only split with V = 10). The rates run up to the model's saturation.

use super::{curve, model_saturation, preset, rates_up_to, simulate_points, Budget, Output};
use crate::plot::Chart;
use flitsim_analysis::papers::p001_safaei::{self, MeanDistance, SafaeiConfig, SafaeiOutcome};
use serde_json::json;

const VCS: u32 = 10;

fn model(k: u32, length: u32, rate: f64) -> Option<f64> {
    let v2 = p001_safaei::escape_vcs_needed(k);
    match p001_safaei::solve(SafaeiConfig {
        k,
        v1: VCS - v2,
        v2,
        length,
        rate,
        distance: MeanDistance::Agarwal,
    }) {
        Ok(SafaeiOutcome::Solved(s)) => Some(s.latency),
        _ => None,
    }
}

/// Runs the reproduction.
pub fn run(b: &Budget) -> Output {
    let mut out = Output::default();
    let nets = [
        (
            8u32,
            "netlists/paper000-torus-8x8.toml",
            include_str!("../../netlists/paper000-torus-8x8.toml"),
        ),
        (
            16,
            "netlists/paper000-torus-16x16.toml",
            include_str!("../../netlists/paper000-torus-16x16.toml"),
        ),
    ];
    let vcs = VCS.to_string();
    let mut cases = Vec::new();
    let mut missing = None;
    for (k, name, src) in nets {
        let v1 = (VCS - p001_safaei::escape_vcs_needed(k)).to_string();
        let net = preset(
            name,
            src,
            &[
                ("vcs", &vcs),
                ("routing", "duato-nbc"),
                ("adaptive_vcs", &v1),
            ],
        );
        if let Err(e) = &net {
            missing = Some(e.clone());
        }
        for m in [32u32, 64] {
            let sat = model_saturation(|r| model(k, m, r), 0.05);
            for rate in rates_up_to(sat * 0.95, if b.quick { 3 } else { 6 }) {
                cases.push((k, m, rate, net.clone()));
            }
        }
    }
    let window = |k: u32| match (b.quick, k) {
        (true, _) => (300, 1500),
        (false, 8) => (5_000, 40_000),
        (false, _) => (5_000, 20_000),
    };
    let points: Vec<_> = cases
        .iter()
        .map(|(k, m, rate, net)| (net, *rate, *m, window(*k)))
        .collect();
    let sims = simulate_points(&points, b);
    if let Some(e) = &missing {
        out.notes.push(format!(
            "flitsim simulation not run: the netlist does not accept Duato-Nbc ({e})"
        ));
    }
    let mut rows_json = Vec::new();
    for k in [8u32, 16] {
        let v2 = p001_safaei::escape_vcs_needed(k);
        let mut series = Vec::new();
        for (ci, m) in [32u32, 64].into_iter().enumerate() {
            let points: Vec<_> = (0..cases.len())
                .filter(|&i| cases[i].0 == k && cases[i].1 == m)
                .map(|i| (cases[i].2, model(k, m, cases[i].2), &sims[i]))
                .collect();
            for &(rate, lat, sim) in &points {
                rows_json.push(json!({
                    "k": k, "length": m, "v1": VCS - v2, "v2": v2, "rate": rate,
                    "model": lat,
                    "simulation": sim.as_ref().ok().and_then(|p| p.latency()),
                    "simulation_ci95": sim.as_ref().ok().and_then(|p| p.ci95()),
                }));
            }
            let c = curve(
                format!(
                    "{k}x{k} torus, V = {VCS} (V1 = {}, V2 = {v2}), M = {m}: latency in cycles",
                    VCS - v2
                ),
                &format!("M={m}"),
                ci,
                &points,
            );
            out.tables.push(c.table);
            series.extend(c.series);
        }
        out.charts.push((
            format!("reproduce-001-{k}x{k}.svg"),
            Chart {
                title: format!("Paper 001, Duato-Nbc, {k}x{k} torus, V = {VCS}"),
                x_label: "generation rate (packets/node/cycle)".into(),
                y_label: "mean latency (cycles)".into(),
                series,
            },
        ));
    }
    out.json = json!({ "paper": "001", "rows": rows_json, "missing": missing });
    out
}
