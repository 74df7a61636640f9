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
    /// `speculative`: VA runs beside SA.
    pub speculative: bool,
    /// `lookahead_routing`: a head is ready for VA on arrival.
    pub lookahead: bool,
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
            speculative: config.speculative,
            lookahead: config.lookahead_routing,
        }
    }

    /// Cycles from RC until VA may act: `rd`, 0 under lookahead routing (the route was
    /// computed one hop ahead).
    #[inline(always)]
    pub fn rc(&self) -> u64 {
        if self.lookahead {
            0
        } else {
            self.rd
        }
    }

    /// Cycles a head spends in an uncontended router (from the cycle it is read from the
    /// input channel to the cycle it is written onto the output):
    /// [`RouterConfig::head_latency`].
    pub fn head_latency(&self) -> u64 {
        let vd = if self.speculative { 0 } else { self.vd };
        self.rc() + vd + self.sd + self.xd
    }
}
