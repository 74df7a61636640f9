//! One module per subcommand; `src/main.rs` only parses arguments and calls these.

pub mod args;
pub mod buffers;
pub mod buffers_plot;
pub mod check;
pub mod import;
pub mod model;
pub mod netlist;
pub mod reproduce;
pub mod run;
pub mod sweep;
pub mod sweep_plot;
pub mod trace;
