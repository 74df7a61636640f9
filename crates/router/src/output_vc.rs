//! Output-side state of each downstream VC: its credit counter and its owner.
//!
//! Credits are counted as flits *outstanding* (sent and not yet credited back), so the
//! same counter serves bounded downstream buffers (`available = depth - outstanding`) and
//! unbounded ones (the ejection port: always available). Release follows the router's
//! `vc_release`: under `tail` (default) an output VC is free for VC allocation as soon as
//! no packet owns it (the previous tail won the switch), so a downstream FIFO may hold the
//! end of one packet followed by the next; under `credits` it is free only when, in
//! addition, all its credits are home (the downstream FIFO is empty), so each downstream
//! FIFO holds at most one packet.

use flitsim_netlist::{BufferDepth, Switching, VcRelease};

/// Credit counter of one downstream VC, 8 bytes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct CreditCounter {
    /// Flits that may be outstanding: the depth, [`CreditCounter::UNBOUNDED`] when
    /// unbounded (never reached: a sent flit sits in a buffer, and no run holds 2^32 of
    /// them).
    limit: u32,
    outstanding: u32,
}

impl CreditCounter {
    /// The limit of an unbounded downstream VC (bounded depths are at most
    /// `MAX_BUFFER_DEPTH`).
    const UNBOUNDED: u32 = u32::MAX;

    /// All credits home.
    pub fn new(depth: BufferDepth) -> CreditCounter {
        debug_assert!(
            depth.flits() != Some(Self::UNBOUNDED),
            "{depth:?} is unbounded"
        );
        CreditCounter {
            limit: depth.flits().unwrap_or(Self::UNBOUNDED),
            outstanding: 0,
        }
    }

    /// May a flit be sent now?
    #[inline]
    pub fn has_credit(&self) -> bool {
        self.outstanding < self.limit
    }

    /// Credits available (`None` = unbounded).
    #[inline]
    pub fn available(&self) -> Option<u32> {
        (self.limit != Self::UNBOUNDED).then(|| self.limit - self.outstanding)
    }

    /// Flits sent and not yet credited back.
    #[inline]
    pub fn outstanding(&self) -> u32 {
        self.outstanding
    }

    /// Are all credits home (downstream FIFO empty)?
    #[inline]
    pub fn all_home(&self) -> bool {
        self.outstanding == 0
    }

    /// A flit was sent: take a credit.
    ///
    /// # Panics
    /// In debug builds, when no credit is available.
    #[inline]
    pub fn consume(&mut self) {
        debug_assert!(self.has_credit(), "flit sent without a credit");
        self.outstanding += 1;
    }

    /// A credit came back.
    ///
    /// # Panics
    /// When more credits come back than flits were sent (credits would exceed the depth).
    #[inline]
    pub fn restore(&mut self) {
        assert!(
            self.outstanding > 0,
            "credit returned for a VC with all credits home"
        );
        self.outstanding -= 1;
    }
}

/// One downstream VC as the upstream router sees it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct OutputVcState {
    /// Flat input VC of the packet holding it, if any (which packet:
    /// `RouterState::holders`, kept only with the reset trail).
    pub owner: Option<u32>,
    /// Its credits.
    pub credits: CreditCounter,
}

impl OutputVcState {
    /// Unowned, all credits home.
    pub fn new(depth: BufferDepth) -> OutputVcState {
        OutputVcState {
            owner: None,
            credits: CreditCounter::new(depth),
        }
    }

    /// May VC allocation grant this VC to a packet of `len` flits? THE place where
    /// switching decides "downstream has room": wormhole needs a free VC (unowned; under
    /// `VcRelease::Credits` also all credits home); virtual cut-through and
    /// store-and-forward also need room for the whole packet (`len` credits available,
    /// always true for an unbounded downstream buffer).
    #[inline]
    pub fn is_free_for(&self, switching: Switching, release: VcRelease, len: u32) -> bool {
        let free = self.owner.is_none() && (release == VcRelease::Tail || self.credits.all_home());
        match switching {
            Switching::Wormhole => free,
            Switching::Vct | Switching::Saf => {
                free && self.credits.available().is_none_or(|a| a >= len)
            }
        }
    }

    /// Owned or with credits out: counted as a busy VC of the channel.
    #[inline]
    pub fn is_busy(&self) -> bool {
        self.owner.is_some() || !self.credits.all_home()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_output_vc_is_16_bytes() {
        assert_eq!(std::mem::size_of::<OutputVcState>(), 16);
    }

    #[test]
    fn credits_count_down_and_come_home() {
        let mut c = CreditCounter::new(BufferDepth::Flits(2));
        assert_eq!(c.available(), Some(2));
        c.consume();
        c.consume();
        assert!(!c.has_credit() && !c.all_home());
        c.restore();
        assert_eq!((c.available(), c.outstanding()), (Some(1), 1));
        c.restore();
        assert!(c.all_home());
        let mut u = CreditCounter::new(BufferDepth::Unbounded);
        for _ in 0..1000 {
            u.consume();
        }
        assert!(u.has_credit() && u.available().is_none());
    }

    #[test]
    #[should_panic(expected = "all credits home")]
    fn credits_never_exceed_depth() {
        CreditCounter::new(BufferDepth::Flits(2)).restore();
    }

    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "without a credit")]
    fn credits_never_go_negative() {
        let mut c = CreditCounter::new(BufferDepth::Flits(1));
        c.consume();
        c.consume();
    }

    #[test]
    fn credits_release_is_conservative() {
        let c = VcRelease::Credits;
        let mut v = OutputVcState::new(BufferDepth::Flits(4));
        assert!(v.is_free_for(Switching::Wormhole, c, 10));
        assert!(!v.is_free_for(Switching::Vct, c, 10));
        v.owner = Some(3);
        v.credits.consume();
        assert!(!v.is_free_for(Switching::Wormhole, c, 1) && v.is_busy());
        v.owner = None; // tail left, its credit still out
        assert!(!v.is_free_for(Switching::Wormhole, c, 1) && v.is_busy());
        v.credits.restore();
        assert!(v.is_free_for(Switching::Wormhole, c, 1) && !v.is_busy());
    }

    #[test]
    fn tail_release_frees_the_vc_when_the_tail_leaves_and_vct_counts_room() {
        let t = VcRelease::Tail;
        let mut v = OutputVcState::new(BufferDepth::Flits(4));
        v.owner = Some(3);
        for _ in 0..3 {
            v.credits.consume();
        }
        assert!(!v.is_free_for(Switching::Wormhole, t, 1));
        v.owner = None; // tail won the switch, 3 flits still downstream
        assert!(v.is_free_for(Switching::Wormhole, t, 8) && v.is_busy());
        assert!(v.is_free_for(Switching::Vct, t, 1));
        assert!(!v.is_free_for(Switching::Vct, t, 2) && !v.is_free_for(Switching::Saf, t, 2));
        v.credits.restore();
        assert!(v.is_free_for(Switching::Vct, t, 2));
        let u = OutputVcState::new(BufferDepth::Unbounded);
        assert!(u.is_free_for(Switching::Vct, t, 1_000_000));
    }
}
