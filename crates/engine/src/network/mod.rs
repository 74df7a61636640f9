//! The runtime network: partitions of flat per-id vectors the cycle loop indexes
//! directly, and the builder that assembles them from a netlist.
//!
//! Partitions are contiguous id ranges (router `i` and terminal `i` together). Global
//! channel order (`Network::channels`, `Network::ends`): router-to-router channels first
//! (index = `ChannelId`), then one injection channel per terminal (terminal -> router input
//! port 0), then one ejection channel per terminal (router output port 0 -> terminal).
//! Injection and ejection channels have the router's `terminal_latency`. Each channel's
//! forward side lives in its upstream component's partition, its reverse side in its
//! downstream component's ([`crate::channel`]).

pub(crate) mod assembled;
pub(crate) mod build;
pub(crate) mod in_ports;
pub(crate) mod partition;
pub(crate) mod ports;
pub(crate) mod routing;
pub(crate) mod status;
pub(crate) mod thin_slots;
mod trace_names;
pub(crate) mod wired;

pub(crate) use assembled::Network;
pub(crate) use build::{assemble, Assembly};
pub(crate) use partition::{bounds, Members, PHASE_BUG};
pub(crate) use routing::RoutingFunctions;
pub(crate) use status::Status;
pub(crate) use wired::{WiredRouter, WiredTerminal};
