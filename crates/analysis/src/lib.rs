//! flitsim-analysis: analytical models of the papers, as pure functions.
//!
//! Architecture invariant: this crate depends on no other workspace crate and never runs
//! the simulator. Cross-checks take measured statistics as plain numbers.
#![warn(missing_docs)]

pub mod compare;
pub mod markov;
pub mod papers;
pub mod queueing;
