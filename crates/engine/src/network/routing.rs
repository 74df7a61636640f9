//! The routing functions of a netlist's routers, built once per distinct kind.

use crate::error::ConfigError;
use flitsim_netlist::Netlist;
use flitsim_routing::{self as routing, kind_name, RoutingFunction, RoutingMismatch};
use std::collections::BTreeMap;
use std::sync::Arc;

/// The routing functions a netlist's routers use, one per distinct kind. Built once,
/// before the memory check (which sizes the zero-load latency walk by router 0's), and
/// shared by the builder and the walk.
pub(crate) struct RoutingFunctions {
    /// By `RoutingKind as u8`.
    by_kind: BTreeMap<u8, Arc<dyn RoutingFunction>>,
    /// Router 0's (the zero-load latency walk's); `None` without routers.
    first: Option<Arc<dyn RoutingFunction>>,
}

impl RoutingFunctions {
    /// Builds the routing functions of `netlist`'s routers.
    ///
    /// # Errors
    /// `ConfigError::Routing` for a routing function that does not fit `netlist`.
    pub fn build(netlist: &Netlist) -> Result<RoutingFunctions, ConfigError> {
        let mut by_kind: BTreeMap<u8, Arc<dyn RoutingFunction>> = BTreeMap::new();
        for r in netlist.routers() {
            let key = r.config.routing as u8;
            if by_kind.contains_key(&key) {
                continue;
            }
            let f = routing::build(r.config.routing, netlist)
                .map_err(|e| routing_error(netlist, r.config.routing, &e))?;
            by_kind.insert(key, f);
        }
        let first = netlist
            .routers()
            .next()
            .map(|r| Arc::clone(&by_kind[&(r.config.routing as u8)]));
        Ok(RoutingFunctions { by_kind, first })
    }

    /// The function of routers of `kind` (one of the netlist's).
    pub fn of(&self, kind: flitsim_netlist::RoutingKind) -> &Arc<dyn RoutingFunction> {
        &self.by_kind[&(kind as u8)]
    }

    /// Router 0's routing function (the zero-load latency walk's); `None` without routers.
    pub fn first(&self) -> Option<&Arc<dyn RoutingFunction>> {
        self.first.as_ref()
    }
}

fn routing_error(
    netlist: &Netlist,
    kind: flitsim_netlist::RoutingKind,
    e: &RoutingMismatch,
) -> ConfigError {
    ConfigError::Routing {
        routing: kind_name(kind).to_string(),
        netlist: netlist.name.clone(),
        mismatch: e.clone(),
    }
}
