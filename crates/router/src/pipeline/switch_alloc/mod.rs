//! Stage 3, switch allocation (SA).
//!
//! - Reads: input VCs in `Active` with `ready_at <= now` whose front flit has arrived and
//!   whose output VC has a credit (credits delivered this cycle count).
//! - Decides: an allocation of input ports x output ports (at most one flit per input
//!   port and per output port per cycle), then, per granted input port, a VC arbiter
//!   picks one of its VCs that requested the granted output (at most one flit per VC per
//!   cycle follows). With `input_speedup` si and `output_speedup` so the allocator has
//!   si rows per input port and so columns per output port (`SwitchAlloc::cell`): up
//!   to si flits leave an input port and up to so enter an output port per cycle.
//! - Writes: the flit leaves its input FIFO at `now` (takes a downstream credit, gets its
//!   downstream VC and hop count); it enters the crossbar pipeline to be written at
//!   `now + sd + xd`; its credit to the upstream router is scheduled for `now + cd`. When
//!   the tail leaves, the output VC loses its owner (it becomes free for VA once all its
//!   credits are home) and the input VC goes idle.
//! - Knob: `switch_alloc_delay` (sd); term `sd` of the per-router head latency. Body and
//!   tail flits skip RC and VA: they request the switch as soon as they are at the front
//!   of an active VC, one per cycle.
//! - `speculative = true`: heads also request in the cycle of their VA ([`speculative`]).

mod one_word;
mod scratch;
mod speculation;
pub mod speculative;
mod word_path;

use super::credit_return::CreditReturn;
use super::crossbar::Crossbar;
use super::RouterState;
use crate::alloc::{Allocator, BitMatrix};
use crate::arbiter::Arbiters;
use crate::flit::Credit;
use crate::mask;
use crate::vc_state::{InputVcState, VcPhase};
use flitsim_netlist::{Cycle, OutPort, RouterConfig, VcId};
pub use scratch::StepScratch;
use scratch::{speedups, WordsScratch};
use speculation::{SpecRequest, Speculation};
use word_path::{GrantArbiters, GrantUpdate, WordPath};

/// The SA stage: port allocator, per-input-port VC arbiters, the multi-word path's
/// scratch (the one-word path's is the caller's, [`StepScratch`]).
///
/// Laid out as C lays out a struct, what a step reads first: the one-word path's seen
/// VCs and their output VCs (a router of up to 20 VCs: in three cache lines from the
/// start), its flag, then the VC arbiters and the allocator, whose round-robin pointers
/// follow their tags ([`Arbiters`], [`Allocator`]).
#[derive(Debug)]
#[repr(C, align(64))]
pub struct SwitchAlloc {
    /// The one-word path's seen VCs, the output VCs they hold, and its layout words.
    word: Box<WordPath>,
    /// The router takes the one-word path: at most 64 input VCs and 32 input ports, port
    /// matrices of at most 64 rows and columns.
    one_word: bool,
    /// `sd + xd`: a flit granted at `c` is written at `c + sd + xd` (the router's delays,
    /// fixed at construction; kept here so that a step reads no other line for them).
    exit_delay: u64,
    vc_arb: Arbiters,
    allocator: Allocator,
    /// Rows and columns of the port allocator's matrices.
    shape: [u32; 2],
    /// Flat input VCs that won in the last `evaluate` (`step` does not fill it); reused.
    winners: Vec<u32>,
    /// `winners[spec_from..]` won speculatively (`usize::MAX` outside a speculative
    /// evaluation).
    spec_from: usize,
    /// The speculative allocator (`speculative = true`), else `None`.
    spec: Option<Box<Speculation>>,
    /// `input_speedup` and `output_speedup`: the port allocator has `input_speedup` rows
    /// per input port and `output_speedup` columns per output port ([`SwitchAlloc::cell`]).
    speedup: [usize; 2],
    /// Requests made since construction or the last reset: one per VC and cycle it asks
    /// for the switch, speculative requests included (the cost model's activity).
    requests_made: u64,
}

impl SwitchAlloc {
    /// Bytes [`SwitchAlloc::new`] allocates for a router whose input ports have `in_vcs`
    /// VCs each and which has `out_ports` output ports, under `config`, computed without
    /// allocating: the port allocator
    /// ([`Allocator::bytes`], input ports x output ports), the input ports' VC arbiters
    /// (with matrix arbiters, they grow with the square of a port's VCs) and the
    /// one-word path's arrays; the multi-word path's masks and matrices are the
    /// caller's ([`StepScratch`]).
    pub fn bytes(config: &RouterConfig, in_vcs: &[u8], out_ports: usize) -> u64 {
        use std::mem::size_of;
        let [si, so] = speedups(config);
        let (pi, po) = (in_vcs.len() * si, out_ports * so);
        (size_of::<WordPath>() as u64)
            .saturating_add(Allocator::bytes(
                config.switch_allocator,
                config.arbiter,
                pi,
                po,
            ))
            .saturating_add(Arbiters::bytes(
                config.arbiter,
                in_vcs.iter().map(|&v| usize::from(v)),
            ))
            .saturating_add(if config.speculative {
                (size_of::<Speculation>() as u64)
                    .saturating_add(Speculation::bytes(config, in_vcs, out_ports))
            } else {
                0
            })
    }

    /// For a router with this layout and configuration; `alloc_seed` seeds the
    /// allocator's random stream (`pim`).
    pub fn new(config: &RouterConfig, s: &RouterState, alloc_seed: u64) -> SwitchAlloc {
        let (pi, po) = (s.layout.in_ports(), s.layout.out_ports());
        let speedup = speedups(config);
        let [rows, cols] = [pi * speedup[0], po * speedup[1]];
        let allocator = Allocator::configured(
            config.switch_allocator,
            config.arbiter,
            config.alloc_iters,
            alloc_seed,
            rows,
            cols,
        );
        SwitchAlloc {
            word: Box::new(WordPath::new(s)),
            one_word: BitMatrix::one_word_shape(rows, cols)
                && speedup == [1, 1]
                && s.layout.total_in_vcs() <= 64
                && pi <= word_path::WORD_IN_PORTS
                && s.layout.total_out_vcs() <= usize::from(u16::MAX) + 1,
            exit_delay: s.delays.sd + s.delays.xd,
            allocator,
            vc_arb: Arbiters::new(
                config.arbiter,
                (0..pi).map(|p| usize::from(s.layout.in_vcs(p))),
            ),
            shape: [rows as u32, cols as u32],
            winners: Vec::new(),
            spec_from: usize::MAX,
            spec: config
                .speculative
                .then(|| Box::new(Speculation::new(config, s, alloc_seed))),
            speedup,
            requests_made: 0,
        }
    }

    /// The port allocator's (row, column) for VC `v` of input port `p` requesting output
    /// port `o`: row `p * input_speedup + v % input_speedup`, column
    /// `o * output_speedup + p % output_speedup` (BookSim's expanded ports). Without
    /// speedup, `(p, o)`. A row's grant moves one flit, so an input port sends at most
    /// `input_speedup` flits per cycle, from different VCs; a column's grant takes one,
    /// so an output port accepts at most `output_speedup` per cycle, from different
    /// input ports.
    #[inline(always)]
    fn cell(&self, p: usize, v: u8, o: usize) -> (usize, usize) {
        match self.speedup {
            [1, 1] => (p, o),
            [si, so] => (p * si + usize::from(v) % si, o * so + p % so),
        }
    }

    /// Can input VC `i` send its front flit at `now` (active, ready, a flit, credit)?
    ///
    /// A flit enters its FIFO in the step of the cycle it arrives (`Router::receive_flit` latches
    /// the inputs delivered at `now`), so a buffered flit has always arrived by the step
    /// that looks at it: a non-empty FIFO is the whole "front flit arrived" test, and the
    /// flit's own arrival cycle (a cache line further) need not be read.
    #[inline]
    pub fn eligible(s: &RouterState, i: usize, now: Cycle) -> bool {
        s.vcs[i].phase == VcPhase::Active && Self::can_send(s, &s.vcs[i], i, now)
    }

    /// [`SwitchAlloc::eligible`] for active input VC `i` (state `vc`): ready, a flit,
    /// credit.
    #[inline(always)]
    fn can_send(s: &RouterState, vc: &InputVcState, i: usize, now: Cycle) -> bool {
        debug_assert_eq!(vc.phase, VcPhase::Active);
        debug_assert!(s.buffers.len(i) == 0 || s.front_arrived(i, now).is_some());
        vc.ready(now)
            && s.buffers.len(i) != 0
            && s.outputs[vc.out_ovc as usize].credits.has_credit()
    }

    /// Builds port requests and allocates, then picks one VC per granted input port;
    /// `spec`: the speculative requests of this cycle (VA's, empty without speculation);
    /// `x`: the one-word path's scratch (left as it was found: clear).
    #[inline]
    pub fn evaluate(
        &mut self,
        now: Cycle,
        s: &RouterState,
        spec: &[SpecRequest],
        x: &mut StepScratch,
    ) {
        self.winners.clear();
        if !spec.is_empty() {
            return self.evaluate_speculative(now, s, spec, x);
        }
        match (s.vcs.active(), self.one_word) {
            ([0], _) => {}
            ([active], true) => self.evaluate_word(now, s, *active, x),
            (active, _) if mask::is_empty(active) => {}
            _ => self.evaluate_words(now, s, &[], x),
        }
    }

    /// [`SwitchAlloc::evaluate`] on word slices (more than 64 input VCs or 32 input
    /// ports, or port matrices of more than 64 rows or columns, or a cycle with
    /// speculation), in `x`'s multi-word scratch (left empty): the VCs of `spec`
    /// (speculating this cycle) do not request.
    #[inline(never)]
    fn evaluate_words(
        &mut self,
        now: Cycle,
        s: &RouterState,
        spec: &[SpecRequest],
        x: &mut StepScratch,
    ) {
        let w = &mut x.words;
        let [rows, cols] = self.shape.map(|n| n as usize);
        w.req.reshape(rows, cols);
        w.grant.reshape(rows, cols);
        self.requests_words(now, s, spec, w);
        self.requests_made += w
            .eligible
            .iter()
            .map(|m| u64::from(m.count_ones()))
            .sum::<u64>();
        if !w.req.is_empty() {
            self.allocator.allocate(&w.req, &mut w.grant);
            w.req.clear();
            self.pick_vcs_words(s, w);
            w.grant.clear();
        }
        w.eligible.clear();
        debug_assert!(w.is_clear());
    }

    /// The eligible VCs (`w.eligible`, all but those of `spec`) and their port requests
    /// (`w.req`), on word slices.
    #[inline(always)]
    fn requests_words(
        &self,
        now: Cycle,
        s: &RouterState,
        spec: &[SpecRequest],
        w: &mut WordsScratch,
    ) {
        w.eligible.extend_from_slice(s.vcs.active());
        for r in spec {
            mask::unset(&mut w.eligible, r.ivc as usize);
        }
        // `eligible` starts as the active VCs and keeps those that can send.
        for k in 0..w.eligible.len() {
            let mut m = w.eligible[k];
            let mut keep = m;
            while m != 0 {
                let i = k * 64 + m.trailing_zeros() as usize;
                m &= m - 1;
                if Self::eligible(s, i, now) {
                    let (p, v) = s.layout.in_split(i);
                    let (r, c) = self.cell(p, v, s.vcs[i].out_port.index());
                    w.req.set(r, c);
                } else {
                    keep &= !(1 << (i % 64));
                }
            }
            w.eligible[k] = keep;
        }
    }

    /// For each grant of `w.grant`, the granted input port's VC arbiter picks one of its
    /// eligible VCs that requested the granted output; the winners join `winners`.
    #[inline(always)]
    fn pick_vcs_words(&mut self, s: &RouterState, w: &mut WordsScratch) {
        let [si, so] = self.speedup;
        let plain = self.speedup == [1, 1];
        for (row, col) in w.grant.ones() {
            let (p, o) = if plain {
                (row, col)
            } else {
                (row / si, col / so)
            };
            let base = s.layout.in_base[p] as usize;
            let n = usize::from(s.layout.in_vcs(p));
            w.vc_req.resize(mask::words(n), 0);
            for i in mask::ones_in(&w.eligible, base, base + n) {
                if s.vcs[i].out_port.index() == o && (plain || (i - base) % si == row % si) {
                    mask::set(&mut w.vc_req, i - base);
                }
            }
            let v = self
                .vc_arb
                .arbitrate(p, &w.vc_req)
                .expect("a granted input port has a requesting VC");
            w.vc_req.clear();
            self.winners.push((base + v) as u32);
        }
    }

    /// [`SwitchAlloc::evaluate`] then [`SwitchAlloc::commit`] in one pass, for a router
    /// that records no trace (nothing looks at the winners in between): the same
    /// allocation, flit moves and arbiter updates in the same order.
    ///
    /// `#[inline]` with the one-word path inlined into it: the compiler keeps the whole
    /// step out of the engine's cycle (whose loop then holds no SA values across the
    /// call), in the engine's code unit, where it is compiled for its one caller. `x`:
    /// the one-word path's scratch (left as it was found: clear). A cycle with
    /// speculative requests takes [`SwitchAlloc::step_speculative`] instead.
    #[inline]
    pub fn step(
        &mut self,
        now: Cycle,
        s: &mut RouterState,
        (crossbar, credits): (&mut Crossbar, &mut CreditReturn),
        x: &mut StepScratch,
    ) {
        match (s.vcs.active(), self.one_word) {
            ([0], _) => {}
            ([active], true) => self.step_word(now, s, (crossbar, credits), *active, x),
            (active, _) if mask::is_empty(active) => {}
            _ => {
                self.winners.clear();
                self.evaluate_words(now, s, &[], x);
                self.commit(now, s, crossbar, credits);
            }
        }
    }

    /// Switch requests made since construction or the last
    /// [`SwitchAlloc::reset_requests`].
    pub fn requests_made(&self) -> u64 {
        self.requests_made
    }

    /// Restarts [`SwitchAlloc::requests_made`] (end of warm-up).
    pub fn reset_requests(&mut self) {
        self.requests_made = 0;
    }

    /// [`SwitchAlloc::step`] in a cycle with the speculative requests `spec` (VA's, not
    /// empty).
    #[inline(never)]
    pub fn step_speculative(
        &mut self,
        now: Cycle,
        s: &mut RouterState,
        spec: &[SpecRequest],
        (crossbar, credits): (&mut Crossbar, &mut CreditReturn),
        x: &mut StepScratch,
    ) {
        self.winners.clear();
        self.evaluate_speculative(now, s, spec, x);
        self.commit(now, s, crossbar, credits);
    }

    /// Flat input VC `i` (VC `v` of input port `p`), holding output VC `out` (port,
    /// downstream VC, flat output VC), won its output port at `now`: its flit moves
    /// (written at `exit`), then the port's VC arbiter and the allocator's arbiters (of
    /// `arbs`) move their priorities. A tail takes the VC out of `seen` (the one-word
    /// path's `WordPath::seen`; always empty on other routers).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn take_grant(
        now: Cycle,
        exit: Cycle,
        s: &mut RouterState,
        crossbar: &mut Crossbar,
        credits: &mut CreditReturn,
        arbs: &mut impl GrantUpdate,
        seen: &mut u64,
        (i, p, v): (usize, usize, u8),
        out: (OutPort, VcId, usize),
    ) {
        if Self::move_flit(now, exit, s, crossbar, credits, (i, p, v), out) {
            *seen &= !(1 << (i % 64));
        }
        arbs.update(p, usize::from(v), out.0.index());
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
        if self.spec_from != usize::MAX {
            let exit = now.plus(self.exit_delay);
            self.move_speculative(now, exit, s, crossbar, credits);
            self.spec_from = usize::MAX;
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
        let exit = now.plus(self.exit_delay);
        if !self.allocator.is_separable() || self.speedup != [1, 1] {
            return self.move_winners_general(now, exit, s, crossbar, credits);
        }
        // The speculative winners (if any) move with their own arbiters.
        let plain = self.spec_from.min(self.winners.len());
        for &i in &self.winners[..plain] {
            let i = i as usize;
            let (p, v) = s.layout.in_split(i);
            // The output VC the winner holds (read before its move: a tail's VC goes idle).
            let vc = &s.vcs[i];
            let out = (vc.out_port, vc.out_vc, vc.out_ovc as usize);
            let (row, col) = self.allocator.arbiters_mut();
            let mut arbs = GrantArbiters {
                vc: &mut self.vc_arb,
                row,
                col,
            };
            let seen = &mut self.word.seen;
            Self::take_grant(
                now,
                exit,
                s,
                crossbar,
                credits,
                &mut arbs,
                seen,
                (i, p, v),
                out,
            );
        }
    }

    /// [`SwitchAlloc::move_winners`] for an allocator that is not separable, or with
    /// speedup: its priorities move by its own rule ([`Allocator::update_grant`]), at
    /// the grant's row and column ([`SwitchAlloc::cell`]).
    #[inline(never)]
    fn move_winners_general(
        &mut self,
        now: Cycle,
        exit: Cycle,
        s: &mut RouterState,
        crossbar: &mut Crossbar,
        credits: &mut CreditReturn,
    ) {
        let plain = self.spec_from.min(self.winners.len());
        for &i in &self.winners[..plain] {
            let i = i as usize;
            let (p, v) = s.layout.in_split(i);
            let vc = &s.vcs[i];
            let out = (vc.out_port, vc.out_vc, vc.out_ovc as usize);
            let tail = Self::move_flit(now, exit, s, crossbar, credits, (i, p, v), out);
            if tail {
                self.word.seen &= !(1 << (i % 64));
            }
            self.vc_arb.update(p, usize::from(v));
            let (r, c) = self.cell(p, v, out.0.index());
            self.allocator.update_grant(r, c);
        }
    }

    /// Moves the front flit of flat input VC `i` (VC `v` of input port `p`), which won
    /// the switch at `now` and holds output VC `(o, ov)` (flat `ovc`), into the crossbar
    /// (written at `exit`) and schedules its credit upstream; a tail frees the output VC
    /// and the input VC. Returns whether the flit was the tail.
    #[inline(always)]
    fn move_flit(
        now: Cycle,
        exit: Cycle,
        s: &mut RouterState,
        crossbar: &mut Crossbar,
        credits: &mut CreditReturn,
        (i, p, v): (usize, usize, u8),
        (o, ov, ovc): (OutPort, VcId, usize),
    ) -> bool {
        // The flit is copied from its FIFO slot straight into the crossbar; the credit
        // accounting follows.
        let flit = crossbar.push(o.index(), exit, &s.buffers.pop(i).flit);
        let tail = flit.kind.is_tail();
        flit.vc = ov;
        flit.hops += u16::from(o.0 >= s.terminals);
        s.outputs[ovc].credits.consume();
        credits.push(p, now, Credit { vc: VcId(v) });
        if tail {
            Self::tail_left(now, s, i, ovc);
        }
        tail
    }

    /// The tail of input VC `i` left at `now`: output VC `ovc` loses its owner and the
    /// input VC goes idle (or restarts with the next packet's head). Out of line: one
    /// flit in a packet is its tail, and the others' path keeps fewer values live.
    #[inline(never)]
    fn tail_left(now: Cycle, s: &mut RouterState, i: usize, ovc: usize) {
        debug_assert_eq!(s.outputs[ovc].owner, Some(i as u32));
        s.outputs[ovc].owner = None;
        if let Some(h) = s.holders.get_mut(ovc) {
            *h = None;
        }
        if let Some(t) = &mut s.channel_times {
            t.released(usize::from(s.layout.out_port_of[ovc]), ovc, now);
        }
        s.vcs.tail_left(i);
        // Under `vc_release = credits` upstream the FIFO is empty now; under `tail` the
        // next packet's head may already wait behind this tail: it is routed from the
        // next cycle (the VC state machine restarts with it).
        if let Some(b) = s.buffers.front(i) {
            debug_assert!(b.flit.kind.is_head());
            s.vcs.head_arrived(i, b.arrived.cycle().max(now.plus(1)));
        }
    }
}

#[cfg(test)]
impl SwitchAlloc {
    /// Bytes it holds on the heap (its vectors' capacities), for the tests of the `bytes`
    /// functions.
    pub(crate) fn heap_bytes(&self) -> u64 {
        use std::mem::size_of;
        (size_of::<WordPath>() + self.winners.capacity() * size_of::<u32>()) as u64
            + self.allocator.heap_bytes()
            + self.vc_arb.heap_bytes()
            + self.spec.as_ref().map_or(0, |sp| {
                std::mem::size_of::<Speculation>() as u64 + sp.heap_bytes()
            })
    }

    /// Takes the general path on word slices even where the one-word path fits (for the
    /// tests that compare the two).
    pub(crate) fn use_general_path(&mut self) {
        self.one_word = false;
    }
}
