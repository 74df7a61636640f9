//! Area, energy and power of an on-chip network from technology parameters and the
//! activity a simulation counted: the model of Balfour and Dally ("Design tradeoffs for
//! tiled CMP on-chip networks", ICS 2006), as BookSim 2's power module computes it, with
//! its unit slips corrected by default ([`Mode`]). docs/power.md gives the equations.
//!
//! Plain numbers in, plain numbers out: a [`Design`] (flit width, each router's input
//! buffer sizes and output count, each channel's length), a [`Tech`], [`Options`] and an
//! [`Activity`] (event counts over a number of cycles) give a [`CostReport`]:
//!
//! ```
//! use flitsim_cost::*;
//! let tech = Tech::builtin(DEFAULT_TECH).unwrap();
//! let design = Design {
//!     flit_bits: 128,
//!     routers: vec![RouterShape { input_words: vec![32; 5], outputs: 5, terminal_ports: 1 }],
//!     channels: vec![ChannelShape { length_mm: 2.0 }],
//! };
//! let idle = Activity::idle(&design, 1000);
//! let r = cost(&design, &tech, &Options::default(), &idle).unwrap();
//! assert_eq!(r.energy_pj.dynamic(), 0.0);
//! assert!(r.area_mm2.total() > 0.0);
//! ```

mod booksim_tech;
pub mod buffer;
pub mod crossbar;
mod network;
mod report;
mod tech;
pub mod wire;

pub use network::{cost, cost_with, CostError, Wires};
pub use report::{Areas, ChannelCost, CostReport, Parts, RouterCost};
pub use tech::{Cell, Cells, Tech, TechError, DEFAULT_TECH};

use serde::Serialize;

/// Which reading of the published model to evaluate.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// The equations with their units made consistent (docs/power.md lists the changes).
    #[default]
    Corrected,
    /// BookSim 2's figures exactly: its unit slips kept, its port numbering (network ports
    /// first, terminal ports last) for the crossbar's geometry.
    Booksim,
}

/// How to evaluate.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Options {
    /// Clock, GHz (`None`: the technology's [`Tech::default_clock_ghz`]).
    pub clock_ghz: Option<f64>,
    /// The model's reading.
    pub mode: Mode,
    /// Keep each router's and each channel's figures, not only the totals.
    pub detail: bool,
}

/// What the model needs of one router.
#[derive(Clone, Debug, PartialEq)]
pub struct RouterShape {
    /// Flits each input port buffers (its VCs times their depth), by input port.
    pub input_words: Vec<u32>,
    /// Output ports.
    pub outputs: u32,
    /// The first `terminal_ports` ports face terminals (BookSim numbers them last).
    pub terminal_ports: u32,
}

/// What the model needs of one channel (router-to-router or terminal).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct ChannelShape {
    /// Wire length, mm.
    pub length_mm: f64,
}

/// The hardware being costed.
#[derive(Clone, Debug, PartialEq)]
pub struct Design {
    /// Bits per flit (the width of every channel, buffer and crossbar port).
    pub flit_bits: u32,
    /// Routers, in any fixed order ([`Activity::routers`] follows it).
    pub routers: Vec<RouterShape>,
    /// Channels, terminal channels included ([`Activity::channel_flits`] follows it).
    pub channels: Vec<ChannelShape>,
}

/// Events of one router over [`Activity::cycles`].
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct RouterActivity {
    /// Flits written into each input port's buffer.
    pub buffer_writes: Vec<u64>,
    /// Flits read from each input port's buffer (each then crosses the crossbar from it).
    pub buffer_reads: Vec<u64>,
    /// Flits that crossed the crossbar to each output port (and were registered there).
    pub crossbar_out: Vec<u64>,
    /// VC allocation requests (one per waiting VC per cycle it asks).
    pub vc_requests: u64,
    /// Output VCs handed out.
    pub vc_grants: u64,
    /// Switch allocation requests (one per VC per cycle it asks).
    pub switch_requests: u64,
    /// Switch grants (one per flit through the crossbar).
    pub switch_grants: u64,
}

/// Events counted over a number of cycles.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Activity {
    /// Cycles the counts cover (clock, leakage and power use it).
    pub cycles: u64,
    /// Each router's events, in [`Design::routers`] order.
    pub routers: Vec<RouterActivity>,
    /// Flits each channel carried, in [`Design::channels`] order.
    pub channel_flits: Vec<u64>,
}

impl Activity {
    /// No events over `cycles` cycles.
    pub fn idle(design: &Design, cycles: u64) -> Activity {
        Activity {
            cycles,
            routers: design
                .routers
                .iter()
                .map(|r| RouterActivity {
                    buffer_writes: vec![0; r.input_words.len()],
                    buffer_reads: vec![0; r.input_words.len()],
                    crossbar_out: vec![0; r.outputs as usize],
                    ..RouterActivity::default()
                })
                .collect(),
            channel_flits: vec![0; design.channels.len()],
        }
    }
}
