//! flitsim-netlist: the hardware description.
//!
//! A netlist lists routers (with their parameters and ports), one terminal per router,
//! and unidirectional channels `router.port -> router.port` with a latency. It is read
//! from TOML (a generator form or an explicit form), validated, and held as a petgraph
//! `DiGraph` ([`Netlist`]). Everything else in flitsim is built from that graph.
//!
//! ```text
//!   terminal t_i                        terminal t_j
//!      | inject  ^ eject                   |   ^
//!      v  (port 0)|                        v   |
//!   [ router r_i ] --channel c_k (lat L)--> [ router r_j ]
//!                 <--credits (lat L)------
//! ```
#![warn(missing_docs)]

pub mod config;
pub mod ids;
pub mod netlist;
pub mod routing_check;

pub use config::{
    AllocatorKind, ArbiterKind, BufferDepth, RouterConfig, RoutingKind, SelectionKind, Switching,
    DEFAULT_CHANNEL_LATENCY,
};
pub use ids::{ChannelId, Cycle, InPort, OutPort, RouterId, TerminalId, VcId, TERMINAL_PORT};
pub use routing_check::{NoRoutingCheck, RoutingProblem, RoutingProblemKind, RoutingRequirements};
pub use netlist::{ChannelSpec, Dir, Netlist, PortSpec, RouterSpec, Topology};
