//! Paper 000's Figs. 3 and 4, which compare adaptive and deterministic routing at
//! generation intervals `sE` = 300, 500 and 1000 cycles (rates 1/sE), 12-flit messages:
//!
//! - Fig. 3: mean blocking time per hop against the torus size `k`;
//! - Fig. 4: mean latency on the 12x12 torus against the message length.
//!
//! The paper draws them from its models only; its deterministic model (its reference [7])
//! is not part of flitsim, so the deterministic side is simulated only (the netlists'
//! dimension-order routing). Blocking per hop is the latency above the zero-load latency
//! over the mean hops: `(T - T0) / H`, with the model's `T0 = M + 2K k/(k+1)` and `H =
//! 2K k/(k+1)`, and the simulation's measured latency, zero-load latency and hops, all
//! under the paper's latency definition.

use super::{cycles, PAPER_LATENCY};
use crate::plot::{Chart, Series, Style};
use crate::reproduce::{f2, parallel_map, preset, simulate, Budget, Output, SimPoint, Table};
use flitsim_analysis::papers::p000_quaglia::{predict, QuagliaConfig};
use flitsim_engine::SimConfig;
use flitsim_netlist::Netlist;
use serde_json::{json, Value};

/// The generation intervals of both figures (cycles between messages at a node).
const INTERVALS: [u32; 3] = [300, 500, 1000];

/// Fig. 4's message lengths.
const LENGTHS: [u32; 6] = [4, 8, 12, 16, 24, 32];

/// A simulated point: k, routing (`quaglia` or `dor`), rate, length.
type Spec = (u32, &'static str, f64, u32);

/// Model (latency, blocking per hop) for `k`, `rate`, `length`.
fn model(k: u32, rate: f64, length: u32) -> Option<(f64, f64)> {
    let p = predict(&QuagliaConfig {
        length,
        ..QuagliaConfig::new(k, rate)
    })
    .ok()?;
    let hops = p.zero_load_latency - f64::from(length);
    Some((p.latency, (p.latency - p.zero_load_latency) / hops))
}

/// Simulated (latency, blocking per hop) of `length`-flit packets, `None` when saturated
/// or not run. On the paper's router a packet's zero-load latency under the paper's
/// definition is `H + M - 1` (one cycle per hop, the tail `M - 1` behind the head), so
/// the blocking per hop is `(T - (H + M - 1)) / H` with the measured mean hops `H`.
fn measured(p: &Result<SimPoint, String>, length: u32) -> Option<(f64, f64)> {
    let p = p.as_ref().ok()?;
    let l = p.latency()?;
    let h = p.measured.report.hops.mean?;
    Some((l, (l - (h + f64::from(length) - 1.0)) / h))
}

fn netlist(nets: &[(u32, Netlist, Netlist)], k: u32, routing: &str) -> Netlist {
    let n = nets.iter().find(|n| n.0 == k).expect("netlist of k");
    if routing == "dor" {
        n.2.clone()
    } else {
        n.1.clone()
    }
}

/// The simulations of both figures, each once: the sizes at 12 flits and the lengths on
/// the 12x12 torus, at every interval, for both routings.
fn specs(nets: &[(u32, Netlist, Netlist)], intervals: &[u32], lengths: &[u32]) -> Vec<Spec> {
    let routings = ["quaglia", "dor"];
    let mut specs: Vec<Spec> = Vec::new();
    for &s in intervals {
        for r in routings {
            let rate = 1.0 / f64::from(s);
            let sizes = nets.iter().map(|n| (n.0, 12));
            for (k, m) in sizes.chain(lengths.iter().map(|&m| (12, m))) {
                if !specs.contains(&(k, r, rate, m)) {
                    specs.push((k, r, rate, m));
                }
            }
        }
    }
    specs
}

/// The charts of Figs. 3 and 4.
fn push_charts(out: &mut Output, s3: Vec<Series>, s4: Vec<Series>) {
    out.charts.push((
        "reproduce-000-fig3.svg".into(),
        Chart {
            title: "Paper 000, Fig. 3: blocking time per hop, M = 12".into(),
            x_label: "torus radix k".into(),
            y_label: "blocking per hop (cycles)".into(),
            series: s3,
        },
    ));
    out.charts.push((
        "reproduce-000-fig4.svg".into(),
        Chart {
            title: "Paper 000, Fig. 4: latency on the 12x12 torus".into(),
            x_label: "message length M (flits)".into(),
            y_label: "mean latency (cycles)".into(),
            series: s4,
        },
    ));
}

/// Runs every simulation of `specs`.
fn simulate_specs(
    specs: &[Spec],
    nets: &[(u32, Netlist, Netlist)],
    b: &Budget,
) -> Vec<Result<SimPoint, String>> {
    parallel_map(specs, b.threads, |&(k, r, rate, m)| {
        let (warmup, cycles) = cycles(k, b.quick);
        let config = SimConfig {
            rate,
            length: m,
            warmup,
            cycles: cycles / 2,
            drain: 20_000,
            seed: b.seed,
            latency: PAPER_LATENCY,
            ..SimConfig::default()
        };
        simulate(&netlist(nets, k, r), &config)
    })
}

/// Adds both figures to `out`; `nets` are (k, adaptive netlist, DOR netlist).
pub fn add(out: &mut Output, b: &Budget, nets: &[(u32, Netlist, Netlist)]) -> Value {
    // Quick runs (tests): the busiest interval and three lengths.
    let (intervals, lengths) = if b.quick {
        (&INTERVALS[..1], &[4, 12, 32][..])
    } else {
        (&INTERVALS[..], &LENGTHS[..])
    };
    let specs = specs(nets, intervals, lengths);
    let sims = simulate_specs(&specs, nets, b);
    let sim = |k: u32, r: &str, rate: f64, m: u32| {
        specs
            .iter()
            .position(|s| s.0 == k && s.1 == r && s.2 == rate && s.3 == m)
            .and_then(|i| measured(&sims[i], m))
    };
    let mut rows = Vec::new();
    let mut fig3 = Table::new(
        "Fig. 3: mean blocking time per hop (cycles) against k, 12-flit messages",
        &["sE", "k", "model adaptive", "sim adaptive", "sim DOR"],
    );
    let mut fig4 = Table::new(
        "Fig. 4: mean latency (cycles) on the 12x12 torus against the message length",
        &["sE", "M", "model adaptive", "sim adaptive", "sim DOR"],
    );
    let (mut s3, mut s4) = (Vec::new(), Vec::new());
    for (c, &s) in intervals.iter().enumerate() {
        let rate = 1.0 / f64::from(s);
        let mut lines3: [Vec<(f64, f64)>; 3] = Default::default();
        for (k, _, _) in nets {
            let v = [
                model(*k, rate, 12),
                sim(*k, "quaglia", rate, 12),
                sim(*k, "dor", rate, 12),
            ];
            fig3.rows.push(
                [s.to_string(), k.to_string()]
                    .into_iter()
                    .chain(v.iter().map(|x| f2(x.map(|x| x.1))))
                    .collect(),
            );
            for (line, x) in lines3.iter_mut().zip(v) {
                line.extend(x.map(|x| (f64::from(*k), x.1)));
            }
            rows.push(json!({"figure": 3, "interval": s, "k": k, "length": 12,
                "model_blocking_per_hop": v[0].map(|x| x.1),
                "simulation_adaptive_blocking_per_hop": v[1].map(|x| x.1),
                "simulation_dor_blocking_per_hop": v[2].map(|x| x.1)}));
        }
        let mut lines4: [Vec<(f64, f64)>; 3] = Default::default();
        for &m in lengths {
            let v = [
                model(12, rate, m),
                sim(12, "quaglia", rate, m),
                sim(12, "dor", rate, m),
            ];
            fig4.rows.push(
                [s.to_string(), m.to_string()]
                    .into_iter()
                    .chain(v.iter().map(|x| f2(x.map(|x| x.0))))
                    .collect(),
            );
            for (line, x) in lines4.iter_mut().zip(v) {
                line.extend(x.map(|x| (f64::from(m), x.0)));
            }
            rows.push(json!({"figure": 4, "interval": s, "k": 12, "length": m,
                "model_latency": v[0].map(|x| x.0),
                "simulation_adaptive_latency": v[1].map(|x| x.0),
                "simulation_dor_latency": v[2].map(|x| x.0)}));
        }
        for (all, lines) in [(&mut s3, lines3), (&mut s4, lines4)] {
            for (points, (what, style)) in lines.into_iter().zip([
                ("model adaptive", Style::Line),
                ("sim adaptive", Style::Points),
                ("sim DOR", Style::Points),
            ]) {
                all.push(Series {
                    label: format!("{what}, sE = {s}"),
                    points,
                    style,
                    color: c,
                    errors: Vec::new(),
                });
            }
        }
    }
    out.tables.push(fig3);
    out.tables.push(fig4);
    push_charts(out, s3, s4);
    Value::Array(rows)
}

/// The (k, adaptive, DOR) netlists of the paper's sizes, or why the adaptive routing is
/// missing.
pub fn netlists(sources: &[(u32, &str, &str)]) -> Result<Vec<(u32, Netlist, Netlist)>, String> {
    sources
        .iter()
        .map(|&(k, name, src)| {
            let adaptive = preset(
                name,
                src,
                &[("routing", "quaglia"), ("selection", "x-first")],
            )?;
            Ok((k, adaptive, preset(name, src, &[])?))
        })
        .collect()
}
