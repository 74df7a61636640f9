//! Trace filters: a cycle range, routers, packets. An event is kept when it passes all
//! three:
//! - its cycle is in `[from, to]` (both inclusive, either may be open);
//! - no router is named, or its component belongs to a named router (a terminal belongs
//!   to the router it hangs off; the watchdog's verdict always passes);
//! - no packet is named, or it is about a flit of a named packet (credit and `vc-free`
//!   events carry no packet and are dropped; the watchdog's verdict always passes).

use super::event::{Component, TraceEvent};
use flitsim_netlist::{Cycle, RouterId};
use flitsim_router::PacketId;

/// Which events to keep (the default keeps everything).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TraceFilter {
    /// First cycle kept.
    pub from: Option<Cycle>,
    /// Last cycle kept.
    pub to: Option<Cycle>,
    /// Routers kept (empty: all).
    pub routers: Vec<RouterId>,
    /// Packets kept (empty: all).
    pub packets: Vec<PacketId>,
    /// Where each terminal hangs, to place terminals' events (`None`: terminal `t` on
    /// router `t`).
    pub terminals: Option<flitsim_netlist::TerminalMap>,
}

impl TraceFilter {
    /// Is cycle `c` inside the range?
    pub fn keeps_cycle(&self, c: Cycle) -> bool {
        self.from.is_none_or(|f| c >= f) && self.to.is_none_or(|t| c <= t)
    }

    /// Does `e` pass the filter?
    pub fn keeps(&self, e: &TraceEvent) -> bool {
        if !self.keeps_cycle(e.cycle) {
            return false;
        }
        if e.component == Component::Watchdog {
            return true;
        }
        if !self.routers.is_empty()
            && !e
                .component
                .router(self.terminals.as_ref())
                .is_some_and(|r| self.routers.contains(&r))
        {
            return false;
        }
        self.packets.is_empty() || e.packet().is_some_and(|p| self.packets.contains(&p))
    }

    /// Parses a packet id `SRC:SEQ` (as the trace prints it).
    ///
    /// # Errors
    /// A message naming the expected form.
    pub fn parse_packet(s: &str) -> Result<PacketId, String> {
        let err =
            || format!("packet `{s}`: expected SRC:SEQ, e.g. 0:0 (terminal 0, its first packet)");
        let (a, b) = s.split_once(':').ok_or_else(err)?;
        Ok(PacketId {
            source: flitsim_netlist::TerminalId(a.trim().parse().map_err(|_| err())?),
            seq: b.trim().parse().map_err(|_| err())?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::event::{EventKind, TerminalEvent, Verdict};
    use flitsim_netlist::{TerminalId, VcId};
    use flitsim_router::probe::RouterEvent;
    use flitsim_router::{Flit, FlitKind};

    fn flit(src: u32, seq: u32) -> Flit {
        Flit {
            packet: PacketId {
                source: TerminalId(src),
                seq,
            },
            index: 0,
            len: 1,
            kind: FlitKind::HeadTail,
            vc: VcId(0),
            dest: TerminalId(1),
            created: flitsim_router::Stamp(0),
            injected: flitsim_router::Stamp(0),
            hops: 0,
        }
    }

    fn ev(cycle: u64, component: Component, kind: EventKind) -> TraceEvent {
        TraceEvent {
            cycle: Cycle(cycle),
            component,
            kind,
        }
    }

    #[test]
    fn cycle_router_and_packet_filters_combine() {
        let inject = ev(
            5,
            Component::Terminal(TerminalId(2)),
            EventKind::Terminal(TerminalEvent::Inject { flit: flit(2, 7) }),
        );
        let credit = ev(
            5,
            Component::Router(RouterId(3)),
            EventKind::Router(RouterEvent::CreditOut {
                port: flitsim_netlist::InPort(1),
                vc: VcId(0),
            }),
        );
        let verdict = ev(
            9,
            Component::Watchdog,
            EventKind::Watchdog(Verdict::Stalled(vec![])),
        );
        let all = TraceFilter::default();
        assert!(all.keeps(&inject) && all.keeps(&credit) && all.keeps(&verdict));
        let window = TraceFilter {
            from: Some(Cycle(6)),
            to: Some(Cycle(9)),
            ..TraceFilter::default()
        };
        assert!(!window.keeps(&inject) && window.keeps(&verdict));
        let r2 = TraceFilter {
            routers: vec![RouterId(2)],
            ..TraceFilter::default()
        };
        assert!(r2.keeps(&inject), "terminal 2 belongs to router 2");
        assert!(!r2.keeps(&credit) && r2.keeps(&verdict));
        let p = TraceFilter {
            packets: vec![TraceFilter::parse_packet("2:7").unwrap()],
            ..TraceFilter::default()
        };
        assert!(p.keeps(&inject) && !p.keeps(&credit));
        let q = TraceFilter {
            packets: vec![TraceFilter::parse_packet("2:8").unwrap()],
            ..TraceFilter::default()
        };
        assert!(!q.keeps(&inject));
        assert!(TraceFilter::parse_packet("2-8").is_err());
    }
}
