//! Paper 003 (Hu and Kleinrock): wormhole with timeout reset on a 3x3 torus, exponential
//! worm lengths. Figs. 8 (length 100, timeouts varied), 9 (timeout 20, lengths varied),
//! 10 (delayed retransmission) and 11 (the buffer effect): mean latency against the
//! generation rate. Figs. 2-3 (distributions at the channels of a 7x7 torus) are in
//! [`super::p003_channels`].
//!
//! The model side is what `flitsim model hu-kleinrock` evaluates: one channel with
//! exponential holding time (the worm length), its timeout probability from the
//! reneging-queue approximation (eqs 9-15) iterated with the retry traffic (eqs 1-4), and
//! the host queue with feedback (eqs 16-20). The network-wide coupling of holding times
//! (eqs 5-8) is not modelled (see `p003_hu_kleinrock`'s docs). The simulation:
//! `netlists/torus-3x3.toml` with one VC per channel (the paper's switches have none),
//! fixed dimension-order paths without datelines (the paper's source routes over minimal
//! paths; deadlocks are broken by the timeouts, as in the paper), every router stage 0
//! cycles and every channel, host channels included, the case's propagation delay, buffers
//! covering the credit round trip (one flit per time unit on every channel), exponential
//! lengths (`exp:MEAN`), the timeout reset (`timeout` key) and, for Fig. 10, a constant
//! retransmission delay (`backoff`).

use super::{f2, parallel_map, pct, rel, sim_cell, simulate, Budget, Output, SimPoint, Table};
use crate::plot::{Chart, Series, Style};
use flitsim_analysis::papers::p003_hu_kleinrock as hk;
use flitsim_engine::{LengthDist, SimConfig};
use serde_json::json;

pub use super::p003_switch::{netlist, netlist_sized, round_trip_depth, Case};

fn sim(b: &Budget, c: &Case, rate: f64) -> Result<SimPoint, String> {
    let net = netlist(c)?;
    let (warmup, cycles) = if b.quick {
        (1_000, 5_000)
    } else {
        (20_000, 300_000)
    };
    simulate(
        &net,
        &SimConfig {
            rate,
            length: c.length as u32,
            length_dist: Some(LengthDist::Exp { mean: c.length }),
            warmup,
            cycles,
            drain: 50_000,
            backoff: c.backoff,
            seed: b.seed,
            ..SimConfig::default()
        },
    )
}

/// Mean router-to-router hops between distinct hosts of the 3x3 torus (4 at one hop, 4
/// at two).
const MEAN_HOPS: f64 = 1.5;

/// Model latency and timeout probability at `rate` (packets per host per time unit);
/// `None` when the model is saturated. Eq (20)'s propagation term is the tail's trip over
/// the host-to-switch channel, the mean switch-to-switch hops and the switch-to-host channel.
pub fn model(rate: f64, c: &Case) -> Option<(f64, f64)> {
    let b2 = 2.0 * c.length * c.length;
    let propagation = f64::from(c.propagation) * (2.0 + MEAN_HOPS);
    hk::single_channel(rate, c.length, b2, c.timeout, propagation)
        .ok()
        .map(|m| (m.host.latency, m.channel.p_timeout))
}

/// A figure: number, what varies, its curves with their labels.
struct Figure {
    number: &'static str,
    what: &'static str,
    curves: Vec<(String, Case)>,
}

/// The base case: propagation 1 with the buffer covering its round trip, no back-off.
fn case(length: f64, timeout: f64) -> Case {
    Case {
        length,
        timeout,
        propagation: 1,
        depth: round_trip_depth(1),
        backoff: 0,
    }
}

/// The back-off of Fig. 10's delayed retransmissions: the paper gives no value; one mean
/// worm length is taken.
pub const FIG10_BACKOFF: u64 = 500;

fn figures() -> Vec<Figure> {
    let timeouts = [20.0, 50.0, 100.0].map(|t| (format!("timeout {t}"), case(100.0, t)));
    let lengths = [50.0, 100.0, 200.0].map(|l| (format!("length {l}"), case(l, 20.0)));
    let delayed = Case {
        backoff: FIG10_BACKOFF,
        ..case(500.0, 20.0)
    };
    let long_channel = |depth| Case {
        propagation: 10,
        depth,
        ..case(100.0, 20.0)
    };
    vec![
        Figure {
            number: "8",
            what: "length 100, propagation 1, timeouts 20/50/100",
            curves: timeouts.to_vec(),
        },
        Figure {
            number: "9",
            what: "timeout 20, propagation 1, lengths 50/100/200",
            curves: lengths.to_vec(),
        },
        Figure {
            number: "10",
            what: "length 500, timeout 20, propagation 1: immediate and delayed retransmission",
            curves: vec![
                ("immediate".into(), case(500.0, 20.0)),
                (format!("back-off {FIG10_BACKOFF}"), delayed),
            ],
        },
        Figure {
            number: "11",
            what: "length 100, timeout 20: the buffer effect",
            curves: vec![
                ("propagation 1, buffer 3".into(), case(100.0, 20.0)),
                ("propagation 10, buffer 21".into(), long_channel(21)),
                ("propagation 10, buffer 100".into(), long_channel(100)),
            ],
        },
    ]
}

/// The model's saturation rate for a case.
fn saturation(c: &Case) -> f64 {
    hk::single_channel_saturation(c.length, 2.0 * c.length * c.length, c.timeout)
}

/// Rates as fractions of `sat`, stepping over the model's singular point itself (its
/// latency grows as `1 / (1 - rho)` there), up to a quarter above it.
fn rate_grid(sat: f64, quick: bool) -> Vec<f64> {
    let fractions: &[f64] = if quick {
        &[0.3, 0.9]
    } else {
        &[0.15, 0.3, 0.45, 0.6, 0.7, 0.8, 0.9, 1.1, 1.25]
    };
    fractions
        .iter()
        .map(|x| {
            let r = sat * x;
            let scale = 10f64.powi(4 - r.log10().floor() as i32);
            (r * scale).round() / scale
        })
        .collect()
}

/// (figure, curve, model saturation, rate) for every point.
fn points(figures: &[Figure], quick: bool) -> Vec<(usize, usize, f64, f64)> {
    let mut points = Vec::new();
    for (f, fig) in figures.iter().enumerate() {
        let sats: Vec<f64> = fig.curves.iter().map(|(_, c)| saturation(c)).collect();
        // Fig. 8 compares timeouts at the same rates: one grid for its curves.
        let common = (fig.number == "8").then(|| sats.iter().copied().fold(0.0, f64::max));
        for (c, &sat) in sats.iter().enumerate() {
            for rate in rate_grid(common.unwrap_or(sat), quick) {
                points.push((f, c, sat, rate));
            }
        }
    }
    points
}

/// The empty table of one curve of a figure, its case in the title.
fn curve_table(fig: &Figure, label: &str, case: &Case, sat: f64) -> Table {
    Table::new(
        format!(
            "Fig. {} ({}), {label}: 3x3 torus, exponential length {}, timeout {}, \
             propagation {}, buffer {} flits, back-off {}; model saturation {sat:.5}",
            fig.number,
            fig.what,
            case.length,
            case.timeout,
            case.propagation,
            case.depth,
            case.backoff
        ),
        &[
            "rate",
            "model latency",
            "P(timeout)",
            "flitsim sim (95% CI)",
            "model vs sim",
        ],
    )
}

/// The notes on the latency's definition and on what the model columns are.
fn push_notes(out: &mut Output) {
    out.notes.push(
        "latency = generation -> tail consumed at the destination host (eq 20: host queue, \
         service over all tries, the tail's propagation to the destination)"
            .into(),
    );
    out.notes.push(
        "the model columns are the one-channel model (eqs 1-4, 9-20), not the network-wide \
         eqs 5-8; the simulation uses dimension-order paths for the paper's source routes; \
         Figs. 2-3 compare the measured distributions with the model's assumptions at the \
         measured arrival rate and holding time"
            .into(),
    );
}

/// Runs the reproduction.
pub fn run(b: &Budget) -> Output {
    let mut out = Output::default();
    let mut rows_json = Vec::new();
    let figures = figures();
    let points = points(&figures, b.quick);
    // Curves shared between figures are simulated once.
    let mut runs: Vec<(Case, f64)> = Vec::new();
    for &(f, c, _, rate) in &points {
        let run = (figures[f].curves[c].1, rate);
        if !runs.contains(&run) {
            runs.push(run);
        }
    }
    let results = parallel_map(&runs, b.threads, |(case, rate)| sim(b, case, *rate));
    let sims: Vec<&Result<SimPoint, String>> = points
        .iter()
        .map(|&(f, c, _, rate)| {
            let i = runs
                .iter()
                .position(|r| *r == (figures[f].curves[c].1, rate));
            &results[i.expect("every point has a run")]
        })
        .collect();
    for (f, fig) in figures.iter().enumerate() {
        let mut series = Vec::new();
        for (c, (label, case)) in fig.curves.iter().enumerate() {
            let mine: Vec<usize> = (0..points.len())
                .filter(|&i| points[i].0 == f && points[i].1 == c)
                .collect();
            let sat = points[mine[0]].2;
            let mut t = curve_table(fig, label, case, sat);
            let (mut pts, mut spts, mut errors) = (Vec::new(), Vec::new(), Vec::new());
            for &i in &mine {
                let rate = points[i].3;
                let m = model(rate, case);
                let sl = sims[i].as_ref().ok().and_then(|p| p.latency());
                t.rows.push(vec![
                    format!("{rate:.5}"),
                    f2(m.map(|m| m.0)),
                    m.map_or("-".into(), |m| format!("{:.4}", m.1)),
                    sim_cell(sims[i]),
                    pct(rel(m.map(|m| m.0), sl)),
                ]);
                pts.extend(m.map(|m| (rate, m.0)));
                spts.extend(sl.map(|v| (rate, v)));
                if sl.is_some() {
                    errors.push(sims[i].as_ref().ok().and_then(|p| p.ci95()));
                }
                rows_json.push(json!({
                    "figure": fig.number, "curve": label, "length": case.length,
                    "timeout": case.timeout, "propagation": case.propagation,
                    "buffer": case.depth, "backoff": case.backoff, "rate": rate,
                    "model_latency": m.map(|m| m.0), "p_timeout": m.map(|m| m.1),
                    "model_saturation": sat,
                    "simulation": sl,
                    "simulation_ci95": sims[i].as_ref().ok().and_then(|p| p.ci95()),
                    "simulation_saturated": sims[i].as_ref().ok().map(|p| p.saturated()),
                    "simulation_error": sims[i].as_ref().err(),
                }));
            }
            out.tables.push(t);
            series.push(Series {
                label: format!("model {label}"),
                points: pts,
                style: Style::Line,
                color: c,
                errors: Vec::new(),
            });
            series.push(Series {
                label: format!("simulation {label}"),
                points: spts,
                style: Style::Points,
                color: c,
                errors: errors.into_iter().map(|e| e.unwrap_or(0.0)).collect(),
            });
        }
        out.charts.push((
            format!("reproduce-003-fig{}.svg", fig.number),
            Chart {
                title: format!("Paper 003, Fig. {} ({}): latency", fig.number, fig.what),
                x_label: "generation rate (packets/host/time unit)".into(),
                y_label: "mean latency (time units)".into(),
                series,
            },
        ));
    }
    if let Some(Err(e)) = sims.iter().find(|s| s.is_err()) {
        out.notes.push(format!("flitsim simulation not run: {e}"));
    }
    push_notes(&mut out);
    let channels = super::p003_channels::run(b, &mut out);
    out.json = json!({
        "paper": "003",
        "figs_2_3": channels,
        "latency_definition": {"from": "generation", "to": "tail-consumed"},
        "rows": rows_json,
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use flitsim_engine::Simulation;
    use flitsim_netlist::TerminalId;

    #[test]
    fn one_worm_over_one_hop_takes_its_length_plus_two() {
        // 100 flits, one hop: injection (1) + channel (1) + ejection (1) + 99 flits behind
        // the head = 102 time units, one flit per time unit on every channel.
        let net = netlist(&case(100.0, 20.0)).unwrap();
        let config = SimConfig {
            rate: 0.0,
            record_deliveries: true,
            ..SimConfig::default()
        };
        let mut sim = Simulation::new(&net, &config).unwrap();
        sim.enqueue(TerminalId(0), TerminalId(1), 100);
        assert!(sim.run_until_idle(1000).unwrap());
        let d = sim.take_deliveries();
        assert_eq!((d[0].hops, d[0].latency()), (1, 102));
    }

    #[test]
    fn the_round_trip_buffer_keeps_long_channels_at_one_flit_per_time_unit() {
        let c = Case {
            propagation: 10,
            depth: round_trip_depth(10),
            ..case(100.0, 20.0)
        };
        let mut sim = Simulation::new(
            &netlist(&c).unwrap(),
            &SimConfig {
                rate: 0.0,
                record_deliveries: true,
                ..SimConfig::default()
            },
        )
        .unwrap();
        sim.enqueue(TerminalId(0), TerminalId(1), 100);
        assert!(sim.run_until_idle(1000).unwrap());
        // Host channel, one switch-to-switch channel, host channel, 99 flits behind the head.
        assert_eq!(sim.take_deliveries()[0].latency(), 10 + 10 + 10 + 99);
    }
}
