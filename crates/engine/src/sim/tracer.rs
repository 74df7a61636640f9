//! [`Tracer`]: tracing turned on in a network, the watchdog's verdicts, and the merge of
//! the partitions' events.

use crate::error::{SimError, WaitingVc};
use crate::network::{Network, PHASE_BUG};
use crate::trace::{Component, EventKind, PartTrace, TraceEvent, TraceNames, Verdict};
use flitsim_netlist::Cycle;

/// The watchdog's verdicts; merges the partitions' event lists.
#[derive(Debug, Default)]
pub(crate) struct Tracer {
    events: Vec<TraceEvent>,
}

impl Tracer {
    /// Turns the per-component buffers of `net` on.
    pub fn start(net: &mut Network) -> Tracer {
        for part in &mut net.parts {
            let members = part.members.get_mut().expect(PHASE_BUG);
            for wired in &mut members.routers {
                wired.router.set_tracing(true);
            }
            for wired in &mut members.terminals {
                wired.trace = Some(Vec::new());
            }
            members.trace = Some(PartTrace::default());
        }
        Tracer::default()
    }

    /// Records the watchdog's verdict at `now`.
    pub fn verdict(&mut self, now: Cycle, names: &TraceNames, e: &SimError) {
        let vcs = |w: &[WaitingVc]| {
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
            if let Some(tr) = &mut part.members.get_mut().expect(PHASE_BUG).trace {
                all.append(&mut tr.events);
            }
        }
        all.append(&mut self.events);
        all.sort_by_key(|e| (e.cycle, e.component));
        all
    }
}
