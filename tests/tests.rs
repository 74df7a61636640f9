//! The one integration-test binary: each module is a topic.
mod zero_load;
mod conservation;
mod deadlock;
mod little;
mod run_cli;
mod determinism;
mod netlist_cli;
mod netlist_errors;
mod model_quaglia;
mod model_cli;
