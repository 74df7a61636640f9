//! flitsim: the library behind the CLI. The subcommands live in [`cli`]; experiments made of
//! many simulations (curves, saturation and buffer-depth searches) in [`experiments`].

pub mod booksim;
pub mod cli;
pub mod cluster;
pub mod cost;
pub mod crosscheck;
pub mod experiments;
pub mod measure;
pub mod plot;
pub mod reproduce;

pub use flitsim_analysis as analysis;
pub use flitsim_cost as cost_model;
pub use flitsim_engine as engine;
pub use flitsim_netlist as netlist;
pub use flitsim_router as router;
