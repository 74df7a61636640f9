//! Paper 004 ("Virtual cut-through routing in toroidal interconnection networks"): VCT
//! with unbounded per-port storage, every destination exactly `l` hops away, packets of
//! `m` = 5, 10, 20 flits, on the 8x8 torus of `netlists/paper004-torus-8x8.toml` (head 2
//! cycles per router, other flits 1, channels 1: zero-load `3(l+1)+m` by flitsim's timing
//! contract). Tables:
//!
//! 1. base latency `3(l+1)+m` against the simulation at a very low rate;
//! 2. latency vs rate (`p004_vct::latency`, eq 10) against the simulation, for `l = 3`;
//! 3. saturation: the paper's empirical `0.8/m`, the model's critical rate `4/(lm)`, and
//!    the first simulated rate that saturates;
//! 4. buffer size needed (eq 11, `B = (rho/l) tau`) against the peak occupancy any input
//!    buffer reached in the simulation.

use super::{
    f2, parallel_map, pct, preset, rel, sim_cell, simulate, Budget, Output, SimPoint, Table,
};
use crate::plot::{Chart, Series, Style};
use flitsim_analysis::papers::p004_vct;
use flitsim_engine::{SimConfig, TrafficKind};
use flitsim_netlist::Netlist;
use serde_json::json;

const LENGTHS: [u32; 3] = [5, 10, 20];
const L: u32 = 3;

fn netlist() -> Result<Netlist, String> {
    preset(
        "netlists/paper004-torus-8x8.toml",
        include_str!("../../netlists/paper004-torus-8x8.toml"),
        &[("switching", "vct"), ("buffer_depth", "unbounded")],
    )
}

fn traffic(l: u32) -> Result<TrafficKind, String> {
    format!("fixed-distance:{l}")
        .parse::<TrafficKind>()
        .map_err(|e| e.to_string())
}

fn sim(b: &Budget, l: u32, m: u32, rate: f64) -> Result<SimPoint, String> {
    let net = netlist()?;
    let traffic = traffic(l)?;
    let (warmup, cycles) = if b.quick {
        (300, 1500)
    } else {
        (5_000, 30_000)
    };
    simulate(
        &net,
        &SimConfig {
            rate,
            length: m,
            traffic,
            warmup,
            cycles,
            drain: 20_000,
            seed: b.seed,
            ..SimConfig::default()
        },
    )
}

/// Runs the reproduction.
pub fn run(b: &Budget) -> Output {
    let mut out = Output::default();
    let missing = netlist().err().or_else(|| traffic(L).err());
    if let Some(e) = &missing {
        out.notes.push(format!(
            "flitsim simulation not run: VCT with unbounded buffers and fixed-distance traffic \
             are needed ({})",
            e.replace('\n', "; ")
        ));
    }
    // 1. Base latency.
    let base_cases: Vec<(u32, u32)> = (1..=4).flat_map(|l| LENGTHS.map(|m| (l, m))).collect();
    let base_sims = parallel_map(&base_cases, b.threads, |&(l, m)| sim(b, l, m, 0.0005));
    let mut t = Table::new(
        "Base latency 3(l+1)+m (cycles) vs simulation at rate 0.0005",
        &["l", "m", "3(l+1)+m", "flitsim sim", "error"],
    );
    let mut base_json = Vec::new();
    for (&(l, m), s) in base_cases.iter().zip(&base_sims) {
        let base = p004_vct::base_latency(l, m) as f64;
        let sl = s.as_ref().ok().and_then(|p| p.latency());
        t.rows.push(vec![
            l.to_string(),
            m.to_string(),
            format!("{base:.0}"),
            sim_cell(s),
            pct(rel(sl, Some(base))),
        ]);
        base_json.push(json!({"l": l, "m": m, "base": base, "simulation": sl}));
    }
    out.tables.push(t);

    // 2-4. Latency vs rate, saturation, buffers.
    let fractions: Vec<f64> = if b.quick {
        vec![0.25, 0.75]
    } else {
        vec![0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.1, 1.2]
    };
    let cases: Vec<(u32, f64)> = LENGTHS
        .iter()
        .flat_map(|&m| {
            fractions
                .iter()
                .map(move |f| (m, f * p004_vct::empirical_saturation_rate(m)))
        })
        .collect();
    let sims = parallel_map(&cases, b.threads, |&(m, rate)| sim(b, L, m, rate));
    let mut series = Vec::new();
    let mut sat = Table::new(
        format!("Saturation (l = {L}): packets/node/cycle"),
        &[
            "m",
            "paper 0.8/m",
            "model 4/(lm)",
            "flitsim: last unsaturated",
            "first saturated",
        ],
    );
    let mut buf = Table::new(
        format!("Buffer size (l = {L}): eq 11 B = (rho/l) tau (flits) vs peak input-buffer use"),
        &["m", "rate", "rho", "B (eq 11)", "flitsim peak"],
    );
    let mut rows_json = Vec::new();
    for (ci, &m) in LENGTHS.iter().enumerate() {
        let mut t = Table::new(
            format!("l = {L}, m = {m}: latency (cycles) vs rate"),
            &[
                "rate",
                "rho",
                "model (eq 10)",
                "flitsim sim (95% CI)",
                "model vs sim",
            ],
        );
        let (mut ms, mut ss) = (Vec::new(), Vec::new());
        let (mut last_ok, mut first_sat) = (None, None);
        for (i, &(_, rate)) in cases.iter().enumerate().filter(|(_, c)| c.0 == m) {
            let rho = p004_vct::utilisation(rate, L, m);
            let model = p004_vct::latency(rate, L, m).ok();
            let s = &sims[i];
            let sl = s.as_ref().ok().and_then(|p| p.latency());
            if let Ok(p) = s {
                if p.saturated() {
                    first_sat = first_sat.or(Some(rate));
                } else if first_sat.is_none() {
                    last_ok = Some(rate);
                }
            }
            t.rows.push(vec![
                format!("{rate:.5}"),
                format!("{rho:.3}"),
                f2(model),
                sim_cell(s),
                pct(rel(model, sl)),
            ]);
            let b_model = p004_vct::buffer_size(rho, L, m).ok();
            buf.rows.push(vec![
                m.to_string(),
                format!("{rate:.5}"),
                format!("{rho:.3}"),
                f2(b_model),
                s.as_ref().ok().map_or("n/a".into(), |p| {
                    p.measured.max_buffer_occupancy.to_string()
                }),
            ]);
            if let Some(v) = model {
                ms.push((rate, v));
            }
            if let Some(v) = sl {
                ss.push((rate, v));
            }
            rows_json.push(json!({
                "l": L, "m": m, "rate": rate, "rho": rho, "model": model, "simulation": sl,
                "simulation_ci95": s.as_ref().ok().and_then(|p| p.ci95()),
                "buffer_model": b_model,
                "buffer_peak": s.as_ref().ok().map(|p| p.measured.max_buffer_occupancy),
            }));
        }
        sat.rows.push(vec![
            m.to_string(),
            format!("{:.4}", p004_vct::empirical_saturation_rate(m)),
            format!("{:.4}", p004_vct::critical_rate(L, m)),
            last_ok.map_or("n/a".into(), |r| format!("{r:.4}")),
            first_sat.map_or("n/a".into(), |r| format!("{r:.4}")),
        ]);
        out.tables.push(t);
        series.push(Series {
            label: format!("model m={m}"),
            points: ms,
            style: Style::Line,
            color: ci,
        });
        series.push(Series {
            label: format!("simulation m={m}"),
            points: ss,
            style: Style::Points,
            color: ci,
        });
    }
    out.tables.push(sat);
    out.tables.push(buf);
    out.charts.push((
        "reproduce-004-latency.svg".into(),
        Chart {
            title: format!("Paper 004, VCT, 8x8 torus, l = {L}: latency vs generation rate"),
            x_label: "generation rate (packets/node/cycle)".into(),
            y_label: "mean latency (cycles)".into(),
            series,
        },
    ));
    out.json = json!({
        "paper": "004", "base": base_json, "rows": rows_json, "missing": missing,
    });
    out
}
