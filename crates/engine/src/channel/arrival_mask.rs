//! Arrival masks: the bits a wake-up sets for what arrives at a component, one per port
//! side of a router, two for a terminal.

/// Routers with more ports than this read every channel side when woken (their arrival
/// mask cannot name each port).
pub(crate) const MASK_PORTS: usize = 32;

/// The bit of a router's arrival mask for a flit on input port `p` (`credit`: false) or
/// a credit or reset for output port `p` (true). Bit 31 / 63 stand for every port from
/// [`MASK_PORTS`] - 1 on.
pub(crate) fn arrival_bit(p: usize, credit: bool) -> u32 {
    p.min(MASK_PORTS - 1) as u32 + if credit { 32 } else { 0 }
}

/// A terminal's arrival mask bit for a flit on its ejection channel.
pub(crate) const TERMINAL_FLIT: u64 = 1;

/// A terminal's arrival mask bit for a credit or a reset on its injection channel's
/// reverse side.
pub(crate) const TERMINAL_CREDIT: u64 = 2;
