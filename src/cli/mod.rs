//! One module per subcommand; `src/main.rs` only parses arguments and calls these.

pub mod args;
pub mod check;
pub mod model;
pub mod netlist;
pub mod reproduce;
pub mod run;
pub mod trace;
