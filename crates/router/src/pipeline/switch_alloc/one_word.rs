//! The one-word fast path of switch allocation, for a router of at most 64 input VCs, 32
//! input ports and 64 output ports: the same requests, allocation and VC arbitration as the general path
//! in the parent module, on `u64`s. `one_word_allocation_matches_the_general_paths`
//! in the router's tests compares the two.

use super::word_path::{
    AllocatorGrants, GrantArbiters, GrantUpdate, HeldVc, WordGrants, WordPath, WordVc,
    WORD_IN_PORTS,
};
use super::{StepScratch, SwitchAlloc};
use crate::alloc::Allocator;
use crate::arbiter::{Arbiters, WordArbiters};
use crate::pipeline::credit_return::CreditReturn;
use crate::pipeline::crossbar::Crossbar;
use crate::pipeline::RouterState;
use flitsim_netlist::Cycle;

impl SwitchAlloc {
    /// The eligible VCs among the active VCs `active` of a router on the one-word path (at
    /// most 64 input VCs and 32 input ports, port matrices of at most 64 rows and
    /// columns); the output VC
    /// each holds is in `w.vcs`. A VC's state is read only until a step sees it ready
    /// (`w.seen`); then only its FIFO's length and its output VC's credits.
    #[inline(always)]
    pub(super) fn eligible_word(w: &mut WordPath, now: Cycle, s: &RouterState, active: u64) -> u64 {
        debug_assert_eq!(w.seen & !active, 0, "a VC left Active without its tail");
        let unseen = active & !w.seen;
        let ready = if unseen == 0 {
            active
        } else {
            active & !Self::see(w, s, unseen, now)
        };
        let mut eligible = 0u64;
        let mut a = ready;
        while a != 0 {
            let i = a.trailing_zeros() as usize;
            a &= a - 1;
            let held = w.vcs[i % 64].held;
            debug_assert!({
                let vc = &s.vcs[i];
                vc.ready(now)
                    && (vc.out_port.0, vc.out_vc.0, vc.out_ovc)
                        == (held.port, held.vc, u32::from(held.flat))
            });
            if s.buffers.len(i) != 0 && s.outputs[usize::from(held.flat)].credits.has_credit() {
                eligible |= 1 << i;
            }
        }
        eligible
    }

    /// Reads the state of the active input VCs `unseen` (not in `w.seen`) and returns
    /// those not ready at `now`; the output VC of each ready one is copied into `w.vcs`,
    /// and it joins `w.seen` unless the router keeps the reset trail (which it keeps from
    /// its first step on, or never). Out of line: a VC is read here once per packet.
    #[inline(never)]
    pub(super) fn see(w: &mut WordPath, s: &RouterState, mut unseen: u64, now: Cycle) -> u64 {
        let mut not_ready = 0u64;
        let mut seen = w.seen;
        while unseen != 0 {
            let i = unseen.trailing_zeros() as usize;
            unseen &= unseen - 1;
            // The active mask is exact: no phase test.
            let vc = &s.vcs[i];
            if !vc.ready(now) {
                not_ready |= 1 << i;
                continue;
            }
            w.vcs[i % 64].held = HeldVc {
                port: vc.out_port.0,
                vc: vc.out_vc.0,
                flat: vc.out_ovc as u16,
            };
            seen |= 1 << i;
        }
        if s.trail.is_none() {
            w.seen = seen;
        }
        not_ready
    }

    /// Fills `x.by_out` with the `eligible` VCs (not 0) by the output port they request
    /// (so that the VC arbitration reads one word per granted port) and `x.req` with the
    /// port requests (input port p requests output o when one of its VCs is in
    /// `by_out[o]`). Returns the output ports requested, whether an input port requests
    /// more than one output and whether an output is requested by more than one input
    /// port (neither: the requests form a matching).
    #[inline(always)]
    pub(super) fn port_requests_word(
        w: &WordPath,
        x: &mut StepScratch,
        eligible: u64,
    ) -> (u64, bool, bool) {
        let mut outs = 0u64;
        // Set when an eligible VC's port requests another output, or its output is
        // requested by a VC of another port (whichever VC comes second sees it).
        let (mut shared_port, mut shared_out) = (0u64, 0u64);
        let mut e = eligible;
        while e != 0 {
            let i = e.trailing_zeros() as usize;
            e &= e - 1;
            let WordVc { input, held, .. } = w.vcs[i % 64];
            let (p, o) = (
                usize::from(input) % WORD_IN_PORTS,
                usize::from(held.port) % 64,
            );
            shared_port |= x.req.row(p) & !(1 << o);
            shared_out |= x.by_out[o] & !w.port_vcs[p];
            x.by_out[o] |= 1 << i;
            x.req.set(p, o);
            outs |= 1 << o;
        }
        (outs, shared_port != 0, shared_out != 0)
    }

    /// The port requests of the `eligible` VCs (not 0; see `port_requests_word`), then
    /// their grants in their place in `x.req`. Returns the output ports requested.
    /// Requests that form a matching are the grants (see `Allocator::allocate`); requests
    /// contended on one side only are allocated by the arbiters of that side alone.
    #[inline(always)]
    pub(super) fn allocate_word(
        w: &WordPath,
        x: &mut StepScratch,
        allocator: &mut Allocator,
        eligible: u64,
    ) -> u64 {
        let (outs, shared_port, shared_out) = Self::port_requests_word(w, x, eligible);
        if !allocator.is_separable() {
            // iSLIP, wavefront and PIM allocate every request (no shortcut).
            allocator.allocate_word(&mut x.req);
            return outs;
        }
        match (shared_port, shared_out) {
            (false, false) => {}
            (true, false) => allocator.allocate_word_one_per_col(&mut x.req),
            (false, true) => {
                let StepScratch { req, by_out, .. } = x;
                let word_vcs = &w.vcs;
                // The input ports of an output's eligible VCs.
                let ports = |o: usize| {
                    let (mut vcs, mut ports) = (by_out[o % 64], 0u64);
                    while vcs != 0 {
                        let i = vcs.trailing_zeros() as usize;
                        vcs &= vcs - 1;
                        ports |= 1 << (word_vcs[i % 64].input % 64);
                    }
                    ports
                };
                allocator.allocate_word_one_per_row(req, outs, ports);
            }
            (true, true) => allocator.allocate_word(&mut x.req),
        }
        outs
    }

    /// The flat VC of input port `p` that takes granted output `o`, and its index within
    /// the port: the port's VC arbiter picks among its VCs in `by_out[o]` (one-word
    /// path). `o` is granted to no other port: `by_out[o]` is zeroed here (with no branch
    /// on whether the requests formed a matching; see `clear_word`).
    #[inline(always)]
    pub(super) fn pick_vc_word(
        vc_arb: &impl WordArbiters,
        by_out: &mut [u64; 64],
        port_vcs: &[u64; WORD_IN_PORTS],
        p: usize,
        o: usize,
    ) -> (usize, u8) {
        let vcs = port_vcs[p % WORD_IN_PORTS];
        let req = std::mem::take(&mut by_out[o % 64]) & vcs;
        debug_assert!(req != 0, "a granted input port has a requesting VC");
        let base = vcs.trailing_zeros() as usize;
        // A lone requesting VC wins under every arbiter kind: no arbiter to consult.
        let i = if req & req.wrapping_sub(1) == 0 {
            req.trailing_zeros() as usize
        } else {
            base + vc_arb
                .arbitrate_word(p, req >> base)
                .expect("a granted input port has a requesting VC")
        };
        (i, (i - base) as u8)
    }

    /// Zeroes what the one-word path's grant loop (which drained the grants and zeroed
    /// the eligible VCs of each granted output) left of the scratch: the eligible VCs of
    /// the outputs requested (`outs`) but not `granted`, none when the requests formed a
    /// matching.
    #[inline(always)]
    pub(super) fn clear_word(x: &mut StepScratch, outs: u64, granted: u64) {
        debug_assert_eq!(x.req.rows(), 0);
        let mut left = outs & !granted;
        while left != 0 {
            let o = left.trailing_zeros() as usize;
            left &= left - 1;
            x.by_out[o] = 0;
        }
        debug_assert!(x.is_clear());
    }

    /// [`SwitchAlloc::evaluate`] for a router whose input VCs fit one word (at most 64,
    /// every router of the generated topologies up to 16 ports of 4 VCs), with at most 32
    /// input ports, and whose port matrices have at most 64 rows and columns: the same
    /// requests, allocation and VC arbitration, on `u64`s instead of word slices.
    #[inline(never)]
    pub(super) fn evaluate_word(
        &mut self,
        now: Cycle,
        s: &RouterState,
        active: u64,
        x: &mut StepScratch,
    ) {
        let w = &mut *self.word;
        let eligible = Self::eligible_word(w, now, s, active);
        if eligible == 0 {
            return;
        }
        self.requests_made += requests_in(eligible);
        let outs = Self::allocate_word(w, x, &mut self.allocator, eligible);
        let port_vcs = &w.port_vcs;
        let StepScratch { req, by_out, .. } = &mut *x;
        // The grants, row-major (one output port per granted input port).
        let mut granted = 0u64;
        for (p, row) in req.drain() {
            let o = row.trailing_zeros() as usize;
            granted |= row;
            let (i, _) = Self::pick_vc_word(&self.vc_arb, by_out, port_vcs, p, o);
            self.winners.push(i as u32);
        }
        Self::clear_word(x, outs, granted);
    }

    /// [`SwitchAlloc::step`] on the one-word path: each granted input port's VC is
    /// picked and its flit moved, port by port in ascending order, as `evaluate_word`
    /// then `move_winners` would (a move changes nothing the later picks read).
    #[inline]
    pub(super) fn step_word(
        &mut self,
        now: Cycle,
        s: &mut RouterState,
        (crossbar, credits): (&mut Crossbar, &mut CreditReturn),
        active: u64,
        x: &mut StepScratch,
    ) {
        let w = &mut *self.word;
        let eligible = Self::eligible_word(w, now, s, active);
        if eligible == 0 {
            return;
        }
        self.requests_made += requests_in(eligible);
        // One eligible VC: its lone request is granted under every allocator and arbiter
        // kind, with no requests to build (the allocator records the grant, as its
        // allocation would).
        let separable = self.allocator.is_separable();
        let lone = eligible & (eligible - 1) == 0;
        let outs = if lone {
            if !separable {
                let WordVc { input, held, .. } = w.vcs[eligible.trailing_zeros() as usize % 64];
                let (p, o) = (usize::from(input), usize::from(held.port));
                self.allocator.granted_alone(p, o);
            }
            0
        } else {
            Self::allocate_word(w, x, &mut self.allocator, eligible)
        };
        // The arbiters' kind matched once here, not at each of a grant's three updates.
        let grants = WordGrants {
            eligible: if lone { eligible } else { 0 },
            outs,
            exit: now.plus(self.exit_delay),
        };
        if !separable {
            let arbs = &mut AllocatorGrants {
                vc: &mut self.vc_arb,
                allocator: &mut self.allocator,
            };
            return Self::take_grants_word(now, s, crossbar, credits, (w, x), grants, arbs);
        }
        match (&mut self.vc_arb, self.allocator.arbiters_mut()) {
            (
                Arbiters::RoundRobinWords(vc),
                (Arbiters::RoundRobinWords(row), Arbiters::RoundRobinWords(col)),
            ) => Self::take_grants_word(
                now,
                s,
                crossbar,
                credits,
                (w, x),
                grants,
                &mut GrantArbiters { vc, row, col },
            ),
            (vc, (row, col)) => Self::take_grants_word(
                now,
                s,
                crossbar,
                credits,
                (w, x),
                grants,
                &mut GrantArbiters { vc, row, col },
            ),
        }
    }

    /// The grant loop of [`SwitchAlloc::step_word`], on the arbiters `arbs`: the lone
    /// eligible VC of `grants` takes its output, or else each granted input port (of
    /// `x.req`) picks its VC, whose flit moves, port by port in ascending order.
    #[inline(always)]
    pub(super) fn take_grants_word(
        now: Cycle,
        s: &mut RouterState,
        crossbar: &mut Crossbar,
        credits: &mut CreditReturn,
        (w, x): (&mut WordPath, &mut StepScratch),
        grants: WordGrants,
        arbs: &mut impl GrantUpdate,
    ) {
        let exit = grants.exit;
        if grants.eligible != 0 {
            let i = grants.eligible.trailing_zeros() as usize;
            let WordVc { input, v, held } = w.vcs[i % 64];
            let p = usize::from(input);
            let seen = &mut w.seen;
            let out = held.out();
            Self::take_grant(now, exit, s, crossbar, credits, arbs, seen, (i, p, v), out);
            return;
        }
        let WordPath {
            seen,
            vcs,
            port_vcs,
        } = &mut *w;
        let StepScratch { req, by_out, .. } = &mut *x;
        let mut granted = 0u64;
        for (p, row) in req.drain() {
            let o = row.trailing_zeros() as usize;
            granted |= row;
            let (i, v) = Self::pick_vc_word(arbs.vc(), by_out, port_vcs, p, o);
            let held = vcs[i % 64].held;
            debug_assert_eq!(usize::from(held.port), o);
            let out = held.out();
            Self::take_grant(now, exit, s, crossbar, credits, arbs, seen, (i, p, v), out);
        }
        Self::clear_word(x, grants.outs, granted);
    }
}

/// The requests in the non-empty mask `eligible`: a lone one (most cycles at low load)
/// without a population count, which is a dozen instructions on CPUs without `popcnt`.
#[inline(always)]
fn requests_in(eligible: u64) -> u64 {
    if eligible & (eligible - 1) == 0 {
        1
    } else {
        u64::from(eligible.count_ones())
    }
}
