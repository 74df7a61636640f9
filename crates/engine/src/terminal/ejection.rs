//! Ejection: every arriving flit consumed, a tail's latency measured and recorded.

use super::delivery::Delivery;
use super::state::Terminal;
use super::tally::Tally;
use crate::latency::PacketTimes;
use flitsim_netlist::{Cycle, TerminalId};
use flitsim_router::Flit;

impl Terminal {
    #[inline]
    pub(super) fn consume(&mut self, now: Cycle, f: &Flit, tally: &mut Tally) {
        debug_assert_eq!(
            f.dest, self.id,
            "flit of packet {} for {} ejected at terminal {}",
            f.packet, f.dest, self.id
        );
        self.stats.flits_consumed += 1;
        let in_window = self.window.contains(now);
        if in_window {
            self.stats.window_flits_consumed += 1;
        }
        if !f.kind.is_tail() {
            return;
        }
        self.settle_areas(now);
        self.stats.packets_consumed += 1;
        let latency = self.latency(now, f);
        self.stats.consumed_latency_sum += latency;
        if in_window {
            self.stats.window_packets_consumed += 1;
        }
        if self.window.contains(f.created.cycle()) {
            tally.measured_delivered += 1;
            self.stats.measured_delivered += 1;
            self.stats.latency_sum += latency;
            self.stats.system_time_sum += now.0 - f.created.cycle().0;
            self.stats.latency_max = self.stats.latency_max.max(latency);
            let network = now.0 - f.injected.cycle().0;
            let source_queue = f.injected.cycle().0 - f.created.cycle().0;
            self.stats.network_latency_sum += network;
            self.stats.source_queue_sum += source_queue;
            self.dists
                .get_or_insert_with(Box::default)
                .record(latency, network, source_queue);
            self.stats.hops_sum += u64::from(f.hops);
        }
        if let Some(log) = &mut self.deliveries {
            log.push(Delivery {
                packet: f.packet,
                dest: f.dest,
                len: f.len,
                created: f.created.cycle(),
                injected: f.injected.cycle(),
                consumed: now,
                hops: f.hops,
                measured: latency,
            });
        }
    }

    /// The latency of the packet whose tail `f` is consumed at `now`, by the run's
    /// definition.
    pub(super) fn latency(&self, now: Cycle, f: &Flit) -> u64 {
        let lt = |t: TerminalId| {
            self.config
                .terminal_latency
                .get(t.index())
                .copied()
                .unwrap_or(0)
        };
        self.config.latency.latency(&PacketTimes {
            created: f.created.cycle().0,
            injected: f.injected.cycle().0,
            consumed: now.0,
            source_lt: lt(f.packet.source),
            dest_lt: lt(self.id),
        })
    }
}
