//! Selection functions: pick one candidate among those the routing function offers that
//! have a free downstream VC. Selection runs in VC allocation (the VA stage) on a
//! snapshot of the output VCs taken at the start of that stage; the allocator then picks
//! one free VC of the selected candidate.
//!
//! - `first-free`: the free candidate with the lowest output port;
//! - `random`: a uniformly random free candidate, drawn from the router's own `rand_pcg`
//!   stream (so results do not depend on thread count);
//! - `most-credits`: the free candidate whose VC range has the most credits in total (a
//!   congestion measure), ties to the lowest port;
//! - `x-first`: the free candidate in the lowest dimension (paper 000's "continue in X"),
//!   ties to the lowest port; ports without a dimension (ejection) count as dimension 0;
//! - `first-free-else-highest`: paper 004's committed choice over ports that carry one
//!   packet at a time ([`crate::committed`]); the VA stage keeps the commitments.
//!
//! Escape candidates (Duato's methodology, [`CandidateView::escape`]) are a fallback: each
//! rule first looks only at the free adaptive candidates and considers the free escape
//! candidates only when none is free.

use flitsim_netlist::SelectionKind;
use rand::RngExt;
use rand_pcg::Pcg64Mcg;

/// What the VA stage knows about one candidate when selecting.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct CandidateView {
    /// Index of the candidate in its `RouteSet`.
    pub index: usize,
    /// Output port number (for ties).
    pub port: u8,
    /// Free downstream VCs in the candidate's range (0 = not selectable).
    pub free_vcs: u32,
    /// VCs in the candidate's range (all free: its port carries no packet).
    pub vcs: u32,
    /// Credits available over the candidate's range (`u32::MAX` per unbounded VC, saturating).
    pub credits: u32,
    /// Dimension of the output port, if it has one.
    pub dim: Option<u8>,
    /// The candidate's VCs are escape VCs (used only when no adaptive candidate is free).
    pub escape: bool,
}

/// A selection function (see the module docs).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Selection {
    kind: SelectionKind,
}

impl Selection {
    /// The selection function `kind`.
    pub fn new(kind: SelectionKind) -> Selection {
        Selection { kind }
    }

    /// The rule keeps a commitment per head ([`crate::committed`]).
    pub fn commits(&self) -> bool {
        self.kind == SelectionKind::FirstFreeElseHighest
    }

    /// The `index` of the chosen candidate among `views` with `free_vcs > 0`, or `None`
    /// when none is free. Draws from `rng` only for `random` and only when two or more
    /// candidates are free. For `first-free-else-highest`, a head with no commitment.
    pub fn select(&self, views: &[CandidateView], rng: &mut Pcg64Mcg) -> Option<usize> {
        let adaptive_free = views.iter().any(|v| v.free_vcs > 0 && !v.escape);
        let free = || {
            views
                .iter()
                .filter(move |v| v.free_vcs > 0 && (!adaptive_free || !v.escape))
        };
        let by_port = |v: &&CandidateView| v.port;
        match self.kind {
            SelectionKind::FirstFree => free().min_by_key(by_port).map(|v| v.index),
            SelectionKind::Random => {
                let n = free().count();
                match n {
                    0 => None,
                    1 => free().next().map(|v| v.index),
                    _ => free().nth(rng.random_range(0..n)).map(|v| v.index),
                }
            }
            SelectionKind::MostCredits => free()
                .min_by_key(|v| (std::cmp::Reverse(v.credits), v.port))
                .map(|v| v.index),
            SelectionKind::XFirst => free()
                .min_by_key(|v| (v.dim.unwrap_or(0), v.port))
                .map(|v| v.index),
            // The lowest idle candidate; the VA stage keeps commitments (`committed`).
            SelectionKind::FirstFreeElseHighest => free()
                .filter(|v| v.free_vcs == v.vcs)
                .min_by_key(by_port)
                .map(|v| v.index),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    fn view(index: usize, port: u8, free_vcs: u32, credits: u32, dim: u8) -> CandidateView {
        CandidateView {
            index,
            port,
            free_vcs,
            vcs: 2,
            credits,
            dim: Some(dim),
            escape: false,
        }
    }

    #[test]
    fn escape_candidates_are_a_fallback() {
        let mut views = [view(0, 1, 1, 9, 0), view(1, 3, 1, 1, 1)];
        views[0].escape = true;
        for k in [
            SelectionKind::FirstFree,
            SelectionKind::Random,
            SelectionKind::MostCredits,
            SelectionKind::XFirst,
        ] {
            let mut rng = Pcg64Mcg::seed_from_u64(3);
            assert_eq!(Selection::new(k).select(&views, &mut rng), Some(1));
        }
        views[1].free_vcs = 0;
        let mut rng = Pcg64Mcg::seed_from_u64(3);
        assert_eq!(
            Selection::new(SelectionKind::FirstFree).select(&views, &mut rng),
            Some(0)
        );
    }

    #[test]
    fn each_kind_picks_per_its_rule() {
        let mut rng = Pcg64Mcg::seed_from_u64(1);
        let views = [
            view(0, 3, 0, 50, 0), // not free
            view(1, 4, 1, 5, 1),
            view(2, 2, 2, 9, 2),
        ];
        let pick = |k| Selection::new(k).select(&views, &mut Pcg64Mcg::seed_from_u64(1));
        assert_eq!(pick(SelectionKind::FirstFree), Some(2));
        assert_eq!(pick(SelectionKind::MostCredits), Some(2));
        assert_eq!(pick(SelectionKind::XFirst), Some(1));
        let mut seen = [false; 3];
        for _ in 0..64 {
            let i = Selection::new(SelectionKind::Random)
                .select(&views, &mut rng)
                .unwrap();
            seen[i] = true;
        }
        assert_eq!(seen, [false, true, true]);
    }

    #[test]
    fn nothing_free_selects_nothing() {
        let views = [view(0, 1, 0, 8, 0)];
        for k in [
            SelectionKind::FirstFree,
            SelectionKind::Random,
            SelectionKind::MostCredits,
            SelectionKind::XFirst,
        ] {
            assert_eq!(
                Selection::new(k).select(&views, &mut Pcg64Mcg::seed_from_u64(0)),
                None
            );
        }
    }
}
