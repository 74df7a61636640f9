//! One line of the printed mapping: a BookSim key, its value and what it became.

use super::error::Origin;

/// One line of the printed mapping.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    /// The BookSim key.
    pub key: String,
    /// Its value in force.
    pub value: String,
    /// Where the value came from.
    pub origin: Origin,
    /// The flitsim setting it became (empty: none).
    pub flitsim: String,
    /// What differs from BookSim, if anything.
    pub note: Option<String>,
}
