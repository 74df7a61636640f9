//! Routing functions: which (output port, VC range) pairs a head flit may request.
//!
//! A routing function is a pure function of the geometry (precomputed per router at build
//! time, so petgraph never appears in the cycle loop), the current router, the input port
//! and VC the head arrived on, and the destination. It returns its candidates in a
//! [`RouteSet`]; choosing among the free ones is the [`selection`] function's job, done
//! during VC allocation.
//!
//! The registry is closed: [`build`] maps a [`RoutingKind`] and a [`Netlist`] to a boxed
//! function or a [`RoutingMismatch`]; [`RoutingRegistry`] exposes the same checks to
//! netlist validation through [`flitsim_netlist::RoutingRequirements`].
//!
//! | name            | topology       | file                     | VC classes |
//! |-----------------|----------------|--------------------------|------------|
//! | `dor`           | mesh           | `dor_mesh.rs`            | 1          |
//! | `dor`           | torus, ring    | `dor_torus_dateline.rs`  | 2          |
//! | `dor`           | hypercube      | `ecube.rs`               | 1          |
//! | `dor-nodateline`| torus, ring    | `dor_nodateline.rs`      | 1 (deadlock-prone) |
//! | `duato`         | torus, ring, mesh | `duato_minimal.rs`    | 2 escape (1 on a mesh) + >= 1 adaptive |
//! | `duato-nbc`     | torus, ring, mesh | `duato_nbc.rs`        | 1 + max negative hops escape + >= 1 adaptive |
//! | `quaglia`       | 2-D torus      | `quaglia_adaptive.rs`    | 2 escape + >= 1 adaptive (paper: 4 VCs) |
//! | `minimal-adaptive` | torus, ring, mesh | `minimal_adaptive.rs` | 1 (deadlock-free with unbounded VCT storage only) |
//! | `pcube`         | hypercube      | `pcube.rs`               | 1          |
//! | `west-first`    | 2-D mesh       | `west_first.rs`          | 1          |
//! | `north-last`    | 2-D mesh       | `north_last.rs`          | 1          |
//! | `negative-first`| mesh           | `negative_first.rs`      | 1          |
//! | `source`        | any netlist    | `source.rs`              | 1 (up*/down* paths) |
//! | `table`         | any netlist    | `table.rs`               | 1 (up*/down* paths) |
//!
//! Adaptive functions return every allowed candidate; the selection function picks among
//! the free ones in VA, from the output VC state as of the start of that stage (the
//! congestion snapshot: nothing committed in the same cycle is visible). Functions built
//! on Duato's methodology declare their escape VCs ([`RoutingFunction::escape_vcs`]):
//! selection prefers a free adaptive candidate and falls back to the escape ones, and the
//! static check ([`cdg`]) builds the escape sub-network's extended dependency graph.

pub mod cdg;
pub mod dor_mesh;
pub mod dor_nodateline;
pub mod dor_torus_dateline;
pub mod duato_minimal;
pub mod duato_nbc;
pub mod ecube;
mod geometry;
pub mod minimal_adaptive;
pub mod negative_first;
pub mod north_last;
pub mod pcube;
pub mod quaglia_adaptive;
pub mod selection;
pub mod source;
pub mod table;
mod updown;
pub mod west_first;

use flitsim_netlist::{
    DatelineRule, Dir, DorTie, InPort, Netlist, OutPort, RouterId, RoutingKind, RoutingProblem,
    RoutingProblemKind, RoutingRequirements, TerminalId, Topology, VcId, TERMINAL_PORT,
};
use smallvec::SmallVec;
use std::sync::Arc;

pub use geometry::Geometry;
pub use selection::Selection;

/// A contiguous range of VCs `lo..hi` (half open) of one output port.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct VcRange {
    /// First VC of the range.
    pub lo: u8,
    /// One past the last VC of the range.
    pub hi: u8,
}

impl VcRange {
    /// The range `lo..hi`.
    pub fn new(lo: u8, hi: u8) -> VcRange {
        debug_assert!(lo <= hi);
        VcRange { lo, hi }
    }

    /// Does the range contain `vc`?
    pub fn contains(self, vc: VcId) -> bool {
        self.lo <= vc.0 && vc.0 < self.hi
    }

    /// The VCs of the range in increasing order.
    pub fn iter(self) -> impl Iterator<Item = VcId> {
        (self.lo..self.hi).map(VcId)
    }

    /// Number of VCs in the range.
    pub fn len(self) -> usize {
        usize::from(self.hi - self.lo)
    }

    /// True when the range holds no VC.
    pub fn is_empty(self) -> bool {
        self.hi <= self.lo
    }
}

/// One routing candidate: an output port and the downstream VCs the packet may take there.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Candidate {
    /// Output port.
    pub port: OutPort,
    /// Allowed downstream VCs on that port (a VC class).
    pub vcs: VcRange,
}

/// The candidates of one route computation, inline for up to eight (no allocation on the
/// cycle path for the routing functions of this crate on 2-D tori: Duato-Nbc offers an
/// adaptive and an escape candidate on each of up to four minimal ports).
pub type RouteSet = SmallVec<[Candidate; 8]>;

/// Where a head flit is when it is routed.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct RouteCtx {
    /// The router doing the route computation.
    pub router: RouterId,
    /// The input port the head arrived on (port 0: injected by the terminal).
    pub in_port: InPort,
    /// The input VC the head occupies (its VC class tells dateline routing where it is).
    pub in_vc: VcId,
}

/// A routing function (see the module docs). Implementations precompute their per-router
/// tables at build time and never allocate in [`RoutingFunction::route`].
pub trait RoutingFunction: Send + Sync {
    /// The registry name (`dor`, `dor-nodateline`).
    fn name(&self) -> &'static str;

    /// VC classes the function needs on every router-to-router channel (deadlock
    /// avoidance); validated against the ports' VC counts by [`build`].
    fn vc_classes(&self) -> u8;

    /// Candidates for a head at `ctx` bound for `dest`, appended to `out` (cleared first).
    /// At the destination router the only candidate is the ejection port 0 with all VCs.
    /// For functions that route per packet (`source`) this is the union over packets.
    fn route(&self, ctx: &RouteCtx, dest: TerminalId, out: &mut RouteSet);

    /// Candidates for the head flit `head` (what the router calls). The default routes on
    /// the destination alone; `source` routing reads the path the head carries.
    fn route_packet(&self, ctx: &RouteCtx, head: &crate::Flit, out: &mut RouteSet) {
        self.route(ctx, head.dest, out);
    }

    /// Duato's methodology: `Some(e)` when VCs `0..e` of every router-to-router port are
    /// escape VCs (their extended dependency graph must be acyclic) and the others are
    /// adaptive; `None` when every VC counts (the plain dependency graph must be acyclic).
    fn escape_vcs(&self) -> Option<u8> {
        None
    }

    /// The output port dimension-order routing would take at `router` toward `dest`
    /// (the reference of `adaptive_hops_fraction`); `None` without coordinates.
    fn dimension_order_port(&self, router: RouterId, dest: TerminalId) -> Option<OutPort> {
        let _ = (router, dest);
        None
    }

    /// True when every head routed away from its destination router leaves on
    /// [`RoutingFunction::dimension_order_port`] (the dimension-order family), so a router
    /// counts its hops for `adaptive_hops_fraction` without asking.
    fn is_dimension_order(&self) -> bool {
        false
    }
}

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
}

/// The registry name of a routing kind (the kebab-case name of netlists and the CLI).
pub fn kind_name(kind: RoutingKind) -> &'static str {
    match kind {
        RoutingKind::Dor => "dor",
        RoutingKind::DorNoDateline => "dor-nodateline",
        RoutingKind::Duato => "duato",
        RoutingKind::DuatoNbc => "duato-nbc",
        RoutingKind::Quaglia => "quaglia",
        RoutingKind::MinimalAdaptive => "minimal-adaptive",
        RoutingKind::Pcube => "pcube",
        RoutingKind::WestFirst => "west-first",
        RoutingKind::NorthLast => "north-last",
        RoutingKind::NegativeFirst => "negative-first",
        RoutingKind::Source => "source",
        RoutingKind::Table => "table",
    }
}

/// A short description of a topology for messages (`torus 8x8`, `hypercube of dimension 6`).
pub fn describe_topology(t: &Topology) -> String {
    let join = |r: &[u32]| {
        r.iter()
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
            .join("x")
    };
    match t {
        Topology::Torus { radix } => format!("torus {}", join(radix)),
        Topology::Mesh { radix } => format!("mesh {}", join(radix)),
        Topology::Hypercube { dim } => format!("hypercube of dimension {dim}"),
        Topology::Ring { n } => format!("ring of {n}"),
        Topology::Explicit => "an explicit netlist without generator geometry".to_string(),
    }
}

/// Builds the routing function `kind` for `netlist`, checking that it fits the topology
/// and that every router-to-router input port has enough VCs for its classes.
pub fn build(
    kind: RoutingKind,
    netlist: &Netlist,
) -> Result<Arc<dyn RoutingFunction>, RoutingMismatch> {
    let f = construct(kind, netlist)?;
    check_vcs(kind, f.vc_classes(), netlist)?;
    Ok(f)
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
    let cycle = cdg::dependency_cycle(f.as_ref(), netlist)?;
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

/// The fewest VCs of any router-to-router input port.
fn min_network_vcs(netlist: &Netlist) -> u8 {
    netlist
        .routers()
        .flat_map(|r| r.ports.iter().skip(1).map(|p| p.vcs))
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
fn construct(
    kind: RoutingKind,
    netlist: &Netlist,
) -> Result<Arc<dyn RoutingFunction>, RoutingMismatch> {
    Ok(match (kind, &netlist.topology) {
        (RoutingKind::Dor, Topology::Mesh { .. }) => {
            Arc::new(dor_mesh::DorMesh::new(Geometry::new(netlist, kind)?))
        }
        (RoutingKind::Dor, Topology::Torus { .. } | Topology::Ring { .. }) => {
            let (tie, dateline) = dor_rules(netlist);
            Arc::new(dor_torus_dateline::DorTorusDateline::new(
                Geometry::new(netlist, kind)?,
                tie,
                dateline,
            ))
        }
        (RoutingKind::Dor, Topology::Hypercube { .. }) => {
            Arc::new(ecube::Ecube::new(Geometry::new(netlist, kind)?))
        }
        (RoutingKind::DorNoDateline, Topology::Torus { .. } | Topology::Ring { .. }) => Arc::new(
            dor_nodateline::DorNoDateline::new(Geometry::new(netlist, kind)?),
        ),
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
        )),
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
        (RoutingKind::Source, _) => Arc::new(source::SourceRouting::new(netlist)),
        (RoutingKind::Table, _) => Arc::new(table::TableRouting::new(netlist)),
        (_, t) => return Err(does_not_fit(kind, t)),
    })
}

/// The help of `dor` on a netlist without coordinates.
pub(crate) const DOR_NEEDS_COORDINATES: &str = "dor needs coordinates: set `routing = \"table\"` \
     under [defaults] (shortest paths, with the static deadlock check), or give the netlist a \
     [topology] table or use a torus, mesh, ring or hypercube generator";

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
        for (p, port) in r.ports.iter().enumerate().skip(1) {
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
            let f = match construct(kind, netlist) {
                Ok(f) => f,
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
                    continue;
                }
                Err(RoutingMismatch::TooFewVcs { .. }) => unreachable!("unchecked build"),
            };
            let classes = f.vc_classes();
            let before = problems.len();
            for r in netlist.routers().filter(|r| users(r)) {
                let have = r.ports.iter().skip(1).map(|p| p.vcs).min();
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
            // The static deadlock check, once the function fits and has its VCs (and only
            // when every router runs it: the engine shares one function).
            if problems.len() == before
                && netlist.routers().all(users)
                && !warn_only(netlist)
                && !cdg::deadlock_free_by_storage(f.as_ref(), netlist)
            {
                if let Some(cycle) = cdg::dependency_cycle(f.as_ref(), netlist) {
                    let channels = cdg::cycle_names(netlist, &cycle);
                    for r in netlist.routers() {
                        problems.push(RoutingProblem {
                            router: r.id,
                            kind: RoutingProblemKind::DependencyCycle {
                                routing: kind_name(kind).to_string(),
                                channels: channels.clone(),
                            },
                            help: cdg::cycle_help(kind),
                        });
                    }
                }
            }
        }
        problems
    }
}

/// Router-to-router hops `routing` takes from `src` to `dst` at zero load (always taking
/// the first candidate, which is the selection of an idle network).
///
/// # Panics
/// If the route does not reach `dst` within as many hops as the netlist has routers (a
/// broken routing function).
pub fn route_hops(
    routing: &dyn RoutingFunction,
    netlist: &Netlist,
    src: RouterId,
    dst: RouterId,
) -> u32 {
    let dest = TerminalId(dst.0);
    let mut ctx = RouteCtx {
        router: src,
        in_port: InPort(TERMINAL_PORT),
        in_vc: VcId(0),
    };
    let mut set = RouteSet::new();
    for hops in 0..=netlist.num_routers() as u32 {
        routing.route(&ctx, dest, &mut set);
        let c = set[0];
        if c.port.0 == TERMINAL_PORT {
            assert_eq!(
                ctx.router,
                dst,
                "routing {} ejected at the wrong router",
                routing.name()
            );
            return hops;
        }
        let ch = netlist
            .out_channel(ctx.router, c.port)
            .unwrap_or_else(|| panic!("routing {} chose an unconnected port", routing.name()));
        let ch = netlist.channel(ch);
        ctx = RouteCtx {
            router: ch.to,
            in_port: ch.to_port,
            in_vc: VcId(c.vcs.lo),
        };
    }
    panic!("routing {} does not reach {dst} from {src}", routing.name());
}

/// Zero-load router-to-router hops of routing `kind` from `src` to `dst` (for the
/// zero-load latency formula). Builds the routing function; for many pairs build it once
/// with [`build`] and call [`route_hops`].
///
/// # Errors
/// `kind` does not fit the netlist (as [`build`]).
pub fn hops(
    kind: RoutingKind,
    netlist: &Netlist,
    src: RouterId,
    dst: RouterId,
) -> Result<u32, RoutingMismatch> {
    let f = build(kind, netlist)?;
    Ok(route_hops(f.as_ref(), netlist, src, dst))
}

/// The candidate of every VC of output `port` at `here`.
pub(crate) fn whole_port(geo: &Geometry, here: RouterId, port: u8) -> Candidate {
    Candidate {
        port: OutPort(port),
        vcs: VcRange::new(0, geo.out_vcs(here, port)),
    }
}

/// The ejection candidate: port 0 with every VC of the router's terminal port.
pub(crate) fn eject(vcs: u8) -> Candidate {
    Candidate {
        port: OutPort(TERMINAL_PORT),
        vcs: VcRange::new(0, vcs),
    }
}

/// One-class dimension-order routing (mesh DOR, torus DOR without datelines, e-cube):
/// every VC of the [`Geometry::dor_port`] toward `dest` (lowest differing dimension,
/// minimal direction, ties `Plus`; hypercube: flip the lowest differing bit), or ejection
/// at the destination.
pub(crate) fn dor_route(geo: &Geometry, here: RouterId, dest: TerminalId, out: &mut RouteSet) {
    out.clear();
    out.push(match geo.dor_port(here, RouterId(dest.0)) {
        Some(port) => whole_port(geo, here, port),
        None => eject(geo.terminal_vcs(here)),
    });
}

/// A turn model on a 2-D mesh (dimension 0 = X, 1 = Y): eject at the destination; else
/// the one hop `forced(dx, dy)` names (dimension, direction), where the model's forbidden
/// turns leave no choice; else every minimal direction, X before Y, on every VC. `dx`, `dy`
/// are the minimal directions left in X and Y ([`Geometry::offset`]).
pub(crate) fn turn_model_route(
    geo: &Geometry,
    here: RouterId,
    dest: TerminalId,
    out: &mut RouteSet,
    forced: impl Fn(Option<Dir>, Option<Dir>) -> Option<(usize, Dir)>,
) {
    out.clear();
    let there = RouterId(dest.0);
    let (dx, dy) = (geo.offset(here, there, 0), geo.offset(here, there, 1));
    if dx.is_none() && dy.is_none() {
        out.push(eject(geo.terminal_vcs(here)));
    } else if let Some((d, dir)) = forced(dx, dy) {
        out.push(whole_port(geo, here, geo.port(here, d, dir)));
    } else {
        for (d, dir) in [(0, dx), (1, dy)] {
            if let Some(dir) = dir {
                out.push(whole_port(geo, here, geo.port(here, d, dir)));
            }
        }
    }
}

#[cfg(test)]
pub(crate) mod testutil;

#[cfg(test)]
mod tests {
    use super::testutil::*;
    use super::*;

    #[test]
    fn registry_reports_too_few_vcs_per_router() {
        let n = torus(&[3, 3], 1);
        let problems = RoutingRegistry.check(&n);
        assert_eq!(problems.len(), 9);
        for (i, p) in problems.iter().enumerate() {
            assert_eq!(p.router, RouterId(i as u32));
            assert_eq!(
                p.kind,
                RoutingProblemKind::TooFewVcs {
                    routing: "dor".into(),
                    needed: 2,
                    have: 1
                }
            );
            assert!(p.help.contains("vcs >= 2"));
        }
        assert!(RoutingRegistry.check(&torus(&[3, 3], 2)).is_empty());
        assert!(RoutingRegistry.check(&mesh(&[3, 3], 1)).is_empty());
        assert!(RoutingRegistry.check(&hypercube(3, 1)).is_empty());
    }

    #[test]
    fn registry_reports_misfits() {
        let mut n = mesh(&[2, 2], 2);
        for r in 0..4 {
            n.router_mut(RouterId(r)).config.routing = RoutingKind::DorNoDateline;
        }
        let problems = RoutingRegistry.check(&n);
        assert_eq!(problems.len(), 4);
        assert!(matches!(
            &problems[0].kind,
            RoutingProblemKind::DoesNotFit { routing, topology }
                if routing == "dor-nodateline" && topology == "mesh 2x2"
        ));
        let mut e = torus(&[3], 2);
        e.topology = Topology::Explicit;
        assert!(matches!(
            build(RoutingKind::Dor, &e),
            Err(RoutingMismatch::DoesNotFit { .. })
        ));
        assert_eq!(RoutingRegistry.check(&e).len(), 3);
    }

    #[test]
    fn hops_follow_the_topologies_distance_formulas() {
        // Torus: sum over dimensions of min(|d|, k - |d|); mesh: sum of |d|.
        let radix = [5u32, 4];
        let t = torus(&radix, 2);
        let m = mesh(&radix, 1);
        let coord = |i: u32| [i % 5, i / 5];
        for s in 0..20u32 {
            for d in 0..20u32 {
                let (a, b) = (coord(s), coord(d));
                let ring: u32 = (0..2)
                    .map(|k| {
                        let x = a[k].abs_diff(b[k]);
                        x.min(radix[k] - x)
                    })
                    .sum();
                let line: u32 = (0..2).map(|k| a[k].abs_diff(b[k])).sum();
                assert_eq!(
                    hops(RoutingKind::Dor, &t, RouterId(s), RouterId(d)),
                    Ok(ring)
                );
                assert_eq!(
                    hops(RoutingKind::Dor, &m, RouterId(s), RouterId(d)),
                    Ok(line)
                );
            }
        }
        // A routing that does not fit is an error, not a panic.
        assert!(matches!(
            hops(RoutingKind::Pcube, &t, RouterId(0), RouterId(1)),
            Err(RoutingMismatch::DoesNotFit { .. })
        ));
    }

    #[test]
    fn dateline_classes_switch_at_the_wrap_and_reset_between_dimensions() {
        // 4x4 torus, 4 VCs: class 0 = VCs 0..2, class 1 = VCs 2..4. From (3,0) to (1,1):
        // x goes Plus over the wrap 3 -> 0 (class 1), 0 -> 1 (stays class 1), then y
        // starts again in class 0.
        let mut n = torus(&[4, 4], 4);
        n.set("dateline", "wrap").unwrap();
        let f = build(RoutingKind::Dor, &n).unwrap();
        let dest = TerminalId(1 + 4);
        let mut ctx = RouteCtx {
            router: RouterId(3),
            in_port: InPort(0),
            in_vc: VcId(0),
        };
        let mut set = RouteSet::new();
        let mut classes = Vec::new();
        loop {
            f.route(&ctx, dest, &mut set);
            let c = set[0];
            if c.port.0 == TERMINAL_PORT {
                break;
            }
            classes.push((c.vcs.lo, c.vcs.hi));
            let ch = n.channel(n.out_channel(ctx.router, c.port).unwrap());
            ctx = RouteCtx {
                router: ch.to,
                in_port: ch.to_port,
                in_vc: VcId(c.vcs.hi - 1),
            };
        }
        assert_eq!(ctx.router, RouterId(5));
        assert_eq!(classes, vec![(2, 4), (2, 4), (0, 2)]);
    }
}

/// The same checks on the netlist crate's own generators (their port naming and
/// coordinates, not just this crate's test netlists).
#[cfg(test)]
mod generator_tests {
    use super::testutil::*;
    use super::*;
    use flitsim_netlist::topology;

    #[test]
    fn dor_is_minimal_and_acyclic_on_generated_netlists() {
        for n in [
            topology::torus(&[4, 4]),
            topology::torus(&[3, 5]),
            topology::ring(6),
            topology::mesh(&[4, 3]),
            topology::hypercube(4),
        ] {
            let f = build(RoutingKind::Dor, &n).unwrap_or_else(|e| panic!("{}: {e}", n.name));
            assert_minimal(f.as_ref(), &n);
            assert!(!dependency_graph_is_cyclic(f.as_ref(), &n), "{}", n.name);
        }
    }

    #[test]
    fn dor_nodateline_is_cyclic_on_generated_tori() {
        for n in [topology::torus(&[4, 4]), topology::ring(5)] {
            let f = build(RoutingKind::DorNoDateline, &n).unwrap();
            assert_minimal(f.as_ref(), &n);
            assert!(dependency_graph_is_cyclic(f.as_ref(), &n), "{}", n.name);
        }
    }

    /// `is_dimension_order` holds for the dimension-order family only, and there every
    /// network candidate, from every input port and VC of every router toward every
    /// destination, is the `dimension_order_port`.
    #[test]
    fn dimension_order_functions_route_on_the_dimension_order_port() {
        let kinds = [
            RoutingKind::Dor,
            RoutingKind::DorNoDateline,
            RoutingKind::Duato,
            RoutingKind::DuatoNbc,
            RoutingKind::Quaglia,
            RoutingKind::MinimalAdaptive,
            RoutingKind::Pcube,
            RoutingKind::WestFirst,
            RoutingKind::NorthLast,
            RoutingKind::NegativeFirst,
            RoutingKind::Source,
            RoutingKind::Table,
        ];
        let mut set = RouteSet::new();
        let mut checked = 0;
        for mut n in [
            topology::torus(&[4, 4]),
            topology::torus(&[3, 5]),
            topology::torus(&[2, 3, 4]),
            topology::ring(6),
            topology::mesh(&[4, 3]),
            topology::mesh(&[3, 2, 3]),
            topology::hypercube(4),
        ] {
            for r in 0..n.num_routers() {
                for p in &mut n.router_mut(RouterId(r as u32)).ports {
                    p.vcs = 4;
                }
            }
            for kind in kinds {
                let Ok(f) = build(kind, &n) else { continue };
                let family = matches!(kind, RoutingKind::Dor | RoutingKind::DorNoDateline);
                assert_eq!(f.is_dimension_order(), family, "{} on {}", f.name(), n.name);
                if !family {
                    continue;
                }
                for r in n.routers() {
                    for (p, port) in r.ports.iter().enumerate() {
                        for vc in 0..port.vcs {
                            let ctx = RouteCtx {
                                router: r.id,
                                in_port: InPort(p as u8),
                                in_vc: VcId(vc),
                            };
                            for t in 0..n.num_routers() as u32 {
                                let dest = TerminalId(t);
                                f.route(&ctx, dest, &mut set);
                                // At a balanced tie the union holds the `Minus` port too,
                                // after the dimension-order (`Plus`) one.
                                let first = set.iter().find(|c| c.port.0 != TERMINAL_PORT);
                                if let Some(c) = first {
                                    assert_eq!(
                                        f.dimension_order_port(r.id, dest),
                                        Some(c.port),
                                        "{} on {} at {} toward {t}",
                                        f.name(),
                                        n.name,
                                        r.id
                                    );
                                    checked += 1;
                                }
                            }
                        }
                    }
                }
            }
        }
        assert!(checked > 10_000, "{checked} candidates checked");
    }
}
