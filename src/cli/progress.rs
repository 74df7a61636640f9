//! Progress on stderr for commands that can run longer than a couple of seconds: a spinner
//! with the current step and the elapsed time. Hidden when stderr is not a terminal (a
//! script, a pipe, a test) and with `--quiet`, so it never mixes into captured output.

use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::time::Duration;

/// Whether a progress display may be drawn.
pub fn shown(quiet: bool) -> bool {
    !quiet && std::io::stderr().is_terminal()
}

/// A spinner showing `step` and the elapsed time, ticking on its own thread (the
/// simulation does not call back); hidden as described above.
pub fn spinner(quiet: bool, step: &str) -> ProgressBar {
    if !shown(quiet) {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new_spinner();
    if let Ok(style) = ProgressStyle::with_template("{spinner} {msg} {elapsed}") {
        bar.set_style(style);
    }
    bar.set_message(step.to_string());
    bar.enable_steady_tick(Duration::from_millis(250));
    bar
}

impl crate::experiments::Progress for ProgressBar {
    fn step(&self, what: &str) {
        self.set_message(what.to_string());
    }

    fn queued(&self, jobs: u64) {
        self.inc_length(jobs);
    }

    fn finished(&self) {
        self.inc(1);
    }
}
