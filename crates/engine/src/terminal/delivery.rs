//! [`Delivery`]: the record of a packet whose tail was consumed.

use flitsim_netlist::Cycle;
use flitsim_netlist::TerminalId;
use flitsim_router::PacketId;

/// A packet whose tail was consumed (recorded only when asked for: tests and traces).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Delivery {
    /// The packet.
    pub packet: PacketId,
    /// Its destination (the consuming terminal).
    pub dest: TerminalId,
    /// Length in flits.
    pub len: u32,
    /// Cycle generated.
    pub created: Cycle,
    /// Cycle its head was written onto the injection channel.
    pub injected: Cycle,
    /// Cycle its tail was consumed.
    pub consumed: Cycle,
    /// Router-to-router channels its tail crossed.
    pub hops: u16,
    /// Its latency under the run's [`LatencyDef`](crate::LatencyDef).
    pub measured: u64,
}

impl Delivery {
    /// Packet latency from generation to tail consumed (whatever the run's definition).
    pub fn latency(&self) -> u64 {
        self.consumed.0 - self.created.0
    }
}
