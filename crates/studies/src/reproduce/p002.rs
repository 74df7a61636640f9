//! Paper 002 (Patooghy and Sarbazi-Azad): P-cube routing on wormhole hypercubes. Three
//! experiments:
//!
//! 1. Latency vs generation rate on the 6-, 8- and 9-cube (Figs 5-7), V = 3 and 6,
//!    M = 32, 64 and 128: the simulation (`--routing pcube`, the one-cycle-per-hop router:
//!    every router delay 0, channels of 1 cycle) against `p002_patooghy::solve`, rates up
//!    to the model's saturation. Fig 8 is the 8-cube, V = 3 chart (the paper's second
//!    model, Ould-Khaoua's, is not implemented).
//! 2. Saturation: the model's, the simulation's, and the rate at which the busiest
//!    channel (eqs 1-2) carries one flit per cycle, the physical bound of any channel.
//! 3. Per-channel arrival rates at a low load on the 6-cube: the measured packets per cycle
//!    of every channel against the exact rates of eqs 1-2 (`channel_rate`), averaged per
//!    class (sign, number of 0 bits of the source), with the Poisson standard error of the
//!    measurement (`sqrt(count) / cycles`).

use super::{
    curve, model_saturation, pct, preset, rates_up_to, rel, simulate_at, simulate_points, Budget,
    Output, Table,
};
use crate::plot::{Chart, Series};
use flitsim_analysis::papers::p002_patooghy::{self, PcubeConfig, PcubeOutcome};
use serde_json::json;

fn model(n: u32, vcs: u32, length: u32, rate: f64) -> Option<f64> {
    match p002_patooghy::solve(PcubeConfig {
        n,
        vcs: vcs as usize,
        length,
        rate,
    }) {
        PcubeOutcome::Solved(s) => Some(s.latency),
        PcubeOutcome::Saturated { .. } => None,
    }
}

/// The cube dimensions of Figs 5, 6 and 7.
const CUBES: [u32; 3] = [6, 8, 9];
const LENGTHS: [u32; 3] = [32, 64, 128];

/// The n-cube of `netlists/hypercube-8.toml` with the paper's router.
fn netlist(n: u32, vcs: u32) -> Result<flitsim_netlist::Netlist, String> {
    let src = include_str!("../../../../netlists/hypercube-8.toml")
        .replace("dim = 8", &format!("dim = {n}"))
        .replace("\"hypercube-8\"", &format!("\"hypercube-{n}\""));
    let v = vcs.to_string();
    preset(
        &format!("hypercube-{n} (built in)"),
        &src,
        &[
            ("routing_delay", "0"),
            ("vc_alloc_delay", "0"),
            ("switch_alloc_delay", "0"),
            ("crossbar_delay", "0"),
            ("vcs", &v),
            ("routing", "pcube"),
        ],
    )
}

/// The empty table of saturation rates.
fn saturation_table() -> Table {
    Table::new(
        "Saturation rate (packets/node/cycle): model, simulation, and the busiest channel's \
         bound 1 / (M x its rate factor, eqs 1-2)",
        &[
            "cube",
            "V",
            "M",
            "model",
            "sim: last unsat.",
            "sim: first sat.",
            "busiest-channel bound",
        ],
    )
}

/// The charts of the `n`-cube's curves (and Fig 8's for the 8-cube).
fn push_charts(out: &mut Output, n: u32, series: Vec<Series>) {
    if n == 8 {
        let v3: Vec<_> = series
            .iter()
            .filter(|s| s.label.contains("V=3 "))
            .cloned()
            .collect();
        out.charts.push((
            "reproduce-002-fig8.svg".into(),
            Chart::new(
                "Paper 002 Fig 8: 8-cube, V = 3 (model and simulation)",
                "generation rate (packets/node/cycle)",
                "mean latency (cycles)",
                v3,
            ),
        ));
    }
    out.charts.push((
        format!("reproduce-002-{n}-cube.svg"),
        Chart::new(
            &format!("Paper 002, P-cube, {n}-cube: latency vs generation rate"),
            "generation rate (packets/node/cycle)",
            "mean latency (cycles)",
            series,
        ),
    ));
}

/// Runs the reproduction.
pub fn run(b: &Budget) -> Output {
    let mut out = Output::default();
    let mut cases = Vec::new();
    let mut missing = None;
    let cubes: &[u32] = if b.quick { &CUBES[..1] } else { &CUBES };
    let lengths: &[u32] = if b.quick { &LENGTHS[..1] } else { &LENGTHS };
    for &n in cubes {
        for vcs in [3u32, 6] {
            let net = netlist(n, vcs);
            if let Err(e) = &net {
                missing = Some(e.clone());
            }
            for &m in lengths {
                let sat = model_saturation(|r| model(n, vcs, m, r), 0.05);
                for rate in rates_up_to(sat * 0.95, if b.quick { 2 } else { 5 }) {
                    cases.push((n, vcs, m, rate, net.clone()));
                }
            }
        }
    }
    let window = |n: u32| match (b.quick, n) {
        (true, _) => (300, 1500),
        (false, 6) => (5_000, 40_000),
        (false, 8) => (5_000, 15_000),
        (false, _) => (5_000, 10_000),
    };
    let points: Vec<_> = cases
        .iter()
        .map(|(n, _, m, rate, net)| (net, *rate, *m, window(*n)))
        .collect();
    let sims = simulate_points(&points, b);
    if let Some(e) = &missing {
        out.notes.push(format!(
            "flitsim simulation not run: the netlist does not accept P-cube ({e})"
        ));
    }
    let mut rows_json = Vec::new();
    let mut sat = saturation_table();
    for &n in cubes {
        let mut series = Vec::new();
        let mut color = 0;
        for vcs in [3u32, 6] {
            for &m in lengths {
                let points: Vec<_> = (0..cases.len())
                    .filter(|&i| cases[i].0 == n && cases[i].1 == vcs && cases[i].2 == m)
                    .map(|i| (cases[i].3, model(n, vcs, m, cases[i].3), &sims[i]))
                    .collect();
                for &(rate, lat, sim) in &points {
                    rows_json.push(json!({
                        "n": n, "vcs": vcs, "length": m, "rate": rate, "model": lat,
                        "simulation": sim.as_ref().ok().and_then(|p| p.latency()),
                        "simulation_ci95": sim.as_ref().ok().and_then(|p| p.ci95()),
                    }));
                }
                sat.rows.push(saturation_row(n, vcs, m, &points));
                let c = curve(
                    format!("{n}-cube, P-cube, V = {vcs}, M = {m}: latency in cycles"),
                    &format!("V={vcs} M={m}"),
                    color,
                    &points,
                );
                out.tables.push(c.table);
                series.extend(c.series);
                color += 1;
            }
        }
        push_charts(&mut out, n, series);
    }
    out.tables.push(sat);
    out.notes.push(
        "Fig 8's second curve, Ould-Khaoua's 1999 model, is not implemented (its paper is \
         not among the five); the chart shows this paper's model and the simulation"
            .into(),
    );
    let rates = channel_rates(b, &mut out);
    out.json = json!({
        "paper": "002", "rows": rows_json, "channel_rates": rates, "missing": missing,
    });
    out
}

/// The busiest channel's arrival rate per unit generation rate (eqs 1-2): the largest
/// class factor of the n-cube.
pub fn busiest_channel_factor(n: u32) -> f64 {
    let neg = (0..n).map(|z| (z, p002_patooghy::ChannelSign::Negative));
    let pos = (1..=n).map(|z| (z, p002_patooghy::ChannelSign::Positive));
    neg.chain(pos)
        .map(|(z, s)| p002_patooghy::channel_rate_sum(n, z, s).to_f64())
        .fold(0.0, f64::max)
        / f64::from((1u32 << n) - 1)
}

/// One row of the saturation table.
fn saturation_row(
    n: u32,
    vcs: u32,
    m: u32,
    points: &[(f64, Option<f64>, &Result<super::SimPoint, String>)],
) -> Vec<String> {
    let model_sat = model_saturation(|r| model(n, vcs, m, r), 0.05);
    let sat = |p: &Result<super::SimPoint, String>| p.as_ref().map_or(true, |p| p.saturated());
    let last = points.iter().take_while(|p| !sat(p.2)).last().map(|p| p.0);
    let first = points.iter().find(|p| sat(p.2)).map(|p| p.0);
    let f = |x: Option<f64>| x.map_or("-".into(), |v| format!("{v:.5}"));
    vec![
        format!("{n}-cube"),
        vcs.to_string(),
        m.to_string(),
        format!("{model_sat:.5}"),
        f(last),
        f(first),
        format!("{:.5}", 1.0 / (f64::from(m) * busiest_channel_factor(n))),
    ]
}

/// Experiment 2: measured vs exact per-channel rates on the 6-cube at a low load.
fn channel_rates(b: &Budget, out: &mut Output) -> serde_json::Value {
    const N: u32 = 6;
    const RATE: f64 = 0.004;
    const LENGTH: u32 = 8;
    let mut t = Table::new(
        format!(
            "{N}-cube, P-cube, V = 3, M = {LENGTH}, rate {RATE}: channel arrival rate \
             (packets/cycle) by class, measured vs eqs 1-2"
        ),
        &[
            "sign", "zeros", "channels", "exact", "measured", "error", "std err", "z",
        ],
    );
    let classes: Vec<(p002_patooghy::ChannelSign, u32)> = (0..N)
        .map(|z| (p002_patooghy::ChannelSign::Negative, z))
        .chain((1..=N).map(|z| (p002_patooghy::ChannelSign::Positive, z)))
        .collect();
    let cycles = if b.quick { 5_000 } else { 200_000 };
    let sim = netlist(N, 3).and_then(|net| {
        let p = simulate_at(&net, RATE, LENGTH, (2_000, cycles), b.seed)?;
        Ok((net, p))
    });
    let mut rows = Vec::new();
    for (sign, zeros) in classes {
        let exact = p002_patooghy::channel_rate_sum(N, zeros, sign).to_f64() * RATE
            / f64::from((1 << N) - 1);
        let measured = sim.as_ref().ok().map(|(net, p)| {
            let of: Vec<u64> = p
                .measured
                .channels
                .iter()
                .filter(|c| {
                    let r = net.router(flitsim_netlist::RouterId(c.router));
                    let dim = r.ports[usize::from(c.port)].direction.map_or(0, |d| d.0);
                    let a = c.router;
                    let s = if a >> dim & 1 == 1 {
                        p002_patooghy::ChannelSign::Negative
                    } else {
                        p002_patooghy::ChannelSign::Positive
                    };
                    s == sign && N - a.count_ones() == zeros
                })
                .map(|c| c.packets)
                .collect();
            let total: u64 = of.iter().sum();
            let per = (p.measured.channel_cycles as f64) * of.len().max(1) as f64;
            (of.len(), total as f64 / per, (total as f64).sqrt() / per)
        });
        let sign_name = match sign {
            p002_patooghy::ChannelSign::Negative => "neg",
            p002_patooghy::ChannelSign::Positive => "pos",
        };
        let z = measured.map(|(_, m, se)| if se > 0.0 { (m - exact) / se } else { 0.0 });
        t.rows.push(vec![
            sign_name.into(),
            zeros.to_string(),
            measured.map_or("-".into(), |m| m.0.to_string()),
            format!("{exact:.6}"),
            measured.map_or("n/a".into(), |m| format!("{:.6}", m.1)),
            pct(measured.and_then(|m| rel(Some(m.1), Some(exact)))),
            measured.map_or("-".into(), |m| format!("{:.6}", m.2)),
            z.map_or("-".into(), |z| format!("{z:+.2}")),
        ]);
        rows.push(json!({
            "sign": sign_name, "zeros": zeros, "exact": exact,
            "measured": measured.map(|m| m.1), "std_err": measured.map(|m| m.2), "z": z,
        }));
    }
    out.tables.push(t);
    json!(rows)
}
