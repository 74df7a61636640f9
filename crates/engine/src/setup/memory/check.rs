//! The check that refuses a network whose estimate exceeds the memory limit.

use super::estimate::{estimate, routing_bytes, Estimate};
use super::limit::MemoryLimit;
use super::sizes::Walk;
use crate::error::ConfigError;
use flitsim_netlist::Netlist;

/// Refuses `netlist` assembled in `parts` partitions and walked as `walk` when its
/// [`estimate`] exceeds `limit` (`None`: no limit known, nothing refused). Returns the
/// estimate.
///
/// # Errors
/// [`ConfigError::NetworkTooLarge`], naming the largest part of the estimate and the
/// settings that size it.
pub(crate) fn check(
    netlist: &Netlist,
    parts: usize,
    walk: Walk,
    limit: Option<MemoryLimit>,
) -> Result<Estimate, ConfigError> {
    let e = estimate(netlist, parts, walk);
    refuse_above(netlist, (parts, walk), e, limit)
}

/// Refuses `netlist` when its routing tables and itself, the first memory set-up takes
/// (the routing functions are built before the full [`check`], which needs them), exceed
/// `limit`.
///
/// # Errors
/// [`ConfigError::NetworkTooLarge`], naming the routing tables or the netlist.
pub(crate) fn check_routing(
    netlist: &Netlist,
    limit: Option<MemoryLimit>,
) -> Result<(), ConfigError> {
    let e = Estimate {
        routing: routing_bytes(netlist),
        netlist: netlist.heap_bytes(),
        ..Estimate::default()
    };
    let walk = Walk {
        dimension_order: true,
        threads: 1,
    };
    refuse_above(netlist, (1, walk), e, limit).map(|_| ())
}

/// `e` if within `limit`, else the refusal naming its largest part.
fn refuse_above(
    netlist: &Netlist,
    (parts, walk): (usize, Walk),
    e: Estimate,
    limit: Option<MemoryLimit>,
) -> Result<Estimate, ConfigError> {
    let Some(limit) = limit else {
        return Ok(e);
    };
    if e.total() <= limit.bytes {
        return Ok(e);
    }
    let (part, bytes) = e.largest();
    Err(ConfigError::NetworkTooLarge {
        needed: e.total(),
        part: part.name().to_string(),
        part_bytes: bytes,
        detail: part.detail(netlist, parts, walk),
        limit: limit.bytes,
        limit_what: limit.what.to_string(),
        help: part.help(netlist, walk).to_string(),
    })
}
