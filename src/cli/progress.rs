//! Progress on stderr for commands that can run longer than a couple of seconds: a spinner
//! with the current step and the elapsed time, and a bar for a set-up step that counts
//! its work (the routers assembled, the zero-load pairs sampled). Hidden when stderr is not a terminal (a
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

/// A progress display for set-up steps: a bar over a step's units of work when it counts
/// them, else the spinner.
pub struct SetupBar<'a>(pub &'a ProgressBar);

impl flitsim_engine::SetupProgress for SetupBar<'_> {
    fn start(&self, what: &str, total: u64) {
        let template = if total > 0 {
            "{spinner} {msg} [{bar:30}] {percent}% {elapsed}"
        } else {
            "{spinner} {msg} {elapsed}"
        };
        self.0.set_message(what.to_string());
        self.0.set_length(total);
        self.0.set_position(0);
        if let Ok(style) = ProgressStyle::with_template(template) {
            self.0.set_style(style);
        }
    }

    fn advance(&self, units: u64) {
        self.0.inc(units);
    }
}

/// A progress display for a study's jobs: the step as the message, a bar over the jobs.
pub struct StudyBar<'a>(pub &'a ProgressBar);

impl crate::experiments::Progress for StudyBar<'_> {
    fn step(&self, what: &str) {
        self.0.set_message(what.to_string());
    }

    fn queued(&self, jobs: u64) {
        self.0.inc_length(jobs);
    }

    fn finished(&self) {
        self.0.inc(1);
    }
}
