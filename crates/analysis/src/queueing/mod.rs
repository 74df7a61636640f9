//! Queueing models (M/G/1 and friends).
//!
//! - [`mg1`]: Pollaczek-Khinchine mean waiting time, single and multi-class, with the
//!   papers' variance approximation `(S - M)^2`.
//! - [`mm1`]: M/M/1 closed forms.
//! - [`geo_d1`]: the discrete-time Geo/D/1 waiting-time distribution.

pub mod geo_d1;
pub mod mg1;
pub mod mm1;

pub use mg1::{
    mg1_wait, mg1_wait_multiclass, mg1_wait_papers, Mg1Class, QueueError, ServiceVariance,
};
