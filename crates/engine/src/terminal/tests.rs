//! The terminal's timing, credits, latency and look-ahead.
use super::*;
use crate::injection::InjectionProcess;
use crate::latency::LatencyDef;
use crate::length::LengthDist;
use crate::rng::{stream, ComponentKind};
use crate::stats::Window;
use crate::traffic::Uniform;
use flitsim_netlist::{BufferDepth, Cycle, TerminalId, VcId};
use flitsim_router::{Credit, Flit, FlitKind, PacketId, Stamp};
use std::sync::Arc;

fn terminal(rate: f64, vcs: u8, depth: u32) -> Terminal {
    let cfg = TerminalConfig {
        rate,
        injection: InjectionProcess::Bernoulli,
        length: LengthDist::Fixed(3),
        window: Window {
            start: Cycle(0),
            end: Cycle(1000),
        },
        stop_generating: None,
        record_deliveries: true,
        backoff: 0,
        latency: LatencyDef::default(),
        terminal_latency: Arc::from(vec![1; 4]),
    };
    Terminal::new(
        TerminalId(0),
        &Arc::new(cfg),
        Arc::new(Uniform::new(4).unwrap()),
        stream(1, ComponentKind::Terminal, 0),
        vcs,
        BufferDepth::Flits(depth),
    )
}

#[test]
fn head_goes_in_the_generation_cycle_then_one_flit_per_cycle() {
    let mut t = terminal(0.0, 2, 8);
    t.enqueue(Cycle(5), TerminalId(2), 3);
    let mut sent = Vec::new();
    for c in 5..10 {
        if let (Some(f), _) = t.step(Cycle(c), None, None) {
            sent.push((c, f.index, f.kind, f.vc));
        }
    }
    assert_eq!(
        sent,
        vec![
            (5, 0, FlitKind::Head, VcId(0)),
            (6, 1, FlitKind::Body, VcId(0)),
            (7, 2, FlitKind::Tail, VcId(0)),
        ]
    );
}

#[test]
fn credits_limit_injection_and_a_vc_is_reused_only_when_all_credits_are_home() {
    let mut t = terminal(0.0, 2, 2);
    t.enqueue(Cycle(0), TerminalId(1), 3);
    t.enqueue(Cycle(0), TerminalId(1), 1);
    t.enqueue(Cycle(0), TerminalId(1), 1);
    let mut out = Vec::new();
    for c in 0..4 {
        out.push(t.step(Cycle(c), None, None).0.map(|f| (f.packet.seq, f.vc)));
    }
    // Two flits of packet 0 on vc0, then no credit for the third: packet 0 blocks the queue.
    assert_eq!(
        out,
        vec![Some((0, VcId(0))), Some((0, VcId(0))), None, None]
    );
    let c = Some(Credit { vc: VcId(0) });
    assert_eq!(t.step(Cycle(4), None, c).0.map(|f| f.index), Some(2));
    // Packet 1 takes vc1 (vc0 still has 2 credits out), packet 2 must wait for vc0.
    assert_eq!(t.step(Cycle(5), None, None).0.map(|f| f.vc), Some(VcId(1)));
    assert!(t.step(Cycle(6), None, None).0.is_none());
    assert!(t.step(Cycle(7), None, c).0.is_none());
    assert_eq!(t.step(Cycle(8), None, c).0.map(|f| f.vc), Some(VcId(0)));
}

#[test]
fn consumption_returns_a_credit_and_records_latency() {
    let mut t = terminal(0.0, 1, 4);
    let f = Flit {
        packet: PacketId {
            source: TerminalId(3),
            seq: 0,
        },
        index: 0,
        len: 1,
        kind: FlitKind::HeadTail,
        vc: VcId(2),
        dest: TerminalId(0),
        created: Stamp(10),
        injected: Stamp(12),
        hops: 2,
    };
    let (_, credit) = t.step(Cycle(20), Some(f), None);
    assert_eq!(credit, Some(Credit { vc: VcId(2) }));
    let s = t.stats();
    assert_eq!(
        (s.latency_sum, s.network_latency_sum, s.source_queue_sum),
        (10, 8, 2)
    );
    assert_eq!(t.take_deliveries()[0].latency(), 10);
}

#[test]
fn skipping_idle_steps_with_look_ahead_changes_nothing() {
    let make = || {
        let cfg = TerminalConfig {
            rate: 0.2,
            injection: InjectionProcess::Bernoulli,
            length: LengthDist::Fixed(2),
            window: Window {
                start: Cycle(20),
                end: Cycle(180),
            },
            stop_generating: Some(Cycle(150)),
            record_deliveries: false,
            backoff: 0,
            latency: LatencyDef::default(),
            terminal_latency: Arc::from(vec![1; 4]),
        };
        Terminal::new(
            TerminalId(0),
            &Arc::new(cfg),
            Arc::new(Uniform::new(4).unwrap()),
            stream(7, ComponentKind::Terminal, 0),
            2,
            BufferDepth::Unbounded,
        )
    };
    // Each flit's credit comes back the next cycle (waking the terminal).
    let step = |t: &mut Terminal, c: u64, credit: &mut Option<Credit>| {
        let f = t.step(Cycle(c), None, credit.take()).0;
        *credit = f.map(|f| Credit { vc: f.vc });
        f
    };
    // Stepped every cycle.
    let mut every = make();
    let mut credit = None;
    let a: Vec<_> = (0..200)
        .filter_map(|c| step(&mut every, c, &mut credit))
        .collect();
    every.settle(Cycle(200));
    // Stepped only when something arrives, when not idle, or when the look-ahead says
    // so (a short horizon, so the drawn trials run out too), in runs of `run` cycles
    // that draw no trial past their end (`bounded`) and step the terminal in their
    // first cycle, as the engine does; with `quiet`, a credit for a terminal quiet at
    // its cycle is taken without a step, the look-ahead's cycle kept.
    let run_skipping = |run: u64, bounded: bool, quiet: bool| {
        let mut t = make();
        let mut credit = None;
        let (mut b, mut next, mut steps) = (Vec::new(), None, 0);
        for c in 0..200 {
            if c % run == 0 {
                if bounded {
                    t.draw_until(Cycle(c + run));
                }
                next = Some(Cycle(c));
            }
            if next != Some(Cycle(c)) && t.is_idle() && credit.is_none() {
                continue;
            }
            if quiet && next.is_some_and(|n| n > Cycle(c)) && t.quiet_at(Cycle(c)) {
                if let Some(k) = credit.take() {
                    t.take_credit(Cycle(c), k);
                    continue;
                }
            }
            steps += 1;
            b.extend(step(&mut t, c, &mut credit));
            next = if t.is_idle() {
                t.look_ahead(Cycle(c), 5)
            } else {
                None
            };
        }
        t.settle(Cycle(200));
        (b, steps, t)
    };
    let (b, steps, skipping) = run_skipping(200, false, false);
    assert!(steps < 150, "{steps} steps: nothing skipped");
    assert!(a.len() > 20, "too little traffic to compare: {}", a.len());
    assert_eq!(a, b);
    assert_eq!(every.stats(), skipping.stats());
    for run in [1, 3, 37] {
        let (b, _, bounded) = run_skipping(run, true, false);
        assert_eq!(a, b, "runs of {run} cycles");
        assert_eq!(every.stats(), bounded.stats(), "runs of {run} cycles");
    }
    let (b, quiet_steps, quiet) = run_skipping(200, false, true);
    assert!(quiet_steps < steps, "no credit taken without a step");
    assert_eq!(a, b, "quiet credits");
    assert_eq!(every.stats(), quiet.stats(), "quiet credits");
    for run in [3, 37] {
        let (b, _, quiet) = run_skipping(run, true, true);
        assert_eq!(a, b, "quiet credits, runs of {run} cycles");
        assert_eq!(
            every.stats(),
            quiet.stats(),
            "quiet credits, runs of {run} cycles"
        );
    }
    assert!(every.stats().generated_area > 0);
}

#[test]
fn a_full_reply_queue_withholds_the_credit_of_a_request_tail() {
    use super::{ReplyConfig, REPLY_BIT};
    let config = ReplyConfig {
        length: 2,
        service_delay: 3,
        queue: 1,
    };
    let mut t = terminal(0.0, 2, 8).with_replies(config, 2);
    let request = |seq: u32, vc: u8| Flit {
        packet: PacketId {
            source: TerminalId(3),
            seq,
        },
        index: 0,
        len: 1,
        kind: FlitKind::HeadTail,
        vc: VcId(vc),
        dest: TerminalId(0),
        created: Stamp(0),
        injected: Stamp(0),
        hops: 1,
    };
    let mut out = Vec::new();
    for c in 0..10 {
        let arriving = match c {
            0 => Some(request(0, 0)),
            1 => Some(request(1, 1)),
            _ => None,
        };
        let (f, credit) = t.step(Cycle(c), arriving, None);
        let f = f.map(|f| (f.packet.seq, f.dest, f.index));
        out.push((c, f, credit.map(|k| k.vc)));
    }
    let reply = |i: u32| Some((REPLY_BIT, TerminalId(3), i));
    assert_eq!(
        out,
        vec![
            // The first request is consumed; its reply is in service until cycle 3.
            (0, None, Some(VcId(0))),
            // The second request's tail waits: its credit is withheld.
            (1, None, None),
            (2, None, None),
            (3, reply(0), None),
            (4, reply(1), None),
            // The reply is out: the waiting tail is consumed, its credit returned.
            (5, None, Some(VcId(1))),
            (6, None, None),
            (7, None, None),
            (8, Some((REPLY_BIT | 1, TerminalId(3), 0)), None),
            (9, Some((REPLY_BIT | 1, TerminalId(3), 1)), None),
        ]
    );
    assert_eq!(t.stats().packets_consumed, 2);
    assert_eq!(t.stats().packets_generated, 2);
    assert!(t.is_idle());
}

/// A terminal shares the network's configuration: 512 bytes, 688 with its channels and
/// outbox.
#[test]
fn a_terminal_keeps_only_its_own_state_inline() {
    assert!(std::mem::size_of::<Terminal>() <= 512);
    assert!(std::mem::size_of::<crate::network::wired::WiredTerminal>() <= 688);
}
