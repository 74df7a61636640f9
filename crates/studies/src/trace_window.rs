//! The measurement window of a trace-driven run: a trace's packets are all measured
//! unless the run's flags fix a window, so no warm-up and a window up to the last
//! packet's cycle.

use flitsim_engine::traffic::{netrace, trace};
use flitsim_engine::TrafficKind;

/// The cycles of the window `traffic` takes when its trace sets it (`None` for synthetic
/// traffic, or when `fixed`: the flags gave a window). A Netrace file is read even with a
/// fixed window, and `warn` gets the count of listed dependents it lacks.
///
/// # Errors
/// A trace file that does not load.
pub fn trace_window(
    traffic: &TrafficKind,
    fixed: bool,
    warn: impl FnOnce(&str),
) -> anyhow::Result<Option<u64>> {
    let mut end = None;
    if let (Some(path), false) = (traffic.trace_file(), fixed) {
        let events = trace::load(path, usize::MAX)?;
        end = Some(events.last().map_or(1, |e| e.cycle.0 + 1));
    }
    if let Some(path) = traffic.netrace_file() {
        let t = netrace::load(path)?;
        if t.missing > 0 {
            warn(&format!(
                "{}: {} listed dependents are not in the file (ignored)",
                path.display(),
                t.missing
            ));
        }
        if !fixed && end.is_none() {
            end = Some(t.packets.last().map_or(1, |e| e.cycle.0 + 1));
        }
    }
    Ok(end)
}
