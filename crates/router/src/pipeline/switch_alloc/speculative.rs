//! Speculative switch allocation (`speculative = true`; BookSim's `speculative = 1`,
//! Garnet's VA in SA): a head requests the switch in the cycle it requests an output VC.
//!
//! - Requests: the non-speculative ones (flits of VCs that hold an output VC) as without
//!   speculation; the speculative ones, one per VC that VA examined this cycle and that
//!   requested a free output VC, for that VC's output port ([`SpecRequest`]).
//! - Priority: the non-speculative requests are allocated first; the speculative ones
//!   compete, in an allocator of their own, for the input and output ports left free
//!   (`spec_masking = "grants"`). Under `spec_masking = "requests"` every speculative
//!   request is allocated, and a speculative grant is dropped (its arbiters still move)
//!   when a non-speculative request comes from its input port or asks for its output
//!   port.
//! - Use: a speculative grant moves the head only if VA granted its VC an output VC in
//!   this cycle and that output VC has a credit; otherwise the crossbar slot is wasted
//!   (the input and output port stay idle for the cycle).
//!
//! VA then costs no cycle of its own: a head routed at `t` is written at `t + sd + xd`
//! (`vc_alloc_delay <= switch_alloc_delay`, checked by validation). The VCs VA granted
//! this cycle do not request non-speculatively in the same cycle (with `vc_alloc_delay
//! = 0` they would be ready at once). The one-word path has no speculation: a cycle with
//! speculative requests takes the general path.

use super::super::RouterState;
use super::{StepScratch, SwitchAlloc};
use crate::mask;
use crate::pipeline::credit_return::CreditReturn;
use crate::pipeline::crossbar::Crossbar;
use crate::vc_state::VcPhase;
use flitsim_netlist::Cycle;

pub use super::speculation::SpecRequest;

impl SwitchAlloc {
    /// SA of a cycle with speculative requests `spec`: the non-speculative allocation
    /// (its winners first in `winners`), then the speculative one on the ports it left
    /// free; the speculative grants VA made good follow in `winners` from `spec_from`.
    #[inline(never)]
    pub(super) fn evaluate_speculative(
        &mut self,
        now: Cycle,
        s: &RouterState,
        spec: &[SpecRequest],
        x: &mut StepScratch,
    ) {
        self.evaluate_words(now, s, spec, x);
        self.requests_made += spec.len() as u64;
        self.spec_from = self.winners.len();
        let sp = self
            .spec
            .as_deref_mut()
            .expect("speculative requests on a router without speculation");
        sp.granted.clear();
        mask::zero(&mut sp.busy_in);
        mask::zero(&mut sp.busy_out);
        if sp.by_requests {
            // The ports of the non-speculative requests (the VCs `evaluate_words` saw).
            for i in mask::ones(s.vcs.active()) {
                if spec.iter().all(|r| r.ivc as usize != i) && Self::eligible(s, i, now) {
                    mask::set(&mut sp.busy_in, usize::from(s.layout.in_port_of[i]));
                    mask::set(&mut sp.busy_out, s.vcs[i].out_port.index());
                }
            }
        } else {
            for &i in &self.winners {
                let i = i as usize;
                mask::set(&mut sp.busy_in, usize::from(s.layout.in_port_of[i]));
                mask::set(&mut sp.busy_out, s.vcs[i].out_port.index());
            }
        }
        sp.req.clear();
        for r in spec {
            let p = usize::from(s.layout.in_port_of[r.ivc as usize]);
            let o = usize::from(r.port);
            // By requests, every speculative request is allocated and the mask drops
            // grants afterwards.
            if sp.by_requests || (!mask::get(&sp.busy_in, p) && !mask::get(&sp.busy_out, o)) {
                sp.req.set(p, o);
            }
        }
        if sp.req.is_empty() {
            return;
        }
        sp.allocator.allocate(&sp.req, &mut sp.grant);
        for (p, o) in sp.grant.ones() {
            let base = s.layout.in_base[p] as usize;
            let n = usize::from(s.layout.in_vcs(p));
            let req = &mut sp.vc_req[..mask::words(n)];
            mask::zero(req);
            for r in spec {
                let i = r.ivc as usize;
                if usize::from(s.layout.in_port_of[i]) == p && usize::from(r.port) == o {
                    mask::set(req, i - base);
                }
            }
            let v = sp
                .vc_arb
                .arbitrate(p, req)
                .expect("a granted input port has a speculating VC");
            sp.granted.push((p as u8, v as u8, o as u8));
            if sp.by_requests && (mask::get(&sp.busy_in, p) || mask::get(&sp.busy_out, o)) {
                // Masked: the non-speculative side uses the port; its arbiters still move.
                continue;
            }
            if Self::speculation_holds(s, base + v, o) {
                self.winners.push((base + v) as u32);
            } else {
                sp.wasted += 1;
            }
        }
    }

    /// Speculative grants VA did not make good so far (0 without speculation): each one
    /// a crossbar slot (an input and an output port for a cycle) left unused.
    pub fn wasted_speculative_grants(&self) -> u64 {
        self.spec.as_ref().map_or(0, |sp| sp.wasted)
    }

    /// Did VA grant input VC `i` an output VC on port `o` this cycle (it speculated from
    /// `VcWait`, so an `Active` VC got its grant now), and has that VC a credit?
    fn speculation_holds(s: &RouterState, i: usize, o: usize) -> bool {
        let vc = &s.vcs[i];
        vc.phase == VcPhase::Active
            && vc.out_port.index() == o
            && s.outputs[vc.out_ovc as usize].credits.has_credit()
    }

    /// Moves the flits of the speculative grants VA made good (`winners[spec_from..]`)
    /// and moves the speculative arbiters for every speculative grant.
    pub(super) fn move_speculative(
        &mut self,
        now: Cycle,
        exit: Cycle,
        s: &mut RouterState,
        crossbar: &mut Crossbar,
        credits: &mut CreditReturn,
    ) {
        for &i in &self.winners[self.spec_from..] {
            let i = i as usize;
            let (p, v) = s.layout.in_split(i);
            let vc = &s.vcs[i];
            let out = (vc.out_port, vc.out_vc, vc.out_ovc as usize);
            if Self::move_flit(now, exit, s, crossbar, credits, (i, p, v), out) {
                self.word.seen &= !(1 << (i % 64));
            } else {
                // The body follows one flit per cycle, as after a non-speculative head.
                s.vcs.ready_from(i, now.plus(1));
            }
        }
        if let Some(sp) = self.spec.as_deref_mut() {
            for &(p, v, o) in &sp.granted {
                sp.vc_arb.update(usize::from(p), usize::from(v));
                sp.allocator.update_grant(usize::from(p), usize::from(o));
            }
            sp.granted.clear();
        }
    }
}
