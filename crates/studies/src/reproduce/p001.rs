//! Paper 001 (Safaei et al. 2007): Duato-Nbc fully adaptive routing on 8x8 and 16x16 tori,
//! V = 10 VCs, M = 32 and 64 flits, uniform traffic: latency vs generation rate, the
//! simulation (`--routing duato-nbc`, the one-cycle-per-hop router of paper 000's
//! netlists with `vcs = 10`) against the model (`p001_safaei::solve`).
//!
//! Two splits per torus: the deadlock-free one with the most adaptive VCs (negative-hop
//! routing needs V2 >= k/2 + 1: (5, 5) on 8x8, (1, 9) on 16x16), and V1 = 8, V2 = 2, which
//! is not deadlock-free on either torus: its simulation runs with `deadlock_check = "warn"`
//! (a packet out of escape classes stays on the highest) and reports any deadlock, and the
//! model evaluates it with a warning. The rates run up to the safe split's model
//! saturation. Runs on 8x8 are the paper's, 300,000 cycles with the first 10,000
//! discarded; on 16x16 100,000 cycles with the same warm-up, which measure as many
//! packets per point as 400,000 cycles on 8x8 (four times the nodes) and keep the whole
//! reproduction under 10 minutes on 2 cores.

use super::{
    curve, f2, model_saturation, preset, rates_up_to, simulate_points, Budget, Output, SimPoint,
    Table,
};
use crate::crosscheck::{check_channels, summarise};
use crate::plot::{Chart, Series};
use flitsim_analysis::papers::p001_safaei::{
    self, MeanDistance, SafaeiConfig, SafaeiOutcome, SafaeiSolution,
};
use serde_json::json;

const VCS: u32 = 10;

/// The V1 = 8, V2 = 2 split (not deadlock-free on 8x8 or 16x16).
const SHORT: (u32, u32) = (8, 2);

/// The deadlock-free split with the most adaptive VCs, then the short one.
fn splits(k: u32) -> [(u32, u32); 2] {
    let v2 = p001_safaei::escape_vcs_needed(k);
    [(VCS - v2, v2), SHORT]
}

fn solution(k: u32, (v1, v2): (u32, u32), length: u32, rate: f64) -> Option<SafaeiSolution> {
    match p001_safaei::solve(SafaeiConfig {
        k,
        v1,
        v2,
        length,
        rate,
        distance: MeanDistance::Agarwal,
    }) {
        Ok(SafaeiOutcome::Solved(s)) => Some(s),
        _ => None,
    }
}

fn model(k: u32, split: (u32, u32), length: u32, rate: f64) -> Option<f64> {
    solution(k, split, length, rate).map(|s| s.latency)
}

/// The model's terms (eq 1: `(S + W_s) V_bar`; eq 18's channel holding time `S_c`)
/// beside what the simulation measures for each: network latency, source queueing,
/// the mean multiplexing degree and VC holding time over all channels.
fn decomposition(
    k: u32,
    split: (u32, u32),
    m: u32,
    points: &[(f64, Option<f64>, &Result<SimPoint, String>)],
) -> Table {
    let mut t = Table::new(
        format!(
            "{k}x{k}, V1 = {}, V2 = {}, M = {m}: the model's terms against the simulation's",
            split.0, split.1
        ),
        &[
            "rate",
            "S model",
            "S sim",
            "Ws model",
            "Ws sim",
            "mux model",
            "mux sim",
            "S_c model",
            "hold sim",
        ],
    );
    for &(rate, _, sim) in points {
        let s = solution(k, split, m, rate);
        let p = sim.as_ref().ok().filter(|p| !p.saturated());
        let all = p.map(|p| summarise(&check_channels(&p.measured.channels), None));
        let r = p.map(|p| &p.measured.report);
        t.rows.push(vec![
            format!("{rate:.5}"),
            f2(s.as_ref().map(|s| s.network_latency)),
            f2(r.and_then(|r| r.network_latency.mean)),
            f2(s.as_ref().map(|s| s.source_wait)),
            f2(r.and_then(|r| r.source_queue_time.mean)),
            s.as_ref()
                .map_or("-".into(), |s| format!("{:.3}", s.multiplexing)),
            all.as_ref()
                .map_or("-".into(), |c| format!("{:.3}", c.multiplexing_measured)),
            f2(s.as_ref().map(|s| s.channel_service)),
            f2(all.as_ref().and_then(|c| c.holding_time)),
        ]);
    }
    t
}

/// The netlists: torus side, name and text.
const NETLISTS: [(u32, &str, &str); 2] = [
    (
        8,
        "netlists/paper000-torus-8x8.toml",
        include_str!("../../../../netlists/paper000-torus-8x8.toml"),
    ),
    (
        16,
        "netlists/paper000-torus-16x16.toml",
        include_str!("../../../../netlists/paper000-torus-16x16.toml"),
    ),
];

/// Warm-up and measured cycles of the `k`x`k` torus.
fn window(quick: bool, k: u32) -> (u64, u64) {
    match (quick, k) {
        (true, _) => (300, 1500),
        (false, 8) => (10_000, 290_000),
        (false, _) => (10_000, 90_000),
    }
}

/// The latency chart of the `k`x`k` torus.
fn chart(k: u32, series: Vec<Series>) -> Chart {
    Chart::new(
        &format!("Paper 001, Duato-Nbc, {k}x{k} torus, V = {VCS}"),
        "generation rate (packets/node/cycle)",
        "mean latency (cycles)",
        series,
    )
}

/// Runs the reproduction.
pub fn run(b: &Budget) -> Output {
    let mut out = Output::default();
    let vcs = VCS.to_string();
    let mut cases = Vec::new();
    let mut missing = None;
    for (k, name, src) in NETLISTS {
        let safe_sat: Vec<f64> = [32u32, 64]
            .iter()
            .map(|&m| model_saturation(|r| model(k, splits(k)[0], m, r), 0.05))
            .collect();
        for split in splits(k) {
            let v1 = split.0.to_string();
            let net = preset(
                name,
                src,
                &[
                    ("vcs", &vcs),
                    ("routing", "duato-nbc"),
                    ("adaptive_vcs", &v1),
                    ("deadlock_check", "warn"),
                ],
            );
            if let Err(e) = &net {
                missing = Some(e.clone());
            }
            if let Some(w) = net
                .as_ref()
                .ok()
                .and_then(flitsim_routing::deadlock_warning)
            {
                out.notes
                    .push(format!("{k}x{k}, V1 = {}, V2 = {}: {w}", split.0, split.1));
            }
            for (mi, m) in [32u32, 64].into_iter().enumerate() {
                for rate in rates_up_to(safe_sat[mi] * 0.95, if b.quick { 2 } else { 5 }) {
                    cases.push((k, split, m, rate, net.clone()));
                }
            }
        }
    }
    let points: Vec<_> = cases
        .iter()
        .map(|(k, _, m, rate, net)| (net, *rate, *m, window(b.quick, *k)))
        .collect();
    let sims = simulate_points(&points, b);
    if let Some(e) = &missing {
        out.notes.push(format!(
            "flitsim simulation not run: the netlist does not accept Duato-Nbc ({e})"
        ));
    }
    let mut rows_json = Vec::new();
    for k in [8u32, 16] {
        if let Some(w) = p001_safaei::split_warning(k, SHORT.0, SHORT.1) {
            out.notes.push(format!("model: {w}"));
        }
        let mut series = Vec::new();
        let mut color = 0;
        for split in splits(k) {
            for m in [32u32, 64] {
                let points: Vec<_> = (0..cases.len())
                    .filter(|&i| cases[i].0 == k && cases[i].1 == split && cases[i].2 == m)
                    .map(|i| (cases[i].3, model(k, split, m, cases[i].3), &sims[i]))
                    .collect();
                for &(rate, lat, sim) in &points {
                    let p = sim.as_ref().ok();
                    rows_json.push(json!({
                        "k": k, "length": m, "v1": split.0, "v2": split.1, "rate": rate,
                        "deadlock_free": p001_safaei::is_deadlock_free(k, split.0, split.1),
                        "model": lat,
                        "simulation": p.and_then(|p| p.latency()),
                        "simulation_ci95": p.and_then(|p| p.ci95()),
                        "network_latency": p.and_then(|p| p.measured.report.network_latency.mean),
                        "source_queue_time": p.and_then(|p| p.measured.report.source_queue_time.mean),
                        "deadlock": p.and_then(|p| p.measured.report.deadlock.as_ref().map(|d| d.cycle)),
                    }));
                }
                let c = curve(
                    format!(
                        "{k}x{k} torus, V = {VCS} (V1 = {}, V2 = {}), M = {m}: latency in cycles",
                        split.0, split.1
                    ),
                    &format!("V1={} M={m}", split.0),
                    color,
                    &points,
                );
                out.tables.push(c.table);
                if p001_safaei::is_deadlock_free(k, split.0, split.1) {
                    out.tables.push(decomposition(k, split, m, &points));
                }
                series.extend(c.series);
                color += 1;
            }
        }
        out.charts
            .push((format!("reproduce-001-{k}x{k}.svg"), chart(k, series)));
    }
    out.json = json!({ "paper": "001", "rows": rows_json, "missing": missing });
    out
}
