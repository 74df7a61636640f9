//! Cycle tracing: [`Simulation::enable_trace`], [`Simulation::take_trace`].

use super::tracer::Tracer;
use super::Simulation;
use crate::trace::{TraceEvent, TraceNames};

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
