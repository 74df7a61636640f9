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

mod figures;

use super::{f2, parallel_map, pct, preset, rel, sim_cell, simulate, Budget, Output, Table};
use crate::plot::{Chart, Series, Style};
use flitsim_analysis::papers::p000_quaglia::{predict, QuagliaConfig, PAPER_TABLES};
use flitsim_engine::{LatencyDef, LatencyFrom, LatencyTo, SimConfig};
use serde_json::json;

const NETLISTS: [(u32, &str, &str); 4] = [
    (
        4,
        "netlists/paper000-torus-4x4.toml",
        include_str!("../../../../netlists/paper000-torus-4x4.toml"),
    ),
    (
        8,
        "netlists/paper000-torus-8x8.toml",
        include_str!("../../../../netlists/paper000-torus-8x8.toml"),
    ),
    (
        12,
        "netlists/paper000-torus-12x12.toml",
        include_str!("../../../../netlists/paper000-torus-12x12.toml"),
    ),
    (
        16,
        "netlists/paper000-torus-16x16.toml",
        include_str!("../../../../netlists/paper000-torus-16x16.toml"),
    ),
];

/// The paper's latency: from the head entering the source router to the tail leaving the
/// destination router, measured per packet (`--latency-from source-router --latency-to
/// tail-leaves-router`). The paper's node has no injection channel and no source queue:
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
/// Section 5 does not say how the simulator measures latency ("the analytical and
/// simulated latency times for the transmission of a message"). The paper's numbers pick
/// this reading: its simulated latencies at 0.001 sit at `H + M - 1` (the model's zero
/// load `M + 2K k/(k+1)` less one cycle), two below flitsim's generation-to-consumption
/// zero load `H + M + 1`, and the source queue a flitsim node adds (it injects one packet
/// at a time) grows with the load, as the raw column's widening gap shows.
pub const PAPER_LATENCY: LatencyDef = LatencyDef {
    from: LatencyFrom::SourceRouter,
    to: LatencyTo::TailLeavesRouter,
};

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

/// The simulated points (k, rate, netlist) of the paper's tables, and why the paper's
/// routing is missing, if it is.
fn points() -> (Vec<(u32, f64, flitsim_netlist::Netlist)>, Option<String>) {
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
    (points, missing)
}

/// Simulates every point.
fn simulate_points(
    points: &[(u32, f64, flitsim_netlist::Netlist)],
    b: &Budget,
) -> Vec<Result<super::SimPoint, String>> {
    parallel_map(points, b.threads, |(k, rate, n)| {
        let (warmup, cycles) = cycles(*k, b.quick);
        let config = SimConfig {
            rate: *rate,
            length: LENGTH,
            warmup,
            cycles,
            drain: 20_000,
            seed: b.seed,
            latency: PAPER_LATENCY,
            ..SimConfig::default()
        };
        simulate(n, &config)
    })
}

/// The notes on the latency measured, and on the routing simulated when the paper's is
/// `missing`.
fn push_notes(out: &mut Output, missing: Option<&str>) {
    out.notes.push(format!(
        "flitsim sim = the paper's latency, measured per packet: {PAPER_LATENCY} (head \
         entering the source router to tail leaving the destination router; \
         `--latency-from {} --latency-to {}`); gen -> consumed = flitsim's default \
         latency (source queue + network latency, both measured), for reference",
        PAPER_LATENCY.from, PAPER_LATENCY.to
    ));
    if let Some(e) = missing {
        out.notes.push(format!(
            "paper 000's adaptive routing is not available ({e}); the flitsim simulation \
             column is the netlists' dimension-order routing (dateline DOR, 4 VCs in 2 \
             classes), NOT the paper's routing"
        ));
    }
}

/// The empty table of the `k`x`k` torus.
fn paper_table(k: u32, sim_header: &str) -> Table {
    Table::new(
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
            "gen -> consumed",
            "flitsim model vs sim",
        ],
    )
}

/// The chart of the `k`x`k` torus: the paper's values, flitsim's model and simulation.
/// `sim_errors`: the 95% half-width of each simulation point (0: none).
fn chart(k: u32, series: [Vec<(f64, f64)>; 4], sim_errors: Vec<f64>) -> Chart {
    // One colour per quantity (simulation, model); the paper's values drawn light.
    let labels = [
        ("paper simulation", Style::Paper, 0),
        ("paper model", Style::Paper, 1),
        ("flitsim model", Style::Line, 1),
        ("flitsim simulation", Style::Points, 0),
    ];
    Chart {
        title: format!("Paper 000, {k}x{k} torus, M = {LENGTH}: latency vs generation rate"),
        x_label: "generation rate (packets/node/cycle)".into(),
        y_label: "mean latency (cycles)".into(),
        series: series
            .into_iter()
            .zip(labels)
            .map(|(points, (label, style, color))| Series {
                label: label.into(),
                points,
                style,
                color,
                errors: if style == Style::Points {
                    sim_errors.clone()
                } else {
                    Vec::new()
                },
            })
            .collect(),
    }
}

/// Runs the reproduction.
pub fn run(b: &Budget) -> Output {
    let mut out = Output::default();
    // The routing the paper simulates, if this build has it; without it the netlists' own
    // `dor` is simulated instead and labelled as such.
    let (points, missing) = points();
    let sims = simulate_points(&points, b);
    let sim_header = if missing.is_some() {
        "flitsim sim, DOR (95% CI)"
    } else {
        "flitsim sim (95% CI)"
    };
    push_notes(&mut out, missing.as_deref());
    let mut json_tables = Vec::new();
    for table in &PAPER_TABLES {
        let k = table.k;
        let mut t = paper_table(k, sim_header);
        let mut rows_json = Vec::new();
        let mut series: [Vec<(f64, f64)>; 4] = Default::default();
        let mut sim_errors = Vec::new();
        for row in table.rows {
            let model = predict(&QuagliaConfig::new(k, row.rate)).ok();
            let fm = model.as_ref().map(|m| m.latency);
            let sim = points
                .iter()
                .position(|p| p.0 == k && p.1 == row.rate)
                .map(|i| sims[i].clone())
                .unwrap_or_else(|| Err(missing.clone().unwrap_or_default()));
            let sl = sim.as_ref().ok().and_then(|p| p.latency());
            // Generation to tail consumed: source queue plus network latency (saturated
            // points have neither).
            let raw = sim.as_ref().ok().filter(|p| !p.saturated()).and_then(|p| {
                let r = &p.measured.report;
                Some(r.source_queue_time.mean? + r.network_latency.mean?)
            });
            t.rows.push(vec![
                format!("{:.3}", row.rate),
                f2(row.simulation),
                f2(row.model),
                fm.map_or_else(|| "sat.".into(), |v| format!("{v:.2}")),
                fm.zip(row.model)
                    .map_or_else(|| "-".into(), |(a, b)| format!("{:+.2}", a - b)),
                sim_cell(&sim),
                pct(rel(sl, row.simulation)),
                f2(raw),
                pct(rel(fm, sl)),
            ]);
            if sl.is_some() {
                sim_errors.push(sim.as_ref().ok().and_then(|p| p.ci95()).unwrap_or(0.0));
            }
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
                "flitsim_generation_to_consumed": raw,
                "simulation_error": rel(sl, row.simulation),
                "model_difference": fm.zip(row.model).map(|(a, b)| a - b),
            }));
        }
        out.tables.push(t);
        json_tables.push(json!({ "k": k, "rows": rows_json }));
        let chart = chart(k, series, sim_errors);
        out.charts
            .push((format!("reproduce-000-{k}x{k}.svg"), chart));
    }
    let figures = match figures::netlists(&NETLISTS) {
        Ok(nets) => figures::add(&mut out, b, &nets),
        Err(e) => {
            out.notes.push(format!("Figs. 3-4 not simulated: {e}"));
            json!([])
        }
    };
    out.json = json!({
        "figures": figures,
        "paper": "000",
        "latency_definition": PAPER_LATENCY,
        "routing": if missing.is_some() { "dor" } else { "quaglia" },
        "tables": json_tables,
        "missing": missing,
    });
    out
}
