//! Byte counts as error messages show them.

/// `12.3 GB` (10^9 bytes) or `45.6 MB`.
pub(crate) fn bytes_text(b: &u64) -> String {
    let b = *b as f64;
    if b >= 1e9 {
        format!("{:.1} GB", b / 1e9)
    } else {
        format!("{:.1} MB", b / 1e6)
    }
}
