//! What `Simulation::new` works out before and right after assembly: the memory estimate
//! that refuses a network too large for the machine and the zero-load latency (their
//! progress is reported through [`crate::SetupProgress`]).

pub(crate) mod memory;
pub mod zero_load;
