//! One module per subcommand; `src/main.rs` only parses arguments and calls these.

pub mod model;
pub mod args;
pub mod run;
pub mod netlist;
