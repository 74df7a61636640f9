//! The routing functions, one file each (the table in the crate docs says which file
//! routes which topology), and the candidate builders they share.

mod candidates;
pub mod dimension_order;
pub mod dor_torus_dateline;
pub mod dragonfly;
pub mod duato_minimal;
pub mod duato_nbc;
pub mod fat_tree;
pub mod hyperx;
pub mod minimal_adaptive;
pub mod negative_first;
pub mod north_last;
pub mod pcube;
pub mod quaglia_adaptive;
pub mod source;
pub mod table;
mod updown;
pub mod west_first;
