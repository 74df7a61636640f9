//! The routing-function contract: what a head flit asks ([`RouteCtx`]) and what a
//! function answers ([`RouteSet`] of [`Candidate`]s).

use flitsim_netlist::{InPort, OutPort, PacketId, RouterId, TerminalId, VcId};
use smallvec::SmallVec;

/// A contiguous range of VCs `lo..hi` (half open) of one output port.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct VcRange {
    /// First VC of the range.
    pub lo: u8,
    /// One past the last VC of the range.
    pub hi: u8,
}

impl VcRange {
    /// The range `lo..hi`.
    pub fn new(lo: u8, hi: u8) -> VcRange {
        debug_assert!(lo <= hi);
        VcRange { lo, hi }
    }

    /// Does the range contain `vc`?
    pub fn contains(self, vc: VcId) -> bool {
        self.lo <= vc.0 && vc.0 < self.hi
    }

    /// The VCs of the range in increasing order.
    pub fn iter(self) -> impl Iterator<Item = VcId> {
        (self.lo..self.hi).map(VcId)
    }

    /// Number of VCs in the range.
    pub fn len(self) -> usize {
        usize::from(self.hi - self.lo)
    }

    /// True when the range holds no VC.
    pub fn is_empty(self) -> bool {
        self.hi <= self.lo
    }
}

/// One routing candidate: an output port and the downstream VCs the packet may take there.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Candidate {
    /// Output port.
    pub port: OutPort,
    /// Allowed downstream VCs on that port (a VC class).
    pub vcs: VcRange,
    /// Router-to-router hops left on the path this candidate starts, for a routing that
    /// weighs its candidates by path length (UGAL); 0 = not weighed.
    pub hops: u8,
}

/// Candidates a [`RouteSet`] holds inline.
pub const ROUTE_INLINE: usize = 4;

/// The candidates of one route computation, inline for up to [`ROUTE_INLINE`] (24 bytes,
/// the size of its heap form; each input VC keeps one): enough for dimension-order
/// routing and the adaptive functions' usual routes on 2-D meshes and tori. A longer
/// route moves the set to the heap, and a cleared set keeps that room; the router's
/// sets are swapped, not copied, so they allocate only until each has held a long route.
pub type RouteSet = SmallVec<[Candidate; ROUTE_INLINE]>;

/// Where a head flit is when it is routed.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct RouteCtx {
    /// The router doing the route computation.
    pub router: RouterId,
    /// The input port the head arrived on (port 0: injected by the terminal).
    pub in_port: InPort,
    /// The input VC the head occupies (its VC class tells dateline routing where it is).
    pub in_vc: VcId,
}

/// A routing function (see the module docs). Implementations precompute their per-router
/// tables at build time and never allocate in [`RoutingFunction::route`].
pub trait RoutingFunction: Send + Sync {
    /// The registry name (`dor`, `dor-nodateline`).
    fn name(&self) -> &'static str;

    /// VC classes the function needs on every router-to-router channel (deadlock
    /// avoidance); validated against the ports' VC counts by [`super::build`].
    fn vc_classes(&self) -> u8;

    /// Candidates for a head at `ctx` bound for `dest`, appended to `out` (cleared first).
    /// At the destination router the only candidate is the ejection port 0 with all VCs.
    /// For functions that route per packet (`source`) this is the union over packets.
    fn route(&self, ctx: &RouteCtx, dest: TerminalId, out: &mut RouteSet);

    /// Candidates for the head of packet `packet` bound for `dest` (what the router calls).
    /// The default routes on the destination alone; the functions that spread packets over
    /// paths (`source`, Valiant, random dimension-order ties) also read the packet id.
    #[inline]
    fn route_packet(&self, ctx: &RouteCtx, dest: TerminalId, packet: PacketId, out: &mut RouteSet) {
        let _ = packet;
        self.route(ctx, dest, out);
    }

    /// Duato's methodology: `Some(e)` when VCs `0..e` of every router-to-router port are
    /// escape VCs (their extended dependency graph must be acyclic) and the others are
    /// adaptive; `None` when every VC counts (the plain dependency graph must be acyclic).
    fn escape_vcs(&self) -> Option<u8> {
        None
    }

    /// The output port dimension-order routing would take at `router` toward `dest`
    /// (the reference of `adaptive_hops_fraction`); `None` without coordinates.
    fn dimension_order_port(&self, router: RouterId, dest: TerminalId) -> Option<OutPort> {
        let _ = (router, dest);
        None
    }

    /// True when every head routed away from its destination router leaves on
    /// [`RoutingFunction::dimension_order_port`] (the dimension-order family), so a router
    /// counts its hops for `adaptive_hops_fraction` without asking.
    fn is_dimension_order(&self) -> bool {
        false
    }
}
