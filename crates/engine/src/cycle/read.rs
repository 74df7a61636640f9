//! The read view of phase 1: the items due now on the channel sides feeding a
//! partition's components, whichever partition holds them.

use crate::channel::ChannelSide;
use crate::network::partition::Outbound;
use flitsim_router::{Credit, Flit, Reset};

/// What phase 1 reads: the items due now on the channel sides feeding a partition's components.
pub(super) trait ReadSides<'a> {
    /// The flit due now on the forward side `side`, for a reader woken for it (the slot's
    /// tag is checked in debug builds only).
    fn flit(&self, side: ChannelSide) -> &'a Flit;
    /// The credit due now on the reverse side `side`, for a reader woken for it.
    fn credit(&self, side: ChannelSide) -> Credit;
    /// The flit due now on `side`, if any (none for a port without a channel).
    fn peek_flit(&self, side: ChannelSide) -> Option<&'a Flit>;
    /// The credit due now on `side`, if any.
    fn peek_credit(&self, side: ChannelSide) -> Option<Credit>;
    /// The reset due now on `side`, if any.
    fn peek_reset(&self, side: ChannelSide) -> Option<Reset>;
}

/// Every partition's channel sides (a cycle in two phases), looked up per read.
pub(super) struct AllSides<'a, 'b> {
    pub lines: &'b [&'a Outbound],
    pub now: u64,
}

impl<'a> ReadSides<'a> for &AllSides<'a, '_> {
    #[inline(always)]
    fn flit(&self, side: ChannelSide) -> &'a Flit {
        self.lines[side.part as usize]
            .flits
            .due(side.line, self.now)
    }
    #[inline(always)]
    fn credit(&self, side: ChannelSide) -> Credit {
        *self.lines[side.part as usize]
            .credits
            .due(side.line, self.now)
    }
    #[inline]
    fn peek_flit(&self, side: ChannelSide) -> Option<&'a Flit> {
        let l = self.lines.get(side.part as usize)?;
        l.flits.peek(side.line, self.now)
    }
    #[inline]
    fn peek_credit(&self, side: ChannelSide) -> Option<Credit> {
        let l = self.lines.get(side.part as usize)?;
        l.credits.peek(side.line, self.now).copied()
    }
    #[inline]
    fn peek_reset(&self, side: ChannelSide) -> Option<Reset> {
        let l = self.lines.get(side.part as usize)?;
        l.resets.peek(side.line, self.now).copied()
    }
}
