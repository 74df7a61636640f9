//! What the one-word switch-allocation path keeps per router: fixed arrays indexed
//! below 64, so its accesses need no bounds checks.

use super::super::RouterState;
use crate::alloc::Allocator;
use crate::arbiter::{Arbiters, WordArbiters};
use flitsim_netlist::{Cycle, OutPort, VcId};

/// Input ports the one-word path takes: [`WordPath::port_vcs`] has an entry for each.
/// Wider routers take the general path, as they take the engine's wide step (arrival
/// masks cover 32 ports).
pub(super) const WORD_IN_PORTS: usize = 32;

/// What the one-word path (a router with at most 64 input VCs, [`WORD_IN_PORTS`] input
/// ports and 64 output ports) keeps per router: fixed arrays indexed below their length,
/// so its accesses need no bounds checks. Its scratch is the caller's
/// ([`super::StepScratch`]).
///
/// Laid out as C lays out a struct, from a cache line's start: a small router's entries
/// (up to 6 ports, 20 VCs) of each array lie in one line (`seen` and `vcs`: two), so a
/// step touches three.
#[derive(Debug)]
#[repr(C, align(64))]
pub(super) struct WordPath {
    /// Flat input VCs seen `Active` and ready by a step, their output VC copied into
    /// `vcs`: until a VC's tail leaves (which clears its bit) its state is not read again
    /// (a VC stays ready and keeps its output VC while it is active). Kept empty while
    /// the router keeps the reset trail: a reset may free a VC, and VA give it another
    /// output VC, between two steps.
    pub(super) seen: u64,
    /// Per flat input VC: its input port, and the output VC it holds while in `seen`.
    pub(super) vcs: [WordVc; 64],
    /// Flat input VCs of each input port (bit i = flat VC i).
    pub(super) port_vcs: [u64; WORD_IN_PORTS],
}

/// What [`WordPath`] keeps of one flat input VC.
#[derive(Copy, Clone, Debug, Default)]
#[repr(C)]
pub(super) struct WordVc {
    /// Its input port.
    pub(super) input: u8,
    /// Its VC index within the input port (in what would be padding).
    pub(super) v: u8,
    /// The output VC it holds (valid while it is in `WordPath::seen`).
    pub(super) held: HeldVc,
}

/// The output VC an active input VC holds, as [`WordPath`] keeps it.
#[derive(Copy, Clone, Debug, Default)]
#[repr(C)]
pub(super) struct HeldVc {
    /// Output port.
    pub(super) port: u8,
    /// Downstream VC.
    pub(super) vc: u8,
    /// Flat output VC (the one-word path is taken only when every flat output VC fits).
    pub(super) flat: u16,
}

impl HeldVc {
    /// Output port, downstream VC and flat output VC.
    #[inline(always)]
    pub(super) fn out(self) -> (OutPort, VcId, usize) {
        (OutPort(self.port), VcId(self.vc), usize::from(self.flat))
    }
}

/// What [`SwitchAlloc::step_word`] granted, for its grant loop: a lone `eligible` VC (its
/// mask, or 0 when the grants are in `StepScratch::req`), the output ports requested, and
/// the cycle the granted flits are written.
pub(super) struct WordGrants {
    pub(super) eligible: u64,
    pub(super) outs: u64,
    pub(super) exit: Cycle,
}

/// The arbiters one switch grant moves, banks of one type: the input ports' VC arbiters
/// (`vc`), and the allocator's row (input port) and column (output port) arbiters.
pub(super) struct GrantArbiters<'a, A> {
    pub(super) vc: &'a mut A,
    pub(super) row: &'a mut A,
    pub(super) col: &'a mut A,
}

/// What one switch grant moves: the input ports' VC arbiters (`vc`, which also pick a
/// granted port's VC) and the allocator's priorities.
pub(super) trait GrantUpdate {
    /// The VC arbiters' bank.
    type Vc: WordArbiters;
    /// The input ports' VC arbiters.
    fn vc(&self) -> &Self::Vc;
    /// VC `v` of input port `p` won output `o`: the port's VC arbiter, then the
    /// allocator's priorities as [`Allocator::update_grant`] moves them.
    fn update(&mut self, p: usize, v: usize, o: usize);
}

impl<A: WordArbiters> GrantUpdate for GrantArbiters<'_, A> {
    type Vc = A;
    #[inline(always)]
    fn vc(&self) -> &A {
        self.vc
    }
    #[inline(always)]
    fn update(&mut self, p: usize, v: usize, o: usize) {
        self.vc.update(p, v);
        self.row.update(p, o);
        self.col.update(o, p);
    }
}

/// The VC arbiters and a non-separable allocator (iSLIP, wavefront, PIM), which moves
/// its priorities by its own rule ([`Allocator::update_grant`]).
pub(super) struct AllocatorGrants<'a> {
    pub(super) vc: &'a mut Arbiters,
    pub(super) allocator: &'a mut Allocator,
}

impl GrantUpdate for AllocatorGrants<'_> {
    type Vc = Arbiters;
    #[inline(always)]
    fn vc(&self) -> &Arbiters {
        self.vc
    }
    #[inline(always)]
    fn update(&mut self, p: usize, v: usize, o: usize) {
        self.vc.update(p, v);
        self.allocator.update_grant(p, o);
    }
}

impl WordPath {
    /// For `s`'s layout (entries past 64 input VCs or [`WORD_IN_PORTS`] input ports are
    /// left out: such a router never takes the one-word path).
    pub(super) fn new(s: &RouterState) -> WordPath {
        let mut w = WordPath {
            seen: 0,
            vcs: [WordVc::default(); 64],
            port_vcs: [0; WORD_IN_PORTS],
        };
        for (i, &p) in s.layout.in_port_of.iter().enumerate().take(64) {
            w.vcs[i].input = p;
            w.vcs[i].v = s.layout.in_split(i).1;
            if usize::from(p) < WORD_IN_PORTS {
                w.port_vcs[usize::from(p)] |= 1 << i;
            }
        }
        w
    }
}
