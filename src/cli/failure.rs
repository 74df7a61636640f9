//! How a command's error is printed on stderr: `error: MESSAGE` with its `help:` line, or
//! a located diagnostic as it is, since it names its own `error[code]`.

use flitsim_engine::ConfigError;
use flitsim_netlist::Diagnostics;

/// The text printed for `e`, the error that ended a command.
pub fn render(e: &anyhow::Error) -> String {
    if is_located(e) {
        format!("{e:#}")
    } else {
        format!("error: {e:#}")
    }
}

/// Whether `e` renders as `FILE:LINE:COL: error[code]: ...` already.
fn is_located(e: &anyhow::Error) -> bool {
    e.downcast_ref::<Diagnostics>().is_some()
        || e.downcast_ref::<ConfigError>()
            .is_some_and(ConfigError::is_located)
}
