//! The papers' models, one file per paper (`pNNN_author.rs`).

pub mod p000_quaglia;
