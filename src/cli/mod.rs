//! One module per subcommand; `src/main.rs` only parses arguments and calls these.

pub mod args;
pub mod model;
pub mod netlist;
pub mod run;
pub mod trace;
