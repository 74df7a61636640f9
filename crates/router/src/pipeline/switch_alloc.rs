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
use crate::alloc::{Allocator, BitMatrix, WordMatrix};
use crate::arbiter::{Arbiters, WordArbiters};
use crate::flit::Credit;
use crate::mask;
use crate::vc_state::{InputVcState, VcPhase};
use flitsim_netlist::{Cycle, OutPort, RouterConfig, VcId, TERMINAL_PORT};

/// The SA stage: port allocator, per-input-port VC arbiters, scratch.
///
/// Laid out as C lays out a struct, what a step reads first: the one-word path's
/// scratch and flag, then the VC arbiters and the allocator, whose round-robin pointers
/// follow their tags ([`Arbiters`], [`Allocator`]); from a cache line's start, a step of
/// a router of up to 16 ports touches three lines of it.
#[derive(Debug)]
#[repr(C, align(64))]
pub struct SwitchAlloc {
    /// The one-word path's layout words and scratch.
    word: Box<WordPath>,
    /// The router takes the one-word path: at most 64 input VCs, port matrices of at most
    /// 64 rows and columns.
    one_word: bool,
    /// `sd + xd`: a flit granted at `c` is written at `c + sd + xd` (the router's delays,
    /// fixed at construction; kept here so that a step reads no other line for them).
    exit_delay: u64,
    vc_arb: Arbiters,
    allocator: Allocator,
    /// Flat input VCs eligible this cycle (word mask; multi-word path).
    eligible: Vec<u64>,
    /// Scratch: one input port's VCs requesting a given output (word mask; multi-word
    /// path).
    vc_req: Vec<u64>,
    /// Port requests of the multi-word path.
    req: BitMatrix,
    /// Port grants of the multi-word path.
    grant: BitMatrix,
    /// Flat input VCs that won in the last `evaluate` (`step` does not fill it); reused.
    winners: Vec<u32>,
}

/// What the one-word path (a router with at most 64 input VCs and at most 64 ports per
/// side) works on: fixed arrays indexed below 64, so its accesses need no bounds checks.
///
/// Laid out as C lays out a struct, from a cache line's start: a small router's entries
/// (up to 6 ports, 20 VCs) of each array lie in one line (`seen` and `vcs`: two), so a
/// step touches five.
#[derive(Debug)]
#[repr(C, align(64))]
struct WordPath {
    /// Flat input VCs seen `Active` and ready by a step, their output VC copied into
    /// `vcs`: until a VC's tail leaves (which clears its bit) its state is not read again
    /// (a VC stays ready and keeps its output VC while it is active). Kept empty while
    /// the router keeps the reset trail: a reset may free a VC, and VA give it another
    /// output VC, between two steps.
    seen: u64,
    /// Per flat input VC: its input port, and the output VC it holds while in `seen`.
    vcs: [WordVc; 64],
    /// Port requests: row p holds the output ports input port p requests, then the
    /// grants in their place (all zero between steps).
    req: WordMatrix,
    /// Eligible flat input VCs by the output port they request (all zero between steps).
    by_out: [u64; 64],
    /// Flat input VCs of each input port (bit i = flat VC i).
    port_vcs: [u64; 64],
}

/// What [`WordPath`] keeps of one flat input VC.
#[derive(Copy, Clone, Debug, Default)]
#[repr(C)]
struct WordVc {
    /// Its input port.
    input: u8,
    /// The output VC it holds (valid while it is in `WordPath::seen`).
    held: HeldVc,
}

/// The output VC an active input VC holds, as [`WordPath`] keeps it.
#[derive(Copy, Clone, Debug, Default)]
#[repr(C)]
struct HeldVc {
    /// Output port.
    port: u8,
    /// Downstream VC.
    vc: u8,
    /// Flat output VC (the one-word path is taken only when every flat output VC fits).
    flat: u16,
}

impl HeldVc {
    /// Output port, downstream VC and flat output VC.
    #[inline(always)]
    fn out(self) -> (OutPort, VcId, usize) {
        (OutPort(self.port), VcId(self.vc), usize::from(self.flat))
    }
}

/// What [`SwitchAlloc::step_word`] granted, for its grant loop: a lone `eligible` VC (its
/// mask, or 0 when the grants are in `WordPath::req`), the output ports requested, and
/// the cycle the granted flits are written.
struct WordGrants {
    eligible: u64,
    outs: u64,
    exit: Cycle,
}

/// The arbiters one switch grant moves, banks of one type: the input ports' VC arbiters
/// (`vc`), and the allocator's row (input port) and column (output port) arbiters.
struct GrantArbiters<'a, A> {
    vc: &'a mut A,
    row: &'a mut A,
    col: &'a mut A,
}

impl<A: WordArbiters> GrantArbiters<'_, A> {
    /// VC `v` of input port `p` won output `o`: the port's VC arbiter, then the
    /// allocator's arbiters as [`Allocator::update_grant`] moves them.
    #[inline(always)]
    fn update(&mut self, p: usize, v: usize, o: usize) {
        self.vc.update(p, v);
        self.row.update(p, o);
        self.col.update(o, p);
    }
}

impl WordPath {
    /// For `s`'s layout (entries past 64 input VCs or ports are left out: such a router
    /// never takes the one-word path).
    fn new(s: &RouterState) -> WordPath {
        let mut w = WordPath {
            seen: 0,
            vcs: [WordVc::default(); 64],
            req: WordMatrix::new(),
            by_out: [0; 64],
            port_vcs: [0; 64],
        };
        for (i, &p) in s.layout.in_port_of.iter().enumerate().take(64) {
            w.vcs[i].input = p;
            if usize::from(p) < 64 {
                w.port_vcs[usize::from(p)] |= 1 << i;
            }
        }
        w
    }
}

/// Words of the multi-word path's masks for input ports of `in_vcs` VCs each: `eligible`
/// (every input VC) and `vc_req` (the VCs of the port with the most). The sizing rule of
/// [`SwitchAlloc::new`] and [`SwitchAlloc::bytes`].
fn mask_words(in_vcs: impl Iterator<Item = u8>) -> (usize, usize) {
    let (total, most) = in_vcs.fold((0usize, 0u8), |(t, m), v| (t + usize::from(v), m.max(v)));
    (mask::words(total), mask::words(usize::from(most)))
}

impl SwitchAlloc {
    /// Bytes [`SwitchAlloc::new`] allocates for a router whose input ports have `in_vcs`
    /// VCs each and which has `out_ports` output ports, under `config`, computed without
    /// allocating: the one-word path's arrays, the port allocator
    /// ([`Allocator::bytes`], input ports x output ports), the input ports' VC arbiters
    /// (with matrix arbiters, they grow with the square of a port's VCs), the
    /// multi-word path's masks and its request and grant matrices.
    pub fn bytes(config: &RouterConfig, in_vcs: &[u8], out_ports: usize) -> u64 {
        use std::mem::size_of;
        let pi = in_vcs.len();
        let (eligible, vc_req) = mask_words(in_vcs.iter().copied());
        (size_of::<WordPath>() as u64)
            .saturating_add(Allocator::bytes(
                config.switch_allocator,
                config.arbiter,
                pi,
                out_ports,
            ))
            .saturating_add(Arbiters::bytes(
                config.arbiter,
                in_vcs.iter().map(|&v| usize::from(v)),
            ))
            .saturating_add(((eligible + vc_req) * size_of::<u64>()) as u64)
            .saturating_add(BitMatrix::bytes(pi, out_ports).saturating_mul(2))
    }

    /// Bytes it holds on the heap (its vectors' capacities), for the tests of the `bytes`
    /// functions.
    #[cfg(test)]
    pub(crate) fn heap_bytes(&self) -> u64 {
        use std::mem::size_of;
        (size_of::<WordPath>()
            + (self.eligible.capacity() + self.vc_req.capacity()) * size_of::<u64>()
            + self.winners.capacity() * size_of::<u32>()) as u64
            + self.allocator.heap_bytes()
            + self.vc_arb.heap_bytes()
            + self.req.heap_bytes()
            + self.grant.heap_bytes()
    }

    /// For a router with this layout and configuration.
    pub fn new(config: &RouterConfig, s: &RouterState) -> SwitchAlloc {
        let (pi, po) = (s.layout.in_ports(), s.layout.out_ports());
        let (eligible, vc_req) = mask_words((0..pi).map(|p| s.layout.in_vcs(p)));
        let req = BitMatrix::new(pi, po);
        SwitchAlloc {
            word: Box::new(WordPath::new(s)),
            one_word: req.is_one_word()
                && s.layout.total_in_vcs() <= 64
                && s.layout.total_out_vcs() <= usize::from(u16::MAX) + 1,
            exit_delay: s.delays.sd + s.delays.xd,
            allocator: Allocator::new(config.switch_allocator, config.arbiter, pi, po),
            vc_arb: Arbiters::new(
                config.arbiter,
                (0..pi).map(|p| usize::from(s.layout.in_vcs(p))),
            ),
            eligible: vec![0; eligible],
            vc_req: vec![0; vc_req],
            req,
            grant: BitMatrix::new(pi, po),
            winners: Vec::new(),
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

    /// Builds port requests and allocates, then picks one VC per granted input port.
    #[inline]
    pub fn evaluate(&mut self, now: Cycle, s: &RouterState) {
        self.winners.clear();
        match (s.vcs.active(), self.one_word) {
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
            let v = self
                .vc_arb
                .arbitrate(p, req)
                .expect("a granted input port has a requesting VC");
            self.winners.push((base + v) as u32);
        }
    }

    /// The eligible VCs among the active VCs `active` of a router on the one-word path (at
    /// most 64 input VCs, port matrices of at most 64 rows and columns); the output VC
    /// each holds is in `w.vcs`. A VC's state is read only until a step sees it ready
    /// (`w.seen`); then only its FIFO's length and its output VC's credits.
    #[inline(always)]
    fn eligible_word(w: &mut WordPath, now: Cycle, s: &RouterState, active: u64) -> u64 {
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
    fn see(w: &mut WordPath, s: &RouterState, mut unseen: u64, now: Cycle) -> u64 {
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

    /// Fills `w.by_out` with the `eligible` VCs (not 0) by the output port they request
    /// (so that the VC arbitration reads one word per granted port) and `w.req` with the
    /// port requests (input port p requests output o when one of its VCs is in
    /// `by_out[o]`). Returns the output ports requested, whether an input port requests
    /// more than one output and whether an output is requested by more than one input
    /// port (neither: the requests form a matching).
    #[inline(always)]
    fn port_requests_word(w: &mut WordPath, eligible: u64) -> (u64, bool, bool) {
        let mut outs = 0u64;
        // Set when an eligible VC's port requests another output, or its output is
        // requested by a VC of another port (whichever VC comes second sees it).
        let (mut shared_port, mut shared_out) = (0u64, 0u64);
        let mut e = eligible;
        while e != 0 {
            let i = e.trailing_zeros() as usize;
            e &= e - 1;
            let WordVc { input, held } = w.vcs[i % 64];
            let (p, o) = (usize::from(input) % 64, usize::from(held.port) % 64);
            shared_port |= w.req.row(p) & !(1 << o);
            shared_out |= w.by_out[o] & !w.port_vcs[p];
            w.by_out[o] |= 1 << i;
            w.req.set(p, o);
            outs |= 1 << o;
        }
        (outs, shared_port != 0, shared_out != 0)
    }

    /// The port requests of the `eligible` VCs (not 0; see `port_requests_word`), then
    /// their grants in their place in `w.req`. Returns the output ports requested.
    /// Requests that form a matching are the grants (see `Allocator::allocate`); requests
    /// contended on one side only are allocated by the arbiters of that side alone.
    #[inline(always)]
    fn allocate_word(w: &mut WordPath, allocator: &mut Allocator, eligible: u64) -> u64 {
        let (outs, shared_port, shared_out) = Self::port_requests_word(w, eligible);
        match (shared_port, shared_out) {
            (false, false) => {}
            (true, false) => allocator.allocate_word_one_per_col(&mut w.req),
            (false, true) => {
                let WordPath {
                    req,
                    by_out,
                    vcs: word_vcs,
                    ..
                } = w;
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
            (true, true) => allocator.allocate_word(&mut w.req),
        }
        outs
    }

    /// The flat VC of input port `p` that takes granted output `o`, and its index within
    /// the port: the port's VC arbiter picks among its VCs in `by_out[o]` (one-word
    /// path). `o` is granted to no other port: `by_out[o]` is zeroed here (with no branch
    /// on whether the requests formed a matching; see `clear_word`).
    #[inline(always)]
    fn pick_vc_word(
        vc_arb: &impl WordArbiters,
        by_out: &mut [u64; 64],
        port_vcs: &[u64; 64],
        p: usize,
        o: usize,
    ) -> (usize, u8) {
        let vcs = port_vcs[p % 64];
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
    /// the eligible VCs of each granted output) left of its scratch: the eligible VCs of
    /// the outputs requested (`outs`) but not `granted`, none when the requests formed a
    /// matching.
    #[inline(always)]
    fn clear_word(w: &mut WordPath, outs: u64, granted: u64) {
        debug_assert_eq!(w.req.rows(), 0);
        let mut left = outs & !granted;
        while left != 0 {
            let o = left.trailing_zeros() as usize;
            left &= left - 1;
            w.by_out[o] = 0;
        }
        debug_assert!(w.by_out.iter().all(|&m| m == 0));
    }

    /// [`SwitchAlloc::evaluate`] for a router whose input VCs fit one word (at most 64,
    /// every router of the generated topologies up to 16 ports of 4 VCs) and whose port
    /// matrices have at most 64 rows and columns: the same
    /// requests, allocation and VC arbitration, on `u64`s instead of word slices.
    #[inline(never)]
    fn evaluate_word(&mut self, now: Cycle, s: &RouterState, active: u64) {
        let w = &mut *self.word;
        let eligible = Self::eligible_word(w, now, s, active);
        if eligible == 0 {
            return;
        }
        let outs = Self::allocate_word(w, &mut self.allocator, eligible);
        let WordPath {
            req,
            by_out,
            port_vcs,
            ..
        } = &mut *w;
        // The grants, row-major (one output port per granted input port).
        let mut granted = 0u64;
        for (p, row) in req.drain() {
            let o = row.trailing_zeros() as usize;
            granted |= row;
            let (i, _) = Self::pick_vc_word(&self.vc_arb, by_out, port_vcs, p, o);
            self.winners.push(i as u32);
        }
        Self::clear_word(w, outs, granted);
    }

    /// [`SwitchAlloc::evaluate`] then [`SwitchAlloc::commit`] in one pass, for a router
    /// that records no trace (nothing looks at the winners in between): the same
    /// allocation, flit moves and arbiter updates in the same order.
    ///
    /// `#[inline]` with the one-word path inlined into it: the compiler keeps the whole
    /// step out of the engine's cycle (whose loop then holds no SA values across the
    /// call), in the engine's code unit, where it is compiled for its one caller.
    #[inline]
    pub fn step(
        &mut self,
        now: Cycle,
        s: &mut RouterState,
        crossbar: &mut Crossbar,
        credits: &mut CreditReturn,
    ) {
        match (s.vcs.active(), self.one_word) {
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
    #[inline]
    fn step_word(
        &mut self,
        now: Cycle,
        s: &mut RouterState,
        crossbar: &mut Crossbar,
        credits: &mut CreditReturn,
        active: u64,
    ) {
        let w = &mut *self.word;
        let eligible = Self::eligible_word(w, now, s, active);
        if eligible == 0 {
            return;
        }
        // One eligible VC: its lone request is granted under every allocator and arbiter
        // kind, with no requests to build.
        let lone = eligible & (eligible - 1) == 0;
        let outs = if lone {
            0
        } else {
            Self::allocate_word(w, &mut self.allocator, eligible)
        };
        // The arbiters' kind matched once here, not at each of a grant's three updates.
        let grants = WordGrants {
            eligible: if lone { eligible } else { 0 },
            outs,
            exit: now.plus(self.exit_delay),
        };
        match (&mut self.vc_arb, self.allocator.arbiters_mut()) {
            (
                Arbiters::RoundRobinWords(vc),
                (Arbiters::RoundRobinWords(row), Arbiters::RoundRobinWords(col)),
            ) => Self::take_grants_word(
                now,
                s,
                crossbar,
                credits,
                w,
                grants,
                &mut GrantArbiters { vc, row, col },
            ),
            (vc, (row, col)) => Self::take_grants_word(
                now,
                s,
                crossbar,
                credits,
                w,
                grants,
                &mut GrantArbiters { vc, row, col },
            ),
        }
    }

    /// The grant loop of [`SwitchAlloc::step_word`], on the arbiters `arbs`: the lone
    /// eligible VC of `grants` takes its output, or else each granted input port (of
    /// `w.req`) picks its VC, whose flit moves, port by port in ascending order.
    #[inline(always)]
    fn take_grants_word<A: WordArbiters>(
        now: Cycle,
        s: &mut RouterState,
        crossbar: &mut Crossbar,
        credits: &mut CreditReturn,
        w: &mut WordPath,
        grants: WordGrants,
        arbs: &mut GrantArbiters<'_, A>,
    ) {
        let exit = grants.exit;
        if grants.eligible != 0 {
            let i = grants.eligible.trailing_zeros() as usize;
            let WordVc { input, held } = w.vcs[i % 64];
            let p = usize::from(input);
            let v = (i - w.port_vcs[p % 64].trailing_zeros() as usize) as u8;
            let seen = &mut w.seen;
            let out = held.out();
            Self::take_grant(now, exit, s, crossbar, credits, arbs, seen, (i, p, v), out);
            return;
        }
        let WordPath {
            seen,
            vcs,
            req,
            by_out,
            port_vcs,
        } = &mut *w;
        let mut granted = 0u64;
        for (p, row) in req.drain() {
            let o = row.trailing_zeros() as usize;
            granted |= row;
            let (i, v) = Self::pick_vc_word(&*arbs.vc, by_out, port_vcs, p, o);
            let held = vcs[i % 64].held;
            debug_assert_eq!(usize::from(held.port), o);
            let out = held.out();
            Self::take_grant(now, exit, s, crossbar, credits, arbs, seen, (i, p, v), out);
        }
        Self::clear_word(w, grants.outs, granted);
    }

    /// Flat input VC `i` (VC `v` of input port `p`), holding output VC `out` (port,
    /// downstream VC, flat output VC), won its output port at `now`: its flit moves
    /// (written at `exit`), then the port's VC arbiter and the allocator's arbiters (of
    /// `arbs`) move their priorities. A tail takes the VC out of `seen` (the one-word
    /// path's `WordPath::seen`; always empty on other routers).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn take_grant<A: WordArbiters>(
        now: Cycle,
        exit: Cycle,
        s: &mut RouterState,
        crossbar: &mut Crossbar,
        credits: &mut CreditReturn,
        arbs: &mut GrantArbiters<'_, A>,
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
        for &i in &self.winners {
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
        flit.hops += u16::from(o.0 != TERMINAL_PORT);
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
        s.outputs[ovc].packet = None;
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
