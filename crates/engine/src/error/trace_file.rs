//! The error of a trace file (`--traffic trace:FILE`) that cannot be used.

use std::fmt;
use std::path::PathBuf;

/// A trace file that cannot be used: where and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct TraceFileError {
    /// The file.
    pub path: PathBuf,
    /// 1-based line, 0 when the file itself cannot be read.
    pub line: usize,
    /// What is wrong.
    pub message: String,
    /// What to do, when there is something to say.
    pub help: Option<&'static str>,
}

impl TraceFileError {
    /// The help of a malformed line: the line's form.
    pub const LINE_FORM: &'static str =
        "each line is `CYCLE SOURCE DESTINATION LENGTH` (unsigned integers; `#` starts a comment)";

    /// The check's name, shown as `error[code]`.
    pub fn code(&self) -> &'static str {
        if self.line == 0 {
            "trace-file"
        } else {
            "trace-line"
        }
    }
}

impl fmt::Display for TraceFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}: {}", self.path.display(), self.message)?;
        } else {
            write!(f, "{}:{}: {}", self.path.display(), self.line, self.message)?;
        }
        match self.help {
            Some(help) => write!(f, "\nhelp: {help}"),
            None => Ok(()),
        }
    }
}
