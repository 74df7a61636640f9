//! The hook through which netlist validation asks the router crate whether a routing
//! function fits the netlist. The netlist crate cannot depend on the router crate
//! (dependencies flow netlist <- router), so the router crate implements this trait.

use crate::ids::RouterId;
use crate::netlist::Netlist;

/// Implemented by the routing registry (`flitsim_routing::RoutingRegistry`).
pub trait RoutingRequirements {
    /// One problem per router whose routing function does not fit the netlist.
    fn check(&self, netlist: &Netlist) -> Vec<RoutingProblem>;
}

/// A routing function that cannot run on a router of this netlist.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoutingProblem {
    /// The router whose configuration is at fault.
    pub router: RouterId,
    /// What is wrong.
    pub kind: RoutingProblemKind,
    /// What to do about it (one line, lowercase, no trailing period).
    pub help: String,
}

/// The ways a routing function can fail to fit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RoutingProblemKind {
    /// The routing function needs a topology this netlist is not (P-cube on a torus).
    DoesNotFit {
        /// Routing function name (`pcube`).
        routing: String,
        /// Topology description (`torus 8x8`).
        topology: String,
    },
    /// The routing function needs more VC classes than the router has VCs.
    TooFewVcs {
        /// Routing function name.
        routing: String,
        /// VCs needed per port.
        needed: u8,
        /// VCs the router has.
        have: u8,
    },
    /// The routing function cannot be split into the netlist's message classes (VCs not a
    /// multiple of the classes, ranges too narrow for its VC classes, escape VCs).
    MessageClasses {
        /// Routing function name.
        routing: String,
        /// What does not fit.
        detail: String,
    },
    /// The routing function's channel dependency graph has a cycle (deadlock possible).
    DependencyCycle {
        /// Routing function name.
        routing: String,
        /// The channels on the cycle, as `r3.east -> r4.west` strings.
        channels: Vec<String>,
    },
    /// The routing tables would need more memory than they may use.
    TablesTooLarge {
        /// Routing function name.
        routing: String,
        /// Bytes the tables would take.
        bytes: u64,
        /// What they exceed (`the 1073741824 bytes they may use`).
        limit: String,
    },
    /// The static deadlock check would need more memory than it may use.
    CheckTooLarge {
        /// Routing function name.
        routing: String,
        /// Bytes it asked for when it stopped.
        bytes: usize,
    },
}

/// Accepts every netlist: for tools that only need the structure checked.
pub struct NoRoutingCheck;

impl RoutingRequirements for NoRoutingCheck {
    fn check(&self, _netlist: &Netlist) -> Vec<RoutingProblem> {
        Vec::new()
    }
}
