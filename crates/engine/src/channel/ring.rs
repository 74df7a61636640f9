//! A delay line's handle: where its ring of slots lies in its arena and its latency, and
//! the ring's size.

/// A delay line of a [`DelayLines`](super::DelayLines): where its ring of slots lies and its
/// latency (a handle the cycle loop keeps, so reading or writing a line looks nothing up; 8 bytes:
/// the ring's size follows from the latency).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct DelayLine {
    pub(super) start: u32,
    pub(super) latency: u32,
}

impl DelayLine {
    /// No line (a port without a channel); using it panics.
    pub const NONE: DelayLine = DelayLine {
        start: u32::MAX,
        latency: 0,
    };

    /// The line's latency in cycles.
    pub fn latency(self) -> u32 {
        self.latency
    }

    /// The mask of the line's ring (its size minus one).
    #[inline(always)]
    pub(super) fn mask(self) -> u32 {
        ring_size(self.latency) - 1
    }

    /// The index of the slot of cycle `t`.
    #[inline(always)]
    pub(super) fn slot(self, t: u64) -> usize {
        (self.start + (t as u32 & self.mask())) as usize
    }
}

/// Slots in the ring of a line of `latency` cycles.
pub(super) fn ring_size(latency: u32) -> u32 {
    (latency + 1).next_power_of_two()
}
