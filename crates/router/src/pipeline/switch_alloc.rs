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
use crate::alloc::{Allocator, BitMatrix};
use crate::arbiter::Arbiter;
use crate::flit::Credit;
use crate::mask;
use flitsim_netlist::{Cycle, RouterConfig, VcId, TERMINAL_PORT};

/// The SA stage: port allocator, per-input-port VC arbiters, scratch.
#[derive(Debug)]
pub struct SwitchAlloc {
    allocator: Allocator,
    vc_arb: Vec<Arbiter>,
    /// Flat input VCs eligible this cycle (word mask).
    eligible: Vec<u64>,
    /// Scratch: one input port's VCs requesting a given output (word mask).
    vc_req: Vec<u64>,
    req: BitMatrix,
    /// The port grants of the last allocation that did not grant the requests as they
    /// are; read by `commit` after `evaluate` (which always fills it when some VC wins),
    /// stale otherwise (`step` reads requests that form a matching as the grants).
    grant: BitMatrix,
    /// Flat input VCs that won in the last `evaluate` (`step` does not fill it); reused.
    winners: Vec<u32>,
    /// Scratch of the one-word path: eligible flat input VCs by requested output port
    /// (all zero between steps).
    by_out: Vec<u64>,
}

impl SwitchAlloc {
    /// For a router with this layout and configuration.
    pub fn new(config: &RouterConfig, s: &RouterState) -> SwitchAlloc {
        let (pi, po) = (s.layout.in_ports(), s.layout.out_ports());
        let max_vcs = (0..pi).map(|p| s.layout.in_vcs(p)).max().unwrap_or(0);
        SwitchAlloc {
            allocator: Allocator::new(config.switch_allocator, config.arbiter, pi, po),
            vc_arb: (0..pi)
                .map(|p| Arbiter::new(config.arbiter, usize::from(s.layout.in_vcs(p))))
                .collect(),
            eligible: vec![0; mask::words(s.layout.total_in_vcs())],
            vc_req: vec![0; mask::words(usize::from(max_vcs))],
            req: BitMatrix::new(pi, po),
            grant: BitMatrix::new(pi, po),
            winners: Vec::new(),
            by_out: vec![0; po],
        }
    }

    /// Can input VC `i` send its front flit at `now` (active, ready, a flit, credit)?
    ///
    /// A flit enters its FIFO in the step of the cycle it arrives (`Router::step` latches
    /// the inputs delivered at `now`), so a buffered flit has always arrived by the step
    /// that looks at it: a non-empty FIFO is the whole "front flit arrived" test, and the
    /// flit's own arrival cycle (a cache line further) need not be read.
    #[inline]
    pub fn eligible(s: &RouterState, i: usize, now: Cycle) -> bool {
        let vc = &s.vcs[i];
        debug_assert!(s.buffers.len(i) == 0 || s.front_arrived(i, now).is_some());
        vc.phase == crate::vc_state::VcPhase::Active
            && vc.ready(now)
            && s.buffers.len(i) != 0
            && s.outputs[vc.out_ovc as usize].credits.has_credit()
    }

    /// Builds port requests and allocates, then picks one VC per granted input port.
    #[inline]
    pub fn evaluate(&mut self, now: Cycle, s: &RouterState) {
        self.winners.clear();
        match (s.vcs.active(), self.req.is_one_word()) {
            ([0], _) => {}
            ([active], true) => self.evaluate_word(now, s, *active),
            (active, _) if mask::is_empty(active) => {}
            _ => self.evaluate_words(now, s),
        }
    }

    /// [`SwitchAlloc::evaluate`] on word slices (more than 64 input VCs, or port matrices
    /// of more than 64 rows or columns).
    #[inline(never)]
    fn evaluate_words(&mut self, now: Cycle, s: &RouterState) {
        self.req.clear();
        mask::copy(&mut self.eligible, s.vcs.active());
        // `eligible` starts as the active VCs and keeps those that can send.
        for k in 0..self.eligible.len() {
            let mut w = self.eligible[k];
            let mut keep = w;
            while w != 0 {
                let i = k * 64 + w.trailing_zeros() as usize;
                w &= w - 1;
                if Self::eligible(s, i, now) {
                    let p = usize::from(s.layout.in_port_of[i]);
                    self.req.set(p, s.vcs[i].out_port.index());
                } else {
                    keep &= !(1 << (i % 64));
                }
            }
            self.eligible[k] = keep;
        }
        if self.req.is_empty() {
            return;
        }
        self.allocator.allocate(&self.req, &mut self.grant);
        for (p, o) in self.grant.ones() {
            let base = s.layout.in_base[p] as usize;
            let n = usize::from(s.layout.in_vcs(p));
            let req = &mut self.vc_req[..mask::words(n)];
            mask::zero(req);
            for i in mask::ones_in(&self.eligible, base, base + n) {
                if s.vcs[i].out_port.index() == o {
                    mask::set(req, i - base);
                }
            }
            let v = self.vc_arb[p]
                .arbitrate(req)
                .expect("a granted input port has a requesting VC");
            self.winners.push((base + v) as u32);
        }
    }

    /// Builds the one-word requests (router with at most 64 input VCs and port matrices
    /// of at most 64 rows and columns) into `req` and `by_out`. Returns the output ports
    /// requested (0: nothing requests).
    #[inline(always)]
    fn request_word(&mut self, now: Cycle, s: &RouterState, active: u64) -> u64 {
        self.req.clear();
        let mut outs = 0u64;
        // Ports requested, and the eligible VCs by the output port they request (so that
        // the VC arbitration reads one word per granted port).
        let mut w = active;
        while w != 0 {
            let i = w.trailing_zeros() as usize;
            w &= w - 1;
            if Self::eligible(s, i, now) {
                let o = s.vcs[i].out_port.index();
                self.req.set_word(usize::from(s.layout.in_port_of[i]), o);
                self.by_out[o] |= 1 << i;
                outs |= 1 << o;
            }
        }
        outs
    }

    /// The VC of input port `p` (VCs from flat index `base`) that takes granted output
    /// `o`: its VC arbiter picks among the port's VCs of `by_out[o]` (one-word path).
    #[inline(always)]
    fn pick_vc_word(
        vc_arb: &[Arbiter],
        by_out: &[u64],
        s: &RouterState,
        p: usize,
        o: usize,
    ) -> (usize, u8) {
        // A granted port has a requesting VC, so its VCs start below bit 64.
        let base = s.layout.in_base[p] as usize;
        let n = u32::from(s.layout.in_vcs(p));
        let req = (by_out[o] >> base) & (u64::MAX >> (64 - n));
        debug_assert!(req != 0, "a granted input port has a requesting VC");
        // A lone requesting VC wins under every arbiter kind: no arbiter to consult.
        let v = if req & req.wrapping_sub(1) == 0 {
            req.trailing_zeros() as usize
        } else {
            vc_arb[p]
                .arbitrate(std::slice::from_ref(&req))
                .expect("a granted input port has a requesting VC")
        };
        (base, v as u8)
    }

    /// Zeroes the `by_out` scratch of the one-word path (`outs`: the ports requested).
    #[inline(always)]
    fn clear_by_out(&mut self, mut outs: u64) {
        while outs != 0 {
            let o = outs.trailing_zeros() as usize;
            outs &= outs - 1;
            self.by_out[o] = 0;
        }
    }

    /// [`SwitchAlloc::evaluate`] for a router whose input VCs fit one word (at most 64,
    /// every router of the generated topologies up to 16 ports of 4 VCs) and whose port
    /// matrices have at most 64 rows and columns: the same
    /// requests, allocation and VC arbitration, on `u64`s instead of word slices.
    #[inline(never)]
    fn evaluate_word(&mut self, now: Cycle, s: &RouterState, active: u64) {
        let outs = self.request_word(now, s, active);
        if outs == 0 {
            return;
        }
        self.allocator.allocate(&self.req, &mut self.grant);
        // The grants, row-major (one output port per granted input port).
        let mut rows = self.grant.rows_word();
        while rows != 0 {
            let p = rows.trailing_zeros() as usize;
            rows &= rows - 1;
            let o = self.grant.row_word(p).trailing_zeros() as usize;
            let (base, v) = Self::pick_vc_word(&self.vc_arb, &self.by_out, s, p, o);
            self.winners.push((base + usize::from(v)) as u32);
        }
        self.clear_by_out(outs);
    }

    /// [`SwitchAlloc::evaluate`] then [`SwitchAlloc::commit`] in one pass, for a router
    /// that records no trace (nothing looks at the winners in between): the same
    /// allocation, flit moves and arbiter updates in the same order.
    #[inline]
    pub fn step(
        &mut self,
        now: Cycle,
        s: &mut RouterState,
        crossbar: &mut Crossbar,
        credits: &mut CreditReturn,
    ) {
        match (s.vcs.active(), self.req.is_one_word()) {
            ([0], _) => {}
            ([active], true) => self.step_word(now, s, crossbar, credits, *active),
            (active, _) if mask::is_empty(active) => {}
            _ => {
                self.winners.clear();
                self.evaluate_words(now, s);
                self.commit(now, s, crossbar, credits);
            }
        }
    }

    /// [`SwitchAlloc::step`] on the one-word path: each granted input port's VC is
    /// picked and its flit moved, port by port in ascending order, as `evaluate_word`
    /// then `move_winners` would (a move changes nothing the later picks read).
    #[inline(never)]
    fn step_word(
        &mut self,
        now: Cycle,
        s: &mut RouterState,
        crossbar: &mut Crossbar,
        credits: &mut CreditReturn,
        active: u64,
    ) {
        let outs = self.request_word(now, s, active);
        if outs == 0 {
            return;
        }
        let exit = now.plus(s.delays.sd + s.delays.xd);
        // Requests that form a matching are the grants (no copy into `grant`).
        let grant = self.allocator.allocate_ref(&self.req, &mut self.grant);
        let mut rows = grant.rows_word();
        while rows != 0 {
            let p = rows.trailing_zeros() as usize;
            rows &= rows - 1;
            let o = grant.row_word(p).trailing_zeros() as usize;
            let (base, v) = Self::pick_vc_word(&self.vc_arb, &self.by_out, s, p, o);
            Self::move_flit(now, exit, s, crossbar, credits, base + usize::from(v), p, v);
            self.vc_arb[p].update(usize::from(v));
            self.allocator.update_grant(p, o);
        }
        self.clear_by_out(outs);
    }

    /// The flat input VCs granted by the last `evaluate` (for traces).
    pub fn winners(&self) -> &[u32] {
        &self.winners
    }

    /// Moves the winning flits out of their FIFOs into the crossbar and schedules their
    /// credits upstream.
    #[inline]
    pub fn commit(
        &mut self,
        now: Cycle,
        s: &mut RouterState,
        crossbar: &mut Crossbar,
        credits: &mut CreditReturn,
    ) {
        if !self.winners.is_empty() {
            self.move_winners(now, s, crossbar, credits);
        }
    }

    /// [`SwitchAlloc::commit`] when some VC won.
    #[inline(never)]
    fn move_winners(
        &mut self,
        now: Cycle,
        s: &mut RouterState,
        crossbar: &mut Crossbar,
        credits: &mut CreditReturn,
    ) {
        let exit = now.plus(s.delays.sd + s.delays.xd);
        for &i in &self.winners {
            let i = i as usize;
            let (p, v) = s.layout.in_split(i);
            Self::move_flit(now, exit, s, crossbar, credits, i, p, v);
            self.vc_arb[p].update(usize::from(v));
        }
        self.allocator.update(&self.grant);
    }

    /// Moves the front flit of flat input VC `i` (VC `v` of input port `p`), which won
    /// the switch at `now`, into the crossbar (written at `exit`) and schedules its credit
    /// upstream; a tail frees the output VC and the input VC.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn move_flit(
        now: Cycle,
        exit: Cycle,
        s: &mut RouterState,
        crossbar: &mut Crossbar,
        credits: &mut CreditReturn,
        i: usize,
        p: usize,
        v: u8,
    ) {
        let vc = &s.vcs[i];
        let (o, ov, ovc) = (vc.out_port, vc.out_vc, vc.out_ovc as usize);
        let mut flit = s.buffers.pop(i).flit;
        s.outputs[ovc].credits.consume();
        flit.vc = ov;
        if o.0 != TERMINAL_PORT {
            flit.hops += 1;
        }
        crossbar.push(o.index(), exit, flit);
        credits.push(p, now, Credit { vc: VcId(v) });
        if flit.kind.is_tail() {
            Self::tail_left(now, s, i, ovc);
        }
    }

    /// The tail of input VC `i` left at `now`: output VC `ovc` loses its owner and the
    /// input VC goes idle (or restarts with the next packet's head). Out of line: one
    /// flit in a packet is its tail, and the others' path keeps fewer values live.
    #[inline(never)]
    fn tail_left(now: Cycle, s: &mut RouterState, i: usize, ovc: usize) {
        debug_assert_eq!(s.outputs[ovc].owner, Some(i as u32));
        s.outputs[ovc].owner = None;
        s.outputs[ovc].packet = None;
        s.vcs.tail_left(i);
        // Under `vc_release = credits` upstream the FIFO is empty now; under `tail` the
        // next packet's head may already wait behind this tail: it is routed from the
        // next cycle (the VC state machine restarts with it).
        if let Some(b) = s.buffers.front(i) {
            debug_assert!(b.flit.kind.is_head());
            s.vcs.head_arrived(i, b.arrived.max(now.plus(1)));
        }
    }
}
