//! Markov models of virtual-channel occupancy.
//!
//! - [`vc_occupancy`](fn@vc_occupancy): Dally's birth-death chain over the number of busy VCs of a channel
//!   (papers 001 eq 20, 002 eqs 19-20), in closed form.
//! - [`multiplexing`]: the average multiplexing degree `sum v^2 P_v / sum v P_v`
//!   (001 eq 21, 002 eq 8).

pub mod multiplexing;
pub mod vc_occupancy;

pub use multiplexing::multiplexing_degree;
pub use vc_occupancy::{vc_occupancy, VcOccupancyError};
