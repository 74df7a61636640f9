//! Stage 3, switch allocation (SA).
//!
//! - Reads: input VCs in `Active` with `ready_at <= now` whose front flit has arrived and
//!   whose output VC has a credit (credits delivered this cycle count).
//! - Decides: a separable allocation of input ports x output ports (at most one flit per
//!   input port and per output port per cycle), then, per granted input port, a VC
//!   arbiter picks one of its VCs that requested the granted output (at most one flit per
//!   VC per cycle follows).
//! - Writes: the flit leaves its input FIFO at `now` (takes a downstream credit, gets its
//!   downstream VC and hop count); it enters the crossbar pipeline to be written at
//!   `now + sd + xd`; its credit to the upstream router is scheduled for `now + cd`. When
//!   the tail leaves, the output VC loses its owner (it becomes free for VA once all its
//!   credits are home) and the input VC goes idle.
//! - Knob: `switch_alloc_delay` (sd); term `sd` of the per-router head latency. Body and
//!   tail flits skip RC and VA: they request the switch as soon as they are at the front
//!   of an active VC, one per cycle.

use super::crossbar::Crossbar;
use super::output::CreditReturn;
use super::RouterState;
use crate::alloc::{new_allocator, Allocator, BitMatrix};
use crate::arbiter::{new_arbiter, Arbiter};
use crate::flit::Credit;
use crate::vc_state::VcPhase;
use bitvec::prelude::*;
use flitsim_netlist::{Cycle, RouterConfig, VcId, TERMINAL_PORT};

/// The SA stage: port allocator, per-input-port VC arbiters, scratch.
#[derive(Debug)]
pub struct SwitchAlloc {
    allocator: Box<dyn Allocator>,
    vc_arb: Vec<Box<dyn Arbiter>>,
    /// Flat input VCs eligible this cycle.
    eligible: BitVec,
    /// Scratch: one input port's VCs requesting a given output.
    vc_req: BitVec,
    req: BitMatrix,
    grant: BitMatrix,
    /// Flat input VCs that won this cycle; reused.
    winners: Vec<u32>,
}

impl SwitchAlloc {
    /// For a router with this layout and configuration.
    pub fn new(config: &RouterConfig, s: &RouterState) -> SwitchAlloc {
        let (pi, po) = (s.layout.in_ports(), s.layout.out_ports());
        let max_vcs = (0..pi).map(|p| s.layout.in_vcs(p)).max().unwrap_or(0);
        SwitchAlloc {
            allocator: new_allocator(config.switch_allocator, config.arbiter, pi, po),
            vc_arb: (0..pi)
                .map(|p| new_arbiter(config.arbiter, usize::from(s.layout.in_vcs(p))))
                .collect(),
            eligible: bitvec![0; s.layout.total_in_vcs()],
            vc_req: bitvec![0; usize::from(max_vcs)],
            req: BitMatrix::new(pi, po),
            grant: BitMatrix::new(pi, po),
            winners: Vec::new(),
        }
    }

    /// Can input VC `i` send its front flit at `now` (ready, arrived, credit)?
    #[inline]
    pub fn eligible(s: &RouterState, i: usize, now: Cycle) -> bool {
        let vc = &s.vcs[i];
        vc.phase == VcPhase::Active
            && vc.ready(now)
            && s.front_arrived(i, now).is_some()
            && s.outputs[s.layout.ovc(vc.out_port.index(), vc.out_vc.0)]
                .credits
                .has_credit()
    }

    /// Builds port requests and allocates, then picks one VC per granted input port.
    pub fn evaluate(&mut self, now: Cycle, s: &RouterState) {
        self.req.clear();
        self.eligible.fill(false);
        self.winners.clear();
        let mut any = false;
        for i in 0..s.vcs.len() {
            if Self::eligible(s, i, now) {
                self.eligible.set(i, true);
                let (p, _) = s.layout.in_split(i);
                self.req.set(p, s.vcs[i].out_port.index());
                any = true;
            }
        }
        if !any {
            self.grant.clear();
            return;
        }
        self.allocator.allocate(&self.req, &mut self.grant);
        for (p, o) in self.grant.ones() {
            let n = usize::from(s.layout.in_vcs(p));
            let req = &mut self.vc_req[..n];
            for v in 0..n {
                let i = s.layout.ivc(p, v as u8);
                req.set(v, self.eligible[i] && s.vcs[i].out_port.index() == o);
            }
            let v = self.vc_arb[p]
                .arbitrate(req)
                .expect("a granted input port has a requesting VC");
            self.winners.push(s.layout.ivc(p, v as u8) as u32);
        }
    }

    /// The flat input VCs granted by the last `evaluate` (for traces).
    pub fn winners(&self) -> &[u32] {
        &self.winners
    }

    /// Moves the winning flits out of their FIFOs into the crossbar and schedules their
    /// credits upstream.
    pub fn commit(
        &mut self,
        now: Cycle,
        s: &mut RouterState,
        crossbar: &mut Crossbar,
        credits: &mut CreditReturn,
    ) {
        if self.winners.is_empty() {
            return;
        }
        let exit = now.plus(s.delays.sd + s.delays.xd);
        let credit_due = now.plus(s.delays.cd);
        for &i in &self.winners {
            let i = i as usize;
            let (p, v) = s.layout.in_split(i);
            let (o, ov) = (s.vcs[i].out_port, s.vcs[i].out_vc);
            let ovc = s.layout.ovc(o.index(), ov.0);
            let mut flit = s.buffers.pop(i).flit;
            s.outputs[ovc].credits.consume();
            flit.vc = ov;
            if o.0 != TERMINAL_PORT {
                flit.hops += 1;
            }
            crossbar.push(o.index(), exit, flit);
            credits.push(p, credit_due, Credit { vc: VcId(v) });
            if flit.kind.is_tail() {
                debug_assert_eq!(s.outputs[ovc].owner, Some(i as u32));
                s.outputs[ovc].owner = None;
                s.outputs[ovc].packet = None;
                s.vcs[i].tail_left();
                // Under `vc_release = credits` upstream the FIFO is empty now; under
                // `tail` the next packet's head may already wait behind this tail: it is
                // routed from the next cycle (the VC state machine restarts with it).
                if let Some(b) = s.buffers.front(i) {
                    debug_assert!(b.flit.kind.is_head());
                    s.vcs[i].head_arrived(b.arrived.max(now.plus(1)));
                }
            }
            self.vc_arb[p].update(usize::from(v));
        }
        self.allocator.update(&self.grant);
    }
}
