//! What `Simulation::new` works out before and right after assembly: the memory estimate
//! that refuses a network too large for the machine, the zero-load latency walk, and the
//! progress of these steps.

pub(crate) mod memory;
pub mod progress;
pub mod zero_load;
