//! What the engine reads from a router between steps: its counters and occupancy
//! statistics, and where its flits and credits are (for the conservation check).

use crate::stats::AdaptiveHops;
use crate::{occupancy, Router, RouterStats};
use flitsim_netlist::{Cycle, InPort, OutPort, VcId};

impl Router {
    /// `adaptive_hops_fraction`: compares each head leaving on a network port with the
    /// port dimension-order routing would have taken here (called only when a flit left
    /// and the routing function is not itself dimension-order; out of line, since the
    /// one-partition cycle inlines the step).
    #[inline(never)]
    pub(crate) fn count_adaptive_hops(&mut self) {
        for &(o, f) in self.crossbar.emitted() {
            if (o as usize) < usize::from(self.state.terminals) || !f.kind.is_head() {
                continue;
            }
            if let Some(p) = self
                .rc
                .routing()
                .dimension_order_port(self.state.id, f.dest)
            {
                self.adaptive.reference += 1;
                self.adaptive.adaptive += u64::from(p.index() != o as usize);
            }
        }
    }

    /// Counters (flits and packets per output port, adaptive hops).
    pub fn stats(&self) -> RouterStats {
        let mut s = RouterStats::new(self.state.layout.out_ports());
        s.reference_hops = self.adaptive.reference;
        s.adaptive_hops = self.adaptive.adaptive;
        for o in 0..s.flits_sent.len() {
            (s.flits_sent[o], s.packets_sent[o]) = self.crossbar.sent(o);
        }
        if self.dimension_order {
            // Every head sent on a network port took the dimension-order port.
            s.reference_hops = s.packets_sent[1..].iter().sum();
        }
        s
    }

    /// VC allocation requests and grants, switch allocation requests and grants, since
    /// construction or the last [`Router::reset_stats`]: a request is one VC asking in one
    /// cycle; a VC grant is one output VC handed out, a switch grant one flit sent
    /// through the crossbar (read from its input buffer).
    pub fn allocation_counts(&self) -> [u64; 4] {
        let s = &self.state;
        let vc_grants = (0..s.layout.out_ports())
            .map(|o| s.occupancy.holding(o).allocations)
            .sum();
        let switch_grants = (0..s.layout.total_in_vcs())
            .map(|i| s.buffers.flow(i).1)
            .sum();
        [
            self.va.requests_made(),
            vc_grants,
            self.sa.requests_made(),
            switch_grants,
        ]
    }

    /// Number of input ports.
    pub fn in_ports(&self) -> usize {
        self.state.layout.in_ports()
    }

    /// Flits written into and read from input port `port`'s buffers since construction or
    /// the last [`Router::reset_stats`] (every flit read crosses the crossbar).
    pub fn buffer_flow(&self, port: InPort) -> (u64, u64) {
        let s = &self.state;
        (0..s.layout.in_vcs(port.index()))
            .map(|v| s.buffers.flow(s.layout.ivc(port.index(), v)))
            .fold((0, 0), |(w, r), (a, b)| (w + a, r + b))
    }

    /// Clears the counters (end of warm-up); maximum occupancies restart from the current
    /// FIFO lengths, busy-VC-cycles from `now`.
    pub fn reset_stats(&mut self, now: Cycle) {
        self.crossbar.reset_sent();
        self.va.reset_requests();
        self.sa.reset_requests();
        self.adaptive = AdaptiveHops::default();
        let s = &mut self.state;
        s.occupancy.reset(now);
        s.buffers.reset_occupancy(now);
        if let Some(t) = &mut s.channel_times {
            t.reset();
        }
    }

    /// Starts the inter-arrival and waiting-time histograms of every output port
    /// ([`crate::channel_times`]), `bins` bins of `bin_width` cycles.
    pub fn enable_channel_times(&mut self, bin_width: u32, bins: u32) {
        let (ports, vcs) = (
            self.state.layout.out_ports(),
            self.state.layout.total_out_vcs(),
        );
        self.state.channel_times = Some(Box::new(crate::channel_times::OutputTimes::new(
            ports, vcs, bin_width, bins,
        )));
    }

    /// Number of output ports and of output VCs over all of them.
    pub fn out_ports_vcs(&self) -> (usize, usize) {
        (
            self.state.layout.out_ports(),
            self.state.layout.total_out_vcs(),
        )
    }

    /// Output port `out`'s inter-arrival and waiting-time histograms, when enabled.
    pub fn channel_times(&self, out: OutPort) -> Option<&crate::channel_times::PortTimes> {
        self.state
            .channel_times
            .as_ref()
            .map(|t| t.port(out.index()))
    }

    /// Cycles output port `out` spent with exactly `v` busy VCs, `v = 0..=V`, from
    /// construction (or the last [`Router::reset_stats`]) up to the start of `until`.
    /// Divided by the cycles, the time-average distribution P(v) of busy VCs.
    pub fn busy_vc_histogram(&self, out: OutPort, until: Cycle) -> Vec<u64> {
        self.state.occupancy.histogram(out.index(), until)
    }

    /// VC allocations on output port `out` and the summed holding time (allocation to
    /// release, cycles) of the VCs released, since construction or the last reset.
    pub fn vc_holding(&self, out: OutPort) -> occupancy::VcHolding {
        self.state.occupancy.holding(out.index())
    }

    /// Occupancy statistics of input FIFO `(port, vc)` up to the start of `until`.
    pub fn buffer_occupancy(
        &self,
        port: InPort,
        vc: VcId,
        until: Cycle,
    ) -> occupancy::BufferOccupancy {
        self.state
            .buffers
            .occupancy(self.state.layout.ivc(port.index(), vc.0), until)
    }

    /// Sum over cycles of the number of busy VCs (owned by a packet or with credits out)
    /// of output port `out`, from construction (or the last [`Router::reset_stats`]) up to
    /// the start of cycle `until`. Divided by the cycles, the mean number of busy VCs of
    /// the channel.
    pub fn busy_vc_cycles(&self, out: OutPort, until: Cycle) -> u64 {
        self.state.busy_vc_cycles(out.index(), until)
    }

    /// Busy VCs of output port `out` right now.
    pub fn busy_vcs(&self, out: OutPort) -> u32 {
        self.state.occupancy.busy(out.index())
    }

    /// Flits inside the router: in input FIFOs and in the crossbar pipeline (for the
    /// engine's conservation check: injected = inside routers + on channels + ejected).
    pub fn buffered_flits(&self) -> u64 {
        self.state.buffers.total() + self.crossbar.len() as u64
    }

    /// The input VCs whose FIFO holds a flit, by port then VC.
    pub fn holding_vcs(&self) -> impl Iterator<Item = (InPort, VcId)> + '_ {
        let l = &self.state.layout;
        (0..l.in_ports())
            .flat_map(move |p| (0..l.in_vcs(p)).map(move |v| (InPort(p as u8), VcId(v))))
            .filter(|&(p, v)| self.buffer_len(p, v) > 0)
    }

    /// Largest occupancy input FIFO `(port, vc)` reached since construction or the last
    /// [`Router::reset_stats`] (which restarts it from the FIFO's length).
    pub fn max_buffer_occupancy(&self, port: InPort, vc: VcId) -> u32 {
        self.state
            .buffers
            .max(self.state.layout.ivc(port.index(), vc.0))
    }

    /// Flits in input FIFO `(port, vc)`.
    pub fn buffer_len(&self, port: InPort, vc: VcId) -> u32 {
        self.state
            .buffers
            .len(self.state.layout.ivc(port.index(), vc.0)) as u32
    }

    /// Credits available for downstream VC `vc` of output `out` (`None` = unbounded).
    pub fn credits(&self, out: OutPort, vc: VcId) -> Option<u32> {
        self.state.outputs[self.state.layout.ovc(out.index(), vc.0)]
            .credits
            .available()
    }

    /// Flits sent on `(out, vc)` whose credits have not come back yet.
    pub fn outstanding(&self, out: OutPort, vc: VcId) -> u32 {
        self.state.outputs[self.state.layout.ovc(out.index(), vc.0)]
            .credits
            .outstanding()
    }

    /// Stages of the crossbar pipeline ring, each read by [`Router::in_crossbar`].
    pub fn crossbar_stages(&self) -> usize {
        self.crossbar.stages()
    }

    /// Flits inside the crossbar pipeline bound for `(out, vc)` (they already hold a credit).
    pub fn in_crossbar(&self, out: OutPort, vc: VcId) -> u32 {
        self.crossbar.in_flight_to(out.index(), vc.0)
    }

    /// Credits for input `(port, vc)` waiting out their `credit_delay` (for the
    /// conservation check: upstream credits + flits on the channel + this FIFO + these +
    /// credits on the reverse channel = depth).
    pub fn pending_credits(&self, port: InPort, vc: VcId) -> u32 {
        self.credit_return.pending(port.index(), vc.0)
    }

    /// No output VC owned and every credit home (a drained network's routers).
    pub fn all_credits_home(&self) -> bool {
        self.state
            .outputs
            .iter()
            .all(|o| o.owner.is_none() && o.credits.all_home())
    }
}
