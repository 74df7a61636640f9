//! Stage 1, route computation (RC).
//!
//! - Reads: input VCs in `Routing` whose `ready_at <= now` and whose front flit is a head
//!   that has arrived.
//! - Writes: the candidates into the VC state; the VC moves to `VcWait`.
//! - Visible: VA may act on the VC from `now + routing_delay` (same cycle when 0).
//! - Knob: `routing_delay` (rd); term `rd` of the per-router head latency.
//!
//! Lookahead routing (`lookahead_routing = true`): the route a router uses is computed
//! one hop ahead, by the router upstream while the head crosses its VA, SA and ST (by the
//! terminal for the first router), and travels with the head. The routing function is a
//! function of the router, the input port, the input VC and the head, all fixed once the
//! upstream router has granted the head its output VC, so the route computed there is
//! the route computed here: RC evaluates it on arrival and the VC may request VA in the
//! same cycle (no `rd` on the head's path; validation checks that the `rd` cycles fit in
//! the upstream stages they overlap).
//!
//! RC never contends (one routing unit per VC), so it always decides at the first cycle
//! the VC is eligible.
//!
//! Store-and-forward (`switching = "saf"`): a head becomes RC-eligible only once its
//! packet's tail has arrived in the same FIFO, so a packet leaves a router only after it
//! is stored there whole. This adds `M - 1` cycles per router at zero load:
//! `T0 = 2*Lt + (H+1)*(rd+vd+sd+xd + M-1) + H*L + (M-1)`.

use super::RouterState;
use crate::config::Switching;
use flitsim_netlist::{Cycle, InPort, VcId};
use flitsim_routing::{RouteCtx, RouteSet, RoutingFunction};
use std::sync::Arc;

/// The RC stage: the routing function and its decisions of this cycle.
pub struct RouteCompute {
    routing: Arc<dyn RoutingFunction>,
    /// (flat input VC, route) decided this cycle; reused. Boxed, and only once a head is
    /// routed in two passes (a router tracing or with more than 64 input VCs): the others
    /// route in one pass ([`RouteCompute::step`]) and keep a pointer.
    #[allow(clippy::box_collection)]
    decisions: Option<Box<Vec<(u32, RouteSet)>>>,
    /// [`RouteCompute::step`]'s route, swapped into the VC's state (which hands back its
    /// previous, cleared set).
    route: RouteSet,
}

impl std::fmt::Debug for RouteCompute {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RouteCompute")
            .field("routing", &self.routing.name())
            .finish()
    }
}

impl RouteCompute {
    /// With routing function `routing`.
    pub fn new(routing: Arc<dyn RoutingFunction>) -> RouteCompute {
        RouteCompute {
            routing,
            decisions: None,
            route: RouteSet::new(),
        }
    }

    /// The routing function.
    pub fn routing(&self) -> &dyn RoutingFunction {
        self.routing.as_ref()
    }

    /// The (flat input VC, route) pairs decided by the last `evaluate` (for traces; the
    /// routes are valid until `commit` moves them into the VC states).
    pub fn decisions(&self) -> &[(u32, RouteSet)] {
        self.decisions.as_deref().map_or(&[], |d| d.as_slice())
    }

    /// Routes every eligible head.
    #[inline]
    pub fn evaluate(&mut self, now: Cycle, s: &RouterState) {
        if let Some(d) = self.decisions.as_deref_mut() {
            d.clear();
        }
        // One mask word (at most 64 input VCs) tested directly: cheaper than the loop of
        // `mask::is_empty`, and this runs every router-cycle.
        let none_routing = match *s.vcs.routing() {
            [w] => w == 0,
            ref m => crate::mask::is_empty(m),
        };
        if !none_routing {
            self.route_heads(now, s);
        }
    }

    /// [`RouteCompute::evaluate`] when some VC is in `Routing`.
    #[inline(never)]
    fn route_heads(&mut self, now: Cycle, s: &RouterState) {
        for i in crate::mask::ones(s.vcs.routing()) {
            let Some((ctx, head)) = Self::eligible(s, i, now) else {
                continue;
            };
            // The route is written in place (a `RouteSet` is 32 bytes).
            let decisions = self.decisions.get_or_insert_default();
            decisions.push((i as u32, RouteSet::new()));
            let (_, route) = decisions.last_mut().expect("pushed above");
            self.routing
                .route_packet(&ctx, head.dest, head.packet, route);
        }
    }

    /// RC in one pass, for a router that records no trace: each eligible head is routed
    /// and its route stored at once, the routes `evaluate` then `commit` store (routing a
    /// head changes nothing another head's routing reads). Inlined into the router's
    /// step: it runs every router-cycle.
    #[inline(always)]
    pub fn step(&mut self, now: Cycle, s: &mut RouterState) {
        match *s.vcs.routing() {
            [0] => {}
            [mut routing] => {
                // At most 64 input VCs; usually one head (no loop set up around it).
                while routing != 0 {
                    let i = routing.trailing_zeros() as usize;
                    routing &= routing - 1;
                    self.route_vc(now, s, i);
                }
            }
            _ => {
                self.evaluate(now, s);
                self.commit(now, s);
            }
        }
    }

    /// [`RouteCompute::step`] for input VC `i` (in `Routing`): its route is computed into
    /// `self.route` and swapped into the VC's state.
    #[inline(never)]
    fn route_vc(&mut self, now: Cycle, s: &mut RouterState, i: usize) {
        let Some((ctx, head)) = Self::eligible(s, i, now) else {
            return;
        };
        debug_assert!(self.route.is_empty(), "a VC handed back a route");
        self.routing
            .route_packet(&ctx, head.dest, head.packet, &mut self.route);
        s.routed(i, &mut self.route, now.plus(s.delays.rc()));
    }

    /// Where input VC `i` is and the head at its front, when RC may route it at `now`.
    #[inline(always)]
    fn eligible(s: &RouterState, i: usize, now: Cycle) -> Option<(RouteCtx, &crate::Flit)> {
        if !s.vcs[i].ready(now) {
            return None;
        }
        let head = s.front_arrived(i, now)?;
        debug_assert!(head.kind.is_head(), "a non-head flit at a Routing VC");
        if s.switching == Switching::Saf && !Self::whole_packet_arrived(s, i, now) {
            return None;
        }
        let (p, v) = s.layout.in_split(i);
        let ctx = RouteCtx {
            router: s.id,
            in_port: InPort(p as u8),
            in_vc: VcId(v),
        };
        Some((ctx, head))
    }

    /// Has the packet at the front of input VC `i` arrived whole (its tail is in the FIFO
    /// by `now`)? The packet's flits are contiguous from the front.
    #[inline]
    pub fn whole_packet_arrived(s: &RouterState, i: usize, now: Cycle) -> bool {
        s.buffers.front(i).is_some_and(|h| {
            let tail = (h.flit.len - h.flit.index) as usize - 1;
            s.buffers
                .get(i, tail)
                .is_some_and(|t| t.arrived.cycle() <= now)
        })
    }

    /// Stores the routes; the VCs wait for VA from `now + rd`.
    #[inline]
    pub fn commit(&mut self, now: Cycle, s: &mut RouterState) {
        if !self.decisions().is_empty() {
            self.store_routes(now, s);
        }
    }

    /// [`RouteCompute::commit`] when some head was routed (out of line: the caller runs
    /// every router-cycle). Each route is swapped into its VC's state, so `decisions`
    /// holds stale sets until the next `evaluate` clears it.
    #[inline(never)]
    fn store_routes(&mut self, now: Cycle, s: &mut RouterState) {
        let ready = now.plus(s.delays.rc());
        for (i, route) in self.decisions.iter_mut().flat_map(|d| d.iter_mut()) {
            s.routed(*i as usize, route, ready);
        }
    }
}
