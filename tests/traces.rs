//! Cycle-trace snapshots of small, fully explained scenarios, and the VCD export
//! read back. Every scenario runs `flitsim trace` through [`check_trace`], the one place
//! that calls the simulator; each snapshot was read line by line against the timing
//! contract before it was accepted, and each test also asserts the contract's numbers
//! directly, so a snapshot change that breaks them fails even if someone accepts it.
//!
//! The fixture `data/trace/ring-4.toml` is a 4-router ring r0 -> r1 -> r2 -> r3 -> r0
//! (`east` = +1, `west` = -1) with the default router (rd = vd = sd = xd = cd = 1), 2 VCs
//! of 4 flits and 1-cycle channels, dimension-order routing with a dateline on the
//! wrap-around channel r3 -> r0 (class 0 = vc0 before it, class 1 = vc1 on and after it).

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Command;

const RING4: &str = "tests/data/trace/ring-4.toml";

/// Runs `flitsim trace NETLIST ARGS..` and returns its stdout; asserts the exit code.
fn check_trace(netlist: &str, args: &[&str], code: i32) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_flitsim"))
        .arg("trace")
        .arg(netlist)
        .args(args)
        .output()
        .expect("flitsim runs");
    assert_eq!(
        out.status.code(),
        Some(code),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8 trace")
}

/// One parsed trace line.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Line {
    cycle: u64,
    comp: String,
    event: String,
    flit: String,
    kind: String,
    detail: String,
}

fn parse(trace: &str) -> Vec<Line> {
    trace
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let mut f = l.split_whitespace();
            let mut next = || f.next().expect("six fields").to_string();
            let (cycle, comp, event, flit, kind) = (next(), next(), next(), next(), next());
            let detail = f.collect::<Vec<_>>().join(" ");
            Line {
                cycle: cycle.parse().expect("cycle"),
                comp,
                event,
                flit,
                kind,
                detail,
            }
        })
        .collect()
}

/// The cycle of the first line matching `comp`, `event` and `flit`.
fn at(lines: &[Line], comp: &str, event: &str, flit: &str) -> u64 {
    lines
        .iter()
        .find(|l| l.comp == comp && l.event == event && l.flit == flit)
        .unwrap_or_else(|| panic!("no {comp} {event} {flit}"))
        .cycle
}

/// The trace is sorted by cycle and, within a cycle, by component (routers, terminals,
/// watchdog, each by id).
fn assert_sorted(lines: &[Line]) {
    let key = |l: &Line| {
        let (class, id) = match l.comp.as_bytes()[0] {
            b'r' => (0, l.comp[1..].parse::<u32>().unwrap()),
            b't' => (1, l.comp[1..].parse::<u32>().unwrap()),
            _ => (2, 0),
        };
        (l.cycle, class, id)
    };
    for w in lines.windows(2) {
        assert!(key(&w[0]) <= key(&w[1]), "out of order: {w:?}");
    }
}

/// Scenario 1: one 2-flit packet t0 -> t2 crosses r0, r1, r2 (H = 2 hops) at zero load.
///
/// The snapshot must show, per router, the four pipeline stages one cycle apart for the
/// head: `recv` + `route` at t (RC), `vc-alloc` at t+1 (VA), `grant` at t+2 (SA), `send`
/// at t+4 (after sd + xd), `recv` at the next router at t+5 (L = 1); the tail one cycle
/// behind, skipping RC/VA; each `grant` followed cd = 1 later by a `credit-out` that the
/// upstream reads L = 1 later (`credit-in`), the tail's credit freeing the output VC
/// (`vc-free`, conservative release); and `eject` of the tail at
/// T0 = 2*Lt + (H+1)*4 + H*L + (M-1) = 2 + 12 + 2 + 1 = 17 (`latency=17`).
#[test]
fn scenario1_one_packet_crosses_a_ring_at_zero_load() {
    let trace = check_trace(RING4, &["--rate", "0", "--inject", "0:0:2:2"], 0);
    let lines = parse(&trace);
    assert_sorted(&lines);
    for (r, t) in [("r0", 1), ("r1", 6), ("r2", 11)] {
        assert_eq!(at(&lines, r, "recv", "0:0.0"), t, "{r} reads the head");
        assert_eq!(at(&lines, r, "route", "0:0.0"), t, "{r} RC");
        assert_eq!(at(&lines, r, "vc-alloc", "0:0.0"), t + 1, "{r} VA");
        assert_eq!(at(&lines, r, "grant", "0:0.0"), t + 2, "{r} SA");
        assert_eq!(at(&lines, r, "send", "0:0.0"), t + 4, "{r} writes");
        assert_eq!(at(&lines, r, "send", "0:0.1"), t + 5, "tail one behind");
    }
    let tail = lines
        .iter()
        .find(|l| l.event == "eject" && l.kind == "tail")
        .unwrap();
    assert_eq!(
        (tail.cycle, tail.detail.as_str()),
        (17, "r2.local/vc0 -> t2 latency=17")
    );
    insta::assert_snapshot!("scenario1_ring_zero_load", trace);
}

/// Scenario 2: two 2-flit packets, t0 -> t2 (through r1's `west` input) and t1 -> t2
/// (injected at cycle 5 so both heads reach r1 at cycle 6), both need r1.east.
///
/// (a) 2 VCs (one per dateline class), `vc_release = credits`: both route to r1.east/vc0
/// at 6 and request it at 7; VA grants it to r1.local (the separable input-first allocator's round-robin arbiter
/// starts at input 0) and the loser shows `stall lost-vc` at 7, then `stall no-vc` every
/// cycle until the winner's tail has left (9) and all its credits are home: the tail
/// leaves r2.west at SA cycle 14, its credit is written at 15 and read at r1 at 16
/// (`vc-free`), and VA gives the VC to r1.west in that same cycle.
///
/// (b) 4 VCs (two per class): the loser of the VC allocation at 7 (`lost-vc`: the
/// separable allocator's inputs both asked for vc0) gets vc1 at 8; from 9 the two packets
/// share r1.east one flit per cycle, the switch arbiter alternating between r1.west and
/// r1.local, and the waiting one shows `stall lost-switch` (it has a credit).
///
/// (c) As (a) under the default `vc_release = tail`: the winner's tail wins the switch at
/// 9 (`release`), and VA, which runs before SA in a step, gives r1.east/vc0 to r1.west at
/// 10 while the winner's flits are still in r2.west/vc0; the two packets then share that
/// FIFO, and the VC becomes idle (`vc-free`) only when the loser's last credit is home.
#[test]
fn scenario2_two_packets_contend_for_one_output() {
    let args = [
        "--rate",
        "0",
        "--set",
        "vc_release=credits",
        "--inject",
        "0:0:2:2",
        "--inject",
        "5:1:2:2",
        "--router",
        "r1",
    ];
    let trace = check_trace(RING4, &args, 0);
    let lines = parse(&trace);
    assert_sorted(&lines);
    assert_eq!(at(&lines, "r1", "vc-alloc", "1:0.0"), 7);
    let stalls: Vec<(u64, &str)> = lines
        .iter()
        .filter(|l| l.event == "stall")
        .map(|l| (l.cycle, l.detail.split(' ').nth(1).unwrap()))
        .collect();
    assert_eq!(stalls[0], (7, "lost-vc"));
    assert!(stalls[1..].iter().all(|s| s.1 == "no-vc"));
    assert_eq!(stalls.last().unwrap().0, 15);
    assert_eq!(at(&lines, "r1", "vc-free", "-"), 16);
    assert_eq!(at(&lines, "r1", "vc-alloc", "0:0.0"), 16);
    insta::assert_snapshot!("scenario2a_vc_contention", trace);

    let args = [
        "--rate", "0", "--set", "vcs=4", "--inject", "0:0:2:3", "--inject", "5:1:2:3", "--router",
        "r1",
    ];
    let trace = check_trace(RING4, &args, 0);
    let lines = parse(&trace);
    let sends: Vec<&str> = lines
        .iter()
        .filter(|l| l.comp == "r1" && l.event == "send")
        .map(|l| l.flit.as_str())
        .collect();
    assert_eq!(
        sends,
        ["1:0.0", "0:0.0", "1:0.1", "0:0.1", "1:0.2", "0:0.2"],
        "one flit per output port per cycle, alternating"
    );
    let sa_stalls = lines
        .iter()
        .filter(|l| l.event == "stall" && l.detail.contains("lost-switch"))
        .count();
    assert_eq!(sa_stalls, 4, "each flit but the two first waits one cycle");
    insta::assert_snapshot!("scenario2b_switch_contention", trace);

    let args = [
        "--rate", "0", "--inject", "0:0:2:2", "--inject", "5:1:2:2", "--router", "r1",
    ];
    let trace = check_trace(RING4, &args, 0);
    let lines = parse(&trace);
    assert_eq!(at(&lines, "r1", "release", "1:0.1"), 9);
    assert_eq!(at(&lines, "r1", "vc-alloc", "0:0.0"), 10);
    assert!(at(&lines, "r1", "vc-free", "-") > at(&lines, "r1", "send", "0:0.1"));
    insta::assert_snapshot!("scenario2c_vc_contention_tail_release", trace);
}

/// Scenario 3: a credit stall. 2-flit buffers and 3-cycle channels; one 4-flit packet
/// t0 -> t1 (one hop).
///
/// r0 grants the head at 3 and the body at 4 (the two credits of r1.west/vc0), then has no
/// credit: flit 2 shows `stall no-credit` from its arrival (6) until the first credit comes
/// back. The head reaches r1 at 3 + sd + xd + L = 8, leaves r1.west at SA 10, its credit
/// is written at 11 and read at r0 at 11 + L = 14, where r0 grants flit 2 in that same
/// cycle; the round trip from the head's grant is 14 - 3 = 11 cycles for 2 credits.
#[test]
fn scenario3_credit_stall_with_small_buffers_and_a_long_channel() {
    let args = [
        "--rate",
        "0",
        "--set",
        "buffer_depth=2",
        "--set",
        "channel_latency=3",
        "--inject",
        "0:0:1:4",
    ];
    let trace = check_trace(RING4, &args, 0);
    let lines = parse(&trace);
    assert_sorted(&lines);
    assert_eq!(
        at(&lines, "r1", "recv", "0:0.0"),
        at(&lines, "r0", "send", "0:0.0") + 3
    );
    let stalls: Vec<u64> = lines
        .iter()
        .filter(|l| l.event == "stall")
        .inspect(|l| assert!(l.detail.contains("no-credit"), "{l:?}"))
        .map(|l| l.cycle)
        .collect();
    assert_eq!(stalls, (6..=13).collect::<Vec<_>>());
    let credit_back = lines
        .iter()
        .find(|l| l.comp == "r0" && l.event == "credit-in" && l.detail.starts_with("r0.east"))
        .unwrap()
        .cycle;
    assert_eq!(credit_back, 14);
    assert_eq!(at(&lines, "r0", "grant", "0:0.2"), 14);
    insta::assert_snapshot!("scenario3_credit_stall", trace);
}

/// Scenario 4: a dateline crossing. A one-flit packet t2 -> t0 (distance 2 each way: the
/// tie goes east) takes r2 -> r3 -> r0; r3 -> r0 is the wrap-around channel, the dateline.
///
/// The snapshot must show class 0 (vc0) on r2.east, the class change at r3, which routes
/// the head from r3.west/vc0 to r3.east/vc1 (class 1 on the wrap-around channel), and the
/// packet arriving on r0.west/vc1.
#[test]
fn scenario4_dateline_crossing_changes_the_vc_class() {
    let args = ["--rate", "0", "--inject", "0:2:0:1", "--packet", "2:0"];
    let trace = check_trace(RING4, &args, 0);
    let lines = parse(&trace);
    let detail = |comp: &str, event: &str| {
        lines
            .iter()
            .find(|l| l.comp == comp && l.event == event)
            .unwrap()
            .detail
            .clone()
    };
    assert_eq!(detail("r2", "send"), "r2.east/vc0 -> r3.west/vc0");
    assert_eq!(detail("r3", "route"), "r3.west/vc0 -> r3.east/vc1");
    assert_eq!(detail("r3", "send"), "r3.east/vc1 -> r0.west/vc1");
    insta::assert_snapshot!("scenario4_dateline", trace);
}

/// Scenario 5: an adaptive turn with paper 000's routing (`quaglia`) on its 4x4 torus
/// preset (one-cycle-per-hop router: rd = vd = sd = xd = 0), 3 VCs per port: escape VCs 0
/// and 1 (dateline dimension-order), adaptive VC 2. Packet 3:0 (8 flits, t3 -> t1, X + 2
/// through r0) takes r0.east/vc2 at cycle 2 and holds it while its flits stream through
/// (tail granted at 9). Packet 0:0 (2 flits, t0 -> t5 = (1, 1), one hop in X and one in
/// Y), injected at 3, is routed at r0 at 4 with the candidates X first (r0.east/vc2), then
/// Y (r0.north/vc2), then the escape VC; X's only adaptive VC is busy, so VA gives it
/// r0.north/vc2 in that same cycle: the packet turns into Y instead of waiting.
///
/// Asserted, not snapshotted: without the blocker the same packet takes r0.east/vc2.
#[test]
fn scenario5_adaptive_routing_takes_y_when_x_is_busy() {
    let net = "netlists/paper000-torus-4x4.toml";
    let base = ["--rate", "0", "--routing", "quaglia", "--set", "vcs=3"];
    let mut args = base.to_vec();
    args.extend([
        "--inject", "0:3:1:8", "--inject", "3:0:5:2", "--router", "r0", "--to", "9",
    ]);
    let trace = check_trace(net, &args, 0);
    let lines = parse(&trace);
    assert_sorted(&lines);
    let detail = |lines: &[Line], event: &str, flit: &str| {
        lines
            .iter()
            .find(|l| l.comp == "r0" && l.event == event && l.flit == flit)
            .unwrap()
            .detail
            .clone()
    };
    assert_eq!(
        detail(&lines, "route", "0:0.0"),
        "r0.local/vc0 -> r0.east/vc2,r0.north/vc2,r0.east/vc1"
    );
    assert_eq!(
        detail(&lines, "vc-alloc", "3:0.0"),
        "r0.west/vc2 -> r0.east/vc2"
    );
    assert_eq!(
        detail(&lines, "vc-alloc", "0:0.0"),
        "r0.local/vc0 -> r0.north/vc2"
    );
    assert_eq!(at(&lines, "r0", "vc-alloc", "0:0.0"), 4);
    insta::assert_snapshot!("scenario5_adaptive_turn", trace);

    let mut alone = base.to_vec();
    alone.extend(["--inject", "3:0:5:2"]);
    let lines = parse(&check_trace(net, &alone, 0));
    assert_eq!(
        detail(&lines, "vc-alloc", "0:0.0"),
        "r0.local/vc0 -> r0.east/vc2"
    );
}

/// Scenario 6: the watchdog's report on the ring without a dateline. One VC of 2 flits per
/// port, `dor-nodateline`; at cycle 0 every terminal t_i sends 8 flits to t_{i+2} (all go
/// east). Each packet takes its router's east output VC, fills the next router's 2-flit
/// west FIFO, and its head there waits for the east VC the next packet holds: a cycle.
///
/// From the last flit move the snapshot (last cycles only) must show every west head in
/// `stall no-vc` on the east VC and every injected packet's third flit in
/// `stall no-credit`, until the watchdog (8 cycles) reports the cycle r0.west/vc0 ->
/// r1.west/vc0 -> r2.west/vc0 -> r3.west/vc0 -> r0.west/vc0; exit code 3.
#[test]
fn scenario6_watchdog_reports_the_nodateline_deadlock() {
    let args = [
        "--rate",
        "0",
        "--routing",
        "dor-nodateline",
        "--set",
        "vcs=1",
        "--set",
        "buffer_depth=2",
        "--watchdog",
        "8",
        "--inject",
        "0:0:2:8",
        "--inject",
        "0:1:3:8",
        "--inject",
        "0:2:0:8",
        "--inject",
        "0:3:1:8",
    ];
    let full = check_trace(RING4, &args, 3);
    let lines = parse(&full);
    assert_sorted(&lines);
    let last = lines.last().unwrap();
    assert_eq!(last.comp, "watchdog");
    assert_eq!(
        last.detail,
        "r0.west/vc0 -> r1.west/vc0 -> r2.west/vc0 -> r3.west/vc0 -> r0.west/vc0"
    );
    let last_move = lines
        .iter()
        .filter(|l| matches!(l.event.as_str(), "send" | "inject" | "eject"))
        .map(|l| l.cycle)
        .max()
        .unwrap();
    assert_eq!(
        last.cycle,
        last_move + 8,
        "the watchdog fires 8 cycles after the last move"
    );
    let from = (last.cycle - 1).to_string();
    let mut tail_args = args.to_vec();
    tail_args.extend(["--from", &from]);
    let tail = check_trace(RING4, &tail_args, 3);
    insta::assert_snapshot!("scenario6_nodateline_deadlock", tail);
}

/// Scenario 7 (first half): virtual cut-through condensing a blocked packet. Packet 0:0
/// (4 flits, t0 -> t2) reaches r1 at cycle 6 together with packet 1:0 (4 flits, t1 -> t3,
/// injected at 5); both need r1.east/vc0 and 1:0 wins it (as in scenario 2a). Under `vct`
/// with 4-flit buffers, r0 gave 0:0 the VC r1.west/vc0 only because that FIFO can hold the
/// whole packet, so all four flits flow on: r0 grants the tail at 6 (`release`: r0 holds
/// nothing of the packet any more) and the blocked packet sits condensed in r1.west/vc0
/// (`recv` 6..9) while its head shows `stall no-vc` until 1:0's last credit is home at 18
/// (1:0's tail leaves r2.west at SA 16, its credit is read at r1 at 16 + cd + L = 18).
///
/// The contrast, asserted but not snapshotted: under wormhole with 2-flit buffers the same
/// packet stays spread over r0 and r1 (flit 2 in `stall no-credit` at r0 while the head
/// waits at r1), and r0 grants its tail only after r1 grants its head.
#[test]
fn scenario7_vct_condenses_a_blocked_packet() {
    let packets = [
        "--inject", "0:0:2:4", "--inject", "5:1:3:4", "--packet", "0:0",
    ];
    let mut args = vec![
        "--rate",
        "0",
        "--switching",
        "vct",
        "--router",
        "r0",
        "--router",
        "r1",
    ];
    args.extend(packets);
    let trace = check_trace(RING4, &args, 0);
    let lines = parse(&trace);
    assert_sorted(&lines);
    let tail_left_r0 = at(&lines, "r0", "grant", "0:0.3");
    let head_left_r1 = at(&lines, "r1", "grant", "0:0.0");
    assert_eq!(tail_left_r0, 6);
    assert_eq!(
        at(&lines, "r1", "recv", "0:0.3"),
        9,
        "the whole packet is in r1"
    );
    assert_eq!(at(&lines, "r1", "vc-alloc", "0:0.0"), 18);
    assert!(tail_left_r0 < head_left_r1, "condensed before it moves on");
    insta::assert_snapshot!("scenario7a_vct_condensing", trace);

    let mut args = vec!["--rate", "0", "--set", "buffer_depth=2"];
    args.extend(packets);
    let lines = parse(&check_trace(RING4, &args, 0));
    assert!(
        at(&lines, "r0", "grant", "0:0.3") > at(&lines, "r1", "grant", "0:0.0"),
        "wormhole: spread over two routers while blocked"
    );
    assert!(lines
        .iter()
        .any(|l| l.comp == "r0" && l.event == "stall" && l.detail.contains("no-credit")));
}

/// Scenario 7 (second half): a timeout reset travelling upstream, and the retransmission.
/// As in scenario 2a, packet 0:0 (4 flits, t0 -> t2) waits at r1.west/vc0 for
/// r1.east/vc0, held this time by a 12-flit packet 1:0 (t1 -> t3), with `--timeout 4`. The
/// head became VA-eligible at 7, so at 7 + 4 = 11 r1 drops it (`timeout`), discards its
/// four flits (each `discard` returns a credit) and writes a reset upstream (`reset-out`);
/// r0 reads it at 12 (`reset-in`, L = 1) and forwards it at once toward t0, which reads
/// it at 13, re-queues the packet and, without back-off, sends its head again in that
/// same cycle (`inject` 0:0.0 at 13), with the same packet id.
#[test]
fn scenario7_timeout_reset_travels_upstream_and_the_packet_is_retransmitted() {
    let args = [
        "--rate",
        "0",
        "--timeout",
        "4",
        "--inject",
        "0:0:2:4",
        "--inject",
        "5:1:3:12",
        "--packet",
        "0:0",
        "--to",
        "19",
    ];
    let trace = check_trace(RING4, &args, 0);
    let lines = parse(&trace);
    assert_sorted(&lines);
    assert_eq!(at(&lines, "r1", "timeout", "0:0"), 11);
    let discards = lines.iter().filter(|l| l.event == "discard").count();
    assert_eq!(discards, 4);
    assert_eq!(at(&lines, "r1", "reset-out", "0:0"), 11);
    assert_eq!(at(&lines, "r0", "reset-in", "0:0"), 12);
    assert_eq!(at(&lines, "r0", "reset-out", "0:0"), 12);
    assert_eq!(at(&lines, "t0", "reset-in", "0:0"), 13);
    let injects: Vec<u64> = lines
        .iter()
        .filter(|l| l.event == "inject" && l.flit == "0:0.0")
        .map(|l| l.cycle)
        .collect();
    assert_eq!(injects, [0, 13], "sent, then retransmitted");
    insta::assert_snapshot!("scenario7b_timeout_reset", trace);
}

/// Value of each signal of a parsed VCD, as a step function: (scope path, var) ->
/// [(time, value)], value `None` for `x`.
type Waves = BTreeMap<(String, String), Vec<(u64, Option<u64>)>>;

fn read_vcd(path: &PathBuf) -> Waves {
    use vcd::{Command as C, ScopeItem, Value};
    let f = std::io::BufReader::new(std::fs::File::open(path).unwrap());
    let mut p = vcd::Parser::new(f);
    let header = p.parse_header().expect("a VCD header");
    let mut names = BTreeMap::new();
    fn walk(items: &[ScopeItem], path: &str, names: &mut BTreeMap<vcd::IdCode, (String, String)>) {
        for it in items {
            match it {
                ScopeItem::Scope(s) => {
                    let p = if path.is_empty() {
                        s.identifier.clone()
                    } else {
                        format!("{path}.{}", s.identifier)
                    };
                    walk(&s.items, &p, names);
                }
                ScopeItem::Var(v) => {
                    names.insert(v.code, (path.to_string(), v.reference.clone()));
                }
                _ => {}
            }
        }
    }
    walk(&header.items, "", &mut names);
    fn num(bits: impl IntoIterator<Item = Value>) -> Option<u64> {
        bits.into_iter().try_fold(0u64, |acc, b| match b {
            Value::V0 => Some(acc << 1),
            Value::V1 => Some((acc << 1) | 1),
            _ => None,
        })
    }
    let mut waves = Waves::new();
    let mut t = 0;
    for c in p {
        let (id, v) = match c.expect("a VCD command") {
            C::Timestamp(ts) => {
                t = ts;
                continue;
            }
            C::ChangeScalar(id, v) => (id, num([v])),
            C::ChangeVector(id, v) => (id, num(v.iter())),
            _ => continue,
        };
        waves.entry(names[&id].clone()).or_default().push((t, v));
    }
    waves
}

fn value_at(w: &[(u64, Option<u64>)], t: u64) -> Option<u64> {
    w.iter()
        .take_while(|(ts, _)| *ts <= t)
        .last()
        .and_then(|x| x.1)
}

/// The VCD of scenario 1 parses, and its signals match the text trace: every channel's
/// `valid` is 1 exactly in the cycles of that channel's `send`/`inject` lines, with the
/// packet id, flit index, VC and head/tail of that line; every input VC's occupancy is the
/// running count of its `recv` lines minus its `grant` lines.
#[test]
fn scenario1_vcd_matches_the_text_trace() {
    let path = std::env::temp_dir().join(format!("flitsim-trace-{}.vcd", std::process::id()));
    let vcd_arg = path.to_str().unwrap();
    let trace = check_trace(
        RING4,
        &["--rate", "0", "--inject", "0:0:2:2", "--vcd", vcd_arg],
        0,
    );
    let waves = read_vcd(&path);
    std::fs::remove_file(&path).ok();
    let lines = parse(&trace);
    let end = lines.last().unwrap().cycle + 1;
    // Expected channel drives: scope -> cycle -> (src, seq, flit, vc, head, tail).
    let mut drives: BTreeMap<String, BTreeMap<u64, [u64; 6]>> = BTreeMap::new();
    let mut occ_changes: BTreeMap<String, Vec<(u64, i64)>> = BTreeMap::new();
    for l in &lines {
        let (pkt, idx) = l.flit.split_once('.').unwrap_or(("", ""));
        let drive = |scope: String, vc: &str, drives: &mut BTreeMap<_, BTreeMap<_, _>>| {
            let (src, seq) = pkt.split_once(':').unwrap();
            let k = l.kind.as_str();
            drives.entry(scope).or_default().insert(
                l.cycle,
                [
                    src.parse().unwrap(),
                    seq.parse().unwrap(),
                    idx.parse().unwrap(),
                    vc.parse().unwrap(),
                    u64::from(k.starts_with("head")),
                    u64::from(k.ends_with("tail")),
                ],
            );
        };
        let first = l.detail.split(' ').next().unwrap_or("");
        match l.event.as_str() {
            "send" => {
                // r0.east/vc0 -> ...
                let (port, vc) = first.split_once("/vc").unwrap();
                let (r, p) = port.split_once('.').unwrap();
                drive(format!("flitsim.{r}.out_{p}"), vc, &mut drives);
            }
            "inject" => {
                let vc = l.detail.rsplit_once("/vc").unwrap().1;
                drive(format!("flitsim.{}.inject", l.comp), vc, &mut drives);
            }
            "recv" | "grant" => {
                let (port, vc) = first.split_once("/vc").unwrap();
                let (r, p) = port.split_once('.').unwrap();
                let d = if l.event == "recv" { 1 } else { -1 };
                occ_changes
                    .entry(format!("flitsim.{r}.in_{p}|vc{vc}"))
                    .or_default()
                    .push((l.cycle, d));
            }
            _ => {}
        }
    }
    assert_eq!(
        drives.len(),
        4,
        "t0.inject, r0.out_east, r1.out_east, r2.out_local"
    );
    // Every channel of the network has signals; check all of them, driven or not.
    let channels: Vec<String> = waves
        .keys()
        .filter(|(_, v)| v == "valid")
        .map(|(s, _)| s.clone())
        .collect();
    assert_eq!(
        channels.len(),
        4 * 3 + 4,
        "3 outputs per router + 4 injection channels"
    );
    for scope in &channels {
        let w = |var: &str| &waves[&(scope.clone(), var.to_string())];
        for t in 0..=end {
            let expect = drives.get(scope).and_then(|d| d.get(&t));
            let valid = value_at(w("valid"), t);
            assert_eq!(
                valid,
                Some(u64::from(expect.is_some())),
                "{scope} valid at {t}"
            );
            if let Some(e) = expect {
                let got = ["pkt_src", "pkt_seq", "flit", "vc", "head", "tail"]
                    .map(|v| value_at(w(v), t).expect("defined while valid"));
                assert_eq!(&got, e, "{scope} at {t}");
            }
        }
    }
    let occupancy: Vec<&(String, String)> =
        waves.keys().filter(|(s, _)| s.contains(".in_")).collect();
    assert_eq!(
        occupancy.len(),
        4 * 3 * 2,
        "3 input ports of 2 VCs per router"
    );
    for key in occupancy {
        let changes = occ_changes
            .get(&format!("{}|{}", key.0, key.1))
            .cloned()
            .unwrap_or_default();
        for t in 0..=end {
            let expect: i64 = changes.iter().filter(|c| c.0 <= t).map(|c| c.1).sum();
            assert_eq!(
                value_at(&waves[key], t),
                Some(expect as u64),
                "{key:?} occupancy at {t}"
            );
        }
    }
}

/// Tracing observes and never steers: the same run with and without a trace gives the same
/// report, and the trace of a loaded torus is sorted by (cycle, component) and accounts for
/// every flit the terminals counted (one `inject` per injected flit, one `eject` per
/// consumed flit), and every `send` is read at the channel's far end one cycle later.
#[test]
fn tracing_does_not_change_a_loaded_run() {
    use flitsim::engine::trace::{Component, EventKind, Peer, TerminalEvent};
    use flitsim::engine::{SimConfig, Simulation};
    use flitsim::router::probe::RouterEvent;
    let net = flitsim::netlist::topology::torus(&[4, 4]);
    let config = SimConfig {
        rate: 0.05,
        length: 4,
        warmup: 500,
        cycles: 1000,
        drain: 0,
        ..SimConfig::default()
    };
    let plain = Simulation::new(&net, &config).unwrap().run();
    let mut sim = Simulation::new(&net, &config).unwrap();
    sim.enable_trace();
    let traced = sim.run();
    assert_eq!(plain, traced);
    let events = sim.take_trace();
    let key = |e: &flitsim::engine::trace::TraceEvent| (e.cycle, e.component);
    assert!(events.windows(2).all(|w| key(&w[0]) <= key(&w[1])));
    let count =
        |f: &dyn Fn(&EventKind) -> bool| events.iter().filter(|e| f(&e.kind)).count() as u64;
    let stats = sim.stats();
    let injects = count(&|k| matches!(k, EventKind::Terminal(TerminalEvent::Inject { .. })));
    let ejects = count(&|k| matches!(k, EventKind::Terminal(TerminalEvent::Eject { .. })));
    assert_eq!(
        (injects, ejects),
        (stats.flits_injected, stats.flits_consumed)
    );
    assert!(ejects > 1000, "the run carried traffic: {ejects}");
    // Every flit written at cycle c is read at c + 1 (L = Lt = 1) at the channel's far end:
    // the next router's input port, or the terminal.
    let names = sim.trace_names().unwrap().clone();
    let mut arrivals = std::collections::BTreeSet::new();
    for e in &events {
        let (r, port, flit) = match (&e.component, &e.kind) {
            (Component::Router(r), EventKind::Router(RouterEvent::FlitIn { port, flit })) => {
                (r.0 as i64, i64::from(port.0), flit)
            }
            (Component::Terminal(t), EventKind::Terminal(TerminalEvent::Eject { flit })) => {
                (-1 - t.0 as i64, 0, flit)
            }
            _ => continue,
        };
        arrivals.insert((e.cycle.0, r, port, flit.packet, flit.index));
    }
    let end = sim.now().0;
    let mut checked = 0;
    for e in &events {
        let (Component::Router(r), EventKind::Router(RouterEvent::FlitOut { out, flit })) =
            (&e.component, &e.kind)
        else {
            continue;
        };
        if e.cycle.0 + 1 >= end {
            continue;
        }
        let (r2, p2) = match names.downstream[r.index()][out.index()] {
            Peer::Router(r2, p2) => (r2.0 as i64, i64::from(p2)),
            Peer::Terminal(t) => (-1 - t.0 as i64, 0),
            Peer::None => panic!("a flit sent on an unconnected port"),
        };
        let key = (e.cycle.0 + 1, r2, p2, flit.packet, flit.index);
        assert!(arrivals.contains(&key), "{e:?} never arrived");
        checked += 1;
    }
    assert!(checked > 2000, "{checked}");
    assert!(events
        .iter()
        .all(|e| !matches!(e.component, Component::Watchdog)));
}
