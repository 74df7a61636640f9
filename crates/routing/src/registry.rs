//! The closed registry: each [`RoutingKind`] built for a netlist, or refused with a
//! [`RoutingMismatch`] that says what to do.

use crate::classes::ClassRanges;
use crate::concentration::Concentrated;
use crate::describe::{describe_topology, kind_name, DOR_NEEDS_COORDINATES};
use crate::functions::{
    dimension_order, dor_torus_dateline, dragonfly, duato_minimal, duato_nbc, fat_tree, hyperx,
    minimal_adaptive, negative_first, north_last, pcube, quaglia_adaptive, source, table,
    west_first,
};
use crate::{cdg, Geometry, RoutingFunction, RoutingMismatch};
use flitsim_netlist::{
    DatelineRule, DorTie, InPort, Netlist, RoutingKind, Topology, MAX_MESSAGE_CLASSES,
};
use std::sync::Arc;

/// Builds the routing function `kind` for `netlist`, checking that it fits the topology
/// and that every router-to-router input port has enough VCs for its classes.
pub fn build(
    kind: RoutingKind,
    netlist: &Netlist,
) -> Result<Arc<dyn RoutingFunction>, RoutingMismatch> {
    let classes = message_classes(kind, netlist)?;
    let f: Arc<dyn RoutingFunction> = if classes > 1 {
        Arc::new(ClassRanges::build(kind, netlist, classes, |narrow| {
            build(kind, narrow)
        })?)
    } else {
        let f = construct(kind, netlist)?;
        check_vcs(kind, f.vc_classes(), netlist)?;
        f
    };
    match netlist.concentration() {
        Some(1) => Ok(f),
        Some(c) => Ok(Arc::new(Concentrated::new(f, c))),
        // Routers with different terminal counts: only a function that routes on the
        // terminal itself (the fat tree's) fits.
        None if matches!(netlist.topology, Topology::FatTree { .. })
            && matches!(kind, RoutingKind::Minimal | RoutingKind::MinimalAdaptive) =>
        {
            Ok(f)
        }
        None => Err(RoutingMismatch::DoesNotFit {
            routing: kind_name(kind).to_string(),
            topology: describe_topology(&netlist.topology),
            help: "routers with different terminal counts route only with a fat tree's \
                   `minimal` or `minimal-adaptive`"
                .into(),
        }),
    }
}

/// The netlist's `message_classes` (its first router's), checked to be in
/// `1..=MAX_MESSAGE_CLASSES`.
fn message_classes(kind: RoutingKind, netlist: &Netlist) -> Result<u8, RoutingMismatch> {
    let classes = netlist
        .routers()
        .next()
        .map_or(1, |r| r.config.message_classes);
    if (1..=MAX_MESSAGE_CLASSES).contains(&classes) {
        return Ok(classes);
    }
    Err(RoutingMismatch::ClassVcs {
        detail: format!(
            "message_classes = {classes} is out of range (routing `{}`)",
            kind_name(kind)
        ),
        help: format!("set message_classes from 1 to {MAX_MESSAGE_CLASSES}"),
    })
}

/// The `adaptive_vcs` setting of the netlist's routers (the largest, if they differ).
fn adaptive_vcs(netlist: &Netlist) -> u8 {
    netlist
        .routers()
        .map(|r| r.config.adaptive_vcs)
        .max()
        .unwrap_or(0)
}

/// True when a router asks for `deadlock_check = "warn"` (a short escape split runs).
pub fn warn_only(netlist: &Netlist) -> bool {
    netlist
        .routers()
        .any(|r| r.config.deadlock_check == flitsim_netlist::DeadlockCheck::Warn)
}

/// The warning for a netlist run under `deadlock_check = "warn"` whose routing has a
/// dependency cycle (the static check that would have refused it), `None` otherwise.
pub fn deadlock_warning(netlist: &Netlist) -> Option<String> {
    let kind = netlist.routers().next()?.config.routing;
    if !warn_only(netlist) || !netlist.routers().all(|r| r.config.routing == kind) {
        return None;
    }
    let f = build(kind, netlist).ok()?;
    if cdg::deadlock_free_by_storage(f.as_ref(), netlist) {
        return None;
    }
    let cycle = match cdg::dependency_cycle(f.as_ref(), netlist) {
        Ok(cycle) => cycle?,
        Err(why) => return Some(not_checked_warning(kind, &why)),
    };
    let names = cdg::cycle_names(netlist, &cycle);
    Some(format!(
        "routing `{}` is not deadlock-free on this netlist (deadlock_check = \"warn\"): its \
         dependency graph has a cycle of {} VCs starting {}; the run goes on and its \
         watchdog reports a deadlock if one happens",
        kind_name(kind),
        names.len(),
        names.first().map_or("", String::as_str)
    ))
}

/// The warning for a netlist run under `deadlock_check = "warn"` whose static check was
/// not run: whether its routing can deadlock is not known.
fn not_checked_warning(kind: RoutingKind, why: &cdg::NotChecked) -> String {
    let why = match why {
        cdg::NotChecked::Work { steps } => {
            format!("{steps} route computations, more than {}", cdg::WORK_LIMIT)
        }
        cdg::NotChecked::Memory { bytes } => format!(
            "more than {bytes} bytes of memory, above {}",
            cdg::MEMORY_LIMIT
        ),
    };
    format!(
        "the static deadlock check of routing `{}` was not run ({why}; deadlock_check = \"warn\"), \
         so whether it can deadlock on this netlist is not known; the run goes on and its \
         watchdog reports a deadlock if one happens",
        kind_name(kind)
    )
}

/// How `netlist check` established deadlock freedom for a netlist that passed validation:
/// the line it prints after `deadlock_check`.
pub fn deadlock_check_method(netlist: &Netlist) -> String {
    let Some(kind) = netlist.routers().next().map(|r| r.config.routing) else {
        return "not run: no routers".into();
    };
    if !netlist.routers().all(|r| r.config.routing == kind) {
        return "not run: routers use different routing functions".into();
    }
    if warn_only(netlist) {
        return "not enforced: deadlock_check = \"warn\"".into();
    }
    let Ok(f) = build(kind, netlist) else {
        return "not run: the routing does not fit".into();
    };
    if cdg::deadlock_free_by_storage(f.as_ref(), netlist) {
        return "by storage (vct/saf, unbounded network buffers, no escape VCs)".into();
    }
    let steps = cdg::work(netlist);
    if steps > cdg::WORK_LIMIT {
        return format!(
            "not run: {steps} route computations, more than {}; check a smaller instance of the same family",
            cdg::WORK_LIMIT
        );
    }
    format!("channel dependency graph acyclic ({steps} route computations)")
}

/// The fewest VCs of any router-to-router input port.
fn min_network_vcs(netlist: &Netlist) -> u8 {
    netlist
        .routers()
        .flat_map(|r| r.network_ports().map(|(_, p)| p.vcs))
        .min()
        .unwrap_or(0)
}

/// The `dor_tie` and `dateline` rules of the netlist's routers (the first router's: the
/// engine runs one routing function for the whole network).
fn dor_rules(netlist: &Netlist) -> (DorTie, DatelineRule) {
    netlist
        .routers()
        .next()
        .map(|r| (r.config.dor_tie, r.config.dateline))
        .unwrap_or_default()
}

/// Is the netlist a 2-D mesh?
fn is_mesh_2d(t: &Topology) -> bool {
    matches!(t, Topology::Mesh { radix } if radix.len() == 2)
}

/// The routing function for `kind` on this topology, without the VC-count check.
pub(crate) fn construct(
    kind: RoutingKind,
    netlist: &Netlist,
) -> Result<Arc<dyn RoutingFunction>, RoutingMismatch> {
    Ok(match (kind, &netlist.topology) {
        (RoutingKind::Dor, Topology::Mesh { .. } | Topology::Hypercube { .. })
        | (RoutingKind::DorNoDateline, Topology::Torus { .. } | Topology::Ring { .. }) => Arc::new(
            dimension_order::DimensionOrder::new(Geometry::new(netlist, kind)?, kind_name(kind)),
        ),
        (RoutingKind::Dor, Topology::Torus { .. } | Topology::Ring { .. }) => {
            let (tie, dateline) = dor_rules(netlist);
            Arc::new(dor_torus_dateline::DorTorusDateline::new(
                Geometry::new(netlist, kind)?,
                tie,
                dateline,
            ))
        }
        (
            RoutingKind::Duato,
            Topology::Torus { .. } | Topology::Ring { .. } | Topology::Mesh { .. },
        ) => Arc::new(duato_minimal::DuatoMinimal::new(
            Geometry::new(netlist, kind)?,
            adaptive_vcs(netlist),
            min_network_vcs(netlist),
            dor_rules(netlist).0,
        )),
        (
            RoutingKind::DuatoNbc,
            Topology::Torus { .. } | Topology::Ring { .. } | Topology::Mesh { .. },
        ) => Arc::new(duato_nbc::DuatoNbc::new(
            Geometry::new(netlist, kind)?,
            netlist,
            adaptive_vcs(netlist),
            min_network_vcs(netlist),
            warn_only(netlist),
        )?),
        (RoutingKind::Quaglia, Topology::Torus { radix }) if radix.len() == 2 => {
            Arc::new(quaglia_adaptive::Quaglia::new(
                Geometry::new(netlist, kind)?,
                adaptive_vcs(netlist),
                min_network_vcs(netlist),
                dor_rules(netlist).0,
            ))
        }
        (
            RoutingKind::MinimalAdaptive,
            Topology::Torus { .. } | Topology::Ring { .. } | Topology::Mesh { .. },
        ) => Arc::new(minimal_adaptive::MinimalAdaptive::new(Geometry::new(
            netlist, kind,
        )?)),
        (RoutingKind::Pcube, Topology::Hypercube { .. }) => {
            Arc::new(pcube::Pcube::new(Geometry::new(netlist, kind)?))
        }
        (RoutingKind::WestFirst, t) if is_mesh_2d(t) => {
            Arc::new(west_first::WestFirst::new(Geometry::new(netlist, kind)?))
        }
        (RoutingKind::NorthLast, t) if is_mesh_2d(t) => {
            Arc::new(north_last::NorthLast::new(Geometry::new(netlist, kind)?))
        }
        (RoutingKind::NegativeFirst, Topology::Mesh { .. }) => Arc::new(
            negative_first::NegativeFirst::new(Geometry::new(netlist, kind)?),
        ),
        (RoutingKind::Source, _) => Arc::new(source::SourceRouting::new(netlist)?),
        (RoutingKind::Table, _) => Arc::new(table::TableRouting::new(netlist)?),
        (
            RoutingKind::Minimal | RoutingKind::Valiant | RoutingKind::UgalL,
            Topology::Dragonfly { a, h },
        ) => {
            let variant = match kind {
                RoutingKind::Minimal => dragonfly::Variant::Minimal,
                RoutingKind::Valiant => dragonfly::Variant::Valiant,
                _ => dragonfly::Variant::UgalL,
            };
            Arc::new(dragonfly::Dragonfly::new(netlist, *a, *h, variant, kind)?)
        }
        (
            RoutingKind::Minimal | RoutingKind::Valiant | RoutingKind::UgalL,
            Topology::HyperX { radix },
        ) => {
            let variant = match kind {
                RoutingKind::Minimal => dragonfly::Variant::Minimal,
                RoutingKind::Valiant => dragonfly::Variant::Valiant,
                _ => dragonfly::Variant::UgalL,
            };
            Arc::new(hyperx::HyperX::new(netlist, radix, variant))
        }
        (RoutingKind::Minimal | RoutingKind::MinimalAdaptive, Topology::FatTree { k, n }) => {
            Arc::new(fat_tree::FatTree::new(
                netlist,
                *k,
                *n,
                kind == RoutingKind::MinimalAdaptive,
            ))
        }
        (_, t) => return Err(does_not_fit(kind, t)),
    })
}

fn does_not_fit(kind: RoutingKind, t: &Topology) -> RoutingMismatch {
    let help = match kind {
        RoutingKind::Dor => DOR_NEEDS_COORDINATES,
        RoutingKind::DorNoDateline => "dor-nodateline runs on tori and rings only; use `dor`",
        RoutingKind::Duato | RoutingKind::DuatoNbc => {
            "use a torus, ring or mesh generator (the escape VCs route by coordinates), or `table`"
        }
        RoutingKind::Quaglia => {
            "quaglia is paper 000's scheme for 2-D tori; use `duato` on other tori and meshes"
        }
        RoutingKind::MinimalAdaptive => {
            "minimal-adaptive routes by coordinates; use a torus, ring or mesh generator"
        }
        RoutingKind::Pcube => "pcube runs on hypercubes only; use `dor` (e-cube) or `table`",
        RoutingKind::WestFirst | RoutingKind::NorthLast => {
            "this turn model is defined on 2-D meshes; use `negative-first` or `table`"
        }
        RoutingKind::NegativeFirst => "negative-first runs on meshes; use `table` elsewhere",
        RoutingKind::Source | RoutingKind::Table => "source and table routing fit any netlist",
        RoutingKind::Minimal | RoutingKind::Valiant | RoutingKind::UgalL => {
            "minimal, valiant and ugal-l route on dragonflies and HyperX (minimal also on fat trees); use one of those generators, or `table`"
        }
    };
    RoutingMismatch::DoesNotFit {
        routing: kind_name(kind).to_string(),
        topology: describe_topology(t),
        help: help.to_string(),
    }
}

/// First router whose network input ports have fewer VCs
/// than `classes`.
fn check_vcs(kind: RoutingKind, classes: u8, netlist: &Netlist) -> Result<(), RoutingMismatch> {
    for r in netlist.routers() {
        for (p, port) in r.network_ports() {
            if port.vcs < classes {
                return Err(RoutingMismatch::TooFewVcs {
                    routing: kind_name(kind).to_string(),
                    router: r.id,
                    port: InPort(p as u8),
                    needed: classes,
                    have: port.vcs,
                });
            }
        }
    }
    Ok(())
}
