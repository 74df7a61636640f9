//! Which two events a packet's latency runs between (`--latency-from`, `--latency-to`).
//!
//! Start events:
//! - `generation`: the cycle the packet is generated (the default; includes the source
//!   queue);
//! - `injection`: the cycle its head is written onto the injection channel (the source
//!   queue left out);
//! - `source-router`: the cycle its head reaches the source router, `Lt` cycles after
//!   injection (the injection channel left out too).
//!
//! End events:
//! - `tail-consumed`: the cycle the destination terminal consumes the tail (the default);
//! - `tail-leaves-router`: the cycle the tail leaves the destination router onto the
//!   ejection channel, `Lt` cycles before it is consumed.
//!
//! The terminal channels are fixed-latency lines that never block (a terminal injects
//! only against credits and consumes every flit the cycle it arrives), so the router-side
//! events are exactly `Lt` from the terminal-side ones: each packet's latency is measured
//! between its own two events, and the mean, its confidence interval and the maximum
//! follow the definition.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// Where a packet's latency starts.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LatencyFrom {
    /// The packet is generated.
    #[default]
    Generation,
    /// Its head is written onto the injection channel.
    Injection,
    /// Its head reaches the source router.
    SourceRouter,
}

/// Where a packet's latency ends.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LatencyTo {
    /// The destination terminal consumes its tail.
    #[default]
    TailConsumed,
    /// Its tail leaves the destination router onto the ejection channel.
    TailLeavesRouter,
}

/// The two events of a latency: `from` and `to`.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LatencyDef {
    /// Start event.
    pub from: LatencyFrom,
    /// End event.
    pub to: LatencyTo,
}

/// The cycles of one delivered packet's events, and the terminal latencies of its source
/// and destination routers.
#[derive(Copy, Clone, Debug)]
pub struct PacketTimes {
    /// Generated.
    pub created: u64,
    /// Head written onto the injection channel.
    pub injected: u64,
    /// Tail consumed.
    pub consumed: u64,
    /// Injection channel latency at the source.
    pub source_lt: u32,
    /// Ejection channel latency at the destination.
    pub dest_lt: u32,
}

impl LatencyDef {
    /// The packet's latency under this definition.
    pub fn latency(&self, t: &PacketTimes) -> u64 {
        let start = match self.from {
            LatencyFrom::Generation => t.created,
            LatencyFrom::Injection => t.injected,
            LatencyFrom::SourceRouter => t.injected + u64::from(t.source_lt),
        };
        let end = match self.to {
            LatencyTo::TailConsumed => t.consumed,
            LatencyTo::TailLeavesRouter => t.consumed - u64::from(t.dest_lt),
        };
        end - start
    }

    /// Cycles this definition leaves out of an idle network's generation-to-consumption
    /// latency, for terminal latencies `source_lt` and `dest_lt`.
    pub fn zero_load_offset(&self, source_lt: f64, dest_lt: f64) -> f64 {
        let from = match self.from {
            LatencyFrom::SourceRouter => source_lt,
            _ => 0.0,
        };
        let to = match self.to {
            LatencyTo::TailLeavesRouter => dest_lt,
            LatencyTo::TailConsumed => 0.0,
        };
        from + to
    }
}

impl fmt::Display for LatencyFrom {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            LatencyFrom::Generation => "generation",
            LatencyFrom::Injection => "injection",
            LatencyFrom::SourceRouter => "source-router",
        })
    }
}

impl fmt::Display for LatencyTo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            LatencyTo::TailConsumed => "tail-consumed",
            LatencyTo::TailLeavesRouter => "tail-leaves-router",
        })
    }
}

impl fmt::Display for LatencyDef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} -> {}", self.from, self.to)
    }
}

/// A start or end event name that is not one of the above.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown latency {which} event `{given}`\nhelp: use one of {choices}")]
pub struct UnknownEvent {
    /// `start` or `end`.
    pub which: &'static str,
    /// What was given.
    pub given: String,
    /// The names accepted.
    pub choices: &'static str,
}

impl FromStr for LatencyFrom {
    type Err = UnknownEvent;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "generation" => Ok(LatencyFrom::Generation),
            "injection" => Ok(LatencyFrom::Injection),
            "source-router" => Ok(LatencyFrom::SourceRouter),
            _ => Err(UnknownEvent {
                which: "start",
                given: s.into(),
                choices: "generation, injection, source-router",
            }),
        }
    }
}

impl FromStr for LatencyTo {
    type Err = UnknownEvent;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "tail-consumed" => Ok(LatencyTo::TailConsumed),
            "tail-leaves-router" => Ok(LatencyTo::TailLeavesRouter),
            _ => Err(UnknownEvent {
                which: "end",
                given: s.into(),
                choices: "tail-consumed, tail-leaves-router",
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const T: PacketTimes = PacketTimes {
        created: 100,
        injected: 103,
        consumed: 140,
        source_lt: 2,
        dest_lt: 5,
    };

    #[test]
    fn each_definition_measures_between_its_events() {
        let def = |from, to| LatencyDef { from, to }.latency(&T);
        use LatencyFrom::*;
        use LatencyTo::*;
        assert_eq!(def(Generation, TailConsumed), 40);
        assert_eq!(def(Injection, TailConsumed), 37);
        assert_eq!(def(SourceRouter, TailConsumed), 35);
        assert_eq!(def(Generation, TailLeavesRouter), 35);
        assert_eq!(def(SourceRouter, TailLeavesRouter), 30);
    }

    #[test]
    fn names_round_trip_and_unknown_names_say_what_is_accepted() {
        for f in [
            LatencyFrom::Generation,
            LatencyFrom::Injection,
            LatencyFrom::SourceRouter,
        ] {
            assert_eq!(f.to_string().parse::<LatencyFrom>(), Ok(f));
        }
        for t in [LatencyTo::TailConsumed, LatencyTo::TailLeavesRouter] {
            assert_eq!(t.to_string().parse::<LatencyTo>(), Ok(t));
        }
        let e = "tail".parse::<LatencyTo>().unwrap_err().to_string();
        assert!(e.contains("tail-consumed, tail-leaves-router"), "{e}");
    }
}
