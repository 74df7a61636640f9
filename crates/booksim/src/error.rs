//! The importer's typed error: where (file and line, or command-line argument), what, and
//! how to fix it.

use std::fmt;
use std::path::{Path, PathBuf};

/// Where a BookSim setting came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// Line `line` (from 1) of a config file.
    File {
        /// The config file.
        path: Box<Path>,
        /// Line, counted from 1.
        line: usize,
    },
    /// The `index`-th `key=value` override given after the file (from 1).
    Override {
        /// Position among the overrides, counted from 1.
        index: usize,
    },
    /// BookSim's built-in default (the key was not set).
    Default,
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Origin::File { path, line } => write!(f, "{}:{line}", path.display()),
            Origin::Override { index } => write!(f, "override {index}"),
            Origin::Default => f.write_str("BookSim default"),
        }
    }
}

/// A config the importer cannot read or cannot honour.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    /// The file cannot be read.
    #[error("{path}: cannot read the BookSim config: {cause}\nhelp: give the path of a readable BookSim config file", path = .path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// The I/O error (printed in the message, so not a `source` to print twice).
        cause: std::io::Error,
    },
    /// The file is larger than [`crate::parse::MAX_CONFIG_BYTES`].
    #[error("{path}: {bytes} bytes is more than a BookSim config ({max} bytes at most)\nhelp: give the config file, not a trace or a log", path = .path.display())]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// Its size.
        bytes: u64,
        /// The limit.
        max: usize,
    },
    /// The text is not `key = value;` statements.
    #[error("{origin}: {message}\nhelp: {help}")]
    Syntax {
        /// Where.
        origin: Origin,
        /// What is wrong.
        message: String,
        /// How to fix it.
        help: String,
    },
    /// A key BookSim does not have.
    #[error("{origin}: unknown BookSim key `{key}`\nhelp: {help}")]
    UnknownKey {
        /// Where.
        origin: Origin,
        /// The key.
        key: String,
        /// The nearest known key, or how to find the keys.
        help: String,
    },
    /// A value of the right key that is malformed or out of range.
    #[error("{origin}: `{key} = {value}`: {message}\nhelp: {help}")]
    BadValue {
        /// Where.
        origin: Origin,
        /// The key.
        key: String,
        /// The value as written.
        value: String,
        /// What is wrong.
        message: String,
        /// How to fix it.
        help: Box<str>,
    },
    /// A valid BookSim setting flitsim cannot simulate.
    #[error("{origin}: `{key} = {value}` cannot be imported: {reason}\nhelp: {help}")]
    Unsupported {
        /// Where (the default's origin if a default is what flitsim cannot honour).
        origin: Origin,
        /// The key.
        key: String,
        /// The value in force.
        value: String,
        /// Why flitsim cannot honour it.
        reason: String,
        /// How to fix it.
        help: Box<str>,
    },
    /// Several settings refused in one pass, each with its own location and fix.
    #[error("{}", several(.0))]
    Several(Vec<ImportError>),
}

impl ImportError {
    /// One error as itself, several as [`ImportError::Several`]; `None` when there is none.
    #[must_use]
    pub fn from_all(mut errors: Vec<ImportError>) -> Option<ImportError> {
        match errors.len() {
            0 => None,
            1 => errors.pop(),
            _ => Some(ImportError::Several(errors)),
        }
    }
}

/// Each error on its own lines, then how many there are.
fn several(errors: &[ImportError]) -> String {
    let mut out = String::new();
    for e in errors {
        out.push_str(&e.to_string());
        out.push('\n');
    }
    out.push_str(&format!(
        "{} settings cannot be imported; fix them all and import again",
        errors.len()
    ));
    out
}
