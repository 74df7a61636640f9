//! The papers' models, one file per paper (`pNNN_author.rs`).

pub mod p000_quaglia;
pub mod p001_safaei;
pub mod p002_patooghy;
pub mod p003_hu_kleinrock;
pub mod p004_vct;
