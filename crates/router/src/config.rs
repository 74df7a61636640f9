//! Router configuration. The parameters live in the netlist crate (the netlist carries
//! them); this module re-exports them under the router's name. See
//! [`RouterConfig`] for every field, its default and its meaning.

pub use flitsim_netlist::{
    AllocatorKind, ArbiterKind, BufferDepth, RouterConfig, RoutingKind, SelectionKind, Switching,
    VcRelease,
};

/// The stage delays of a router, copied out of [`RouterConfig`] as cycle counts.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Delays {
    /// `routing_delay` (rd).
    pub rd: u64,
    /// `vc_alloc_delay` (vd).
    pub vd: u64,
    /// `switch_alloc_delay` (sd).
    pub sd: u64,
    /// `crossbar_delay` (xd).
    pub xd: u64,
    /// `credit_delay` (cd).
    pub cd: u64,
}

impl Delays {
    /// The delays of `config`.
    pub fn of(config: &RouterConfig) -> Delays {
        Delays {
            rd: u64::from(config.routing_delay),
            vd: u64::from(config.vc_alloc_delay),
            sd: u64::from(config.switch_alloc_delay),
            xd: u64::from(config.crossbar_delay),
            cd: u64::from(config.credit_delay),
        }
    }

    /// Cycles a head spends in an uncontended router: `rd + vd + sd + xd` (from the cycle
    /// it is read from the input channel to the cycle it is written onto the output).
    pub fn head_latency(&self) -> u64 {
        self.rd + self.vd + self.sd + self.xd
    }
}
