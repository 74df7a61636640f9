//! Conservation of flits and credits. Debug builds (the test profile has debug
//! assertions) check after every cycle that injected = in routers + on channels +
//! consumed, and that every VC's credits + occupied slots + in flight = depth; these runs
//! exercise that check under load with awkward settings. On top: every packet of a burst
//! is delivered exactly once, to its destination.

use flitsim::engine::{SimConfig, Simulation};
use flitsim::netlist::topology::{hypercube, mesh, torus};
use flitsim::netlist::{Netlist, TerminalId};
use std::collections::BTreeSet;

fn with(mut n: Netlist, sets: &[(&str, &str)]) -> Netlist {
    for (k, v) in sets {
        n.set(k, v).unwrap();
    }
    n
}

/// Runs each of `cases` at `rate` (5-flit packets, 500 warm-up and 3000 measured cycles,
/// at most `drain` cycles of drain) under the per-cycle check: no deadlock, packets
/// delivered, and with `drained` nothing left in flight.
fn conserves(cases: &[Netlist], rate: f64, drain: u64, drained: bool) {
    for n in cases {
        let config = SimConfig {
            rate,
            length: 5,
            warmup: 500,
            cycles: 3000,
            drain,
            ..SimConfig::default()
        };
        let r = Simulation::new(n, &config).unwrap().run();
        assert!(r.deadlock.is_none());
        assert!(r.packets.delivered > 0);
        if drained {
            assert_eq!(r.packets.in_flight_end, 0);
        }
    }
}

#[test]
fn conserved_under_load_with_awkward_settings() {
    let cases = [
        with(torus(&[4, 4]), &[]),
        with(
            torus(&[4, 4]),
            &[("buffer_depth", "2"), ("vcs", "2"), ("credit_delay", "3")],
        ),
        with(
            torus(&[4, 4]),
            &[
                ("channel_latency", "3"),
                ("terminal_latency", "2"),
                ("buffer_depth", "3"),
            ],
        ),
        with(
            torus(&[4, 4]),
            &[
                ("routing_delay", "0"),
                ("vc_alloc_delay", "0"),
                ("switch_alloc_delay", "0"),
                ("crossbar_delay", "0"),
                ("credit_delay", "0"),
            ],
        ),
        with(mesh(&[3, 5]), &[("buffer_depth", "1"), ("vcs", "1")]),
        with(
            hypercube(4),
            &[("crossbar_delay", "3"), ("buffer_depth", "4")],
        ),
        with(torus(&[4, 4]), &[("concentration", "4")]),
        with(
            mesh(&[3, 2]),
            &[
                ("concentration", "3"),
                ("terminal_latency", "2"),
                ("buffer_depth", "2"),
            ],
        ),
    ];
    conserves(&cases, 0.1, 5000, false);
}

/// Input and output speedup under load, with shallow buffers, zero-delay stages, every
/// allocator family and an adaptive routing: flits and credits conserved (the per-cycle
/// debug check counts the flits in the output queues), no deadlock, every packet
/// delivered.
#[test]
fn speedup_conserves_under_load() {
    let cases = [
        with(torus(&[4, 4]), &[("input_speedup", "2")]),
        with(
            torus(&[4, 4]),
            &[
                ("input_speedup", "2"),
                ("output_speedup", "2"),
                ("buffer_depth", "2"),
                ("vcs", "3"),
                ("switch_allocator", "islip"),
            ],
        ),
        with(
            mesh(&[4, 4]),
            &[
                ("output_speedup", "4"),
                ("routing", "duato"),
                ("switch_allocator", "wavefront"),
                ("crossbar_delay", "0"),
                ("credit_delay", "0"),
            ],
        ),
        with(
            hypercube(4),
            &[
                ("input_speedup", "4"),
                ("output_speedup", "3"),
                ("switch_allocator", "pim"),
                ("concentration", "2"),
            ],
        ),
    ];
    conserves(&cases, 0.15, 20_000, true);
}

/// Speculative switch allocation and lookahead routing under load, with shallow buffers,
/// every allocator family and an adaptive routing: flits and credits conserved (the
/// per-cycle debug check), no deadlock, every packet delivered.
#[test]
fn speculation_and_lookahead_conserve_under_load() {
    let spec = [("speculative", "true"), ("lookahead_routing", "true")];
    let cases = [
        with(torus(&[4, 4]), &spec),
        with(
            torus(&[4, 4]),
            &[
                spec[0],
                ("vc_alloc_delay", "0"),
                ("buffer_depth", "2"),
                ("vcs", "2"),
                ("switch_allocator", "islip"),
                ("vc_allocator", "wavefront"),
            ],
        ),
        with(
            mesh(&[4, 4]),
            &[
                spec[0],
                spec[1],
                ("routing", "duato"),
                ("switch_allocator", "pim"),
            ],
        ),
    ];
    conserves(&cases, 0.12, 20_000, true);
}

#[test]
fn every_packet_of_a_burst_is_delivered_once() {
    let n = with(
        torus(&[4, 4]),
        &[("buffer_depth", "2"), ("credit_delay", "2")],
    );
    let config = SimConfig {
        rate: 0.0,
        record_deliveries: true,
        ..SimConfig::default()
    };
    let mut sim = Simulation::new(&n, &config).unwrap();
    let mut sent = BTreeSet::new();
    for s in 0..16u32 {
        for k in 0..20u32 {
            let d = (s + 1 + (k * 7) % 15) % 16;
            let len = 1 + (s + k) % 9;
            sim.enqueue(TerminalId(s), TerminalId(d), len);
            sent.insert((s, k, d, len));
        }
    }
    assert!(sim.run_until_idle(100_000).unwrap());
    let got: BTreeSet<_> = sim
        .take_deliveries()
        .into_iter()
        .map(|d| (d.packet.source.0, d.packet.seq, d.dest.0, d.len))
        .collect();
    assert_eq!(got, sent);
    assert_eq!(sim.flits_in_network(), 0);
}
