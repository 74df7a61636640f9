//! The run-time checks: conservation of flits, credits and packets after every cycle
//! (debug builds), and the deadlock watchdog.

pub(crate) mod conservation;
pub(crate) mod watchdog;
