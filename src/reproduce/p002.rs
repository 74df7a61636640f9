//! Paper 002 (Patooghy and Sarbazi-Azad): P-cube routing on wormhole hypercubes. Two
//! experiments:
//!
//! 1. Latency vs generation rate on the 6- and 8-cube, V = 3 and 6, M = 32 and 64: the
//!    simulation (`--routing pcube`, the one-cycle-per-hop router: every router delay 0,
//!    channels of 1 cycle) against `p002_patooghy::solve`, rates up to the model's
//!    saturation.
//! 2. Per-channel arrival rates at a low load on the 6-cube: the measured packets per cycle
//!    of every channel against the exact rates of eqs 1-2 (`channel_rate`), averaged per
//!    class (sign, number of 0 bits of the source), with the Poisson standard error of the
//!    measurement (`sqrt(count) / cycles`).

use super::{
    curve, model_saturation, pct, preset, rates_up_to, rel, simulate_at, simulate_points, Budget,
    Output, Table,
};
use crate::plot::Chart;
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

const NETS: [(u32, &str, &str); 2] = [
    (
        6,
        "netlists/hypercube-6.toml",
        include_str!("../../netlists/hypercube-6.toml"),
    ),
    (
        8,
        "netlists/hypercube-8.toml",
        include_str!("../../netlists/hypercube-8.toml"),
    ),
];

fn netlist(n: u32, vcs: u32) -> Result<flitsim_netlist::Netlist, String> {
    let (_, name, src) = NETS.iter().find(|x| x.0 == n).expect("netlist");
    let v = vcs.to_string();
    preset(
        name,
        src,
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

/// Runs the reproduction.
pub fn run(b: &Budget) -> Output {
    let mut out = Output::default();
    let mut cases = Vec::new();
    let mut missing = None;
    for (n, _, _) in NETS {
        for vcs in [3u32, 6] {
            let net = netlist(n, vcs);
            if let Err(e) = &net {
                missing = Some(e.clone());
            }
            for m in [32u32, 64] {
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
        (false, _) => (5_000, 15_000),
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
    for (n, _, _) in NETS {
        let mut series = Vec::new();
        let mut color = 0;
        for vcs in [3u32, 6] {
            for m in [32u32, 64] {
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
        out.charts.push((
            format!("reproduce-002-{n}-cube.svg"),
            Chart {
                title: format!("Paper 002, P-cube, {n}-cube: latency vs generation rate"),
                x_label: "generation rate (packets/node/cycle)".into(),
                y_label: "mean latency (cycles)".into(),
                series,
            },
        ));
    }
    let rates = channel_rates(b, &mut out);
    out.json = json!({
        "paper": "002", "rows": rows_json, "channel_rates": rates, "missing": missing,
    });
    out
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
