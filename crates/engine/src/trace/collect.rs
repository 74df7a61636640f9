//! Collecting a cycle's events from a partition's components, after its phase 2.

use super::event::{Component, EventKind, TraceEvent};
use crate::network::Nodes;
use flitsim_netlist::{Cycle, RouterId, TerminalId};

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
        let component = Component::Terminal(TerminalId((nodes.terminal_lo + i) as u32));
        tr.events.extend(buf.drain(..).map(|e| TraceEvent {
            cycle: now,
            component,
            kind: EventKind::Terminal(e),
        }));
    }
}
