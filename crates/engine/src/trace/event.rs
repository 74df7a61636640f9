//! Trace events: what each component did in one cycle, in component id order.
//!
//! Routers report [`RouterEvent`]s (from `flitsim_router::probe`); terminals report
//! [`TerminalEvent`]s; the watchdog reports a [`Verdict`] when it stops the run. Ports and
//! VCs stay numeric here; [`TraceNames`] turns them into netlist names (`r3.east/vc1`).

use flitsim_netlist::{Cycle, InPort, OutPort, RouterId, TerminalId, TerminalMap, VcId};
use flitsim_router::probe::{FlitTag, RouterEvent};
use flitsim_router::{Flit, PacketId};

/// Who produced an event. Components are ordered routers first (by id), then terminals
/// (by id), then the watchdog: the order of events within a cycle.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Component {
    /// A router.
    Router(RouterId),
    /// A terminal.
    Terminal(TerminalId),
    /// The deadlock watchdog.
    Watchdog,
}

impl Component {
    /// The router this component belongs to (a terminal belongs to the router it hangs
    /// off, by `terminals`; without a map, router `t` for terminal `t`); `None` for the
    /// watchdog.
    pub fn router(self, terminals: Option<&TerminalMap>) -> Option<RouterId> {
        match self {
            Component::Router(r) => Some(r),
            Component::Terminal(t) => Some(terminals.map_or(RouterId(t.0), |m| m.router_of(t))),
            Component::Watchdog => None,
        }
    }
}

/// One thing a terminal did in a step, in step order.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TerminalEvent {
    /// A credit for injection VC `vc` came back.
    CreditIn {
        /// The injection VC (router input port 0).
        vc: VcId,
    },
    /// A flit arrived on the ejection channel and was consumed.
    Eject {
        /// The flit (its `vc` is the ejection VC).
        flit: Flit,
    },
    /// The credit of a consumed flit was written back onto the ejection channel.
    CreditOut {
        /// The ejection VC.
        vc: VcId,
    },
    /// A flit was written onto the injection channel.
    Inject {
        /// The flit (its `vc` is the injection VC).
        flit: Flit,
    },
    /// A timeout reset for one of its packets arrived: the packet goes back into the
    /// source queue (to be retransmitted with the same id).
    ResetIn {
        /// The packet.
        packet: PacketId,
    },
}

/// The watchdog's verdict when it stops the run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// A cycle of input VCs, each waiting for the next (netlist names).
    Deadlock(Vec<String>),
    /// No flit moved but no cycle was found: every waiting input VC.
    Stalled(Vec<String>),
}

/// What happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EventKind {
    /// A router event.
    Router(RouterEvent),
    /// A terminal event.
    Terminal(TerminalEvent),
    /// The watchdog stopped the run.
    Watchdog(Verdict),
}

/// One trace event. A trace is sorted by (cycle, component, sequence), where the sequence
/// is the order in which the component did things within its step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceEvent {
    /// The cycle.
    pub cycle: Cycle,
    /// Who.
    pub component: Component,
    /// What.
    pub kind: EventKind,
}

impl TraceEvent {
    /// The flit the event is about, if any.
    pub fn flit(&self) -> Option<FlitTag> {
        match &self.kind {
            EventKind::Router(e) => match e {
                RouterEvent::FlitIn { flit, .. } | RouterEvent::FlitOut { flit, .. } => {
                    Some(FlitTag::from(flit))
                }
                RouterEvent::Route { flit, .. }
                | RouterEvent::VcAlloc { flit, .. }
                | RouterEvent::Stall { flit, .. }
                | RouterEvent::Grant { flit, .. }
                | RouterEvent::Release { flit, .. } => Some(*flit),
                RouterEvent::Discard { flit, .. } => Some(*flit),
                RouterEvent::CreditIn { .. }
                | RouterEvent::VcFree { .. }
                | RouterEvent::CreditOut { .. }
                | RouterEvent::Timeout { .. }
                | RouterEvent::ResetIn { .. }
                | RouterEvent::ResetOut { .. } => None,
            },
            EventKind::Terminal(TerminalEvent::Eject { flit } | TerminalEvent::Inject { flit }) => {
                Some(FlitTag::from(flit))
            }
            EventKind::Terminal(_) | EventKind::Watchdog(_) => None,
        }
    }

    /// The packet the event is about, if any.
    pub fn packet(&self) -> Option<PacketId> {
        match &self.kind {
            EventKind::Router(
                RouterEvent::Timeout { packet, .. }
                | RouterEvent::ResetIn { packet, .. }
                | RouterEvent::ResetOut { packet, .. },
            )
            | EventKind::Terminal(TerminalEvent::ResetIn { packet }) => Some(*packet),
            _ => self.flit().map(|f| f.packet),
        }
    }
}

/// Where a port leads: the other end of its channel.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Peer {
    /// Input port `port` of router `router` (for an output port), or output port `port`
    /// of `router` (for an input port).
    Router(RouterId, u8),
    /// The router's terminal (port 0).
    Terminal(TerminalId),
    /// No channel.
    None,
}

/// Netlist names and the channel map, to render events.
#[derive(Clone, Debug, Default)]
pub struct TraceNames {
    /// Router names by id.
    pub routers: Vec<String>,
    /// Port names by router, then port.
    pub ports: Vec<Vec<String>>,
    /// The far end of each output port's channel, by router, then port.
    pub downstream: Vec<Vec<Peer>>,
    /// The far end of each input port's channel, by router, then port.
    pub upstream: Vec<Vec<Peer>>,
    /// VCs of each input port, by router, then port.
    pub in_vcs: Vec<Vec<u8>>,
    /// Where each terminal hangs (`None`: terminal `t` on port 0 of router `t`).
    pub terminals: Option<TerminalMap>,
}

impl TraceNames {
    /// The router and port terminal `t` hangs off.
    pub fn terminal_place(&self, t: TerminalId) -> (RouterId, u8) {
        self.terminals
            .as_ref()
            .map_or((RouterId(t.0), 0), |m| (m.router_of(t), m.port_of(t)))
    }
}

impl TraceNames {
    /// From a netlist.
    pub fn new(netlist: &flitsim_netlist::Netlist) -> TraceNames {
        let mut n = TraceNames {
            terminals: Some(netlist.terminal_map().clone()),
            ..TraceNames::default()
        };
        for r in netlist.routers() {
            n.routers.push(r.name.clone());
            n.ports
                .push(r.ports.iter().map(|p| p.name.clone()).collect());
            n.in_vcs.push(r.ports.iter().map(|p| p.vcs).collect());
            let mut down = vec![Peer::None; r.ports.len()];
            let mut up = vec![Peer::None; r.ports.len()];
            for i in 0..r.terminals {
                down[usize::from(i)] = Peer::Terminal(netlist.terminal_of(r.id, i));
                up[usize::from(i)] = Peer::Terminal(netlist.terminal_of(r.id, i));
            }
            for p in usize::from(r.terminals)..r.ports.len() {
                if let Some(ch) = netlist.out_channel(r.id, OutPort(p as u8)) {
                    let ch = netlist.channel(ch);
                    down[p] = Peer::Router(ch.to, ch.to_port.0);
                }
                if let Some(ch) = netlist.in_channel(r.id, InPort(p as u8)) {
                    let ch = netlist.channel(ch);
                    up[p] = Peer::Router(ch.from, ch.from_port.0);
                }
            }
            n.downstream.push(down);
            n.upstream.push(up);
        }
        n
    }

    /// `r3`.
    pub fn router(&self, r: RouterId) -> &str {
        &self.routers[r.index()]
    }

    /// `r3.east`.
    pub fn port(&self, r: RouterId, p: u8) -> String {
        format!(
            "{}.{}",
            self.routers[r.index()],
            self.ports[r.index()][usize::from(p)]
        )
    }

    /// `r3.east/vc1`.
    pub fn vc(&self, r: RouterId, p: u8, vc: VcId) -> String {
        format!("{}/vc{}", self.port(r, p), vc.0)
    }

    /// `t3` or `r3.east` for a peer (`-` when none).
    pub fn peer(&self, p: Peer) -> String {
        match p {
            Peer::Router(r, port) => self.port(r, port),
            Peer::Terminal(t) => format!("t{}", t.0),
            Peer::None => "-".to_string(),
        }
    }

    /// `t3/vc1` or `r3.east/vc1` for a peer's VC.
    pub fn peer_vc(&self, p: Peer, vc: VcId) -> String {
        match p {
            Peer::Router(r, port) => self.vc(r, port, vc),
            Peer::Terminal(t) => format!("t{}/vc{}", t.0, vc.0),
            Peer::None => "-".to_string(),
        }
    }

    /// The component's name: `r3`, `t3` or `watchdog`.
    pub fn component(&self, c: Component) -> String {
        match c {
            Component::Router(r) => self.router(r).to_string(),
            Component::Terminal(t) => format!("t{}", t.0),
            Component::Watchdog => "watchdog".to_string(),
        }
    }

    /// Finds a router by name (`r3`) or id (`3`).
    pub fn find_router(&self, name: &str) -> Option<RouterId> {
        if let Some(i) = self.routers.iter().position(|n| n == name) {
            return Some(RouterId(i as u32));
        }
        name.parse::<u32>()
            .ok()
            .filter(|&i| (i as usize) < self.routers.len())
            .map(RouterId)
    }
}

/// Appends a terminal step's events, in step order: credit in, flit consumed, its credit
/// out, flit injected.
pub(crate) fn terminal_step(
    t: &mut Vec<TerminalEvent>,
    flit_in: Option<Flit>,
    credit_in: Option<flitsim_router::Credit>,
    flit_out: Option<Flit>,
    credit_out: Option<flitsim_router::Credit>,
) {
    if let Some(c) = credit_in {
        t.push(TerminalEvent::CreditIn { vc: c.vc });
    }
    if let Some(flit) = flit_in {
        t.push(TerminalEvent::Eject { flit });
    }
    if let Some(c) = credit_out {
        t.push(TerminalEvent::CreditOut { vc: c.vc });
    }
    if let Some(flit) = flit_out {
        t.push(TerminalEvent::Inject { flit });
    }
}
