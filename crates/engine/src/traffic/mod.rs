//! Traffic patterns: where a generated packet goes.
//!
//! A pattern is a pure function of the source terminal and the source terminal's own
//! random stream (never a shared one), so destinations are the same for any stepping
//! order or thread count. Generation (when a packet is born) is the terminal's Bernoulli
//! process, or a trace file ([`trace`]); the pattern only picks the destination. One
//! pattern per file.
//!
//! Bit patterns (`bit-complement`, `bit-reversal`, `shuffle`) act on the terminal id's
//! `b = log2 N` bits and need `N` to be a power of two; `transpose` needs a square `N`;
//! `tornado` and `neighbor` need a torus, mesh or ring (coordinates); `group-shift` a
//! dragonfly. Such a pattern on a
//! network that lacks the property is a [`ConfigError::TrafficDoesNotFit`] saying so.

mod bit_complement;
mod bit_reversal;
mod fixed_distance;
mod group_shift;
mod hotspot;
mod neighbor;
pub mod netrace;
mod netrace_deps;
mod permutation;
mod shuffle;
mod tornado;
pub mod trace;
mod transpose;
mod uniform;
mod uniform_all;

pub use bit_complement::BitComplement;
pub use bit_reversal::BitReversal;
pub use fixed_distance::FixedDistance;
pub use group_shift::GroupShift;
pub use hotspot::Hotspot;
pub use neighbor::Neighbor;
pub use permutation::Permutation;
pub use shuffle::Shuffle;
pub use tornado::Tornado;
pub use trace::{TraceFileError, TracePacket};
pub use transpose::Transpose;
pub use uniform::Uniform;
pub use uniform_all::UniformAll;

use crate::error::ConfigError;
use crate::rng::ComponentRng;
use flitsim_netlist::{Netlist, TerminalId};
use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;
use std::sync::Arc;

/// Picks destinations for packets generated at a terminal.
pub trait TrafficPattern: Send + Sync + fmt::Debug {
    /// The destination of a packet generated at `source`; draws only from `rng` (the
    /// source terminal's stream).
    fn destination(&self, source: TerminalId, rng: &mut ComponentRng) -> TerminalId;

    /// The probability of each destination from each source, as
    /// [`DestinationMix`] writes it (the zero-load latency averages over it).
    fn mix(&self) -> DestinationMix;
}

/// A pattern's destination distribution: from source `s`, a destination is uniform over
/// the other terminals with probability `others`, uniform over every terminal (`s`
/// included) with probability `all`, and uniform over the entries of `lists[s]` (an entry
/// may repeat) with probability `listed`; the three sum to 1.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DestinationMix {
    /// Weight of "uniform over the other terminals".
    pub others: f64,
    /// Weight of "uniform over every terminal".
    pub all: f64,
    /// Weight of "uniform over the source's list".
    pub listed: f64,
    /// Per source terminal: its listed destinations (none when `listed` is 0).
    pub lists: Vec<Vec<TerminalId>>,
}

impl DestinationMix {
    /// Uniform over the other terminals.
    pub fn others() -> DestinationMix {
        DestinationMix {
            others: 1.0,
            ..DestinationMix::default()
        }
    }

    /// Uniform over each source's list.
    pub fn lists(lists: impl Iterator<Item = Vec<TerminalId>>) -> DestinationMix {
        DestinationMix {
            listed: 1.0,
            lists: lists.collect(),
            ..DestinationMix::default()
        }
    }

    /// One destination per source: `dest[s]`.
    pub fn map(dest: impl Iterator<Item = u32>) -> DestinationMix {
        DestinationMix::lists(dest.map(|d| vec![TerminalId(d)]))
    }
}

/// The registry of traffic pattern names (`--traffic`).
#[derive(Clone, Debug, PartialEq, Default)]
pub enum TrafficKind {
    /// `uniform`: uniform random over the other terminals (never the source itself).
    #[default]
    Uniform,
    /// `uniform-all`: uniform over all terminals, the source included (BookSim's `uniform`).
    UniformAll,
    /// `fixed-distance:L`: uniform among the terminals exactly `L` router-to-router hops
    /// away under the netlist's shortest paths (paper 004).
    FixedDistance(u32),
    /// `hotspot:T[,T...]:FRACTION`: with probability `FRACTION` one of the hot terminals
    /// (uniformly), else uniform over the other terminals.
    Hotspot {
        /// The hot terminals.
        hot: Vec<u32>,
        /// Fraction of packets sent to them.
        fraction: f64,
    },
    /// `transpose`: `N = k*k`, terminal `x + k*y` sends to `y + k*x`.
    Transpose,
    /// `bit-complement`: `N = 2^b`, `d = !s` over `b` bits.
    BitComplement,
    /// `bit-reversal`: `N = 2^b`, `d` = the `b` bits of `s` reversed.
    BitReversal,
    /// `shuffle`: `N = 2^b`, `d` = `s` rotated left by one bit over `b` bits.
    Shuffle,
    /// `tornado`: every coordinate moves `ceil(k/2) - 1` positions up (mod k).
    Tornado,
    /// `neighbor`: every coordinate moves one position up (mod k).
    Neighbor,
    /// `permutation`: a random permutation of the terminals drawn from the run seed.
    Permutation,
    /// `group-shift`: on a dragonfly, group `i` to a uniform terminal of group `i + 1`.
    GroupShift,
    /// `trace:FILE`: packets (cycle, source, destination, length) read from a file.
    Trace(PathBuf),
    /// `netrace:FILE`: a bzip2-compressed netrace 1.0 trace, replayed with its
    /// dependencies ([`netrace`]).
    Netrace(PathBuf),
}

impl TrafficKind {
    /// Every name, for error messages.
    pub const NAMES: &'static [&'static str] = &[
        "uniform",
        "uniform-all",
        "fixed-distance:L",
        "hotspot:T[,T...]:FRACTION",
        "transpose",
        "bit-complement",
        "bit-reversal",
        "shuffle",
        "tornado",
        "neighbor",
        "permutation",
        "group-shift",
        "trace:FILE",
        "netrace:FILE",
    ];

    /// The trace file, for `trace:FILE`.
    pub fn trace_file(&self) -> Option<&std::path::Path> {
        match self {
            TrafficKind::Trace(p) => Some(p),
            _ => None,
        }
    }

    /// Whether the packets come from a file (`trace:` or `netrace:`) rather than from
    /// `--rate` and `--length`.
    pub fn replays(&self) -> bool {
        matches!(self, TrafficKind::Trace(_) | TrafficKind::Netrace(_))
    }

    /// The netrace file, for `netrace:FILE`.
    pub fn netrace_file(&self) -> Option<&std::path::Path> {
        match self {
            TrafficKind::Netrace(p) => Some(p),
            _ => None,
        }
    }
}

impl fmt::Display for TrafficKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TrafficKind::Uniform => f.write_str("uniform"),
            TrafficKind::UniformAll => f.write_str("uniform-all"),
            TrafficKind::FixedDistance(l) => write!(f, "fixed-distance:{l}"),
            TrafficKind::Hotspot { hot, fraction } => {
                let hot: Vec<String> = hot.iter().map(u32::to_string).collect();
                write!(f, "hotspot:{}:{fraction}", hot.join(","))
            }
            TrafficKind::Transpose => f.write_str("transpose"),
            TrafficKind::BitComplement => f.write_str("bit-complement"),
            TrafficKind::BitReversal => f.write_str("bit-reversal"),
            TrafficKind::Shuffle => f.write_str("shuffle"),
            TrafficKind::Tornado => f.write_str("tornado"),
            TrafficKind::Neighbor => f.write_str("neighbor"),
            TrafficKind::Permutation => f.write_str("permutation"),
            TrafficKind::GroupShift => f.write_str("group-shift"),
            TrafficKind::Trace(p) => write!(f, "trace:{}", p.display()),
            TrafficKind::Netrace(p) => write!(f, "netrace:{}", p.display()),
        }
    }
}

impl serde::Serialize for TrafficKind {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

fn unknown(s: &str) -> ConfigError {
    ConfigError::UnknownTraffic {
        name: s.to_string(),
        choices: TrafficKind::NAMES.join(", "),
    }
}

impl FromStr for TrafficKind {
    type Err = ConfigError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim();
        if let Some(path) = s.strip_prefix("trace:") {
            return Ok(TrafficKind::Trace(PathBuf::from(path)));
        }
        if let Some(path) = s.strip_prefix("netrace:") {
            return Ok(TrafficKind::Netrace(PathBuf::from(path)));
        }
        if let Some(l) = s.strip_prefix("fixed-distance:") {
            let bad = |problem: String| ConfigError::BadTrafficParameter {
                traffic: s.to_string(),
                problem,
                form: "fixed-distance:L (L router-to-router hops, e.g. fixed-distance:2)",
            };
            return l
                .trim()
                .parse()
                .map(TrafficKind::FixedDistance)
                .map_err(|_| bad(format!("L `{}` is not a whole number of hops", l.trim())));
        }
        if let Some(rest) = s.strip_prefix("hotspot:") {
            let bad = |problem: String| {
                ConfigError::BadTrafficParameter {
                traffic: s.to_string(),
                problem,
                form: "hotspot:T[,T...]:FRACTION (hot terminal ids, then the fraction of packets sent to them, e.g. hotspot:0,5:0.25)",
            }
            };
            let (hot, fraction) = rest
                .rsplit_once(':')
                .ok_or_else(|| bad("no FRACTION after the hot terminals".to_string()))?;
            let hot: Vec<u32> = hot
                .split(',')
                .map(|t| t.trim().parse())
                .collect::<Result<_, _>>()
                .map_err(|_| bad(format!("`{hot}` is not a list of terminal ids")))?;
            let fraction: f64 = fraction
                .trim()
                .parse()
                .map_err(|_| bad(format!("FRACTION `{}` is not a number", fraction.trim())))?;
            if !(0.0..=1.0).contains(&fraction) {
                return Err(bad(format!("FRACTION {fraction} is not in [0, 1]")));
            }
            return Ok(TrafficKind::Hotspot { hot, fraction });
        }
        Ok(match s {
            "uniform" => TrafficKind::Uniform,
            "uniform-all" => TrafficKind::UniformAll,
            "transpose" => TrafficKind::Transpose,
            "bit-complement" => TrafficKind::BitComplement,
            "bit-reversal" => TrafficKind::BitReversal,
            "shuffle" => TrafficKind::Shuffle,
            "tornado" => TrafficKind::Tornado,
            "neighbor" | "neighbour" => TrafficKind::Neighbor,
            "permutation" => TrafficKind::Permutation,
            "group-shift" => TrafficKind::GroupShift,
            _ => return Err(unknown(s)),
        })
    }
}

/// `log2 n` when `n` is a power of two (>= 2).
pub(crate) fn log2_exact(n: usize) -> Option<u32> {
    (n >= 2 && n.is_power_of_two()).then(|| n.trailing_zeros())
}

/// The "does not fit" error of pattern `traffic` on `netlist`.
pub(crate) fn does_not_fit(
    traffic: &str,
    netlist: &Netlist,
    reason: String,
    help: &str,
) -> ConfigError {
    ConfigError::TrafficDoesNotFit {
        traffic: traffic.to_string(),
        netlist: netlist.name.clone(),
        reason,
        help: help.to_string(),
    }
}

/// Builds the pattern `kind` for `netlist`; `seed` is the run seed (`permutation` draws
/// its permutation from a stream derived from it). For `trace:FILE` and `netrace:FILE` the
/// destinations come from the file, so the pattern returned is never asked (uniform).
///
/// # Errors
/// `ConfigError::TooFewTerminals`, or `ConfigError::TrafficDoesNotFit` when the pattern
/// needs a power-of-two or square number of terminals, coordinates, or a distance that
/// does not occur.
pub fn build(
    kind: &TrafficKind,
    netlist: &Netlist,
    seed: u64,
) -> Result<Arc<dyn TrafficPattern>, ConfigError> {
    let n = netlist.num_terminals();
    Ok(match kind {
        TrafficKind::Uniform | TrafficKind::Trace(_) | TrafficKind::Netrace(_) => {
            Arc::new(Uniform::new(n)?)
        }
        TrafficKind::UniformAll => Arc::new(UniformAll::new(n)?),
        TrafficKind::FixedDistance(l) => Arc::new(FixedDistance::new(netlist, *l)?),
        TrafficKind::Hotspot { hot, fraction } => {
            Arc::new(Hotspot::new(netlist, hot.clone(), *fraction)?)
        }
        TrafficKind::Transpose => Arc::new(Transpose::new(netlist)?),
        TrafficKind::BitComplement => Arc::new(BitComplement::new(netlist)?),
        TrafficKind::BitReversal => Arc::new(BitReversal::new(netlist)?),
        TrafficKind::Shuffle => Arc::new(Shuffle::new(netlist)?),
        TrafficKind::Tornado => Arc::new(Tornado::new(netlist)?),
        TrafficKind::Neighbor => Arc::new(Neighbor::new(netlist)?),
        TrafficKind::Permutation => Arc::new(Permutation::new(n, seed)?),
        TrafficKind::GroupShift => Arc::new(GroupShift::new(netlist)?),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for s in [
            "uniform",
            "uniform-all",
            "fixed-distance:3",
            "hotspot:0,5:0.25",
            "transpose",
            "bit-complement",
            "bit-reversal",
            "shuffle",
            "tornado",
            "neighbor",
            "permutation",
            "group-shift",
            "trace:some/file.txt",
            "netrace:some/file.tra.bz2",
        ] {
            let k: TrafficKind = s.parse().unwrap();
            assert_eq!(k.to_string(), s);
        }
        for (bad, says) in [
            ("unifrom", "unknown traffic pattern"),
            ("fixed-distance:x", "L `x` is not a whole number"),
            ("hotspot:1", "no FRACTION"),
            ("hotspot::0.5", "`` is not a list of terminal ids"),
            ("hotspot:1:2", "FRACTION 2 is not in [0, 1]"),
            ("hotspot:1:x", "FRACTION `x` is not a number"),
        ] {
            let e = bad.parse::<TrafficKind>().unwrap_err().to_string();
            assert!(e.contains(says) && e.contains("help:"), "{bad}: {e}");
        }
    }
}
