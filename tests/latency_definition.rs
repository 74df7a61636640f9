//! The latency definition (`--latency-from`, `--latency-to`): at zero load each of the six
//! definitions measures exactly the timing contract's formula less the terminal channels
//! it leaves out; under load the definitions see the same packets, so their means differ
//! by exactly the source queue and the terminal channels; `--json` names the definition.

use flitsim::engine::{LatencyDef, LatencyFrom, LatencyTo, SimConfig, Simulation};
use flitsim::netlist::topology::torus;
use flitsim::netlist::{Netlist, TerminalId};

use crate::run_cli::flitsim;

const FROM: [LatencyFrom; 3] = [
    LatencyFrom::Generation,
    LatencyFrom::Injection,
    LatencyFrom::SourceRouter,
];
const TO: [LatencyTo; 2] = [LatencyTo::TailConsumed, LatencyTo::TailLeavesRouter];

/// A 4x4 torus whose terminal channels take `lt` cycles (other delays the defaults: 1).
fn net(lt: u32) -> Netlist {
    let mut n = torus(&[4, 4]);
    n.set("terminal_latency", &lt.to_string()).unwrap();
    n.set("buffer_depth", "8").unwrap();
    n
}

/// Torus 4x4 hops between routers `s` and `d` (shortest way around each ring).
fn hops(s: u64, d: u64) -> u64 {
    let ring = |a: u64, b: u64| a.abs_diff(b).min(4 - a.abs_diff(b));
    ring(s % 4, d % 4) + ring(s / 4, d / 4)
}

#[test]
fn zero_load_each_definition_is_the_formula_less_what_it_leaves_out() {
    let lt = 3;
    for from in FROM {
        for to in TO {
            let def = LatencyDef { from, to };
            let config = SimConfig {
                rate: 0.0,
                record_deliveries: true,
                watchdog: 0,
                latency: def,
                ..SimConfig::default()
            };
            let mut sim = Simulation::new(&net(lt), &config).unwrap();
            // T0 = 2 Lt + 4 (H + 1) + H + (M - 1) with every router delay and channel 1.
            let left_out = u64::from(from == LatencyFrom::SourceRouter) * u64::from(lt)
                + u64::from(to == LatencyTo::TailLeavesRouter) * u64::from(lt);
            for (s, d, m) in [(0u32, 5u32, 1u32), (3, 12, 7), (6, 6, 4), (15, 10, 12)] {
                sim.enqueue(TerminalId(s), TerminalId(d), m);
                assert!(sim.run_until_idle(10_000).unwrap());
                sim.run_for(40).unwrap();
                let got = sim.take_deliveries();
                let h = hops(u64::from(s), u64::from(d));
                let t0 = 2 * u64::from(lt) + 4 * (h + 1) + h + u64::from(m) - 1;
                assert_eq!(got[0].measured, t0 - left_out, "{def}: {s}->{d}, {m} flits");
            }
            let zero = sim.zero_load_latency();
            let full = Simulation::new(
                &net(lt),
                &SimConfig {
                    rate: 0.0,
                    ..SimConfig::default()
                },
            )
            .unwrap()
            .zero_load_latency();
            assert!(
                (full - zero - left_out as f64).abs() < 1e-9,
                "{def}: zero-load {zero} against {full}"
            );
        }
    }
}

#[test]
fn under_load_the_definitions_differ_by_the_source_queue_and_terminal_channels() {
    let lt = 2;
    let run = |from, to| {
        let config = SimConfig {
            rate: 0.05,
            length: 6,
            warmup: 500,
            cycles: 4000,
            latency: LatencyDef { from, to },
            ..SimConfig::default()
        };
        flitsim::engine::run(&net(lt), &config).unwrap()
    };
    let base = run(LatencyFrom::Generation, LatencyTo::TailConsumed);
    let queue = base.source_queue_time.mean.unwrap();
    assert!(queue > 0.1, "the load queues packets at their sources");
    let mean = base.latency.mean.unwrap();
    let injection = run(LatencyFrom::Injection, LatencyTo::TailConsumed);
    assert!((injection.latency.mean.unwrap() - (mean - queue)).abs() < 1e-9);
    let network = run(LatencyFrom::SourceRouter, LatencyTo::TailLeavesRouter);
    let expected = mean - queue - 2.0 * f64::from(lt);
    assert!((network.latency.mean.unwrap() - expected).abs() < 1e-9);
    assert!(network.latency.max.unwrap() <= base.latency.max.unwrap());
    // The same packets: Little's law counts the whole time in the system either way.
    assert_eq!(network.little, base.little);
    assert_eq!(network.packets, base.packets);
}

#[test]
fn json_names_the_definition_and_bad_names_are_refused() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/netlists/paper000-torus-4x4.toml"
    );
    let p = path;
    let args = [
        "run",
        p,
        "--rate",
        "0.01",
        "--warmup",
        "100",
        "--cycles",
        "1000",
        "--json",
        "--latency-from",
        "source-router",
        "--latency-to",
        "tail-leaves-router",
    ];
    let out = flitsim(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["config"]["latency"]["from"], "source-router");
    assert_eq!(v["config"]["latency"]["to"], "tail-leaves-router");
    let out = flitsim(&["run", p, "--latency-from", "head"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("generation, injection, source-router"),
        "{err}"
    );
}
