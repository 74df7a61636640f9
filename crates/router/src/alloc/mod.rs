//! Allocators: many-to-many matchers of requesters (rows) to resources (columns), used by
//! VC allocation (input VCs x output VCs) and switch allocation (input ports x output
//! ports). Requests and grants are bit matrices ([`RequestMatrix`], [`GrantMatrix`]) of
//! word-mask rows ([`crate::mask`]; why words and not `bitvec` there: see that module),
//! reused every cycle (no allocation on the cycle path). A matrix also keeps a mask of its
//! non-empty rows, so clearing, scanning and emptiness tests cost in proportion to the
//! rows in use, not to the matrix size. Switch allocation on a router of at most 64 ports
//! per side uses a [`WordMatrix`] instead: one `u64` per row in a fixed array of 64, whose
//! accesses need no bounds checks ([`Allocator::allocate_word`]).
//!
//! Contract of every allocator: grants are a subset of requests, with at most one grant
//! per row and per column. [`Allocator::allocate`] computes the matching without moving
//! arbiter priorities; [`Allocator::update`] moves them for the grants that were used
//! (BookSim's evaluate/update split, which iSLIP-style pointer updates need).
//! [`Allocator`] is a closed enum over the kinds (static dispatch on the cycle path).

mod allocator;
mod bit_matrix;
mod separable;
pub mod separable_input_first;
pub mod separable_output_first;
mod word;
mod word_matrix;

pub use allocator::Allocator;
pub use bit_matrix::{BitMatrix, GrantMatrix, MatrixOnes, RequestMatrix};
pub(crate) use separable::Separable;
pub use separable_input_first::SeparableInputFirst;
pub use separable_output_first::SeparableOutputFirst;
use word::Apart;
pub(crate) use word::{arbitrate_words, WordIo};
pub use word_matrix::{WordDrain, WordMatrix};

#[cfg(test)]
mod tests;
