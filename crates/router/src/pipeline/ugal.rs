//! UGAL's choice (Singh 2005; Kim, Dally, Scott, Abts 2008): among candidates that carry
//! their path length ([`Candidate::hops`]), take the one whose output queue times hops
//! left is smallest, ties to fewer hops, then to the lower port. The queue of an output
//! port is the flits sent on it whose credits have not come back (over all its VCs): what
//! the router sees of its own output, hence UGAL-*L* (local). The choice is made on every
//! candidate, free or not: a packet whose chosen candidate has no free VC waits and
//! chooses again next cycle, so a busy VC alone never sends a packet the long way.

use super::RouterState;
use flitsim_routing::selection::CandidateView;
use flitsim_routing::Candidate;

/// Flits in flight or queued downstream on output port `o`.
fn queue(s: &RouterState, o: usize) -> u64 {
    (0..s.layout.out_vcs(o))
        .map(|v| u64::from(s.outputs[s.layout.ovc(o, v)].credits.outstanding()))
        .sum()
}

/// The index in `route` of the UGAL choice when it has a free VC (`views[k]`, built by
/// VC allocation in route order), `None` otherwise.
pub(super) fn select(
    s: &RouterState,
    route: &[Candidate],
    views: &[CandidateView],
) -> Option<usize> {
    let k = route
        .iter()
        .enumerate()
        .min_by_key(|(_, c)| {
            let hops = u64::from(c.hops.max(1));
            (queue(s, c.port.index()) * hops, hops, c.port.0)
        })
        .map(|(k, _)| k)?;
    (views[k].free_vcs > 0).then_some(k)
}
