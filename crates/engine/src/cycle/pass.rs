//! How phase 1 meets the channel sides: a cycle in two phases defers every send to
//! phase 2; the fused one-partition cycle sends right after each step.

use super::read::{AllSides, ReadSides};
use crate::network::wired::{WiredRouter, WiredTerminal};

/// How phase 1 meets the channel sides: where a stepped component's inputs are read, and what
/// becomes of its outputs (sent at once when the partition is alone, else left for
/// phase 2).
pub(super) trait Pass {
    /// The channel sides as a component's step reads them.
    fn read(&self) -> impl ReadSides<'_>;
    /// After the step of router `wired` (its resets emitted, if `resets`): what it wrote is
    /// sent, or left in it for phase 2. Returns the flits sent.
    fn router_stepped(&mut self, wired: &mut WiredRouter, resets: bool) -> u64;
    /// After the step of terminal `wired`: what it wrote is sent, or left in its outbox
    /// for phase 2. Returns the flits sent.
    fn terminal_stepped(&mut self, wired: &mut WiredTerminal) -> u64;
}

/// A cycle in two phases: phase 1 reads every partition's channel sides; the outputs wait for
/// [`write`](super::write).
pub(super) struct Deferred<'a, 'b>(pub AllSides<'a, 'b>);

impl Pass for Deferred<'_, '_> {
    #[inline(always)]
    fn read(&self) -> impl ReadSides<'_> {
        &self.0
    }
    #[inline(always)]
    fn router_stepped(&mut self, _: &mut WiredRouter, _: bool) -> u64 {
        0
    }
    #[inline(always)]
    fn terminal_stepped(&mut self, _: &mut WiredTerminal) -> u64 {
        0
    }
}
