//! `flitsim import booksim`: BookSim 2 config files translated into a flitsim netlist and
//! the `flitsim run` flags of the same experiment (docs/booksim.md).
//!
//! `parse` reads the config language, `keys` knows every BookSim key, `config` reads the
//! settings in force, `topology`, `router`, `timing` and `traffic` translate their groups
//! of keys, and `mapping` assembles the result and the printed key-by-key mapping.

pub mod anynet;
pub mod config;
pub mod error;
pub mod keys;
pub mod line;
pub mod mapping;
pub mod parse;
pub mod power;
pub mod router;
pub mod timing;
pub mod topology;
pub mod traffic;

pub use error::{ImportError, Origin};
pub use line::Line;
pub use mapping::{import, render, Import};

/// Reads a BookSim config file with `key=value` overrides and translates it.
///
/// # Errors
/// The file cannot be read, or a setting is malformed, unknown or cannot be honoured.
pub fn import_file(path: &std::path::Path, overrides: &[String]) -> Result<Import, ImportError> {
    import(&parse::read(path, overrides)?)
}
