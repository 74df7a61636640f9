//! flitsim-analysis: analytical models of the papers (pure functions; never calls the simulator).
#![warn(missing_docs)]
