//! Cycle traces (DESIGN.md "Cycle traces", STYLE.md B.4 point 9).
//!
//! With tracing on ([`crate::Simulation::enable_trace`]), every router appends what it
//! does in a step to its own buffer (`flitsim_router::probe`), and every terminal to its
//! own; after each cycle the engine collects the buffers in component id order (routers,
//! then terminals, then the watchdog), so the trace is sorted by (cycle, component,
//! sequence) and is the same whatever order the components were stepped in. Off, a router
//! step pays one `Option` check per stage and a terminal step one.
//!
//! - [`event`]: [`TraceEvent`] and the netlist names ([`TraceNames`]) to render it;
//! - [`filter`]: [`TraceFilter`] (cycle range, routers, packets);
//! - [`text`]: the documented, stable text form (one event per line);
//! - [`vcd`]: value change dump for waveform viewers.

pub mod event;
pub mod filter;
pub mod text;
pub mod vcd;

pub use event::{Component, EventKind, Peer, TerminalEvent, TraceEvent, TraceNames, Verdict};
pub use filter::TraceFilter;

use crate::assemble::{Network, NO_CHANNEL};
use crate::error::SimError;
use flitsim_netlist::{Cycle, RouterId, TerminalId, TERMINAL_PORT};
use flitsim_router::probe::RouterEvent;

/// Collects the components' trace buffers after each cycle.
#[derive(Debug, Default)]
pub(crate) struct Tracer {
    events: Vec<TraceEvent>,
    scratch: Vec<RouterEvent>,
}

impl Tracer {
    /// Turns the per-component buffers of `net` on.
    pub fn start(net: &mut Network) -> Tracer {
        for node in &mut net.routers {
            node.router.set_tracing(true);
        }
        for node in &mut net.terminals {
            node.trace = Some(Vec::new());
        }
        Tracer::default()
    }

    /// Moves the events of cycle `now` out of the components, in component id order.
    pub fn collect(&mut self, now: Cycle, net: &mut Network) {
        for (i, node) in net.routers.iter_mut().enumerate() {
            node.router.take_trace(&mut self.scratch);
            let component = Component::Router(RouterId(i as u32));
            self.events
                .extend(self.scratch.drain(..).map(|e| TraceEvent {
                    cycle: now,
                    component,
                    kind: EventKind::Router(e),
                }));
        }
        for (i, node) in net.terminals.iter_mut().enumerate() {
            let Some(buf) = &mut node.trace else { continue };
            let component = Component::Terminal(TerminalId(i as u32));
            self.events.extend(buf.drain(..).map(|e| TraceEvent {
                cycle: now,
                component,
                kind: EventKind::Terminal(e),
            }));
        }
    }

    /// Records the watchdog's verdict at `now`.
    pub fn verdict(&mut self, now: Cycle, names: &TraceNames, e: &SimError) {
        let vcs = |w: &[crate::error::WaitingVc]| {
            w.iter()
                .map(|w| names.vc(w.router, w.port.0, w.vc))
                .collect::<Vec<_>>()
        };
        let v = match e {
            SimError::Deadlock { waiting, .. } => Verdict::Deadlock(vcs(waiting)),
            SimError::Stalled { waiting, .. } => Verdict::Stalled(vcs(waiting)),
        };
        self.events.push(TraceEvent {
            cycle: now,
            component: Component::Watchdog,
            kind: EventKind::Watchdog(v),
        });
    }

    /// The events collected since the last call.
    pub fn take(&mut self) -> Vec<TraceEvent> {
        std::mem::take(&mut self.events)
    }
}

impl TraceNames {
    /// From an assembled network (same result as [`TraceNames::new`] on its netlist).
    pub(crate) fn of_network(net: &Network) -> TraceNames {
        let peer_in = |ch: u32| {
            if ch == NO_CHANNEL {
                return Peer::None;
            }
            match net.ends[ch as usize].from {
                Some((r, p)) => Peer::Router(r, p.0),
                None => Peer::None,
            }
        };
        let peer_out = |ch: u32| {
            if ch == NO_CHANNEL {
                return Peer::None;
            }
            match net.ends[ch as usize].to {
                Some((r, p)) => Peer::Router(r, p.0),
                None => Peer::None,
            }
        };
        let mut n = TraceNames {
            routers: net.names.routers.clone(),
            ports: net.names.ports.clone(),
            ..TraceNames::default()
        };
        for (i, node) in net.routers.iter().enumerate() {
            let t = Peer::Terminal(TerminalId(i as u32));
            let local = usize::from(TERMINAL_PORT);
            let mut down: Vec<Peer> = node.out_channels.iter().map(|&c| peer_out(c)).collect();
            let mut up: Vec<Peer> = node.in_channels.iter().map(|&c| peer_in(c)).collect();
            down[local] = t;
            up[local] = t;
            n.downstream.push(down);
            n.upstream.push(up);
            n.in_vcs.push(node.in_vcs.to_vec());
        }
        n
    }
}
