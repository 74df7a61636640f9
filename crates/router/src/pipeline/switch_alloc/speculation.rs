//! What speculative switch allocation keeps ([`super::speculative`] runs it): the
//! speculative requests VA hands over and the speculative side's own allocator, arbiters
//! and masks.

use super::super::RouterState;
use crate::alloc::{Allocator, BitMatrix};
use crate::arbiter::Arbiters;
use crate::mask;
use flitsim_netlist::{RouterConfig, SpecMasking};

/// A speculative switch request: flat input VC `ivc` asks for output port `port` (VA's
/// candidate for it this cycle).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SpecRequest {
    /// Flat input VC.
    pub ivc: u32,
    /// Output port.
    pub port: u8,
}

/// The speculative side of SA: its port allocator and VC arbiters (their priorities
/// apart from the non-speculative ones), requests, grants and scratch.
#[derive(Debug)]
pub(super) struct Speculation {
    pub(super) allocator: Allocator,
    pub(super) vc_arb: Arbiters,
    pub(super) req: BitMatrix,
    pub(super) grant: BitMatrix,
    /// `spec_masking = "requests"`: the non-speculative requests, not grants, mask.
    pub(super) by_requests: bool,
    /// Input ports granted (or, by requests, requesting) non-speculatively this cycle
    /// (word mask).
    pub(super) busy_in: Vec<u64>,
    /// Output ports granted (or, by requests, requested) non-speculatively this cycle
    /// (word mask).
    pub(super) busy_out: Vec<u64>,
    /// One input port's speculating VCs for a granted output (word mask).
    pub(super) vc_req: Vec<u64>,
    /// (input port, VC within the port, output port) of every speculative grant of the
    /// last evaluation, used or wasted: the arbiters move for each.
    pub(super) granted: Vec<(u8, u8, u8)>,
    /// Speculative grants VA did not make good since construction: each left its input
    /// and output port idle for its cycle.
    pub(super) wasted: u64,
}

impl Speculation {
    /// Bytes [`Speculation::new`] allocates (see [`SwitchAlloc::bytes`]).
    pub(super) fn bytes(config: &RouterConfig, in_vcs: &[u8], out_ports: usize) -> u64 {
        let pi = in_vcs.len();
        let most = in_vcs.iter().copied().max().unwrap_or(0);
        let words = mask::words(pi) + mask::words(out_ports) + mask::words(usize::from(most));
        Allocator::bytes(config.switch_allocator, config.arbiter, pi, out_ports)
            .saturating_add(Arbiters::bytes(
                config.arbiter,
                in_vcs.iter().map(|&v| usize::from(v)),
            ))
            .saturating_add(BitMatrix::bytes(pi, out_ports).saturating_mul(2))
            .saturating_add((words * std::mem::size_of::<u64>()) as u64)
    }

    /// For a router with this layout and configuration; `alloc_seed` seeds `pim`.
    pub(super) fn new(config: &RouterConfig, s: &RouterState, alloc_seed: u64) -> Speculation {
        let (pi, po) = (s.layout.in_ports(), s.layout.out_ports());
        let in_vcs = (0..pi).map(|p| usize::from(s.layout.in_vcs(p)));
        let most = in_vcs.clone().max().unwrap_or(0);
        Speculation {
            allocator: Allocator::configured(
                config.switch_allocator,
                config.arbiter,
                config.alloc_iters,
                alloc_seed ^ 0x5bec_u64,
                pi,
                po,
            ),
            vc_arb: Arbiters::new(config.arbiter, in_vcs),
            by_requests: config.spec_masking == SpecMasking::Requests,
            req: BitMatrix::new(pi, po),
            grant: BitMatrix::new(pi, po),
            busy_in: vec![0; mask::words(pi)],
            busy_out: vec![0; mask::words(po)],
            vc_req: vec![0; mask::words(most)],
            granted: Vec::new(),
            wasted: 0,
        }
    }

    #[cfg(test)]
    pub(super) fn heap_bytes(&self) -> u64 {
        let words = self.busy_in.capacity() + self.busy_out.capacity() + self.vc_req.capacity();
        (words * std::mem::size_of::<u64>()) as u64
            + self.allocator.heap_bytes()
            + self.vc_arb.heap_bytes()
            + self.req.heap_bytes()
            + self.grant.heap_bytes()
    }
}
