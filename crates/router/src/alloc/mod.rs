//! Allocators: matchers of requesters (rows) to resources (columns), for VC allocation
//! (input VCs x output VCs) and switch allocation (input ports x output ports): separable
//! input-first and output-first, iSLIP, wavefront and PIM.
//!
//! The contract: grants are a subset of requests, at most one per row and per column.
//! [`Allocator::allocate`] computes the matching without moving arbiter priorities;
//! [`Allocator::update`] moves them for the grants used (BookSim's evaluate/update split).
//! Requests and grants are [`BitMatrix`]es, reused every cycle; requests of at most 64
//! rows and 64 columns take the one-word paths (`word.rs`, on a [`WordMatrix`]): the
//! separable allocators' own, iSLIP's and PIM's rounds on words (`rounds_word.rs`) and
//! the wavefront's diagonals on words (`wavefront_word.rs`).

mod allocator;
mod bit_matrix;
pub mod islip;
mod islip_word;
pub mod pim;
mod pim_word;
mod rounds;
mod rounds_word;
mod separable;
pub mod separable_input_first;
pub mod separable_output_first;
pub mod wavefront;
mod wavefront_word;
mod word;
mod word_io;
mod word_matrix;

pub use allocator::Allocator;
pub use bit_matrix::{BitMatrix, GrantMatrix, MatrixOnes, RequestMatrix};
pub use islip::Islip;
pub use pim::Pim;
pub(crate) use separable::Separable;
pub use separable_input_first::SeparableInputFirst;
pub use separable_output_first::SeparableOutputFirst;
pub use wavefront::Wavefront;
pub(crate) use word_io::{arbitrate_words, WordIo};
pub use word_matrix::{WordDrain, WordMatrix};

#[cfg(test)]
mod tests;
