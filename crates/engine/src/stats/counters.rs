//! Integer counters kept by each terminal. Merged in id order; floating point appears
//! only in the report, so totals are identical for any thread count.

use flitsim_netlist::Cycle;

/// The measurement window `[start, end)`: packets generated in it are measured, and
/// throughput and Little's law are averaged over it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Window {
    /// First measured cycle (= warm-up cycles).
    pub start: Cycle,
    /// First cycle after the window.
    pub end: Cycle,
}

impl Window {
    /// Is `t` inside the window?
    #[inline]
    pub fn contains(&self, t: Cycle) -> bool {
        t >= self.start && t < self.end
    }

    /// Length in cycles.
    pub fn len(&self) -> u64 {
        self.end.0 - self.start.0
    }

    /// Is the window empty?
    pub fn is_empty(&self) -> bool {
        self.end <= self.start
    }
}

/// Counters of one terminal (as source for generation and injection, as destination for
/// consumption). "Measured" packets are those generated inside the window.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TerminalStats {
    /// Flits consumed from the ejection channel since cycle 0.
    pub flits_consumed: u64,
    /// Flits consumed during the window (any packet).
    pub window_flits_consumed: u64,
    /// Flits written onto the injection channel since cycle 0.
    pub flits_injected: u64,
    /// Packets generated at this terminal since cycle 0.
    pub packets_generated: u64,
    /// Packets whose tail this terminal consumed since cycle 0.
    pub packets_consumed: u64,
    /// Measured packets generated here.
    pub measured_generated: u64,
    /// Measured packets consumed here (their tail arrived).
    pub measured_delivered: u64,
    /// Sum over measured delivered packets of their latency (the run's definition).
    pub latency_sum: u64,
    /// Sum over measured delivered packets of (tail consumed - generated): their time in
    /// the system, which Little's law counts whatever the latency definition.
    pub system_time_sum: u64,
    /// Largest such latency.
    pub latency_max: u64,
    /// Sum over measured delivered packets of (tail consumed - head injected).
    pub network_latency_sum: u64,
    /// Sum over measured delivered packets of (head injected - generated).
    pub source_queue_sum: u64,
    /// Sum over measured delivered packets of router-to-router hops.
    pub hops_sum: u64,
    /// Packets whose tail was consumed during the window (any packet).
    pub window_packets_consumed: u64,
    /// Flits of packets generated during the window.
    pub window_flits_generated: u64,
    /// Sum over window cycles of `packets_generated` at the end of the cycle.
    pub generated_area: u64,
    /// Sum over window cycles of `packets_consumed` at the end of the cycle.
    pub consumed_area: u64,
    /// Sum over all consumed packets (measured or not) of their latency (the run's definition):
    /// the sampled latency series of warm-up detection and batch means.
    pub consumed_latency_sum: u64,
}

impl TerminalStats {
    /// Adds `other` into `self` (sums; maximum for `latency_max`).
    pub fn merge(&mut self, other: &TerminalStats) {
        self.packets_generated += other.packets_generated;
        self.packets_consumed += other.packets_consumed;
        self.flits_injected += other.flits_injected;
        self.flits_consumed += other.flits_consumed;
        self.measured_generated += other.measured_generated;
        self.measured_delivered += other.measured_delivered;
        self.latency_sum += other.latency_sum;
        self.system_time_sum += other.system_time_sum;
        self.latency_max = self.latency_max.max(other.latency_max);
        self.network_latency_sum += other.network_latency_sum;
        self.source_queue_sum += other.source_queue_sum;
        self.hops_sum += other.hops_sum;
        self.window_flits_consumed += other.window_flits_consumed;
        self.window_packets_consumed += other.window_packets_consumed;
        self.window_flits_generated += other.window_flits_generated;
        self.generated_area += other.generated_area;
        self.consumed_area += other.consumed_area;
        self.consumed_latency_sum += other.consumed_latency_sum;
    }
}
