//! [`SimError`]: why a run had to stop, and [`WaitingVc`], one VC of a deadlock report.

use flitsim_netlist::{Cycle, InPort, RouterId, VcId};
use serde::Serialize;
use std::fmt;

/// The port of a [`WaitingVc`] that is a terminal's ejection buffer (request/reply
/// traffic), not an input port of its router.
pub const EJECTION_BUFFER: InPort = InPort(u8::MAX);

/// One waiting input VC in a deadlock report (or a terminal's ejection VC: port
/// [`EJECTION_BUFFER`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct WaitingVc {
    /// The router holding the VC.
    pub router: RouterId,
    /// Its input port.
    pub port: InPort,
    /// The VC.
    pub vc: VcId,
    /// `r3.east vc1`: router name, port name, VC.
    pub name: String,
}

impl fmt::Display for WaitingVc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)
    }
}

/// Why a simulation stopped before its end. Fatal for the run: the network state is kept
/// for inspection but the statistics are incomplete.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SimError {
    /// Flits were in the network and none moved for the watchdog's number of cycles.
    /// `waiting` is a cycle of input VCs, each waiting for the next (the last waits for the
    /// first).
    Deadlock {
        /// The cycle the watchdog fired.
        cycle: Cycle,
        /// The waiting VCs, each waiting for the next.
        waiting: Vec<WaitingVc>,
    },
    /// Flits were in the network and none moved for the watchdog's number of cycles, but
    /// the wait-for graph has no cycle. `waiting` lists every waiting input VC.
    Stalled {
        /// The cycle the watchdog fired.
        cycle: Cycle,
        /// Cycles without movement.
        idle: u64,
        /// Every waiting input VC.
        waiting: Vec<WaitingVc>,
    },
    /// The simulation was asked to run past [`Stamp::LAST`](flitsim_router::Stamp::LAST):
    /// it stopped at that cycle (not an error of the network; the state is consistent
    /// and the run may not be continued).
    CycleLimit {
        /// The cycle it stopped at.
        cycle: Cycle,
    },
}

impl SimError {
    /// The stop's name, like a netlist error's `error[code]`.
    pub fn code(&self) -> &'static str {
        match self {
            SimError::Deadlock { .. } => "deadlock",
            SimError::Stalled { .. } => "stalled",
            SimError::CycleLimit { .. } => "cycle-limit",
        }
    }

    /// What happened, without the help line.
    pub fn message(&self) -> String {
        match self {
            SimError::Deadlock { cycle, waiting } => {
                format!("deadlock at cycle {cycle}: {}", render_cycle(waiting))
            }
            SimError::Stalled {
                cycle,
                idle,
                waiting,
            } => format!(
                "no flit moved for {idle} cycles before cycle {cycle}, but no cycle of waiting VCs was found; waiting: {}",
                render_list(waiting)
            ),
            SimError::CycleLimit { cycle } => format!(
                "the simulation reached cycle {cycle}, the last one flits' 32-bit cycle stamps hold"
            ),
        }
    }

    /// What to do about it (one line, lowercase, no trailing period).
    pub fn help(&self) -> &'static str {
        match self {
            SimError::Deadlock { waiting, .. }
                if waiting.iter().any(|w| w.port == EJECTION_BUFFER) =>
            {
                "a protocol deadlock: give requests and replies their own VCs (`--set message_classes=2`)"
            }
            SimError::Deadlock { .. } => {
                "use a deadlock-free routing (e.g. `--routing dor` with datelines on a torus)"
            }
            SimError::Stalled { .. } => "raise --watchdog if the network is merely slow",
            SimError::CycleLimit { .. } => {
                "run fewer cycles; for more samples, run again with another --seed"
            }
        }
    }
}

impl fmt::Display for SimError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}\nhelp: {}", self.message(), self.help())
    }
}

impl std::error::Error for SimError {}

fn render_list(waiting: &[WaitingVc]) -> String {
    if waiting.is_empty() {
        return "none".to_string();
    }
    waiting
        .iter()
        .map(|w| w.name.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

fn render_cycle(waiting: &[WaitingVc]) -> String {
    let Some(first) = waiting.first() else {
        return String::new();
    };
    let mut s: Vec<String> = waiting.iter().map(|w| w.name.clone()).collect();
    s.push(first.name.clone());
    s.join(" -> ")
}
