//! [`Tally`]: the counts of a group of terminals that the stop rules read.

/// Running counts over a group of terminals that the engine's stop rules read, kept by
/// events (a terminal step adds what it changed) instead of a sweep over the terminals.
/// All counts are monotone; packets waiting = `queued_in - queued_out`.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Measured packets generated.
    pub measured_generated: u64,
    /// Measured packets delivered (tail consumed).
    pub measured_delivered: u64,
    /// Packets that entered a source queue or a trace schedule (a timeout reset re-queues
    /// a packet: it enters again).
    pub queued_in: u64,
    /// Packets that left (tail sent, dropped from a schedule, or taken back by a reset).
    pub queued_out: u64,
}

impl Tally {
    /// Adds `o`.
    pub fn merge(&mut self, o: &Tally) {
        self.measured_generated += o.measured_generated;
        self.measured_delivered += o.measured_delivered;
        self.queued_in += o.queued_in;
        self.queued_out += o.queued_out;
    }

    /// Packets waiting in source queues or schedules, or being injected.
    pub fn queued(&self) -> u64 {
        self.queued_in - self.queued_out
    }
}
