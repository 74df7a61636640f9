//! flitsim-router: one input-queued virtual-channel router and its routing functions.
#![warn(missing_docs)]

pub mod flit;

pub use flit::{Credit, Flit, FlitKind, PacketId};
pub use flitsim_netlist::RouterConfig;
