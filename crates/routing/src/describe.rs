//! How routing kinds and topologies are named in messages (a leaf: the registry, the
//! geometry and the static check all name them).

use flitsim_netlist::{RoutingKind, Topology};

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
        RoutingKind::Minimal => "minimal",
        RoutingKind::Valiant => "valiant",
        RoutingKind::UgalL => "ugal-l",
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
        Topology::Dragonfly { a, h } => format!("dragonfly a={a} h={h}"),
        Topology::HyperX { radix } => format!("hyperx {}", join(radix)),
        Topology::FatTree { k, n } => format!("fat tree {k}-ary {n}-tree"),
        Topology::Explicit => "an explicit netlist without generator geometry".to_string(),
    }
}

/// The help of `dor` on a netlist without coordinates.
pub const DOR_NEEDS_COORDINATES: &str = "dor needs coordinates: set `routing = \"table\"` \
     under [defaults] (shortest paths, with the static deadlock check), or give the netlist a \
     [topology] table or use a torus, mesh, ring or hypercube generator";
