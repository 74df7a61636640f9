//! The TOML netlist format: serde models (`Spanned` leaves, `deny_unknown_fields`) and the
//! loader that turns a file into a [`Netlist`](crate::Netlist), collecting every error with its location.
//!
//! Two forms load into the same IR:
//!
//! ```toml
//! # generator form
//! channel_latency = 1
//! terminal_latency = 1
//! [topology]
//! kind = "torus"          # torus | mesh (radix = [k0, k1, ...]) | hypercube (dim) | ring (n)
//! radix = [8, 8]
//! [defaults]              # any RouterConfig field
//! vcs = 4
//! buffer_depth = 8        # or "unbounded"
//! ```
//!
//! ```toml
//! # explicit form
//! [defaults]
//! vcs = 2
//! [[router]]
//! name = "a"
//! buffer_depth = 16                                  # router override
//! ports = [{ name = "out" }, { name = "in", vcs = 4 }]  # port overrides: vcs, buffer_depth
//! [[router]]
//! name = "b"
//! ports = [{ name = "out" }, { name = "in" }]
//! [[channel]]
//! from = "a.out"
//! to = "b.in"
//! latency = 2
//! ```
//!
//! The loader first parses the document into spanned tables (all syntax errors), then
//! checks the keys of every table (all unknown keys), then deserializes each table on its
//! own with serde (so one bad router does not hide the errors of the next), then builds
//! and checks the graph.

mod cost_keys;
mod explicit;
mod loader;
mod params;
mod raw;
mod topology_match;

#[cfg(test)]
mod tests;

pub use cost_keys::{MAX_CHANNEL_LENGTH_MM, MAX_FLIT_WIDTH};
pub use loader::{load, parse_str};
pub(crate) use raw::{format_direction, parse_name};
