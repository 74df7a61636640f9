//! flitsim: the library behind the CLI. The subcommands live in [`cli`]; the studies they
//! run (curves, searches, reproductions, cross-checks, plots) in [`studies`], the BookSim
//! importer in [`booksim`].

pub mod cli;

pub use flitsim_analysis as analysis;
pub use flitsim_booksim as booksim;
pub use flitsim_cost as cost_model;
pub use flitsim_engine as engine;
pub use flitsim_netlist as netlist;
pub use flitsim_router as router;
pub use flitsim_routing as routing;
pub use flitsim_studies as studies;
pub(crate) use flitsim_studies::{check, cluster, experiments, plot, reproduce};
pub use flitsim_studies::cost;
