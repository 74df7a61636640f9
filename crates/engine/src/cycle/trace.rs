//! Collecting a cycle's events from a partition's components, after its phase 2.

use crate::network::Members;
use crate::trace::{Component, EventKind, TraceEvent};
use flitsim_netlist::{Cycle, RouterId, TerminalId};

/// Moves the events of cycle `now` out of the components of `members`, in component id
/// order, into the partition's list (nothing when tracing is off: no call then).
#[inline(always)]
pub(crate) fn collect(now: Cycle, members: &mut Members) {
    if members.trace.is_some() {
        collect_traced(now, members);
    }
}

/// [`collect`] with tracing on.
#[cold]
#[inline(never)]
fn collect_traced(now: Cycle, members: &mut Members) {
    let Some(tr) = &mut members.trace else { return };
    for (i, wired) in members.routers.iter_mut().enumerate() {
        wired.router.take_trace(&mut tr.scratch);
        let component = Component::Router(RouterId((members.lo + i) as u32));
        tr.events.extend(tr.scratch.drain(..).map(|e| TraceEvent {
            cycle: now,
            component,
            kind: EventKind::Router(e),
        }));
    }
    for (i, wired) in members.terminals.iter_mut().enumerate() {
        let Some(buf) = &mut wired.trace else {
            continue;
        };
        let component = Component::Terminal(TerminalId((members.terminal_lo + i) as u32));
        tr.events.extend(buf.drain(..).map(|e| TraceEvent {
            cycle: now,
            component,
            kind: EventKind::Terminal(e),
        }));
    }
}
