//! Paper 003 (Hu and Kleinrock): wormhole with timeout reset on a 3x3 torus, exponential
//! worm lengths, propagation delay 1. Figs. 8 (length 100, timeouts varied) and 9
//! (timeout 20, lengths varied): mean latency against the generation rate.
//!
//! The model side is what `flitsim model hu-kleinrock` evaluates: one channel with
//! exponential holding time (the worm length), its timeout probability from the
//! reneging-queue approximation (eqs 9-15) iterated with the retry traffic (eqs 1-4), and
//! the host queue with feedback (eqs 16-20). The network-wide coupling of holding times
//! (eqs 5-8) is not modelled (see `p003_hu_kleinrock`'s docs), so this is the model "as far
//! as it goes". The simulation: `netlists/torus-3x3.toml` with one VC per channel (the
//! paper's switches have none), fixed dimension-order paths without datelines (source
//! routing over the same minimal paths; deadlocks are broken by the timeouts, as in the
//! paper), 2-flit buffers, every router delay 0 (one flit per time unit, propagation 1),
//! exponential lengths (`exp:MEAN`) and the timeout reset (`timeout` key).

use super::{
    f2, model_saturation, parallel_map, pct, preset, rates_up_to, rel, sim_cell, simulate, Budget,
    Output, SimPoint, Table,
};
use crate::plot::{Chart, Series, Style};
use flitsim_analysis::papers::p003_hu_kleinrock as hk;
use flitsim_engine::{LengthDist, SimConfig};
use serde_json::json;

fn sim(b: &Budget, rate: f64, length: f64, timeout: f64) -> Result<SimPoint, String> {
    let t = format!("{timeout}");
    let net = preset(
        "netlists/torus-3x3.toml",
        include_str!("../../netlists/torus-3x3.toml"),
        &[
            ("vcs", "1"),
            ("routing", "dor-nodateline"),
            ("buffer_depth", "2"),
            ("routing_delay", "0"),
            ("vc_alloc_delay", "0"),
            ("switch_alloc_delay", "0"),
            ("crossbar_delay", "0"),
            ("timeout", &t),
        ],
    )?;
    let (warmup, cycles) = if b.quick {
        (1_000, 5_000)
    } else {
        (20_000, 300_000)
    };
    simulate(
        &net,
        &SimConfig {
            rate,
            length: length as u32,
            length_dist: Some(LengthDist::Exp { mean: length }),
            warmup,
            cycles,
            drain: 50_000,
            seed: b.seed,
            ..SimConfig::default()
        },
    )
}

const PROPAGATION: f64 = 1.0;

/// Model latency and timeout probability at `rate` (packets per host per time unit);
/// `None` when the model is saturated.
pub fn model(rate: f64, length: f64, timeout: f64) -> Option<(f64, f64)> {
    let b2 = 2.0 * length * length;
    hk::single_channel(rate, length, b2, timeout, PROPAGATION)
        .ok()
        .map(|m| (m.host.latency, m.channel.p_timeout))
}

/// Runs the reproduction (model side).
pub fn run(b: &Budget) -> Output {
    let mut out = Output::default();
    let mut rows_json = Vec::new();
    let figures = [
        (
            "8",
            "length 100, timeouts 20/50/100",
            vec![(100.0, 20.0), (100.0, 50.0), (100.0, 100.0)],
        ),
        (
            "9",
            "timeout 20, lengths 50/100/200",
            vec![(50.0, 20.0), (100.0, 20.0), (200.0, 20.0)],
        ),
    ];
    let mut cases = Vec::new();
    for (fig, _, list) in &figures {
        for &(length, timeout) in list {
            let sat = model_saturation(|r| model(r, length, timeout).map(|m| m.0), 0.1);
            for rate in rates_up_to(sat * 1.2, if b.quick { 2 } else { 6 }) {
                cases.push((*fig, length, timeout, sat, rate));
            }
        }
    }
    let sims = parallel_map(&cases, b.threads, |c| sim(b, c.4, c.1, c.2));
    for (fig, what, list) in &figures {
        let mut series = Vec::new();
        for (i, &(length, timeout)) in list.iter().enumerate() {
            let sat = cases
                .iter()
                .find(|c| c.0 == *fig && c.1 == length && c.2 == timeout)
                .map_or(0.0, |c| c.3);
            let mut t = Table::new(
                format!(
                    "Fig. {fig} ({what}): 3x3 torus, exponential length {length}, timeout \
                     {timeout}, propagation {PROPAGATION}; model saturation {sat:.5}"
                ),
                &[
                    "rate",
                    "model latency",
                    "P(timeout)",
                    "flitsim sim (95% CI)",
                    "model vs sim",
                ],
            );
            let (mut pts, mut spts) = (Vec::new(), Vec::new());
            for (ci, c) in cases
                .iter()
                .enumerate()
                .filter(|(_, c)| c.0 == *fig && c.1 == length && c.2 == timeout)
            {
                let rate = c.4;
                let m = model(rate, length, timeout);
                let sl = sims[ci].as_ref().ok().and_then(|p| p.latency());
                t.rows.push(vec![
                    format!("{rate:.5}"),
                    f2(m.map(|m| m.0)),
                    m.map_or("-".into(), |m| format!("{:.4}", m.1)),
                    sim_cell(&sims[ci]),
                    pct(rel(m.map(|m| m.0), sl)),
                ]);
                if let Some(m) = m {
                    pts.push((rate, m.0));
                }
                if let Some(v) = sl {
                    spts.push((rate, v));
                }
                rows_json.push(json!({
                    "figure": fig, "length": length, "timeout": timeout, "rate": rate,
                    "model_latency": m.map(|m| m.0), "p_timeout": m.map(|m| m.1),
                    "simulation": sl,
                    "simulation_ci95": sims[ci].as_ref().ok().and_then(|p| p.ci95()),
                    "simulation_error": sims[ci].as_ref().err(),
                }));
            }
            out.tables.push(t);
            series.push(Series {
                label: format!("model length {length}, timeout {timeout}"),
                points: pts,
                style: Style::Line,
                color: i,
            });
            series.push(Series {
                label: format!("simulation length {length}, timeout {timeout}"),
                points: spts,
                style: Style::Points,
                color: i,
            });
        }
        out.charts.push((
            format!("reproduce-003-fig{fig}.svg"),
            Chart {
                title: format!("Paper 003, Fig. {fig} shape ({what}): latency"),
                x_label: "generation rate (packets/host/time unit)".into(),
                y_label: "mean latency (time units)".into(),
                series,
            },
        ));
    }
    if let Some(Err(e)) = sims.iter().find(|s| s.is_err()) {
        out.notes.push(format!("flitsim simulation not run: {e}"));
    }
    out.notes.push(
        "the model columns are the single-channel approximation (eqs 1-4, 9-20), not the \
         network-wide eqs 5-8; the simulation uses dimension-order paths for the paper's \
         source routes"
            .into(),
    );
    out.json = json!({ "paper": "003", "rows": rows_json });
    out
}
