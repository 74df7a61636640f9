//! Request/reply traffic (`reply_length`, `service_delay`, `reply_queue`): a consumed
//! request's tail generates a reply back to its source. With requests and replies sharing
//! VCs a saturated network falls into a protocol deadlock, which the watchdog reports
//! through the refusing terminals' ejection buffers (exit 3); with a VC range per class
//! (`message_classes = 2`) the same run delivers every packet.

use flitsim::engine::{zero_load_latency_pair, SimConfig, Simulation, TerminalStats};
use flitsim::netlist::topology::torus;
use flitsim::netlist::{Netlist, RoutingKind, TerminalId};
use std::process::Command;

fn flitsim(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_flitsim"))
        .args(args)
        .output()
        .expect("flitsim runs");
    let text = |b: Vec<u8>| String::from_utf8(b).expect("utf-8");
    (
        out.status.code().unwrap_or(-1),
        text(out.stdout),
        text(out.stderr),
    )
}

/// Torus 4x4 with request/reply traffic, replies of 4 flits after 5 cycles of service,
/// one reply held per terminal, and `classes` message classes.
fn reqrep(classes: u8) -> Netlist {
    let mut n = torus(&[4, 4]);
    let set = [
        ("reply_length", "4"),
        ("service_delay", "5"),
        ("reply_queue", "1"),
        ("message_classes", if classes == 2 { "2" } else { "1" }),
    ];
    n.set_all(set).expect("valid settings");
    n
}

/// Far above saturation (1.2 flits/terminal/cycle of requests), then a drain of every
/// packet.
fn saturating(threads: usize) -> SimConfig {
    SimConfig {
        rate: 0.3,
        length: 4,
        warmup: 200,
        cycles: 1500,
        drain: 20_000,
        drain_all: true,
        watchdog: 500,
        threads,
        min_parallel_work: 0,
        ..SimConfig::default()
    }
}

#[test]
fn shared_vcs_deadlock_and_the_watchdog_names_the_terminals() {
    let mut sim = Simulation::new(&reqrep(1), &saturating(1)).unwrap();
    let report = sim.run();
    let deadlock = report.deadlock.expect("a protocol deadlock");
    assert_eq!(deadlock.kind, "deadlock", "{}", deadlock.message);
    // The cycle passes through a refusing terminal's ejection VC and the injection VC
    // its reply needs.
    let names = &deadlock.waiting;
    assert!(
        names
            .iter()
            .any(|w| w.starts_with("terminal ") && w.contains(" ejection vc")),
        "{names:?}"
    );
    assert!(names.iter().any(|w| w.contains(".local vc")), "{names:?}");

    // The CLI stops with exit 3 and the same report.
    let (code, _, err) = flitsim(&[
        "run",
        "netlists/torus-4x4.toml",
        "--rate",
        "0.3",
        "--length",
        "4",
        "--warmup",
        "200",
        "--cycles",
        "1500",
        "--drain",
        "--set",
        "reply_length=4",
        "--set",
        "service_delay=5",
        "--set",
        "reply_queue=1",
    ]);
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("error: deadlock at cycle"), "{err}");
    assert!(err.contains("ejection vc"), "{err}");
    assert!(err.contains(".local vc"), "{err}");
    assert!(err.contains("help: a protocol deadlock"), "{err}");
}

/// Every packet generated was delivered and every flit injected consumed; requests and
/// replies (4 flits each) are half the packets each.
fn assert_all_delivered(s: &TerminalStats) {
    assert_eq!(s.packets_generated, s.packets_consumed);
    assert_eq!(s.flits_injected, s.flits_consumed);
    assert!(s.packets_generated > 1000, "{}", s.packets_generated);
    assert_eq!(s.packets_generated % 2, 0);
    assert_eq!(s.flits_injected, s.packets_generated * 4);
}

#[test]
fn per_class_vc_ranges_deliver_every_packet() {
    let mut sim = Simulation::new(&reqrep(2), &saturating(1)).unwrap();
    let report = sim.run();
    assert!(report.deadlock.is_none(), "{:?}", report.deadlock);
    assert_eq!(report.packets.in_flight_end, 0);
    assert!(sim.is_idle());
    assert_all_delivered(&sim.stats());
}

#[test]
fn results_are_the_same_for_any_thread_count() {
    for classes in [1, 2] {
        let run = |threads: usize| {
            let mut sim = Simulation::new(&reqrep(classes), &saturating(threads)).unwrap();
            let report = sim.run();
            (
                report.deadlock.map(|d| d.message),
                sim.stats(),
                report.packets.in_flight_end,
            )
        };
        assert_eq!(run(1), run(2), "{classes} classes");
    }
}

#[test]
fn zero_load_round_trip_is_both_one_way_latencies_plus_the_service_delay() {
    let (req, rep, service) = (5, 3, 7);
    let mut n = torus(&[4, 4]);
    n.set_all([
        ("reply_length", "3"),
        ("service_delay", "7"),
        ("message_classes", "2"),
    ])
    .unwrap();
    // The plain torus: the same route and delays.
    let plain = torus(&[4, 4]);
    let routing = flitsim::routing::build(RoutingKind::Dor, &plain).unwrap();
    let one_way = |s: u32, d: u32, len: u32| {
        zero_load_latency_pair(&plain, routing.as_ref(), TerminalId(s), TerminalId(d), len)
    };
    let config = SimConfig {
        rate: 0.0,
        record_deliveries: true,
        ..SimConfig::default()
    };
    for (a, b) in [(0, 10), (3, 5), (7, 7)] {
        let mut sim = Simulation::new(&n, &config).unwrap();
        sim.enqueue(TerminalId(a), TerminalId(b), req);
        assert!(sim.run_until_idle(1000).unwrap());
        let d = sim.take_deliveries();
        assert_eq!(d.len(), 2, "one request, one reply: {d:?}");
        let request = d.iter().find(|x| x.dest == TerminalId(b) && x.len == req);
        let reply = d.iter().find(|x| x.dest == TerminalId(a) && x.len == rep);
        let (request, reply) = (request.unwrap(), reply.unwrap());
        assert_eq!(request.latency(), one_way(a, b, req));
        assert_eq!(reply.created.0, request.consumed.0 + service);
        assert_eq!(reply.latency(), one_way(b, a, rep));
        let round_trip = reply.consumed.0 - request.created.0;
        assert_eq!(
            round_trip,
            one_way(a, b, req) + service + one_way(b, a, rep)
        );
    }
    // Equal lengths on a torus: twice the one-way latency plus the service delay.
    n.set_all([("reply_length", "5")]).unwrap();
    let mut sim = Simulation::new(&n, &config).unwrap();
    sim.enqueue(TerminalId(0), TerminalId(10), req);
    assert!(sim.run_until_idle(1000).unwrap());
    let d = sim.take_deliveries();
    let last = d.iter().map(|x| x.consumed.0).max().unwrap();
    assert_eq!(last, 2 * one_way(0, 10, req) + service);
}

#[test]
fn bad_settings_are_refused_with_the_key() {
    let mut n = torus(&[4, 4]);
    let err = n.set_all([("reply_queue", "0")]).unwrap_err().to_string();
    assert!(err.contains("reply_queue"), "{err}");
    let err = n
        .set_all([("reply_length", "4"), ("timeout", "100")])
        .unwrap_err()
        .to_string();
    assert!(err.contains("timeout = 0"), "{err}");
    let mut n = torus(&[4, 4]);
    n.set_all([("reply_length", "4"), ("service_delay", "600")])
        .unwrap();
    let err = Simulation::new(&n, &saturating(1))
        .err()
        .unwrap()
        .to_string();
    assert!(err.contains("service_delay = 600"), "{err}");
}
