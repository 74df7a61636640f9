//! The `first-free-else-highest` selection (paper 004, section 2.2): a committed choice
//! over ports that carry one packet at a time.
//!
//! - A candidate is *idle* when every VC of its range is free: its port carries no packet.
//! - A head not yet committed takes the idle candidate with the lowest port.
//! - When none is idle, the head commits to the candidate with the highest port and from
//!   then on waits for that one only (the paper's "storage buffer of the port whose number
//!   is the largest").
//! - A head requests one VC of the idle candidate it goes to: the lowest whose downstream
//!   FIFO is empty (else the lowest). Two heads granted in one cycle cannot share a port,
//!   so a port carries one packet at a time, as the paper's link does, and with enough
//!   VCs a packet never queues behind another in a downstream FIFO: the input VCs play
//!   the paper's unlimited output storage.
//! - Escape candidates (Duato's methodology) stay a fallback: a head, committed or not,
//!   takes a free escape candidate (lowest port, any free VC) when its own choice is not
//!   idle, so the escape argument of the static check still holds. A commitment goes to
//!   an adaptive candidate when there is one.
//! - Deadlock freedom otherwise: a committed head waits on one candidate the routing
//!   function offered. With an acyclic dependency graph any such wait ends (Dally's
//!   condition holds for every selection). Under the storage argument
//!   ([`crate::cdg::deadlock_free_by_storage`]) the packet holding the port streams into
//!   an unbounded buffer, so the port becomes idle again.

use crate::selection::CandidateView;

/// What a head does this cycle under `first-free-else-highest`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Request a candidate.
    Take {
        /// The candidate's index in the route.
        index: usize,
        /// One VC only (the candidate is an idle port).
        one_vc: bool,
    },
    /// Commit to candidate `index` (none idle, no free escape) and wait.
    Commit(usize),
    /// Wait for the committed candidate.
    Wait,
}

fn idle(v: &CandidateView) -> bool {
    v.vcs > 0 && v.free_vcs == v.vcs
}

/// The free escape candidate with the lowest port (Duato's fallback).
fn escape(views: &[CandidateView]) -> Option<Decision> {
    views
        .iter()
        .filter(|v| v.escape && v.free_vcs > 0)
        .min_by_key(|v| v.port)
        .map(|v| Decision::Take {
            index: v.index,
            one_vc: false,
        })
}

/// The decision for a head with candidates `views` and the commitment `committed` (an
/// index into `views`) it made earlier, if any.
pub fn decide(views: &[CandidateView], committed: Option<usize>) -> Decision {
    let take = |v: &CandidateView| Decision::Take {
        index: v.index,
        one_vc: true,
    };
    if let Some(k) = committed {
        return match views.iter().find(|v| v.index == k) {
            Some(v) if idle(v) => take(v),
            _ => escape(views).unwrap_or(Decision::Wait),
        };
    }
    let adaptive = || views.iter().filter(|v| !v.escape);
    if let Some(v) = adaptive().filter(|v| idle(v)).min_by_key(|v| v.port) {
        return take(v);
    }
    if let Some(d) = escape(views) {
        return d;
    }
    let highest = adaptive()
        .max_by_key(|v| v.port)
        .or_else(|| views.iter().max_by_key(|v| v.port));
    highest.map_or(Decision::Wait, |v| Decision::Commit(v.index))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view(index: usize, port: u8, free_vcs: u32, vcs: u32) -> CandidateView {
        CandidateView {
            index,
            port,
            free_vcs,
            vcs,
            credits: 0,
            dim: None,
            escape: false,
        }
    }

    #[test]
    fn the_lowest_idle_port_is_taken_on_one_vc() {
        // Port 1 is partly held (a packet on it), ports 3 and 2 are idle.
        let views = [view(0, 1, 3, 4), view(1, 3, 4, 4), view(2, 2, 4, 4)];
        assert_eq!(
            decide(&views, None),
            Decision::Take {
                index: 2,
                one_vc: true
            }
        );
    }

    #[test]
    fn with_no_idle_port_the_head_commits_to_the_highest() {
        let views = [view(0, 4, 3, 4), view(1, 1, 3, 4), view(2, 2, 0, 4)];
        assert_eq!(decide(&views, None), Decision::Commit(0));
    }

    #[test]
    fn a_committed_head_waits_for_its_port_only() {
        // Port 1 (candidate 1) is idle, but the head committed to port 4 (candidate 0).
        let mut views = [view(0, 4, 3, 4), view(1, 1, 4, 4)];
        assert_eq!(decide(&views, Some(0)), Decision::Wait);
        views[0].free_vcs = 4;
        assert_eq!(
            decide(&views, Some(0)),
            Decision::Take {
                index: 0,
                one_vc: true
            }
        );
    }

    #[test]
    fn a_free_escape_candidate_is_the_fallback() {
        let mut views = [view(0, 1, 0, 2), view(1, 3, 1, 2), view(2, 1, 1, 2)];
        views[2].escape = true;
        let fallback = Decision::Take {
            index: 2,
            one_vc: false,
        };
        assert_eq!(decide(&views, None), fallback);
        assert_eq!(decide(&views, Some(1)), fallback);
        views[2].free_vcs = 0;
        assert_eq!(decide(&views, None), Decision::Commit(1));
        assert_eq!(decide(&views, Some(1)), Decision::Wait);
    }

    #[test]
    fn one_candidate_is_taken_when_idle_and_committed_to_otherwise() {
        assert_eq!(
            decide(&[view(0, 2, 1, 1)], None),
            Decision::Take {
                index: 0,
                one_vc: true
            }
        );
        assert_eq!(decide(&[view(0, 2, 0, 1)], None), Decision::Commit(0));
    }
}
