//! Stage 2, VC allocation (VA).
//!
//! - Reads: input VCs in `VcWait` with `ready_at <= now`, their route candidates, and the
//!   output VCs' owners and credits as of this stage (credits delivered this cycle count).
//! - Decides: for each waiting VC the selection function picks one candidate among those
//!   with a free downstream VC ([`OutputVcState::is_free_for`], the single place where the
//!   switching technique decides "downstream has room"); the VC requests every free VC of
//!   that candidate; the allocator (input VCs x output VCs) grants at most one output VC
//!   per input VC and one input VC per output VC.
//! - Writes: the grant into the VC state (`Active`) and the output VC's owner.
//! - Visible: SA may act on the VC from `now + vc_alloc_delay` (same cycle when 0).
//! - Knob: `vc_alloc_delay` (vd); term `vd` of the per-router head latency.
//!
//! [`OutputVcState::is_free_for`]: crate::output_vc::OutputVcState::is_free_for

use super::switch_alloc::speculative::SpecRequest;
use super::switch_alloc::StepScratch;
use super::{ugal, RouterState};
use crate::alloc::{Allocator, BitMatrix};
use crate::arbiter::Arbiters;
use crate::mask;
use crate::output_vc::OutputVcState;
use crate::PacketId;
use flitsim_netlist::{Cycle, OutputVcArbiter, RouterConfig, Switching, VcId};
use flitsim_routing::committed::{self, Decision};
use flitsim_routing::selection::{CandidateView, Selection};
use flitsim_routing::Candidate;
use rand_pcg::Pcg64Mcg;
use smallvec::SmallVec;

/// The VA stage: allocator, selection function, the router's RNG stream, scratch (its
/// request and grant matrices are the caller's, [`StepScratch`]).
///
/// Laid out as C lays out a struct, first what a step with a lone
/// requesting VC reads: the one-word flag, then the allocator, whose round-robin row
/// pointers follow their tag ([`Allocator`], [`crate::arbiter::Arbiters`]).
#[derive(Debug)]
#[repr(C)]
pub struct VcAlloc {
    /// Requests and grants fit one word per row: at most 64 input VCs and 64 output VCs.
    one_word: bool,
    allocator: Allocator,
    selection: Selection,
    rng: Pcg64Mcg,
    /// Dimension of each output port (for `x-first`).
    port_dim: Vec<Option<u8>>,
    /// VCs `0..escape_vcs` are escape VCs (Duato's methodology); 0 = none.
    escape_vcs: u8,
    /// Rows (input VCs) and columns (output VCs) of the request and grant matrices.
    shape: [u32; 2],
    /// The grant matrix holds a grant (a flag, cheaper to test every cycle than the
    /// matrix).
    granted: bool,
    views: SmallVec<[CandidateView; 4]>,
    /// Per input VC, the packet whose head committed to a candidate (its index in the
    /// route) under `first-free-else-highest`; empty under the other rules.
    committed: Vec<Option<(PacketId, u8)>>,
    /// `speculative`: each requesting VC also requests the switch this cycle.
    speculative: bool,
    /// This cycle's speculative switch requests (empty without speculation).
    speculating: Vec<SpecRequest>,
    /// Requests made since construction or the last reset: one per waiting VC and cycle
    /// it asks the allocator for an output VC (the cost model's activity).
    requests_made: u64,
    /// Under `output_vc_arbiter = "port"`, one arbiter per input VC over the VC numbers of
    /// a port (its pick is the VC's one request); `None` under `router`.
    port_arbiters: Option<Arbiters>,
}

impl VcAlloc {
    /// Bytes [`VcAlloc::new`] allocates for a router of `in_vcs` input VCs and `out_vcs`
    /// output VCs over all its ports, `widest` on its widest output port, under `config`,
    /// computed without allocating: the allocator ([`Allocator::bytes`], input VCs x
    /// output VCs), the port arbiters of `output_vc_arbiter = "port"` and the
    /// commitments of a committing selection. The allocator grows with the square of the
    /// router's VCs, with matrix arbiters with the cube.
    pub fn bytes(config: &RouterConfig, in_vcs: usize, (out_vcs, widest): (usize, usize)) -> u64 {
        let committed = if Selection::new(config.selection).commits() {
            (in_vcs as u64).saturating_mul(std::mem::size_of::<Option<(PacketId, u8)>>() as u64)
        } else {
            0
        };
        let port_arbiters = match config.output_vc_arbiter {
            OutputVcArbiter::Router => 0,
            OutputVcArbiter::Port => {
                Arbiters::bytes(config.arbiter, std::iter::repeat_n(widest, in_vcs))
            }
        };
        committed
            .saturating_add(port_arbiters)
            .saturating_add(Allocator::bytes(
                config.vc_allocator,
                config.arbiter,
                in_vcs,
                out_vcs,
            ))
    }

    /// For a router with this layout and configuration.
    pub fn new(
        config: &RouterConfig,
        s: &RouterState,
        port_dim: Vec<Option<u8>>,
        rng: Pcg64Mcg,
        alloc_seed: u64,
    ) -> VcAlloc {
        let (rows, cols) = (s.layout.total_in_vcs(), s.layout.total_out_vcs());
        let selection = Selection::new(config.selection);
        let committed = if selection.commits() {
            vec![None; rows]
        } else {
            Vec::new()
        };
        let allocator = Allocator::configured(
            config.vc_allocator,
            config.arbiter,
            config.alloc_iters,
            alloc_seed,
            rows,
            cols,
        );
        let port_arbiters = (config.output_vc_arbiter == OutputVcArbiter::Port).then(|| {
            let widest = (0..s.layout.out_ports())
                .map(|o| usize::from(s.layout.out_vcs(o)))
                .max()
                .unwrap_or(0);
            Arbiters::new(config.arbiter, std::iter::repeat_n(widest, rows))
        });
        VcAlloc {
            one_word: BitMatrix::one_word_shape(rows, cols),
            allocator,
            selection,
            rng,
            port_dim,
            escape_vcs: 0,
            shape: [rows as u32, cols as u32],
            granted: false,
            views: SmallVec::new(),
            committed,
            speculative: config.speculative,
            speculating: Vec::new(),
            requests_made: 0,
            port_arbiters,
        }
    }

    /// VC allocation requests made since construction or the last [`VcAlloc::reset_requests`].
    pub fn requests_made(&self) -> u64 {
        self.requests_made
    }

    /// Restarts [`VcAlloc::requests_made`] (end of warm-up).
    pub fn reset_requests(&mut self) {
        self.requests_made = 0;
    }

    /// Declares VCs `0..e` escape VCs: selection uses a candidate lying inside them only
    /// when no other candidate is free ([`crate::RoutingFunction::escape_vcs`]).
    pub fn set_escape_vcs(&mut self, e: Option<u8>) {
        self.escape_vcs = e.unwrap_or(0);
    }

    /// Candidate `c`'s output VCs: its port `o`, its first VC `lo`, the flat index of that
    /// VC, and the states of the candidate's VCs (one slice of the output VCs).
    #[inline(always)]
    fn candidate_vcs<'a>(
        s: &'a RouterState,
        c: &Candidate,
    ) -> (usize, u8, usize, &'a [OutputVcState]) {
        let o = c.port.index();
        let (base, hi) = (s.layout.out_base_of(o) as usize, s.layout.out_vcs(o));
        debug_assert_eq!(
            c.vcs.hi.min(hi),
            c.vcs.hi,
            "candidate VC range beyond the port's VCs"
        );
        let (lo, hi) = (c.vcs.lo, c.vcs.hi.min(hi).max(c.vcs.lo));
        let first = base + usize::from(lo);
        (o, lo, first, &s.outputs[first..base + usize::from(hi)])
    }

    /// Is output VC `v` of port `o`, in state `out`, free for a packet of `len` flits
    /// (under [`RouterState::release_for`])?
    #[inline(always)]
    fn is_free(s: &RouterState, o: usize, v: u8, out: &OutputVcState, len: u32) -> bool {
        out.is_free_for(s.switching, s.release_for(o, v), len)
    }

    /// The flat output VCs of candidate `c` free for a packet of `len` flits, ascending.
    #[inline(always)]
    fn free_vcs<'a>(
        s: &'a RouterState,
        c: &Candidate,
        len: u32,
    ) -> impl Iterator<Item = usize> + 'a {
        let (o, lo, first, outs) = Self::candidate_vcs(s, c);
        outs.iter()
            .enumerate()
            .filter(move |&(k, out)| Self::is_free(s, o, lo + k as u8, out, len))
            .map(move |(k, _)| first + k)
    }

    /// [`VcAlloc::free_vcs`] as one word (at most 64 output VCs), in a loop the compiler
    /// keeps inline (a `fold` over `free_vcs` became a call).
    #[inline(always)]
    fn free_row(s: &RouterState, c: &Candidate, len: u32) -> u64 {
        let (o, lo, first, outs) = Self::candidate_vcs(s, c);
        let mut row = 0u64;
        for (k, out) in outs.iter().enumerate() {
            row |= u64::from(Self::is_free(s, o, lo + k as u8, out, len)) << ((first + k) % 64);
        }
        row
    }

    /// Builds requests for every waiting VC and allocates, in `x` (whose grant matrix
    /// then holds the grants, [`VcAlloc::grants`], until [`VcAlloc::commit`]).
    #[inline]
    pub fn evaluate(&mut self, now: Cycle, s: &RouterState, x: &mut StepScratch) {
        self.shape_matrices(x);
        self.speculating.clear();
        if mask::is_empty(s.vcs.waiting()) {
            // Nothing waits (the common case): no request, no grant.
            return;
        }
        self.request_and_allocate(now, s, x);
    }

    /// Shapes the request and grant matrices of `x` (empty) for this router.
    #[inline]
    fn shape_matrices(&self, x: &mut StepScratch) {
        // The grants are empty between a commit and the next evaluate.
        debug_assert!(x.va_grant.is_empty(), "grants left from the last cycle");
        let [rows, cols] = self.shape.map(|n| n as usize);
        x.va_req.reshape(rows, cols);
        x.va_grant.reshape(rows, cols);
    }

    /// [`VcAlloc::evaluate`] when some VC waits for an output VC.
    #[inline(never)]
    fn request_and_allocate(&mut self, now: Cycle, s: &RouterState, x: &mut StepScratch) {
        // At most 64 output VCs (and input VCs): a VC's requests are gathered in one word
        // and written once.
        let one_word = self.one_word;
        self.requests(now, s, &mut x.va_req, |req, i, c, len| {
            if one_word {
                let row = Self::free_row(s, c, len);
                if row != 0 {
                    req.set_row_word(i, row);
                }
            } else {
                for ovc in Self::free_vcs(s, c, len) {
                    req.set(i, ovc);
                }
            }
        });
        self.allocate_requests(x);
    }

    /// Calls `request(req, i, c, len)` for every waiting VC `i` that is ready at `now`
    /// and has a candidate `c` the selection function picks for its packet of `len`
    /// flits (VCs in ascending order, so the selection's random draws come in one order).
    #[inline(always)]
    fn requests(
        &mut self,
        now: Cycle,
        s: &RouterState,
        req: &mut BitMatrix,
        mut request: impl FnMut(&mut BitMatrix, usize, &Candidate, u32),
    ) {
        for i in mask::ones(s.vcs.waiting()) {
            let vc = &s.vcs[i];
            // A head routed in this cycle's RC waits in `VcWait` until `now + rd`.
            if !vc.ready(now) {
                continue;
            }
            // Only VCT and SAF ask whether the packet fits downstream.
            let len = if s.switching == Switching::Wormhole {
                1
            } else {
                s.buffers.front(i).map_or(1, |b| b.flit.len)
            };
            // One candidate (deterministic routing): every selection rule picks it exactly
            // when it has a free VC (`random` draws nothing for a single free candidate),
            // so the views are not needed.
            let c = match s.vcs.route(i).as_slice() {
                [c] if self.committed.is_empty() => *c,
                route => match self.select(s, i, route, len) {
                    Some(c) => c,
                    None => continue,
                },
            };
            let c = match &self.port_arbiters {
                Some(arbiters) => match Self::port_pick(arbiters, s, i, c, len) {
                    Some(c) => c,
                    None => continue,
                },
                None => c,
            };
            request(req, i, &c, len);
            self.requests_made += 1;
            if self.speculative && Self::free_vcs(s, &c, len).next().is_some() {
                self.speculating.push(SpecRequest {
                    ivc: i as u32,
                    port: c.port.0,
                });
            }
        }
    }

    /// Candidate `c` narrowed to the one free VC input VC `i`'s port arbiter picks
    /// (`output_vc_arbiter = "port"`), or `None` when none of its VCs is free.
    #[inline(never)]
    fn port_pick(
        arbiters: &Arbiters,
        s: &RouterState,
        i: usize,
        mut c: Candidate,
        len: u32,
    ) -> Option<Candidate> {
        let (o, lo, _, outs) = Self::candidate_vcs(s, &c);
        // VC numbers are `u8`: four words hold any port's VCs.
        let mut free = [0u64; 4];
        for (k, out) in outs.iter().enumerate() {
            let v = usize::from(lo) + k;
            free[v / 64] |= u64::from(Self::is_free(s, o, v as u8, out, len)) << (v % 64);
        }
        let words = mask::words(arbiters.size(i));
        let v = arbiters.arbitrate(i, &free[..words])? as u8;
        c.vcs.lo = v;
        c.vcs.hi = v + 1;
        Some(c)
    }

    /// Moves input VC `i`'s port arbiter (`output_vc_arbiter = "port"`) past output VC
    /// `ovc`, the VC it was granted.
    #[inline(always)]
    fn port_granted(&mut self, s: &RouterState, i: usize, ovc: usize) {
        if let Some(arbiters) = &mut self.port_arbiters {
            let o = usize::from(s.layout.out_port_of[ovc]);
            arbiters.update(i, ovc - s.layout.out_base_of(o) as usize);
        }
    }

    /// The speculative switch requests of this cycle's VA (`speculative = true`): one per
    /// VC that requested a free output VC, for that VC's port. Empty otherwise.
    #[inline(always)]
    pub fn speculating(&self) -> &[SpecRequest] {
        &self.speculating
    }

    /// Allocates the requests in `x`'s request matrix into its grant matrix (then clears
    /// the requests; empty between calls).
    #[inline]
    fn allocate_requests(&mut self, x: &mut StepScratch) {
        if !x.va_req.is_empty() {
            self.allocator.allocate(&x.va_req, &mut x.va_grant);
            self.granted = !x.va_grant.is_empty();
            x.va_req.clear();
        }
    }

    /// VA in one pass, for a router that records no trace: the grants `evaluate` then
    /// `commit` hand out, with the same arbiter moves; `x` holds the requests and grants
    /// of the step (left empty).
    #[inline]
    pub fn step(&mut self, now: Cycle, s: &mut RouterState, x: &mut StepScratch) {
        self.speculating.clear();
        match *s.vcs.waiting() {
            [0] => {}
            // One waiting VC, a head routed in this cycle's RC and ready only at `now + rd`
            // (about a third of the calls): nothing to allocate, no call.
            [w] if w & (w - 1) == 0 && !s.vcs[w.trailing_zeros() as usize].ready(now) => {}
            ref m => {
                if !mask::is_empty(m) {
                    self.step_waiting(now, s, x);
                }
            }
        }
    }

    /// [`VcAlloc::step`] when some VC waits for an output VC. With one-word requests, a
    /// lone requesting VC (the usual case) is granted what its row arbiter picks
    /// ([`Allocator::lone_row`], what the allocator grants a lone row) without the
    /// request and grant matrices.
    #[inline(never)]
    fn step_waiting(&mut self, now: Cycle, s: &mut RouterState, x: &mut StepScratch) {
        debug_assert!(x.va_req.is_empty() && x.va_grant.is_empty());
        if !self.one_word {
            self.shape_matrices(x);
            self.request_and_allocate(now, s, x);
            self.commit(now, s, x);
            return;
        }
        // The first requesting VC and its requests; the matrices only from the second on.
        let (mut first, mut rows) = ((0, 0u64), 0u32);
        let r: &RouterState = s;
        let [m, n] = self.shape.map(|n| n as usize);
        self.requests(now, r, &mut x.va_req, |req, i, c, len| {
            let row = Self::free_row(r, c, len);
            if row == 0 {
                return;
            }
            match rows {
                0 => first = (i, row),
                1 => {
                    req.reshape(m, n);
                    req.set_row_word(first.0, first.1);
                    req.set_row_word(i, row);
                }
                _ => req.set_row_word(i, row),
            }
            rows += 1;
        });
        match rows {
            0 => {}
            1 => {
                let (i, row) = first;
                if let Some(ovc) = self.allocator.lone_row(i, row) {
                    Self::grant_vc(now, now.plus(s.delays.vd), s, i, ovc);
                    self.allocator.update_grant(i, ovc);
                    self.port_granted(s, i, ovc);
                    self.granted_to(i);
                }
            }
            _ => {
                x.va_grant.reshape(m, n);
                self.allocate_requests(x);
                self.commit(now, s, x);
            }
        }
    }

    /// The candidate the selection function picks among `route` (two or more, or any
    /// number under a committing rule) for the packet of `len` flits at the front of
    /// input VC `i`, from the output VCs' state; `None` when none has a free VC.
    #[inline(never)]
    fn select(
        &mut self,
        s: &RouterState,
        i: usize,
        route: &[Candidate],
        len: u32,
    ) -> Option<Candidate> {
        self.views.clear();
        for (k, c) in route.iter().enumerate() {
            let o = c.port.index();
            let hi = c.vcs.hi.min(s.layout.out_vcs(o));
            let free_vcs = Self::free_vcs(s, c, len).count() as u32;
            let mut credits = 0u32;
            for v in c.vcs.lo..hi {
                let a = s.outputs[s.layout.ovc(o, v)]
                    .credits
                    .available()
                    .unwrap_or(u32::MAX);
                credits = credits.saturating_add(a);
            }
            self.views.push(CandidateView {
                index: k,
                port: c.port.0,
                free_vcs,
                vcs: u32::from(hi.saturating_sub(c.vcs.lo)),
                credits,
                dim: self.port_dim.get(o).copied().flatten(),
                escape: o != 0 && c.vcs.hi <= self.escape_vcs,
            });
        }
        if route.iter().any(|c| c.hops > 0) {
            return ugal::select(s, route, &self.views).map(|k| route[k]);
        }
        if !self.committed.is_empty() {
            return self.select_committed(s, i, route);
        }
        let k = self.selection.select(&self.views, &mut self.rng)?;
        Some(route[k])
    }

    /// [`VcAlloc::select`] under `first-free-else-highest`, from the views: records a
    /// commitment, or narrows an idle candidate to its lowest VC.
    fn select_committed(
        &mut self,
        s: &RouterState,
        i: usize,
        route: &[Candidate],
    ) -> Option<Candidate> {
        let packet = s.buffers.front(i).map(|b| b.flit.packet)?;
        let earlier = self.committed[i]
            .filter(|&(p, _)| p == packet)
            .map(|(_, k)| usize::from(k));
        match committed::decide(&self.views, earlier) {
            Decision::Take { index, one_vc } => {
                let mut c = route[index];
                if one_vc {
                    c.vcs.lo = Self::empty_vc(s, &c);
                    c.vcs.hi = c.vcs.lo + 1;
                }
                Some(c)
            }
            Decision::Commit(k) => {
                self.committed[i] = Some((packet, k as u8));
                None
            }
            Decision::Wait => None,
        }
    }

    /// The lowest VC of the idle candidate `c` whose downstream FIFO is empty (all its
    /// credits home), so the packet queues behind no other; else its lowest VC.
    fn empty_vc(s: &RouterState, c: &Candidate) -> u8 {
        let (_, lo, _, outs) = Self::candidate_vcs(s, c);
        let empty = outs.iter().position(|out| out.credits.all_home());
        lo + empty.map_or(0, |k| k as u8)
    }

    /// Forgets input VC `i`'s commitment once it holds an output VC.
    #[inline(always)]
    fn granted_to(&mut self, i: usize) {
        if let Some(c) = self.committed.get_mut(i) {
            *c = None;
        }
    }

    /// The grants of the last `evaluate` in `x` (input VC x output VC, for traces),
    /// until `commit` hands them out (then none).
    pub fn grants<'a>(&self, x: &'a StepScratch) -> &'a BitMatrix {
        &x.va_grant
    }

    /// Hands out the granted output VCs (of `x`, left empty); the VCs may request the
    /// switch from `now + vd`.
    #[inline]
    pub fn commit(&mut self, now: Cycle, s: &mut RouterState, x: &mut StepScratch) {
        debug_assert_eq!(self.granted, !x.va_grant.is_empty());
        if self.granted {
            self.hand_out(now, s, &mut x.va_grant);
        }
    }

    /// [`VcAlloc::commit`] when something was granted (in `grant`).
    #[inline(never)]
    fn hand_out(&mut self, now: Cycle, s: &mut RouterState, grant: &mut BitMatrix) {
        let ready = now.plus(s.delays.vd);
        if grant.is_one_word() {
            // At most 64 input VCs and 64 output VCs: a grant is one bit per row. Each
            // grant moves its arbiters as it is handed out (`Allocator::update` per grant).
            let mut rows = grant.rows_word();
            while rows != 0 {
                let i = rows.trailing_zeros() as usize;
                rows &= rows - 1;
                let ovc = grant.row_word(i).trailing_zeros() as usize;
                Self::grant_vc(now, ready, s, i, ovc);
                self.allocator.update_grant(i, ovc);
                self.port_granted(s, i, ovc);
                self.granted_to(i);
            }
        } else {
            for (i, ovc) in grant.ones() {
                Self::grant_vc(now, ready, s, i, ovc);
                self.port_granted(s, i, ovc);
                if let Some(c) = self.committed.get_mut(i) {
                    *c = None;
                }
            }
            self.allocator.update(grant);
        }
        grant.clear();
        self.granted = false;
    }

    /// Hands output VC `ovc` to input VC `i` (one grant of [`VcAlloc::hand_out`]).
    #[inline(always)]
    fn grant_vc(now: Cycle, ready: Cycle, s: &mut RouterState, i: usize, ovc: usize) {
        let o = usize::from(s.layout.out_port_of[ovc]);
        let v = (ovc - s.layout.out_base_of(o) as usize) as u8;
        debug_assert!(
            s.outputs[ovc].owner.is_none(),
            "VA granted an owned output VC"
        );
        // Under tail release the VC may still have credits out (busy already).
        let was_busy = s.outputs[ovc].is_busy();
        s.outputs[ovc].owner = Some(i as u32);
        // Only timeout resets (which keep the trail) ask which packet holds the VC.
        if let Some(trail) = &mut s.trail {
            let packet = s.buffers.front(i).map(|b| b.flit.packet);
            s.holders[ovc] = packet;
            if let Some(p) = packet {
                let (ip, iv) = s.layout.in_split(i);
                trail.insert(p, (ip as u8, iv));
            }
        }
        if !was_busy {
            s.busy_change(o, 1, now);
        }
        s.occupancy.allocated(o, ovc, now, !was_busy);
        if let Some(t) = &mut s.channel_times {
            t.granted(o, ovc, s.vcs[i].ready_at, now);
        }
        s.vcs.allocated(
            i,
            flitsim_netlist::OutPort(o as u8),
            VcId(v),
            ovc as u32,
            ready,
        );
    }

    /// The candidate input VC `i` waits for and whether the selection rule would let it
    /// take a VC now (for `waits` and traces). A head committed under
    /// `first-free-else-highest` waits for its committed candidate only: it may go when
    /// that candidate is idle or an escape candidate has a free VC. Under the other rules
    /// the head waits on its first candidate and may go when any candidate has a free VC.
    pub fn wait_target(&self, s: &RouterState, i: usize) -> Option<(Candidate, bool)> {
        let route = s.vcs.route(i);
        let first = *route.first()?;
        let len = if s.switching == Switching::Wormhole {
            1
        } else {
            s.buffers.front(i).map_or(1, |b| b.flit.len)
        };
        let has_free = |c: &Candidate| Self::free_vcs(s, c, len).next().is_some();
        if self.committed.is_empty() || route.iter().any(|c| c.hops > 0) {
            return Some((first, route.iter().any(has_free)));
        }
        let idle = |c: &Candidate| {
            let (_, _, _, outs) = Self::candidate_vcs(s, c);
            !outs.is_empty() && Self::free_vcs(s, c, len).count() == outs.len()
        };
        let escape_free = route
            .iter()
            .any(|c| c.port.index() != 0 && c.vcs.hi <= self.escape_vcs && has_free(c));
        let packet = s.buffers.front(i).map(|b| b.flit.packet);
        let committed = self.committed[i]
            .filter(|&(p, _)| Some(p) == packet)
            .and_then(|(_, k)| route.get(usize::from(k)).copied());
        Some(match committed {
            Some(c) => (c, idle(&c) || escape_free),
            None => (first, route.iter().any(idle) || escape_free),
        })
    }
}

#[cfg(test)]
impl VcAlloc {
    /// Bytes its vectors hold (their capacities; `port_dim`, the caller's, left out), for
    /// the tests of the `bytes` functions.
    pub(crate) fn heap_bytes(&self) -> u64 {
        self.allocator.heap_bytes()
            + self.port_arbiters.as_ref().map_or(0, Arbiters::heap_bytes)
            + (self.committed.capacity() * std::mem::size_of::<Option<(PacketId, u8)>>()) as u64
    }

    /// Takes the general path on word slices even where the one-word path fits (for the
    /// tests that compare the two).
    pub(crate) fn use_general_path(&mut self) {
        self.one_word = false;
    }
}
