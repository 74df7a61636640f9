//! Traffic patterns: where a generated packet goes.
//!
//! A pattern is a pure function of the source terminal and the source terminal's own
//! random stream (never a shared one), so destinations are the same for any stepping
//! order or thread count. Generation (when a packet is born) is the terminal's Bernoulli
//! process; the pattern only picks the destination. One pattern per file.

mod uniform;

pub use uniform::Uniform;

use crate::error::ConfigError;
use crate::rng::ComponentRng;
use flitsim_netlist::TerminalId;
use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

/// Picks destinations for packets generated at a terminal.
pub trait TrafficPattern: Send + Sync + fmt::Debug {
    /// The destination of a packet generated at `source`; draws only from `rng` (the
    /// source terminal's stream).
    fn destination(&self, source: TerminalId, rng: &mut ComponentRng) -> TerminalId;
}

/// The registry of traffic pattern names (`--traffic`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum TrafficKind {
    /// Uniform random over the other terminals (never the source itself).
    #[default]
    Uniform,
}

impl TrafficKind {
    /// Every name, for error messages.
    pub const NAMES: &'static [&'static str] = &["uniform"];
}

impl fmt::Display for TrafficKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TrafficKind::Uniform => f.write_str("uniform"),
        }
    }
}

impl FromStr for TrafficKind {
    type Err = ConfigError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "uniform" => Ok(TrafficKind::Uniform),
            _ => Err(ConfigError::UnknownTraffic {
                name: s.to_string(),
                choices: TrafficKind::NAMES.join(", "),
            }),
        }
    }
}

/// Builds the pattern `kind` for a network of `terminals` terminals.
///
/// # Errors
/// `ConfigError::TooFewTerminals` if the pattern needs more terminals than there are.
pub fn build(kind: TrafficKind, terminals: usize) -> Result<Arc<dyn TrafficPattern>, ConfigError> {
    match kind {
        TrafficKind::Uniform => Ok(Arc::new(Uniform::new(terminals)?)),
    }
}
