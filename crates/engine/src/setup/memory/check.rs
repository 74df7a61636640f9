//! The check that refuses a network whose estimate exceeds the memory limit.

use super::estimate::{estimate, Estimate};
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
