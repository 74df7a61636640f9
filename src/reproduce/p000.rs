//! Paper 000 (Quaglia et al. 2002), Tables 1-2: mean packet latency on 4x4, 8x8, 12x12
//! and 16x16 tori, 12-flit packets, uniform destinations, Poisson generation per node.
//! The paper simulates with 4 VCs and its minimal fully adaptive routing (X first, Y when
//! X is busy); flitsim uses `netlists/paper000-torus-*.toml` (the one-cycle-per-hop router,
//! 4 VCs) with `--routing quaglia --selection x-first`.
//!
//! Columns: the paper's simulation and model (typed in `PAPER_TABLES`), flitsim's model
//! (`p000_quaglia::predict`, the tables' reading), flitsim's simulation with a 95% CI, and
//! the errors. Generation is Bernoulli per cycle (Poisson in the limit; at these rates the
//! two differ by under 1% in the inter-arrival variance).

use super::{f2, parallel_map, pct, preset, rel, sim_cell, simulate_at, Budget, Output, Table};
use crate::plot::{Chart, Series, Style};
use flitsim_analysis::papers::p000_quaglia::{predict, QuagliaConfig, PAPER_TABLES};
use serde_json::json;

const NETLISTS: [(u32, &str, &str); 4] = [
    (
        4,
        "netlists/paper000-torus-4x4.toml",
        include_str!("../../netlists/paper000-torus-4x4.toml"),
    ),
    (
        8,
        "netlists/paper000-torus-8x8.toml",
        include_str!("../../netlists/paper000-torus-8x8.toml"),
    ),
    (
        12,
        "netlists/paper000-torus-12x12.toml",
        include_str!("../../netlists/paper000-torus-12x12.toml"),
    ),
    (
        16,
        "netlists/paper000-torus-16x16.toml",
        include_str!("../../netlists/paper000-torus-16x16.toml"),
    ),
];

/// The two terminal-channel cycles (injection and ejection, `2 Lt`) in flitsim's latency:
/// flitsim's zero load is `H + M + 1`, the paper's simulated low-load latencies sit near
/// `H + M - 1`. The `sim - 2 Lt` column removes exactly these two cycles (a definition,
/// nothing fitted); the raw column stays next to it.
///
/// The `net - 2 Lt` column also leaves out the source queue: it is flitsim's measured
/// network latency (head written onto the injection channel -> tail consumed) minus the
/// same two cycles, i.e. from the head entering the source router to the tail reaching the
/// destination router. This is the latency of the paper's system and model, which have no
/// injection channel and no source queue:
///
/// - section 3: "Each node (i, j) of the two-dimensional torus consists of a processing
///   element P_ij that generates and receives messages, and a router node N_ij with a
///   controller per each dimension"; "each flit is transmitted in a single cycle link
///   time. This time represents the basic temporal unit";
/// - section 4.3: "T_latency represents the residual transmission time of a message from
///   the source node", the residual time being "the average delay the header of a message
///   experiences while traveling from X_ij to the destination" plus the data trail `T_DT`;
///   eqs (45)-(46) start at the wait for the first network channel (`W` at `X_11`/`Y_11`).
///
/// In flitsim a node injects one packet at a time through its injection channel, so a
/// packet generated while its predecessor is still being injected waits in the source
/// queue (about M/D/1 at `rho = lambda M`: 1.3 cycles at 0.015). The paper's node can
/// start packets on different channels at once. Section 5 does not say how the paper's
/// simulator measures latency ("the analytical and simulated latency times for the
/// transmission of a message"), so this column is the model's definition applied to
/// flitsim's measurements, not a documented property of the paper's simulator.
const TERMINAL_CYCLES: f64 = 2.0;

/// The packet length of Tables 1-2.
pub const LENGTH: u32 = 12;

/// (warm-up, measured cycles) for a k x k torus.
fn cycles(k: u32, quick: bool) -> (u64, u64) {
    if quick {
        return (300, 1500);
    }
    match k {
        4 => (5_000, 200_000),
        8 => (5_000, 100_000),
        12 => (5_000, 60_000),
        _ => (5_000, 50_000),
    }
}

/// Runs the reproduction.
pub fn run(b: &Budget) -> Output {
    let mut out = Output::default();
    // The routing the paper simulates, if this build has it; without it the netlists' own
    // `dor` is simulated instead and labelled as such.
    let mut points = Vec::new();
    let mut missing = None;
    for &(k, name, src) in &NETLISTS {
        let net = preset(
            name,
            src,
            &[("routing", "quaglia"), ("selection", "x-first")],
        )
        .or_else(|e| {
            missing = Some(e);
            preset(name, src, &[])
        });
        if let Ok(n) = net {
            let table = PAPER_TABLES.iter().find(|t| t.k == k).expect("table");
            for row in table.rows {
                points.push((k, row.rate, n.clone()));
            }
        }
    }
    let sims = parallel_map(&points, b.threads, |(k, rate, n)| {
        simulate_at(n, *rate, LENGTH, cycles(*k, b.quick), b.seed)
    });
    let sim_header = if missing.is_some() {
        "flitsim sim, DOR (95% CI)"
    } else {
        "flitsim sim (95% CI)"
    };
    if let Some(e) = &missing {
        out.notes.push(format!(
            "paper 000's adaptive routing is not available ({e}); the flitsim simulation \
             column is the netlists' dimension-order routing (dateline DOR, 4 VCs in 2 \
             classes), NOT the paper's routing"
        ));
    }
    let mut json_tables = Vec::new();
    for table in &PAPER_TABLES {
        let k = table.k;
        let mut t = Table::new(
            format!(
                "Table {} ({k}x{k} torus, {LENGTH}-flit packets): latency in cycles",
                if k <= 8 { 1 } else { 2 }
            ),
            &[
                "rate",
                "paper sim",
                "paper model",
                "flitsim model",
                "model-paper",
                sim_header,
                "sim vs paper sim",
                "sim - 2 Lt",
                "(sim - 2 Lt) vs paper sim",
                "net - 2 Lt",
                "(net - 2 Lt) vs paper sim",
                "flitsim model vs sim",
            ],
        );
        let mut rows_json = Vec::new();
        let mut series: [Vec<(f64, f64)>; 4] = Default::default();
        for row in table.rows {
            let model = predict(&QuagliaConfig::new(k, row.rate)).ok();
            let fm = model.as_ref().map(|m| m.latency);
            let sim = points
                .iter()
                .position(|p| p.0 == k && p.1 == row.rate)
                .map(|i| sims[i].clone())
                .unwrap_or_else(|| Err(missing.clone().unwrap_or_default()));
            let sl = sim.as_ref().ok().and_then(|p| p.latency());
            // Saturated points have no network latency either.
            let net = sim
                .as_ref()
                .ok()
                .filter(|p| !p.saturated())
                .and_then(|p| p.measured.report.network_latency.mean)
                .map(|v| v - TERMINAL_CYCLES);
            t.rows.push(vec![
                format!("{:.3}", row.rate),
                f2(row.simulation),
                f2(row.model),
                fm.map_or_else(|| "sat.".into(), |v| format!("{v:.2}")),
                fm.zip(row.model)
                    .map_or_else(|| "-".into(), |(a, b)| format!("{:+.2}", a - b)),
                sim_cell(&sim),
                pct(rel(sl, row.simulation)),
                f2(sl.map(|v| v - TERMINAL_CYCLES)),
                pct(rel(sl.map(|v| v - TERMINAL_CYCLES), row.simulation)),
                f2(net),
                pct(rel(net, row.simulation)),
                pct(rel(fm, sl)),
            ]);
            for (s, v) in series.iter_mut().zip([row.simulation, row.model, fm, sl]) {
                if let Some(v) = v {
                    s.push((row.rate, v));
                }
            }
            rows_json.push(json!({
                "rate": row.rate,
                "paper_simulation": row.simulation,
                "paper_model": row.model,
                "flitsim_model": fm,
                "flitsim_model_saturated": fm.is_none(),
                "flitsim_simulation": sl,
                "flitsim_simulation_ci95": sim.as_ref().ok().and_then(|p| p.ci95()),
                "flitsim_simulation_saturated": sim.as_ref().ok().map(|p| p.saturated()),
                "flitsim_network_latency": sim.as_ref().ok().and_then(|p| p.measured.report.network_latency.mean),
                "flitsim_zero_load_latency": sim.as_ref().ok().map(|p| p.measured.report.zero_load_latency),
                "simulation_error": rel(sl, row.simulation),
                "simulation_minus_terminal_channels_error": rel(sl.map(|v| v - TERMINAL_CYCLES), row.simulation),
                "network_minus_terminal_channels": net,
                "network_minus_terminal_channels_error": rel(net, row.simulation),
                "model_difference": fm.zip(row.model).map(|(a, b)| a - b),
            }));
        }
        out.tables.push(t);
        json_tables.push(json!({ "k": k, "rows": rows_json }));
        let labels = [
            ("paper simulation", Style::Points),
            ("paper model", Style::Line),
            ("flitsim model", Style::Line),
            ("flitsim simulation", Style::Points),
        ];
        let chart = Chart {
            title: format!("Paper 000, {k}x{k} torus, M = {LENGTH}: latency vs generation rate"),
            x_label: "generation rate (packets/node/cycle)".into(),
            y_label: "mean latency (cycles)".into(),
            series: series
                .into_iter()
                .zip(labels)
                .enumerate()
                .map(|(i, (points, (label, style)))| Series {
                    label: label.into(),
                    points,
                    style,
                    color: i,
                })
                .collect(),
        };
        out.charts
            .push((format!("reproduce-000-{k}x{k}.svg"), chart));
    }
    out.notes.push(
        "flitsim latency = generation to tail consumed, including the source queue and one \
         cycle each for the injection and ejection channels (zero load H + M + 1); the \
         paper's model has zero load M + 2K k/(k+1)"
            .into(),
    );
    out.notes.push(
        "net - 2 Lt = flitsim's network latency (head onto the injection channel -> tail \
         consumed) minus the two terminal-channel cycles: head entering the source router \
         -> tail at the destination router, no source queue, the latency of the paper's \
         model (its nodes have no injection channel); the paper does not say how its \
         simulator measures latency"
            .into(),
    );
    out.json = json!({
        "paper": "000",
        "routing": if missing.is_some() { "dor" } else { "quaglia" },
        "tables": json_tables,
        "missing": missing,
    });
    out
}
