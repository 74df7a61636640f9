//! A partition's trace buffer.

use super::event::TraceEvent;
use flitsim_router::probe::RouterEvent;

/// A partition's trace: its events since the last merge, and scratch space.
#[derive(Debug, Default)]
pub(crate) struct PartTrace {
    pub events: Vec<TraceEvent>,
    pub scratch: Vec<RouterEvent>,
}
