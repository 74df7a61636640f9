//! The cost model's activity: each router's buffer writes and reads per input port, its
//! crossbar traversals per output port and its VC and switch allocation requests and
//! grants since the window opened, read at report time. All but the requests come from
//! counters the routers keep anyway (the FIFOs' arrivals and positions, the crossbar's
//! flits sent, the output VCs' allocations); the requests are one counter in each
//! allocator, inside the allocators' own structs, so the memory estimate holds them all
//! (`InputBuffer::bytes_per_fifo`, `Crossbar::bytes`, the router's struct size).

use super::Simulation;
use flitsim_cost::RouterActivity;
use flitsim_netlist::InPort;

impl Simulation {
    /// Each router's events since the window opened (or since cycle 0 without a warm-up),
    /// in router id order, over [`Simulation::stats_cycles`] cycles. Identical for any
    /// thread count: integer counts of the same events.
    pub fn router_activity(&self) -> Vec<RouterActivity> {
        crate::cycle::View::new(&self.net)
            .routers()
            .map(|node| {
                let r = &node.router;
                let (outs, _) = r.out_ports_vcs();
                let ins = r.in_ports();
                let (buffer_writes, buffer_reads) =
                    (0..ins).map(|p| r.buffer_flow(InPort(p as u8))).unzip();
                let [vc_requests, vc_grants, switch_requests, switch_grants] =
                    r.allocation_counts();
                RouterActivity {
                    buffer_writes,
                    buffer_reads,
                    crossbar_out: r.stats().flits_sent[..outs].to_vec(),
                    vc_requests,
                    vc_grants,
                    switch_requests,
                    switch_grants,
                }
            })
            .collect()
    }
}
