//! flitsim-netlist: the hardware description.
//!
//! A netlist lists routers (with their parameters and ports), `c` terminals per router
//! (its concentration),
//! and unidirectional channels `router.port -> router.port` with a latency. It is read
//! from TOML (a generator form or an explicit form, [`format`](mod@format)), validated, and held as a
//! petgraph `DiGraph` ([`Netlist`]). Everything else in flitsim is built from that graph.
//!
//! ```text
//!   terminal t_i                        terminal t_j
//!      | inject  ^ eject                   |   ^
//!      v  (port 0)|                        v   |
//!   [ router r_i ] --channel c_k (lat L)--> [ router r_j ]
//!                 <--credits (lat L)------
//! ```
//!
//! - [`load`] / [`parse_str`]: file -> [`Netlist`], or every error as [`Diagnostics`];
//! - [`topology`]: generators (`torus`, `mesh`, `hypercube`, `ring`, `dragonfly`, `hyperx`) -> the same IR;
//! - [`validate`]: checks needing the router crate ([`validate::check_routing`]) or the
//!   traffic ([`validate::check_vct_depth`]);
//! - [`Netlist::set`] (`--set key=value`), [`Netlist::diameter`],
//!   [`Netlist::average_distance`], [`expand()`] (explicit TOML), [`dot()`] (Graphviz).
//!
//! ```
//! use std::path::Path;
//! let src = "[topology]\nkind = \"torus\"\nradix = [4, 4]\n[defaults]\nvcs = 2\n";
//! let mut n = flitsim_netlist::parse_str(src, Path::new("t.toml")).unwrap();
//! assert_eq!((n.num_routers(), n.num_channels(), n.diameter()), (16, 64, 4));
//! n.set("channel_latency", "2").unwrap();
//! let again = flitsim_netlist::parse_str(&flitsim_netlist::expand(&n), Path::new("e.toml")).unwrap();
//! assert_eq!(again.num_channels(), 64);
//!
//! let bad = flitsim_netlist::parse_str("[defaults]\nvcs = 0\n[topology]\nkind = \"ring\"\nn = 4\n", Path::new("b.toml"));
//! assert_eq!(bad.unwrap_err().to_string(),
//!     "b.toml:2:7: error[zero-vcs]: [defaults] has 0 VCs\nhelp: set vcs >= 1");
//! ```
#![warn(missing_docs)]
// Errors are built once per bad input, never on a hot path; their size does not matter.
#![allow(clippy::result_large_err)]

pub mod concentration;
pub mod config;
pub mod dot;
pub mod error;
pub mod expand;
pub mod format;
pub mod ids;
pub mod location;
pub mod metrics;
pub mod netlist;
pub mod read;
pub mod routing_check;
mod set;
pub mod source;
pub mod terminal_map;
pub mod topology;
pub mod validate;

pub use concentration::{terminal_port_name, MAX_CONCENTRATION};
pub use config::{
    AllocatorKind, ArbiterKind, BufferDepth, DatelineRule, DeadlockCheck, DorTie, OutputVcArbiter,
    RouterConfig, RoutingKind, SelectionKind, SpecMasking, Switching, VcRelease,
    DEFAULT_CHANNEL_LATENCY, DEFAULT_REPLY_QUEUE, MAX_ALLOC_ITERS, MAX_BUFFER_DEPTH, MAX_LATENCY,
    MAX_MESSAGE_CLASSES, MAX_PIPELINE_DELAY, MAX_REPLY_LENGTH, MAX_REPLY_QUEUE, MAX_SERVICE_DELAY,
    MAX_SPEEDUP,
};
pub use dot::dot;
pub use error::{Diagnostics, Location, NetlistError, PortSide};
pub use expand::expand;
pub use format::{load, parse_str};
pub use ids::{
    ChannelId, Cycle, InPort, OutPort, PacketId, RouterId, TerminalId, VcId, TERMINAL_PORT,
};
pub use netlist::{ChannelSpec, Dir, Netlist, PortSpec, RouterSpec, Topology};
pub use routing_check::{NoRoutingCheck, RoutingProblem, RoutingProblemKind, RoutingRequirements};
pub use set::{split_setting, SET_KEYS};
pub use source::SourceMap;
pub use terminal_map::TerminalMap;
