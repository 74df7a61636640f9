//! Errors: `ConfigError` (the run cannot start: bad flags or a routing that does not fit)
//! and `SimError` (the outcome of a run that had to stop).
//!
//! Messages start lowercase, carry no trailing period, use netlist names and say what to do.

use crate::memory::bytes_text;
use flitsim_netlist::{Cycle, InPort, RouterId, VcId};
use serde::Serialize;
use std::fmt;

/// The simulation cannot be set up with this configuration. Nothing has been simulated.
#[derive(Debug, thiserror::Error, Clone, PartialEq)]
pub enum ConfigError {
    /// The injection rate is not a probability.
    #[error("rate {rate} is not in [0, 1] (packets per terminal per cycle)\nhelp: pass --rate between 0 and 1, e.g. --rate 0.01")]
    RateOutOfRange {
        /// The rate given.
        rate: f64,
    },
    /// Packets need at least one flit.
    #[error("packet length 0 is not allowed\nhelp: pass --length 1 or more (flits per packet)")]
    ZeroLength,
    /// The run would reach a cycle past [`Stamp::LAST`](flitsim_router::Stamp::LAST), which
    /// the flits' 32-bit cycle stamps cannot hold.
    #[error("a run of up to {cycles} cycles (--warmup + --cycles, or --max-cycles, plus --drain-cycles) goes past cycle {last}, the last one flits' 32-bit cycle stamps hold\nhelp: lower --warmup, --cycles, --max-cycles or --drain-cycles; for more samples, run again with another --seed")]
    RunTooLong {
        /// The cycles the run may take (their sum, which may exceed `u64`).
        cycles: u128,
        /// The last cycle a simulation may reach.
        last: u64,
    },
    /// Unknown traffic pattern name.
    #[error("unknown traffic pattern `{name}`\nhelp: choose one of: {choices}")]
    UnknownTraffic {
        /// The name given.
        name: String,
        /// The known names.
        choices: String,
    },
    /// A known traffic pattern with a parameter it cannot take.
    #[error("traffic `{traffic}`: {problem}\nhelp: write it as {form}")]
    BadTrafficParameter {
        /// The pattern as given.
        traffic: String,
        /// What is wrong with its parameters.
        problem: String,
        /// The pattern's form, with an example.
        form: &'static str,
    },
    /// The traffic pattern needs more terminals than the netlist has.
    #[error("traffic `{traffic}` needs at least {needed} terminals, the netlist has {have}\nhelp: use a larger netlist")]
    TooFewTerminals {
        /// Pattern name.
        traffic: String,
        /// Terminals needed.
        needed: usize,
        /// Terminals present.
        have: usize,
    },
    /// A malformed `--length`.
    #[error("bad packet length `{spec}`: {reason}\nhelp: pass --length M, exp:MEAN or mix:M1,M2,P1 (e.g. --length 4, exp:100, mix:1,5,0.5)")]
    BadLength {
        /// The length spec given.
        spec: String,
        /// What is wrong.
        reason: String,
    },
    /// A traffic pattern that does not fit this netlist (or has bad parameters).
    #[error("traffic `{traffic}` cannot run on netlist `{netlist}`: {reason}\nhelp: {help}")]
    TrafficDoesNotFit {
        /// The pattern as given.
        traffic: String,
        /// Netlist name.
        netlist: String,
        /// What is wrong.
        reason: String,
        /// What to do.
        help: String,
    },
    /// A malformed trace file (`trace:FILE`).
    #[error(transparent)]
    TraceFile(#[from] crate::traffic::TraceFileError),
    /// Virtual cut-through or store-and-forward with buffers shallower than a packet.
    #[error("{0}")]
    SwitchingDepth(String),
    /// The network's buffers, channels and router state (allocators included) and the
    /// zero-load latency walk's memos, estimated before the network is allocated
    /// (`memory::estimate`), need more than the memory the machine has (or the process's
    /// address-space limit, `ulimit -v`).
    #[error("the network needs about {} for buffers, channels, router state and set-up ({part} {}: {detail}), more than the {} {limit_what}\nhelp: {help}", bytes_text(.needed), bytes_text(.part_bytes), bytes_text(.limit))]
    NetworkTooLarge {
        /// Bytes estimated for the whole network.
        needed: u64,
        /// Its largest part (`input FIFOs`, `channel delay lines`, ...).
        part: String,
        /// Bytes of that part.
        part_bytes: u64,
        /// What sizes that part (`16 routers x 5 ports x 255 VCs x 65536 flits`).
        detail: String,
        /// The limit in bytes.
        limit: u64,
        /// Whose limit it is (`of memory this machine has`).
        limit_what: String,
        /// What to do.
        help: String,
    },
    /// The routing function cannot run on this netlist.
    #[error("routing `{routing}` does not fit netlist `{netlist}`: {reason}\nhelp: {help}")]
    Routing {
        /// Routing function name.
        routing: String,
        /// Netlist name.
        netlist: String,
        /// What is wrong.
        reason: String,
        /// What to do.
        help: String,
    },
}

/// One waiting input VC in a deadlock report.
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
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum SimError {
    /// Flits were in the network and none moved for the watchdog's number of cycles.
    /// `waiting` is a cycle of input VCs, each waiting for the next (the last waits for the
    /// first).
    #[error("deadlock at cycle {cycle}: {}\nhelp: use a deadlock-free routing (e.g. `--routing dor` with datelines on a torus)", render_cycle(waiting))]
    Deadlock {
        /// The cycle the watchdog fired.
        cycle: Cycle,
        /// The waiting VCs, each waiting for the next.
        waiting: Vec<WaitingVc>,
    },
    /// Flits were in the network and none moved for the watchdog's number of cycles, but
    /// the wait-for graph has no cycle. `waiting` lists every waiting input VC.
    #[error("no flit moved for {idle} cycles before cycle {cycle}, but no cycle of waiting VCs was found; waiting: {}\nhelp: raise --watchdog if the network is merely slow", render_list(waiting))]
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
    #[error("the simulation reached cycle {cycle}, the last one flits' 32-bit cycle stamps hold\nhelp: run fewer cycles; for more samples, run again with another --seed")]
    CycleLimit {
        /// The cycle it stopped at.
        cycle: Cycle,
    },
}

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
