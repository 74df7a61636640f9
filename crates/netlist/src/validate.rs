//! Checks that need more than the file: the routing function's fit (through the
//! [`RoutingRequirements`] hook the router crate implements) and buffer depths under
//! virtual cut-through / store-and-forward (which need the packet length, a property of
//! the traffic, not of the netlist).
//!
//! The structural checks (keys, names, endpoints, ports, latencies, VCs, depths,
//! connectivity, declared topology) run while loading: see [`crate::format`](mod@crate::format).

use crate::config::{BufferDepth, Switching};
use crate::error::{Diagnostics, Location, NetlistError};
use crate::ids::{InPort, RouterId};
use crate::netlist::Netlist;
use crate::routing_check::{RoutingProblemKind, RoutingRequirements};
use std::collections::BTreeMap;
use std::path::Path;

/// `""` or `" and N other routers"`.
fn others(n: usize, what: &str) -> String {
    match n {
        0 => String::new(),
        1 => format!(" and 1 other {what}"),
        n => format!(" and {n} other {what}s"),
    }
}

/// Asks `req` whether each router's routing function fits the netlist; each problem is
/// located at the `routing` key in force for that router (the router's own, else the
/// `[defaults]` one). Routers with the same problem at the same key give one error.
pub fn check_routing(netlist: &Netlist, req: &dyn RoutingRequirements) -> Result<(), Diagnostics> {
    let loc = Locator::new(netlist);
    // (location, problem) -> routers, in first-seen order of routers.
    let mut groups: BTreeMap<(Location, String), (Vec<RouterId>, RoutingProblemKind, String)> =
        BTreeMap::new();
    for p in req.check(netlist) {
        if p.router.index() >= netlist.num_routers() {
            continue;
        }
        let at = loc.param(p.router, None, "routing");
        let key = (at, format!("{:?}", p.kind));
        groups
            .entry(key)
            .or_insert_with(|| (Vec::new(), p.kind.clone(), p.help.clone()))
            .0
            .push(p.router);
    }
    let mut errors = Vec::new();
    for ((at, _), (mut routers, kind, help)) in groups {
        routers.sort();
        let first = netlist.router(routers[0]).name.clone();
        let others = others(routers.len() - 1, "router");
        errors.push(match kind {
            RoutingProblemKind::DoesNotFit { routing, topology } => {
                NetlistError::RoutingDoesNotFit {
                    at,
                    routing,
                    topology,
                    router: first,
                    others,
                    help,
                }
            }
            RoutingProblemKind::TooFewVcs {
                routing,
                needed,
                have,
            } => NetlistError::TooFewVcs {
                at,
                routing,
                needed,
                have,
                router: first,
                others,
                help,
            },
            RoutingProblemKind::MessageClasses { routing, detail } => {
                NetlistError::MessageClassesDoNotFit {
                    at,
                    routing,
                    detail,
                    help,
                }
            }
            RoutingProblemKind::DependencyCycle { routing, channels } => {
                NetlistError::RoutingDependencyCycle {
                    at,
                    routing,
                    channels,
                    help,
                }
            }
            RoutingProblemKind::TablesTooLarge {
                routing,
                bytes,
                limit,
            } => NetlistError::RoutingTablesTooLarge {
                at,
                routing,
                bytes,
                limit,
                help,
            },
            RoutingProblemKind::CheckTooLarge { routing, bytes } => {
                NetlistError::DeadlockCheckTooLarge {
                    at,
                    routing,
                    bytes,
                    help,
                }
            }
        });
    }
    Diagnostics::new(errors).into_result()
}

/// The checks that relate netlist values to one another: the pipeline organisation
/// (`speculative`, `lookahead_routing`) against the stage delays, and the VCT/SAF buffer
/// depth against `max_packet_length` when the netlist sets it. Loading runs them after
/// reading the file and [`Netlist::set_all`] after applying overrides.
pub fn check_settings(netlist: &Netlist) -> Result<(), Diagnostics> {
    let mut errors = check_pipeline(netlist);
    if let Err(d) = check_replies(netlist) {
        errors.extend(d.errors);
    }
    if let Some(len) = netlist.max_packet_length.filter(|&len| len > 0) {
        if let Err(d) = check_vct_depth(netlist, len) {
            errors.extend(d.errors);
        }
    }
    Diagnostics::new(errors).into_result()
}

/// Speculative SA needs VA to finish within the SA stage it runs beside
/// (`vc_alloc_delay <= switch_alloc_delay`); lookahead routing needs the next hop's route
/// computed while the head crosses the stages after RC
/// ([`crate::RouterConfig::after_routing`]). Routers with the same problem at the same
/// key give one error.
fn check_pipeline(netlist: &Netlist) -> Vec<NetlistError> {
    let loc = Locator::new(netlist);
    let mut groups: BTreeMap<(Location, String), (Vec<String>, String)> = BTreeMap::new();
    for r in netlist.routers() {
        let c = &r.config;
        let mut problem = |key: &str, detail: String, help: String| {
            let at = loc.param(r.id, None, key);
            let g = groups
                .entry((at, detail))
                .or_insert_with(|| (Vec::new(), help));
            g.0.push(r.name.clone());
        };
        if c.speculative && c.vc_alloc_delay > c.switch_alloc_delay {
            problem(
                "speculative",
                format!(
                    "speculative switch allocation with vc_alloc_delay {} > switch_alloc_delay {}",
                    c.vc_alloc_delay, c.switch_alloc_delay
                ),
                "VA runs beside SA: set vc_alloc_delay <= switch_alloc_delay, or speculative = false".into(),
            );
        }
        if c.speculative && (c.input_speedup > 1 || c.output_speedup > 1) {
            let key = if c.input_speedup > 1 {
                "input_speedup"
            } else {
                "output_speedup"
            };
            problem(
                key,
                format!(
                    "speculative switch allocation with input_speedup {} and output_speedup {}",
                    c.input_speedup, c.output_speedup
                ),
                "speculative allocation is modelled on a crossbar without speedup: set input_speedup = 1 and output_speedup = 1, or speculative = false".into(),
            );
        }
        if c.lookahead_routing && u64::from(c.routing_delay) > c.after_routing() {
            problem(
                "lookahead_routing",
                format!(
                    "lookahead routing with routing_delay {} > the {} cycles of the stages it overlaps",
                    c.routing_delay,
                    c.after_routing()
                ),
                format!(
                    "set routing_delay <= {} (vc_alloc_delay + switch_alloc_delay + crossbar_delay, without vc_alloc_delay when speculative), or lookahead_routing = false",
                    c.after_routing()
                ),
            );
        }
    }
    groups
        .into_iter()
        .map(
            |((at, detail), (routers, help))| NetlistError::PipelineMismatch {
                at,
                routers: format!("{}{}", routers[0], others(routers.len() - 1, "router")),
                detail,
                help,
            },
        )
        .collect()
}

/// Request/reply traffic is not combined with timeout resets (a reset reply would have
/// to be re-generated at its server), nor with more than one terminal per router (the
/// watchdog knows a router's one ejection buffer).
fn check_replies(netlist: &Netlist) -> Result<(), Diagnostics> {
    let loc = Locator::new(netlist);
    let c = netlist
        .concentration()
        .map_or_else(|| "per router".to_string(), |c| c.to_string());
    let many = netlist.concentration() != Some(1);
    let errors = netlist
        .routers()
        .filter(|r| r.config.reply_length > 0 && (r.config.timeout > 0 || many))
        .take(1)
        .map(|r| NetlistError::BadValue {
            at: loc.param(r.id, None, "reply_length"),
            key: "reply_length".into(),
            message: if many {
                // Per-router terminal counts (a fat tree) have no concentration to lower.
                let fix = match netlist.concentration() {
                    Some(_) => "set `concentration = 1` or `reply_length = 0`",
                    None => "use a network with one terminal per router or `reply_length = 0`",
                };
                format!(
                    "router {} has reply_length = {} and concentration = {c}: request/reply \
                     traffic runs with one terminal per router; {fix}",
                    r.name, r.config.reply_length
                )
            } else {
                format!(
                    "router {} has reply_length = {} and timeout = {}: request/reply traffic \
                     does not run with timeout resets; set `timeout = 0` or `reply_length = 0`",
                    r.name, r.config.reply_length, r.config.timeout
                )
            },
        })
        .collect();
    Diagnostics::new(errors).into_result()
}

/// Under virtual cut-through and store-and-forward a VC must hold a whole packet: every
/// network input port (one fed by a channel) of a `vct` or `saf` router needs
/// `buffer_depth >= max_packet_length` (or `"unbounded"`). The engine calls this with the
/// longest packet its traffic generates; loading calls it when the netlist sets
/// `max_packet_length`. Ports whose depth comes from the same key give one error.
pub fn check_vct_depth(netlist: &Netlist, max_packet_length: u32) -> Result<(), Diagnostics> {
    let loc = Locator::new(netlist);
    let mut groups: BTreeMap<Location, (Vec<String>, u32, Switching)> = BTreeMap::new();
    for r in netlist.routers() {
        if !matches!(r.config.switching, Switching::Vct | Switching::Saf) {
            continue;
        }
        for (i, p) in r.network_ports() {
            let BufferDepth::Flits(depth) = p.buffer_depth else {
                continue;
            };
            if depth >= max_packet_length || netlist.in_channel(r.id, InPort(i as u8)).is_none() {
                continue;
            }
            let at = loc.param(r.id, Some(i), "buffer_depth");
            let g = groups
                .entry(at)
                .or_insert_with(|| (Vec::new(), depth, r.config.switching));
            g.0.push(format!("{}.{}", r.name, p.name));
        }
    }
    let errors = groups
        .into_iter()
        .map(
            |(at, (ports, depth, switching))| NetlistError::VctBufferTooShallow {
                at,
                endpoint: format!("{}{}", ports[0], others(ports.len() - 1, "port")),
                depth,
                packet_length: max_packet_length,
                switching: match switching {
                    Switching::Saf => "saf",
                    _ => "vct",
                }
                .into(),
            },
        )
        .collect();
    Diagnostics::new(errors).into_result()
}

/// Locations for netlists built in code (no file): the netlist's name, no line.
fn fallback(netlist: &Netlist) -> Location {
    Location::file(Path::new(&netlist.name))
}

/// Locating helpers that work with or without a source map.
struct Locator<'a> {
    netlist: &'a Netlist,
}

impl<'a> Locator<'a> {
    fn new(netlist: &'a Netlist) -> Self {
        Locator { netlist }
    }

    fn param(&self, r: RouterId, port: Option<usize>, key: &str) -> Location {
        match &self.netlist.source {
            Some(s) => s.param(r, port, key),
            None => fallback(self.netlist),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::routing_check::{NoRoutingCheck, RoutingProblem};
    use std::path::Path;

    struct PickyRouting;
    impl RoutingRequirements for PickyRouting {
        fn check(&self, n: &Netlist) -> Vec<RoutingProblem> {
            n.routers()
                .map(|r| RoutingProblem {
                    router: r.id,
                    kind: RoutingProblemKind::TooFewVcs {
                        routing: "dor".into(),
                        needed: 2,
                        have: r.config.vcs,
                    },
                    help: "set vcs >= 2".into(),
                })
                .collect()
        }
    }

    const SRC: &str = "[topology]\nkind = \"torus\"\nradix = [3, 3]\n[defaults]\nvcs = 1\nrouting = \"dor\"\nswitching = \"vct\"\nbuffer_depth = 4\n";

    #[test]
    fn routing_problems_are_grouped_at_the_routing_key() {
        let n = crate::parse_str(SRC, Path::new("t.toml")).unwrap();
        assert!(check_routing(&n, &NoRoutingCheck).is_ok());
        let d = check_routing(&n, &PickyRouting).unwrap_err();
        assert_eq!(d.len(), 1);
        assert_eq!(
            d.to_string(),
            "t.toml:6:11: error[too-few-vcs]: routing function `dor` needs 2 VCs per port but has 1 at router r0 and 8 other routers\nhelp: set vcs >= 2"
        );
    }

    #[test]
    fn vct_depth_is_checked_against_the_packet_length() {
        let n = crate::parse_str(SRC, Path::new("t.toml")).unwrap();
        assert!(check_vct_depth(&n, 4).is_ok());
        let d = check_vct_depth(&n, 5).unwrap_err();
        assert_eq!(d.len(), 1);
        let s = d.to_string();
        assert!(s.starts_with("t.toml:8:16: error[vct-buffer-too-shallow]: port r0.east and 35 other ports: buffer depth 4 is below the packet length 5"), "{s}");
        // Declared in the file: loading checks it.
        let e = crate::parse_str(
            &format!("max_packet_length = 8\n{SRC}"),
            Path::new("t.toml"),
        )
        .unwrap_err();
        assert_eq!(e.errors[0].code(), "vct-buffer-too-shallow");
        // Wormhole routers are not concerned.
        let w = crate::topology::torus(&[3, 3]);
        assert!(check_vct_depth(&w, 100).is_ok());
    }

    #[test]
    fn pipeline_organisations_the_delays_cannot_honour_are_refused_at_their_key() {
        let ok = "[topology]\nkind = \"mesh\"\nradix = [2, 2]\n[defaults]\nspeculative = true\nlookahead_routing = true\n";
        let n = crate::parse_str(ok, Path::new("t.toml")).unwrap();
        assert!(n
            .routers()
            .all(|r| r.config.speculative && r.config.lookahead_routing));
        assert_eq!(n.routers().next().unwrap().config.head_latency(), 2);
        let slow_va = format!("{ok}vc_alloc_delay = 2\n");
        let e = crate::parse_str(&slow_va, Path::new("t.toml")).unwrap_err();
        assert_eq!(
            e.to_string(),
            "t.toml:5:15: error[pipeline-mismatch]: router r0 and 3 other routers: speculative switch allocation with vc_alloc_delay 2 > switch_alloc_delay 1\nhelp: VA runs beside SA: set vc_alloc_delay <= switch_alloc_delay, or speculative = false"
        );
        // rd = 3 > sd + xd = 2 under speculation; by `--set`, the same check.
        let mut m = crate::topology::mesh(&[2, 2]);
        let d = m
            .set_all([
                ("lookahead_routing", "true"),
                ("speculative", "true"),
                ("routing_delay", "3"),
            ])
            .unwrap_err();
        assert_eq!(d.errors[0].code(), "pipeline-mismatch");
        assert!(d.errors[0].help().contains("routing_delay <= 2"), "{d}");
        let mut m = crate::topology::mesh(&[2, 2]);
        m.set_all([("lookahead_routing", "true"), ("routing_delay", "3")])
            .unwrap();
        assert!(m.set("speculative", "yes").is_err());
    }
}
