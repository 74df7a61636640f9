//! Cycle traces.
//!
//! With tracing on ([`crate::Simulation::enable_trace`]), every router appends what it
//! does in a step to its own buffer (`flitsim_router::probe`), and every terminal to its
//! own; after each cycle (in phase 2) each partition's worker collects its components'
//! buffers in component id order into the partition's event list, stamped with the cycle;
//! [`crate::Simulation::take_trace`] merges the partitions' lists and the watchdog's
//! verdicts by (cycle, component) with a stable sort, so the trace is sorted by (cycle,
//! component, sequence) and is the same for any thread count and stepping order. Off, a router
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

use crate::cycle::View;
use crate::error::SimError;
use crate::network::{Network, Nodes, PHASE_BUG};
use flitsim_netlist::{Cycle, RouterId, TerminalId, TERMINAL_PORT};
use flitsim_router::probe::RouterEvent;

/// The watchdog's verdicts; merges the partitions' event lists.
#[derive(Debug, Default)]
pub(crate) struct Tracer {
    events: Vec<TraceEvent>,
}

/// A partition's trace: its events since the last merge, and scratch space.
#[derive(Debug, Default)]
pub(crate) struct PartTrace {
    events: Vec<TraceEvent>,
    scratch: Vec<RouterEvent>,
}

/// Moves the events of cycle `now` out of the components of `nodes`, in component id
/// order, into the partition's list (nothing when tracing is off: no call then).
#[inline(always)]
pub(crate) fn collect(now: Cycle, nodes: &mut Nodes) {
    if nodes.trace.is_some() {
        collect_traced(now, nodes);
    }
}

/// [`collect`] with tracing on.
#[cold]
#[inline(never)]
fn collect_traced(now: Cycle, nodes: &mut Nodes) {
    let Some(tr) = &mut nodes.trace else { return };
    for (i, node) in nodes.routers.iter_mut().enumerate() {
        node.router.take_trace(&mut tr.scratch);
        let component = Component::Router(RouterId((nodes.lo + i) as u32));
        tr.events.extend(tr.scratch.drain(..).map(|e| TraceEvent {
            cycle: now,
            component,
            kind: EventKind::Router(e),
        }));
    }
    for (i, node) in nodes.terminals.iter_mut().enumerate() {
        let Some(buf) = &mut node.trace else { continue };
        let component = Component::Terminal(TerminalId((nodes.lo + i) as u32));
        tr.events.extend(buf.drain(..).map(|e| TraceEvent {
            cycle: now,
            component,
            kind: EventKind::Terminal(e),
        }));
    }
}

impl Tracer {
    /// Turns the per-component buffers of `net` on.
    pub fn start(net: &mut Network) -> Tracer {
        for part in &mut net.parts {
            let nodes = part.nodes.get_mut().expect(PHASE_BUG);
            for node in &mut nodes.routers {
                node.router.set_tracing(true);
            }
            for node in &mut nodes.terminals {
                node.trace = Some(Vec::new());
            }
            nodes.trace = Some(PartTrace::default());
        }
        Tracer::default()
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
            // Not the watchdog's: nothing to record.
            SimError::CycleLimit { .. } => return,
        };
        self.events.push(TraceEvent {
            cycle: now,
            component: Component::Watchdog,
            kind: EventKind::Watchdog(v),
        });
    }

    /// The events collected since the last call, merged over the partitions of `net` by
    /// (cycle, component), each component's events in their order.
    pub fn take(&mut self, net: &mut Network) -> Vec<TraceEvent> {
        let mut all = Vec::new();
        for part in &mut net.parts {
            if let Some(tr) = &mut part.nodes.get_mut().expect(PHASE_BUG).trace {
                all.append(&mut tr.events);
            }
        }
        all.append(&mut self.events);
        all.sort_by_key(|e| (e.cycle, e.component));
        all
    }
}

impl TraceNames {
    /// From an assembled network (same result as [`TraceNames::new`] on its netlist).
    pub(crate) fn of_network(net: &Network) -> TraceNames {
        let mut down: Vec<Vec<Peer>> = net
            .names
            .ports
            .iter()
            .map(|p| vec![Peer::None; p.len()])
            .collect();
        let mut up = down.clone();
        for e in &net.ends {
            if let (Some((r, o)), Some((d, i))) = (e.from, e.to) {
                down[r.index()][o.index()] = Peer::Router(d, i.0);
                up[d.index()][i.index()] = Peer::Router(r, o.0);
            }
        }
        let mut n = TraceNames {
            routers: net.names.routers.clone(),
            ports: net.names.ports.clone(),
            ..TraceNames::default()
        };
        let view = View::new(net);
        for (i, (node, (mut down, mut up))) in
            view.routers().zip(down.into_iter().zip(up)).enumerate()
        {
            let t = Peer::Terminal(TerminalId(i as u32));
            let local = usize::from(TERMINAL_PORT);
            down[local] = t;
            up[local] = t;
            n.downstream.push(down);
            n.upstream.push(up);
            n.in_vcs.push(node.in_vcs.to_vec());
        }
        n
    }
}
