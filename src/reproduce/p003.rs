//! Paper 003 (Hu and Kleinrock): wormhole with timeout reset on a 3x3 torus, exponential
//! worm lengths, propagation delay 1. Figs. 8 (length 100, timeouts varied) and 9
//! (timeout 20, lengths varied): mean latency against the generation rate.
//!
//! The model side is what `flitsim model hu-kleinrock` evaluates: one channel with
//! exponential holding time (the worm length), its timeout probability from the
//! reneging-queue approximation (eqs 9-15) iterated with the retry traffic (eqs 1-4), and
//! the host queue with feedback (eqs 16-20). The network-wide coupling of holding times
//! (eqs 5-8) is not modelled (see `p003_hu_kleinrock`'s docs), so this is the model "as far
//! as it goes". The simulation side needs exponential packet lengths, the backward timeout
//! reset and source routing in the engine; it is run only when the build has them.

use super::{f2, model_saturation, rates_up_to, Budget, Output, Table};
use crate::plot::{Chart, Series, Style};
use flitsim_analysis::papers::p003_hu_kleinrock::{self as hk, Path};
use serde_json::json;

const PROPAGATION: f64 = 1.0;

/// Model latency and timeout probability at `rate` (packets per host per time unit).
pub fn model(rate: f64, length: f64, timeout: f64) -> Option<(f64, f64)> {
    let (b1, b2) = (length, 2.0 * length * length);
    let mut p_t = 0.0;
    let mut w = hk::channel_wait(rate, b1, b2, timeout);
    for _ in 0..10_000 {
        let t = hk::traffic(
            rate,
            &[Path {
                channels: vec![0],
                share: 1.0,
            }],
            &[p_t],
        );
        w = hk::channel_wait(t.channel_rate[0], b1, b2, timeout);
        let done = (w.p_timeout - p_t).abs() < 1e-13;
        p_t = w.p_timeout;
        if done {
            break;
        }
    }
    if !(w.p_timeout.is_finite() && w.p_timeout < 1.0) {
        return None;
    }
    hk::host_queue(rate, 1.0 - w.p_timeout, b1, b2, PROPAGATION)
        .ok()
        .map(|h| (h.latency, w.p_timeout))
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
    for (fig, what, cases) in figures {
        let mut series = Vec::new();
        for (i, &(length, timeout)) in cases.iter().enumerate() {
            let sat = model_saturation(|r| model(r, length, timeout).map(|m| m.0), 0.1);
            let mut t = Table::new(
                format!(
                    "Fig. {fig} ({what}): 3x3 torus, exponential length {length}, timeout \
                     {timeout}, propagation {PROPAGATION}; model saturation {sat:.5}"
                ),
                &["rate", "model latency", "P(timeout)", "flitsim sim"],
            );
            let mut pts = Vec::new();
            for rate in rates_up_to(sat * 0.95, if b.quick { 3 } else { 8 }) {
                let m = model(rate, length, timeout);
                t.rows.push(vec![
                    format!("{rate:.5}"),
                    f2(m.map(|m| m.0)),
                    m.map_or("-".into(), |m| format!("{:.4}", m.1)),
                    "n/a".into(),
                ]);
                if let Some(m) = m {
                    pts.push((rate, m.0));
                }
                rows_json.push(json!({
                    "figure": fig, "length": length, "timeout": timeout, "rate": rate,
                    "model_latency": m.map(|m| m.0), "p_timeout": m.map(|m| m.1),
                }));
            }
            out.tables.push(t);
            series.push(Series {
                label: format!("model length {length}, timeout {timeout}"),
                points: pts,
                style: Style::Line,
                color: i,
            });
        }
        out.charts.push((
            format!("reproduce-003-fig{fig}.svg"),
            Chart {
                title: format!("Paper 003, Fig. {fig} shape ({what}): model latency"),
                x_label: "generation rate (packets/host/time unit)".into(),
                y_label: "mean latency (time units)".into(),
                series,
            },
        ));
    }
    out.notes.push(
        "flitsim simulation not run: the engine has no timeout reset, no exponential packet \
         lengths and no source routing yet (paper 003's mechanism); the model columns are \
         the single-channel approximation (eqs 1-4, 9-20), not the network-wide eqs 5-8"
            .into(),
    );
    out.json = json!({ "paper": "003", "rows": rows_json });
    out
}
