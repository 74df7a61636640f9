//! The one integration-test binary: each module is a topic.
mod conservation;
mod crosscheck;
mod deadlock;
mod determinism;
mod little;
mod measurement;
mod model_cli;
mod model_quaglia;
mod netlist_cli;
mod netlist_errors;
mod occupancy;
mod run_cli;
mod switching;
mod timeout;
mod traces;
mod traffic;
mod zero_load;
