//! The top-level keys the cost model reads: `flit_width` (bits per flit),
//! `channel_length_mm` and `terminal_channel_length_mm` (the length of every
//! router-to-router and every injection and ejection channel; without them, the latency
//! times the technology's wire length per cycle).

use super::loader::Loader;
use crate::error::NetlistError;
use crate::Netlist;
use toml::de::DeTable;

/// Widest flit the cost model takes, bits.
pub const MAX_FLIT_WIDTH: u32 = 4096;
/// Longest channel the cost model takes, mm.
pub const MAX_CHANNEL_LENGTH_MM: f64 = 1000.0;

impl Loader {
    /// Reads and checks the cost keys of `doc` into `netlist`.
    pub(super) fn cost_keys(&mut self, doc: &DeTable<'_>, netlist: &mut Netlist) {
        if let Some(v) = doc.get("flit_width") {
            if let Some(w) = self.de::<u32>(v, "flit_width", "the top level") {
                if (1..=MAX_FLIT_WIDTH).contains(&w) {
                    netlist.flit_width = Some(w);
                } else {
                    self.errors.push(NetlistError::BadValue {
                        at: self.at(&v.span()),
                        key: "flit_width".into(),
                        message: format!("a flit has 1 to {MAX_FLIT_WIDTH} bits"),
                    });
                }
            }
        }
        for key in ["channel_length_mm", "terminal_channel_length_mm"] {
            let Some(v) = doc.get(key) else { continue };
            let Some(l) = self.de::<f64>(v, key, "the top level") else {
                continue;
            };
            if !(l.is_finite() && l > 0.0 && l <= MAX_CHANNEL_LENGTH_MM) {
                self.errors.push(NetlistError::BadValue {
                    at: self.at(&v.span()),
                    key: key.into(),
                    message: format!(
                        "a channel is longer than 0 and at most {MAX_CHANNEL_LENGTH_MM} mm"
                    ),
                });
            } else if key == "channel_length_mm" {
                netlist.channel_length_mm = Some(l);
            } else {
                netlist.terminal_channel_length_mm = Some(l);
            }
        }
    }
}
