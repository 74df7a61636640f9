//! The cost model on simulated activity: a single packet costs exactly the hand count of
//! its events times the per-event energies; dynamic energy is linear in the load and
//! leakage does not depend on it; the figures are the same for any thread count.

use flitsim::cost;
use flitsim::cost_model::{buffer, crossbar, wire, Mode, Options, Tech, DEFAULT_TECH};
use flitsim::engine::{SimConfig, Simulation};
use flitsim::netlist::topology::torus;
use flitsim::netlist::{Netlist, TerminalId};

/// A 4x4 torus, 4 VCs of 8 flits, 64-bit flits; ports: local, east, west, north, south.
fn net() -> Netlist {
    let mut n = torus(&[4, 4]);
    n.set("vcs", "4").unwrap();
    n.set("buffer_depth", "8").unwrap();
    n.set("flit_width", "64").unwrap();
    n
}

/// The cost of `sim`'s activity so far on `net()`.
fn cost_of(sim: &Simulation, options: &Options) -> flitsim::cost_model::CostReport {
    let (n, tech) = (net(), Tech::builtin(DEFAULT_TECH).unwrap());
    let design = cost::prepare(&n, &tech, options).unwrap().unwrap();
    cost::of_run(&n, &design, sim, &tech, options).unwrap().1
}

#[test]
fn one_packet_costs_its_events_times_the_per_event_energies() {
    let config = SimConfig {
        rate: 0.0,
        warmup: 0,
        watchdog: 0,
        ..SimConfig::default()
    };
    let mut sim = Simulation::new(&net(), &config).unwrap();
    // Terminal 0 (router 0) to terminal 1 (router 1): one hop east, 5 flits.
    let flits = 5.0;
    sim.enqueue(TerminalId(0), TerminalId(1), 5);
    assert!(sim.run_until_idle(1000).unwrap());
    let t = Tech::builtin(DEFAULT_TECH).unwrap();
    let clock = t.default_clock_ghz();
    let options = Options {
        clock_ghz: Some(clock),
        mode: Mode::Corrected,
        detail: false,
    };
    let r = cost_of(&sim, &options);

    // Hand count per flit: router 0 writes and reads it at its local input (port 0) and
    // sends it east (port 1); router 1 writes and reads it at its west input (port 2) and
    // ejects it (port 0). It crosses the injection channel, one network channel (channel
    // latency 1: 2 mm) and the ejection channel (2 mm).
    let (bits, words, ports) = (64.0, 32.0, (5.0, 5.0));
    let m = Mode::Corrected;
    let hz = clock * 1e9;
    let router = |from: f64, to: f64| {
        buffer::write_energy_j(&t, m, bits, words, hz)
            + buffer::read_energy_j(&t, m, bits, words)
            + bits * crossbar::bit_energy_j(&t, ports, bits, (from, to))
            + crossbar::control_energy_j(&t, ports, bits)
            + crossbar::output_register_energy_j(&t, bits)
            + crossbar::output_control_energy_j(&t, bits)
    };
    let w = wire::design(&t, 2.0, 1.0 / hz).unwrap();
    // A repeated wire's bit: half of (K (Ci + Co) + Cw L / (M N)) V^2, M N times.
    let v2 = t.vdd_v * t.vdd_v;
    let per_segment = w.k * (3.0 * t.gate_power_f_per_um + 3.0 * t.drain_power_f_per_um)
        + t.wire_f_per_mm() * 2.0 / (w.m * w.n);
    let wire_bit = 0.5 * per_segment * v2 * w.m * w.n;
    let channel = bits * wire_bit + w.m * wire::flip_flop_energy_j(&t, bits);
    let expected_j = flits * (router(0.0, 1.0) + router(2.0, 0.0) + 3.0 * channel);
    let got_j = r.energy_pj.dynamic() * 1e-12;
    assert!(
        (got_j - expected_j).abs() <= 1e-9 * expected_j,
        "dynamic energy {got_j} J, hand count {expected_j} J"
    );
    // And component by component where the count is one kind of event.
    let reads = r.energy_pj.input_read * 1e-12;
    let read = buffer::read_energy_j(&t, m, bits, words);
    assert!((reads - 2.0 * flits * read).abs() <= 1e-9 * reads);
    let wires = r.energy_pj.channel_wire * 1e-12;
    assert!((wires - 3.0 * flits * bits * wire_bit).abs() <= 1e-9 * wires);
}

/// A finished uniform run at `rate` on `threads` threads, `(warm-up, measured)` cycles.
fn uniform_run(rate: f64, threads: usize, (warmup, cycles): (u64, u64)) -> Simulation {
    let config = SimConfig {
        rate,
        warmup,
        cycles,
        threads,
        ..SimConfig::default()
    };
    let mut sim = Simulation::new(&net(), &config).unwrap();
    sim.run();
    sim
}

/// Dynamic energy per cycle, leakage power (mW) and flits delivered of a uniform run at
/// `rate` on `threads` threads.
fn run(rate: f64, threads: usize) -> (f64, f64, flitsim::cost_model::CostReport) {
    let sim = uniform_run(rate, threads, (2000, 20_000));
    let r = cost_of(&sim, &Options::default());
    let dynamic = r.energy_pj.dynamic() / r.cycles as f64;
    (dynamic, r.power_mw.leakage(), r)
}

#[test]
fn dynamic_energy_doubles_with_the_load_and_leakage_does_not_move() {
    // Well below saturation (about 0.5 flits/node/cycle for a 4x4 torus under DOR).
    let (low, leak_low, _) = run(0.05, 1);
    let (high, leak_high, _) = run(0.10, 1);
    let ratio = high / low;
    assert!(
        (ratio - 2.0).abs() < 0.06,
        "dynamic energy per cycle ratio {ratio}"
    );
    // Leakage power is energy over time: the same to rounding whatever the load.
    assert!(
        (leak_low - leak_high).abs() <= 1e-12 * leak_low,
        "{leak_low} {leak_high}"
    );
}

#[test]
fn the_figures_are_the_same_for_any_thread_count() {
    let (_, _, one) = run(0.2, 1);
    let (_, _, two) = run(0.2, 2);
    assert_eq!(one, two);
}

#[test]
fn one_packet_makes_the_hand_count_of_allocation_requests_and_grants() {
    let config = SimConfig {
        rate: 0.0,
        warmup: 0,
        watchdog: 0,
        ..SimConfig::default()
    };
    let mut sim = Simulation::new(&net(), &config).unwrap();
    // Terminal 0 (router 0) to terminal 1 (router 1): one hop east, 5 flits, alone in
    // the network, so no request waits: at each router the head asks for an output VC
    // once and is granted it, and each flit asks for the switch once and is granted it.
    sim.enqueue(TerminalId(0), TerminalId(1), 5);
    assert!(sim.run_until_idle(1000).unwrap());
    let a = sim.router_activity();
    let counts = |r: usize| {
        let x = &a[r];
        [
            x.vc_requests,
            x.vc_grants,
            x.switch_requests,
            x.switch_grants,
        ]
    };
    assert_eq!(counts(0), [1, 1, 5, 5]);
    assert_eq!(counts(1), [1, 1, 5, 5]);
    for r in 2..a.len() {
        assert_eq!(counts(r), [0; 4], "router {r}");
    }
}

#[test]
fn allocation_counts_are_the_same_for_any_thread_count_and_grow_with_contention() {
    let activity =
        |rate: f64, threads: usize| uniform_run(rate, threads, (500, 3000)).router_activity();
    let (one, two) = (activity(0.3, 1), activity(0.3, 2));
    assert_eq!(one, two);
    let sum = |a: &[flitsim::cost_model::RouterActivity],
               f: fn(&flitsim::cost_model::RouterActivity) -> u64| {
        a.iter().map(f).sum::<u64>()
    };
    // Every grant answers a request; a busy network makes requests wait and repeat.
    let (vr, vg) = (sum(&one, |r| r.vc_requests), sum(&one, |r| r.vc_grants));
    let (sr, sg) = (
        sum(&one, |r| r.switch_requests),
        sum(&one, |r| r.switch_grants),
    );
    assert!(vg > 0 && sg > 0);
    assert!(vr > vg && sr > sg, "VC {vr}/{vg}, switch {sr}/{sg}");
}
