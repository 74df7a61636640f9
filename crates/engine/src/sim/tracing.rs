//! [`Tracer`]: tracing turned on in a network, the watchdog's verdicts, and the merge of
//! the partitions' events.

use super::Simulation;
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

impl Simulation {
    /// Turns cycle tracing on from the next cycle (see [`crate::trace`]); the events
    /// accumulate until [`Simulation::take_trace`]. Calling it again changes nothing.
    pub fn enable_trace(&mut self) {
        if self.trace.is_none() {
            let names = TraceNames::of_network(&self.net);
            self.trace = Some((Tracer::start(&mut self.net), names));
        }
    }

    /// The trace events since the last call, sorted by (cycle, component, sequence);
    /// empty when tracing is off.
    pub fn take_trace(&mut self) -> Vec<TraceEvent> {
        self.trace
            .as_mut()
            .map(|(t, _)| t.take(&mut self.net))
            .unwrap_or_default()
    }

    /// The names that render this network's trace events (`None` when tracing is off).
    pub fn trace_names(&self) -> Option<&TraceNames> {
        self.trace.as_ref().map(|(_, n)| n)
    }
}
