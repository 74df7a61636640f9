//! The bytes of the routing tables that grow faster than the netlist, computed before
//! they are built, so that a netlist whose tables cannot fit is refused instead of
//! aborting on a failed allocation.

use crate::describe::kind_name;
use crate::RoutingMismatch;
use flitsim_netlist::{Netlist, RoutingKind, Topology};

/// Bytes the routing tables of `kind` on `netlist` may take at most. Netlist
/// validation refuses a routing whose [`table_bytes`] exceed it, before building it.
pub const TABLE_LIMIT: u64 = 1 << 30;

/// Bytes of the tables [`super::build`] allocates for `kind` on `netlist` that grow
/// faster than the netlist (per pair of routers or groups), computed without allocating:
///
/// - `table` and `source`: up*/down* distances, 2 bytes per router, destination and
///   phase;
/// - `duato-nbc`: one byte per router and destination;
/// - `minimal`, `valiant` and `ugal-l` on a dragonfly: a gateway of 12 bytes per pair of
///   groups, and a local port per router and group member.
///
/// The other functions keep tables linear in the netlist (per router and port or
/// dimension), counted with the netlist itself.
pub fn table_bytes(kind: RoutingKind, netlist: &Netlist) -> u64 {
    let n = netlist.num_routers() as u64;
    match (kind, &netlist.topology) {
        (RoutingKind::Table | RoutingKind::Source, _) => n.saturating_mul(n).saturating_mul(4),
        (RoutingKind::DuatoNbc, _) => n.saturating_mul(n),
        (
            RoutingKind::Minimal | RoutingKind::Valiant | RoutingKind::UgalL,
            Topology::Dragonfly { a, h },
        ) => {
            let g = u64::from(*a) * u64::from(*h) + 1;
            (g * g).saturating_mul(12) + n.saturating_mul(u64::from(*a))
        }
        _ => 0,
    }
}

/// The most routers `kind` may have on a netlist like `netlist` with tables within
/// [`TABLE_LIMIT`] (for the refusal's advice); `None` when its tables are linear.
pub fn routers_within_limit(kind: RoutingKind) -> Option<u64> {
    match kind {
        RoutingKind::Table | RoutingKind::Source => Some((TABLE_LIMIT / 4).isqrt()),
        RoutingKind::DuatoNbc => Some(TABLE_LIMIT.isqrt()),
        _ => None,
    }
}

/// A table of `len` copies of `x` for routing `kind`, allocated exactly, or the typed
/// refusal when the allocation fails (under an address-space limit).
///
/// # Errors
/// [`RoutingMismatch::TablesTooLarge`].
pub(crate) fn table<T: Clone>(
    kind: RoutingKind,
    len: usize,
    x: T,
) -> Result<Vec<T>, RoutingMismatch> {
    let mut v = Vec::new();
    v.try_reserve_exact(len)
        .map_err(|_| RoutingMismatch::TablesTooLarge {
            routing: kind_name(kind).to_string(),
            bytes: (len * std::mem::size_of::<T>()) as u64,
            help: help(kind),
        })?;
    v.resize(len, x);
    Ok(v)
}

/// What to do about tables of `kind` too large.
pub(crate) fn help(kind: RoutingKind) -> String {
    let fewer = routers_within_limit(kind).map_or(String::new(), |n| {
        format!(", or a netlist of at most {n} routers")
    });
    format!(
        "use a generator's own routing (e.g. `dor` on a torus, mesh or hypercube, `minimal` on a HyperX){fewer}"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::build;
    use flitsim_netlist::topology;

    /// The sizes are those of the tables built (the size of the value built bounds the
    /// heap it owns only loosely, so the formula is checked against the known layouts).
    #[test]
    fn table_routing_grows_with_the_square_of_the_routers() {
        let mut n = topology::torus(&[8, 8]);
        n.topology = Topology::Explicit;
        assert_eq!(table_bytes(RoutingKind::Table, &n), 64 * 64 * 4);
        assert_eq!(table_bytes(RoutingKind::Source, &n), 64 * 64 * 4);
        assert!(build(RoutingKind::Table, &n).is_ok());
        let t = topology::torus(&[8, 8]);
        assert_eq!(table_bytes(RoutingKind::DuatoNbc, &t), 64 * 64);
        assert_eq!(table_bytes(RoutingKind::Dor, &t), 0);
        assert_eq!(routers_within_limit(RoutingKind::Table), Some(16384));
    }
}
