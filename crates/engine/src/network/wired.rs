//! What the cycle loop steps: a router or a terminal wired to the channel sides it reads
//! and writes, with what it wrote this cycle.

use super::ports::PortTable;
use super::thin_slots::ThinSlots;
use crate::channel::{ChannelSide, WriteSide};
use crate::terminal::Terminal;
use flitsim_router::{Credit, Flit, Reset, Router};

/// A router with its channel map and (for a router with more ports than the arrival masks
/// cover) its inbox; what it writes stays inside it until phase 2 reads it
/// ([`Router::flits_out`], [`Router::credits_out`]).
pub(crate) struct WiredRouter {
    pub router: Router,
    /// The channels of each port, read on every step.
    pub ports: PortTable,
    /// Inbox of a router wider than the masks (`read_all` of the cycle's router step); others get
    /// their inputs from the channel sides by reference (`step_arrived`) and keep it empty.
    pub flits_in: ThinSlots<Option<Flit>>,
    pub credits_in: ThinSlots<Option<Credit>>,
    /// Timeout resets written this cycle, by input port (empty when no router of the
    /// network has a timeout).
    pub resets_out: ThinSlots<Option<Reset>>,
}

/// A terminal with its two channels and its outbox.
pub(crate) struct WiredTerminal {
    pub terminal: Terminal,
    /// Forward side of the ejection channel (written by the router).
    pub read_flits: ChannelSide,
    /// Reverse side of the injection channel (written by the router).
    pub read_credits: ChannelSide,
    /// Own forward line (the injection channel) and the router input it wakes.
    pub write_flits: WriteSide,
    /// Own reverse line (the ejection channel) and the router output it wakes.
    pub write_credits: WriteSide,
    pub flit_out: Option<Flit>,
    pub credit_out: Option<Credit>,
    /// Trace events of this cycle (`None`: tracing off).
    pub trace: Option<Vec<crate::trace::TerminalEvent>>,
}
