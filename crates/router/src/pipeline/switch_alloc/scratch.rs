//! The scratch of a router's step: what switch allocation's one-word path and VC
//! allocation build and empty within one step, owned by the caller (one per engine
//! worker) rather than by each router.

use crate::alloc::{BitMatrix, WordMatrix};
use crate::mask;
use flitsim_netlist::RouterConfig;

/// What a router's step writes and empties again before it returns: all zero between
/// steps ([`StepScratch::is_clear`]), so one serves every router a worker steps, one
/// after another. Handed to [`crate::Router::finish_step`].
///
/// Laid out as C lays out a struct, from a cache line's start: a small router's entries
/// (up to 6 ports) of each of the one-word path's arrays lie in one line.
#[derive(Debug)]
#[repr(C, align(64))]
pub struct StepScratch {
    /// Port requests: row p holds the output ports input port p requests, then the
    /// grants in their place.
    pub(super) req: WordMatrix,
    /// Eligible flat input VCs by the output port they request.
    pub(super) by_out: [u64; 64],
    /// VC allocation's requests (input VCs x output VCs), shaped for the router that
    /// uses them ([`BitMatrix::reshape`]).
    pub(crate) va_req: BitMatrix,
    /// VC allocation's grants, shaped as `va_req`.
    pub(crate) va_grant: BitMatrix,
    /// What switch allocation's multi-word path builds and empties within one step.
    pub(super) words: WordsScratch,
}

/// What switch allocation's multi-word path builds and empties within one step.
#[derive(Debug)]
pub(super) struct WordsScratch {
    /// Port requests, shaped for the router that uses them ([`BitMatrix::reshape`]).
    pub(super) req: BitMatrix,
    /// Port grants, shaped as `req`.
    pub(super) grant: BitMatrix,
    /// Flat input VCs eligible this cycle (word mask; empty between steps).
    pub(super) eligible: Vec<u64>,
    /// One input port's VCs requesting a given output (word mask; empty between steps).
    pub(super) vc_req: Vec<u64>,
}

impl WordsScratch {
    /// Are the matrices empty and the masks of no word?
    pub(super) fn is_clear(&self) -> bool {
        self.req.is_empty()
            && self.grant.is_empty()
            && self.eligible.is_empty()
            && self.vc_req.is_empty()
    }
}

impl Default for StepScratch {
    fn default() -> Self {
        StepScratch::new()
    }
}

impl StepScratch {
    /// An empty scratch.
    pub fn new() -> StepScratch {
        StepScratch {
            req: WordMatrix::new(),
            by_out: [0; 64],
            va_req: BitMatrix::new(0, 0),
            va_grant: BitMatrix::new(0, 0),
            words: WordsScratch {
                req: BitMatrix::new(0, 0),
                grant: BitMatrix::new(0, 0),
                eligible: Vec::new(),
                vc_req: Vec::new(),
            },
        }
    }

    /// Bytes a scratch holds once it has stepped a router whose input ports have `in_vcs`
    /// VCs each and whose output ports' downstream sides have `out_vcs` VCs each, under
    /// `config`, computed without allocating: itself, and the matrices and masks it took
    /// that router's shape for (VC allocation's input VCs x output VCs, switch
    /// allocation's input ports x output ports). Stepping several routers, it keeps the
    /// largest of each.
    pub fn bytes(config: &RouterConfig, in_vcs: &[u8], out_vcs: &[u8]) -> u64 {
        use std::mem::size_of;
        let total = |vcs: &[u8]| vcs.iter().map(|&v| usize::from(v)).sum::<usize>();
        let [si, so] = speedups(config);
        let (pi, po) = (in_vcs.len() * si, out_vcs.len() * so);
        let most = in_vcs.iter().copied().max().unwrap_or(0);
        let masks = mask::words(total(in_vcs)) + mask::words(usize::from(most));
        (size_of::<StepScratch>() as u64)
            .saturating_add(BitMatrix::bytes(total(in_vcs), total(out_vcs)).saturating_mul(2))
            .saturating_add(BitMatrix::bytes(pi, po).saturating_mul(2))
            .saturating_add((masks * size_of::<u64>()) as u64)
    }

    /// Is every entry zero (as every step leaves it)?
    pub fn is_clear(&self) -> bool {
        self.req.rows() == 0
            && self.req == WordMatrix::new()
            && self.by_out.iter().all(|&m| m == 0)
            && self.va_req.is_empty()
            && self.va_grant.is_empty()
            && self.words.is_clear()
    }
}

/// `[input_speedup, output_speedup]` of `config`, at least 1 each.
pub(super) fn speedups(config: &RouterConfig) -> [usize; 2] {
    [config.input_speedup, config.output_speedup].map(|s| usize::from(s.max(1)))
}
