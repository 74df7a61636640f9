//! Why a routing function cannot run on a netlist.

use flitsim_netlist::{InPort, RouterId};

/// Why a routing function cannot run on a netlist.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RoutingMismatch {
    /// The routing function needs another topology.
    #[error("routing `{routing}` does not fit {topology}")]
    DoesNotFit {
        /// Routing function name.
        routing: String,
        /// What the netlist is.
        topology: String,
        /// What to do.
        help: String,
    },
    /// A router port has fewer VCs than the routing function's classes.
    #[error(
        "routing `{routing}` needs {needed} VCs per port, router {router} port {port} has {have}"
    )]
    TooFewVcs {
        /// Routing function name.
        routing: String,
        /// The router with too few VCs.
        router: RouterId,
        /// The input port with too few VCs.
        port: InPort,
        /// VCs needed.
        needed: u8,
        /// VCs present.
        have: u8,
    },
    /// The routing tables could not be allocated.
    #[error("the routing tables of `{routing}` need {bytes} bytes, which could not be allocated")]
    TablesTooLarge {
        /// Routing function name.
        routing: String,
        /// Bytes the tables need.
        bytes: u64,
        /// What to do.
        help: String,
    },
    /// Message classes that do not fit the ports' VCs or the routing function.
    #[error("message classes: {detail}")]
    ClassVcs {
        /// What does not fit (naming the routing function).
        detail: String,
        /// What to do.
        help: String,
    },
}
