//! Single-router harness: feeds flits and credits through `Router::step` cycle by cycle
//! and checks the timing contract (see `pipeline` docs) and the credit accounting.

use crate::routing::{Candidate, RouteCtx, RouteSet, RoutingFunction, VcRange};
use crate::*;
use flitsim_netlist::{
    BufferDepth, Cycle, InPort, OutPort, PortSpec, RouterConfig, RouterId, RouterSpec, TerminalId,
    VcId,
};
use std::sync::Arc;

/// Sends terminal `d` to output port `d` (port 0 = eject for terminal 0) on every VC of
/// that port.
struct PortIsDest {
    vcs: u8,
}

impl RoutingFunction for PortIsDest {
    fn name(&self) -> &'static str {
        "port-is-dest"
    }
    fn vc_classes(&self) -> u8 {
        1
    }
    fn route(&self, _ctx: &RouteCtx, dest: TerminalId, out: &mut RouteSet) {
        out.clear();
        out.push(Candidate {
            port: OutPort(dest.0 as u8),
            vcs: VcRange::new(0, self.vcs),
        });
    }
}

const PORTS: usize = 3;

struct Harness {
    r: Router,
    now: u64,
    /// (cycle, out port, flit) written by the router.
    sent: Vec<(u64, usize, Flit)>,
    /// (cycle, in port, credit) written by the router.
    credits: Vec<(u64, usize, Credit)>,
}

impl Harness {
    fn new(delays: [u32; 5], vcs: u8, out_vcs: u8, out_depth: u32) -> Harness {
        Harness::with(delays, vcs, out_vcs, out_depth, |_| {})
    }

    fn with(
        [rd, vd, sd, xd, cd]: [u32; 5],
        vcs: u8,
        out_vcs: u8,
        out_depth: u32,
        tweak: impl FnOnce(&mut RouterConfig),
    ) -> Harness {
        let mut config = RouterConfig {
            vcs,
            routing_delay: rd,
            vc_alloc_delay: vd,
            switch_alloc_delay: sd,
            crossbar_delay: xd,
            credit_delay: cd,
            ..RouterConfig::default()
        };
        tweak(&mut config);
        let spec = RouterSpec {
            id: RouterId(0),
            name: "r0".into(),
            coord: None,
            config,
            ports: (0..PORTS)
                .map(|p| PortSpec {
                    name: format!("p{p}"),
                    direction: None,
                    vcs,
                    buffer_depth: BufferDepth::Flits(64),
                })
                .collect(),
            terminal_latency: 1,
        };
        let mut outputs = vec![OutputPortSpec {
            downstream_vcs: vcs,
            downstream_depth: BufferDepth::Unbounded,
        }];
        outputs.extend((1..PORTS).map(|_| OutputPortSpec {
            downstream_vcs: out_vcs,
            downstream_depth: BufferDepth::Flits(out_depth),
        }));
        let routing = Arc::new(PortIsDest { vcs: out_vcs });
        Harness {
            r: Router::new(&spec, outputs, routing, 1),
            now: 0,
            sent: Vec::new(),
            credits: Vec::new(),
        }
    }

    /// Steps one cycle with these inputs.
    fn step(&mut self, flits: &[(usize, Flit)], credits: &[(usize, Credit)]) {
        let mut fi = [None; PORTS];
        let mut ci = [None; PORTS];
        for &(p, f) in flits {
            fi[p] = Some(f);
        }
        for &(o, c) in credits {
            ci[o] = Some(c);
        }
        let (mut fo, mut co) = ([None; PORTS], [None; PORTS]);
        self.r.step(
            Cycle(self.now),
            &mut RouterIo {
                flits_in: &fi,
                credits_in: &ci,
                flits_out: &mut fo,
                credits_out: &mut co,
            },
        );
        for (o, f) in fo.iter().enumerate() {
            if let Some(f) = f {
                self.sent.push((self.now, o, *f));
            }
        }
        for (p, c) in co.iter().enumerate() {
            if let Some(c) = c {
                self.credits.push((self.now, p, *c));
            }
        }
        self.now += 1;
    }

    fn idle_until(&mut self, t: u64) {
        while self.now < t {
            self.step(&[], &[]);
        }
    }

    fn sent_of(&self, seq: u32) -> Vec<(u64, usize, Flit)> {
        self.sent
            .iter()
            .filter(|s| s.2.packet.seq == seq)
            .copied()
            .collect()
    }
}

fn flit(seq: u32, index: u32, len: u32, dest: u32, vc: u8) -> Flit {
    Flit {
        packet: PacketId {
            source: TerminalId(9),
            seq,
        },
        index,
        len,
        kind: FlitKind::of(index, len),
        vc: VcId(vc),
        dest: TerminalId(dest),
        created: Cycle(0),
        injected: Cycle(0),
        hops: 0,
    }
}

/// (rd, vd, sd, xd, cd) combinations: all zero, default, paper 004, and mixed.
const DELAYS: [[u32; 5]; 8] = [
    [0, 0, 0, 0, 0],
    [1, 1, 1, 1, 1],
    [1, 0, 1, 0, 0],
    [0, 0, 1, 0, 1],
    [0, 1, 0, 0, 0],
    [2, 3, 1, 2, 2],
    [0, 0, 0, 3, 0],
    [3, 0, 0, 0, 4],
];

#[test]
fn head_leaves_after_rd_vd_sd_xd_and_body_flits_follow_one_per_cycle() {
    for d @ [rd, vd, sd, xd, cd] in DELAYS {
        for len in [1u32, 2, 5] {
            let mut h = Harness::new(d, 2, 2, 64);
            let t0 = 3;
            h.idle_until(t0);
            for i in 0..len {
                h.step(&[(0, flit(0, i, len, 2, 1))], &[]);
            }
            h.idle_until(t0 + 40);
            let head_out = t0 + u64::from(rd + vd + sd + xd);
            let sent = h.sent_of(0);
            assert_eq!(sent.len(), len as usize, "delays {d:?}");
            for (i, &(t, port, f)) in sent.iter().enumerate() {
                assert_eq!(t, head_out + i as u64, "flit {i}, delays {d:?}, len {len}");
                assert_eq!((port, f.index, f.hops), (2, i as u32, 1));
                assert_eq!(f.vc, sent[0].2.vc, "one downstream VC per packet");
            }
            // Flit i leaves its FIFO at its SA cycle t0 + rd + vd + i; its credit is
            // written at + cd, on input port 0, for the VC it arrived on.
            let credits: Vec<u64> = h.credits.iter().map(|c| c.0).collect();
            let want: Vec<u64> = (0..u64::from(len))
                .map(|i| t0 + u64::from(rd + vd + cd) + i)
                .collect();
            assert_eq!(credits, want, "delays {d:?}");
            assert!(h.credits.iter().all(|c| c.1 == 0 && c.2.vc == VcId(1)));
            assert!(h.r.is_quiescent());
            assert_eq!(h.r.buffered_flits(), 0);
        }
    }
}

#[test]
fn body_flits_arriving_late_leave_one_cycle_after_arrival_plus_sd_xd() {
    for d @ [rd, vd, sd, xd, _] in DELAYS {
        let mut h = Harness::new(d, 2, 2, 64);
        h.step(&[(1, flit(0, 0, 3, 2, 0))], &[]);
        h.idle_until(10);
        h.step(&[(1, flit(0, 1, 3, 2, 0))], &[]); // arrives at 10
        h.idle_until(20);
        h.step(&[(1, flit(0, 2, 3, 2, 0))], &[]); // arrives at 20
        h.idle_until(40);
        let t: Vec<u64> = h.sent_of(0).iter().map(|s| s.0).collect();
        let x = u64::from(sd + xd);
        assert_eq!(t, vec![u64::from(rd + vd) + x, 10 + x, 20 + x], "{d:?}");
    }
}

#[test]
fn ejection_port_is_unbounded_and_does_not_count_a_hop() {
    let mut h = Harness::new([1, 1, 1, 1, 1], 2, 2, 1);
    for i in 0..20 {
        h.step(&[(1, flit(0, i, 20, 0, 0))], &[]);
    }
    h.idle_until(40);
    let sent = h.sent_of(0);
    assert_eq!(sent.len(), 20);
    assert!(sent.iter().all(|s| s.1 == 0 && s.2.hops == 0));
    assert_eq!(h.r.credits(OutPort(0), sent[0].2.vc), None);
    assert_eq!(h.r.outstanding(OutPort(0), sent[0].2.vc), 20);
}

#[test]
fn credits_gate_flits_and_are_usable_the_cycle_they_arrive() {
    for d @ [rd, vd, sd, xd, _] in DELAYS {
        let depth = 2;
        let mut h = Harness::new(d, 1, 1, depth);
        for i in 0..4 {
            h.step(&[(0, flit(0, i, 4, 1, 0))], &[]);
        }
        h.idle_until(30);
        // Only `depth` flits may leave without credits coming back.
        assert_eq!(h.sent.len(), depth as usize, "{d:?}");
        assert_eq!(h.r.credits(OutPort(1), VcId(0)), Some(0));
        assert_eq!(h.r.outstanding(OutPort(1), VcId(0)), depth);
        let waits = h.r.waits();
        assert_eq!(waits.len(), 1);
        assert_eq!(
            (
                waits[0].in_port,
                waits[0].vc,
                waits[0].out_port,
                waits[0].reason
            ),
            (InPort(0), VcId(0), OutPort(1), WaitReason::NoCredit)
        );
        assert_eq!(waits[0].out_vcs.as_slice(), &[VcId(0)]);
        // A credit delivered at 30 is used by SA at 30: the flit is written at 30+sd+xd.
        h.step(&[], &[(1, Credit { vc: VcId(0) })]);
        h.idle_until(50);
        assert_eq!(h.sent.len(), 3);
        assert_eq!(h.sent[2].0, 30 + u64::from(sd + xd), "{d:?}");
        assert_eq!(h.r.credits(OutPort(1), VcId(0)), Some(0));
        let _ = (rd, vd);
    }
}

#[test]
fn an_output_vc_is_reallocated_only_after_the_tail_left_and_all_credits_are_home() {
    for d @ [_, vd, sd, xd, _] in DELAYS {
        // One downstream VC, two packets from two input ports for the same output.
        let mut h = Harness::new(d, 1, 1, 8);
        for i in 0..2 {
            h.step(&[(0, flit(0, i, 2, 1, 0)), (2, flit(1, i, 2, 1, 0))], &[]);
        }
        h.idle_until(30);
        assert_eq!(h.sent.len(), 2, "only the first packet gets the VC");
        let first = h.sent[0].2.packet.seq;
        assert!(h.sent.iter().all(|s| s.2.packet.seq == first));
        let waits = h.r.waits();
        assert_eq!(waits.len(), 1);
        assert_eq!(waits[0].reason, WaitReason::NoFreeVc);
        assert_eq!(waits[0].out_port, OutPort(1));
        // First credit home at 30: the tail is gone but one credit is still out.
        h.step(&[], &[(1, Credit { vc: VcId(0) })]);
        h.idle_until(35);
        assert_eq!(h.sent.len(), 2, "VC not free with a credit out");
        // Last credit home at 35: VA at 35, SA at 35 + vd, written at + sd + xd.
        h.step(&[], &[(1, Credit { vc: VcId(0) })]);
        h.idle_until(60);
        assert_eq!(h.sent.len(), 4);
        assert_eq!(h.sent[2].0, 35 + u64::from(vd + sd + xd), "{d:?}");
        assert_eq!(h.sent[3].0, h.sent[2].0 + 1);
    }
}

#[test]
fn one_flit_per_output_port_per_cycle_and_packets_interleave_on_two_vcs() {
    let mut h = Harness::new([1, 1, 1, 1, 1], 2, 2, 64);
    let len = 6;
    for i in 0..len {
        h.step(
            &[(0, flit(0, i, len, 1, 0)), (2, flit(1, i, len, 1, 0))],
            &[],
        );
    }
    h.idle_until(40);
    assert_eq!(h.sent.len(), 2 * len as usize);
    // Both packets got different downstream VCs, and the port carried a flit in each of
    // 2*len consecutive cycles (the output is the bottleneck).
    let (a, b) = (h.sent_of(0), h.sent_of(1));
    assert_ne!(a[0].2.vc, b[0].2.vc);
    let first = h.sent[0].0;
    let times: Vec<u64> = h.sent.iter().map(|s| s.0).collect();
    assert_eq!(
        times,
        (first..first + 2 * u64::from(len)).collect::<Vec<_>>()
    );
    assert_eq!(first, 4);
    assert_eq!(h.r.stats().flits_sent[1], 2 * u64::from(len));
    assert_eq!(h.r.stats().packets_sent[1], 2);
}

#[test]
fn one_flit_per_input_port_per_cycle() {
    // Two packets on two VCs of the same input port to two different outputs: the input
    // port sends one flit per cycle in total.
    let mut h = Harness::new([0, 0, 0, 0, 0], 2, 2, 64);
    h.step(&[(0, flit(0, 0, 2, 1, 0))], &[]);
    h.step(&[(0, flit(1, 0, 2, 2, 1))], &[]);
    h.step(&[(0, flit(0, 1, 2, 1, 0))], &[]);
    h.step(&[(0, flit(1, 1, 2, 2, 1))], &[]);
    h.idle_until(20);
    assert_eq!(h.sent.len(), 4);
    let mut per_cycle = std::collections::BTreeMap::new();
    for s in &h.sent {
        *per_cycle.entry(s.0).or_insert(0) += 1;
    }
    assert!(per_cycle.values().all(|&n| n == 1));
    let credits: Vec<u64> = h.credits.iter().map(|c| c.0).collect();
    let mut dedup = credits.clone();
    dedup.dedup();
    assert_eq!(credits, dedup, "one credit per input port per cycle");
}

#[test]
fn stats_count_flits_packets_and_max_occupancy() {
    let mut h = Harness::new([1, 1, 1, 1, 1], 2, 2, 1);
    for i in 0..5 {
        h.step(&[(0, flit(0, i, 5, 2, 1))], &[]);
    }
    h.idle_until(20);
    // Depth 1 downstream, no credits back: one flit left (at its SA cycle rd + vd = 2,
    // before flits 3 and 4 arrived), four wait in the FIFO; the maximum was 4.
    let s = h.r.stats();
    assert_eq!((s.flits_sent[2], s.packets_sent[2]), (1, 1));
    assert_eq!(s.max_occupancy[0][1], 4);
    assert_eq!(h.r.buffer_len(InPort(0), VcId(1)), 4);
    assert_eq!(h.r.buffered_flits(), 4);
    assert!(!h.r.is_quiescent());
    // One busy VC on port 2 since VA at cycle rd = 1.
    assert_eq!(h.r.busy_vcs(OutPort(2)), 1);
    assert_eq!(h.r.busy_vc_cycles(OutPort(2), Cycle(20)), 19);
}

#[test]
fn output_first_allocation_and_matrix_arbiters_meet_the_same_timing() {
    use flitsim_netlist::{AllocatorKind, ArbiterKind, SelectionKind};
    for (alloc, arb, sel) in [
        (
            AllocatorKind::SeparableOutputFirst,
            ArbiterKind::Matrix,
            SelectionKind::Random,
        ),
        (
            AllocatorKind::SeparableOutputFirst,
            ArbiterKind::RoundRobin,
            SelectionKind::MostCredits,
        ),
        (
            AllocatorKind::SeparableInputFirst,
            ArbiterKind::Matrix,
            SelectionKind::XFirst,
        ),
    ] {
        let mut h = Harness::with([1, 0, 1, 0, 0], 2, 2, 64, |c| {
            c.vc_allocator = alloc;
            c.switch_allocator = alloc;
            c.arbiter = arb;
            c.selection = sel;
        });
        for i in 0..4 {
            h.step(&[(1, flit(0, i, 4, 2, 0))], &[]);
        }
        h.idle_until(20);
        let t: Vec<u64> = h.sent.iter().map(|s| s.0).collect();
        assert_eq!(t, vec![2, 3, 4, 5], "{alloc:?} {arb:?} {sel:?}");
    }
}
