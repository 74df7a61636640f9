//! Spreading a study's independent simulations over the ranks of an MPI job.
//!
//! Every rank runs the same command with the same arguments, so every rank plans the same
//! jobs in the same order. Where the command maps a function over its jobs
//! ([`crate::experiments::parallel_map`]), rank 0 hands the jobs out one at a time to the other
//! ranks as they become free, collects the results, and sends the whole result list back to
//! every rank. Each rank then goes on with the same results, so a search that needs one
//! result before it plans the next job stays the same search. Only rank 0 prints or writes
//! files; the output is byte-identical to a one-process run.
//!
//! Without the `mpi` cargo feature, or in a job of one rank, nothing here does anything.

#[cfg(feature = "mpi")]
mod codec;
#[cfg(feature = "mpi")]
mod dispatch;
#[cfg(feature = "mpi")]
mod held;
#[cfg(feature = "mpi")]
mod rank;

#[cfg(feature = "mpi")]
pub use dispatch::map;
#[cfg(feature = "mpi")]
pub use rank::{is_root, ranks, start, Membership};

/// Whether this process writes the output: always, without the `mpi` feature.
#[cfg(not(feature = "mpi"))]
pub fn is_root() -> bool {
    true
}

/// A job's result that can travel between ranks: serde both ways with the `mpi` feature,
/// any type without it.
#[cfg(feature = "mpi")]
pub trait Portable: serde::Serialize + serde::de::DeserializeOwned {}
#[cfg(feature = "mpi")]
impl<T: serde::Serialize + serde::de::DeserializeOwned> Portable for T {}

/// A job's result that can travel between ranks: serde both ways with the `mpi` feature,
/// any type without it.
#[cfg(not(feature = "mpi"))]
pub trait Portable {}
#[cfg(not(feature = "mpi"))]
impl<T> Portable for T {}
