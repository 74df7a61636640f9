//! The registry as netlist validation sees it ([`RoutingRequirements`]).

use crate::describe::kind_name;
use crate::registry::{build, construct, warn_only};
use crate::table_size::{help, table_bytes, TABLE_LIMIT};
use crate::{cdg, RoutingFunction, RoutingMismatch};
use flitsim_netlist::{
    Netlist, RoutingKind, RoutingProblem, RoutingProblemKind, RoutingRequirements,
};
use std::sync::Arc;

/// The routing registry as netlist validation sees it: checks every router's configured
/// routing function against the netlist.
#[derive(Copy, Clone, Debug, Default)]
pub struct RoutingRegistry;

impl RoutingRequirements for RoutingRegistry {
    fn check(&self, netlist: &Netlist) -> Vec<RoutingProblem> {
        let mut problems = Vec::new();
        let mut kinds: Vec<RoutingKind> = Vec::new();
        for r in netlist.routers() {
            if !kinds.contains(&r.config.routing) {
                kinds.push(r.config.routing);
            }
        }
        for kind in kinds {
            let users = |r: &flitsim_netlist::RouterSpec| r.config.routing == kind;
            let Some(f) = constructed(kind, netlist, &mut problems) else {
                continue;
            };
            let classes = f.vc_classes();
            let before = problems.len();
            for r in netlist.routers().filter(|r| users(r)) {
                let have = r.network_ports().map(|(_, p)| p.vcs).min();
                if let Some(have) = have.filter(|&h| h < classes) {
                    problems.push(RoutingProblem {
                        router: r.id,
                        kind: RoutingProblemKind::TooFewVcs {
                            routing: kind_name(kind).to_string(),
                            needed: classes,
                            have,
                        },
                        help: format!(
                            "set vcs >= {classes} ({} uses {classes} VC classes to avoid deadlock)",
                            kind_name(kind)
                        ),
                    });
                }
            }
            // Message classes split every port's VCs: the split must fit the function.
            if problems.len() == before && netlist.routers().any(|r| r.config.message_classes > 1) {
                if let Err(RoutingMismatch::ClassVcs { detail, help }) = build(kind, netlist) {
                    for r in netlist.routers().filter(|r| users(r)) {
                        problems.push(RoutingProblem {
                            router: r.id,
                            kind: RoutingProblemKind::MessageClasses {
                                routing: kind_name(kind).to_string(),
                                detail: detail.clone(),
                            },
                            help: help.clone(),
                        });
                    }
                }
            }
            // The static deadlock check, once the function fits and has its VCs (and only
            // when every router runs it: the engine shares one function).
            if problems.len() == before
                && netlist.routers().all(users)
                && !warn_only(netlist)
                && !cdg::deadlock_free_by_storage(f.as_ref(), netlist)
            {
                let Some((kind_of, help)) = static_check(kind, f.as_ref(), netlist) else {
                    continue;
                };
                for r in netlist.routers() {
                    problems.push(RoutingProblem {
                        router: r.id,
                        kind: kind_of.clone(),
                        help: help.clone(),
                    });
                }
            }
        }
        problems
    }
}

/// Routing `kind` built for `netlist`, or `None` with its problems added to `problems`
/// (at each router using it): tables above [`TABLE_LIMIT`] (refused before they are
/// built) or failing to allocate, or a topology it does not fit.
fn constructed(
    kind: RoutingKind,
    netlist: &Netlist,
    problems: &mut Vec<RoutingProblem>,
) -> Option<Arc<dyn RoutingFunction>> {
    let users = |r: &flitsim_netlist::RouterSpec| r.config.routing == kind;
    let bytes = table_bytes(kind, netlist);
    if bytes > TABLE_LIMIT {
        for r in netlist.routers().filter(|r| users(r)) {
            let limit = format!("the {TABLE_LIMIT} bytes they may use");
            problems.push(tables_too_large(r.id, kind, bytes, limit));
        }
        return None;
    }
    match construct(kind, netlist) {
        Ok(f) => Some(f),
        Err(RoutingMismatch::DoesNotFit {
            routing,
            topology,
            help,
        }) => {
            for r in netlist.routers().filter(|r| users(r)) {
                problems.push(RoutingProblem {
                    router: r.id,
                    kind: RoutingProblemKind::DoesNotFit {
                        routing: routing.clone(),
                        topology: topology.clone(),
                    },
                    help: help.clone(),
                });
            }
            None
        }
        Err(RoutingMismatch::TablesTooLarge { bytes, .. }) => {
            for r in netlist.routers().filter(|r| users(r)) {
                let limit = "what this process could allocate".to_string();
                problems.push(tables_too_large(r.id, kind, bytes, limit));
            }
            None
        }
        Err(RoutingMismatch::TooFewVcs { .. } | RoutingMismatch::ClassVcs { .. }) => {
            unreachable!("unchecked build")
        }
    }
}

/// The refusal of routing `kind` at router `router` whose tables need `bytes`, more than
/// `limit` (what they exceed, for the message).
fn tables_too_large(
    router: flitsim_netlist::RouterId,
    kind: RoutingKind,
    bytes: u64,
    limit: String,
) -> RoutingProblem {
    RoutingProblem {
        router,
        kind: RoutingProblemKind::TablesTooLarge {
            routing: kind_name(kind).to_string(),
            bytes,
            limit,
        },
        help: help(kind),
    }
}

/// The static deadlock check's finding against `f` on `netlist`: a dependency cycle, or
/// a check too large to run; `None` when acyclic or above the work limit.
fn static_check(
    kind: RoutingKind,
    f: &dyn RoutingFunction,
    netlist: &Netlist,
) -> Option<(RoutingProblemKind, String)> {
    match cdg::dependency_cycle(f, netlist) {
        Ok(Some(cycle)) => Some((
            RoutingProblemKind::DependencyCycle {
                routing: kind_name(kind).to_string(),
                channels: cdg::cycle_names(netlist, &cycle),
            },
            cdg::cycle_help(kind),
        )),
        Err(cdg::NotChecked::Memory { bytes }) => Some((
            RoutingProblemKind::CheckTooLarge {
                routing: kind_name(kind).to_string(),
                bytes,
            },
            "check a smaller instance of the same family or fewer VCs (`--set vcs=N`)".into(),
        )),
        Ok(None) | Err(cdg::NotChecked::Work { .. }) => None,
    }
}
