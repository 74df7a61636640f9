//! flitsim-routing: the routing functions, which (output port, VC range) pairs a head flit
//! may request.
//!
//! A routing function is a pure function of the geometry (precomputed per router at build
//! time, so petgraph never appears in the cycle loop), the current router, the input port
//! and VC the head arrived on, and the destination (and the packet id, for the functions
//! that spread packets over paths). It returns its candidates in a [`RouteSet`]; choosing
//! among the free ones is the [`selection`] function's job, done during VC allocation.
//! [`walk`] follows one packet's route in an idle network, terminal to terminal.
//!
//! The registry is closed: [`build`] maps a [`flitsim_netlist::RoutingKind`] and a
//! [`flitsim_netlist::Netlist`] to a boxed function or a [`RoutingMismatch`];
//! [`RoutingRegistry`] exposes the same checks to netlist validation through
//! [`flitsim_netlist::RoutingRequirements`].
//!
//! | name            | topology       | file in `functions/`     | VC classes |
//! |-----------------|----------------|--------------------------|------------|
//! | `dor`           | mesh           | `dimension_order.rs`     | 1          |
//! | `dor`           | torus, ring    | `dor_torus_dateline.rs`  | 2          |
//! | `dor`           | hypercube      | `dimension_order.rs` (e-cube) | 1     |
//! | `dor-nodateline`| torus, ring    | `dimension_order.rs`     | 1 (deadlock-prone) |
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
//! | `minimal`       | dragonfly      | `dragonfly.rs`           | 2 (local), 1 (global) |
//! | `valiant`       | dragonfly      | `dragonfly.rs`           | 3 (local), 2 (global) |
//! | `ugal-l`        | dragonfly      | `dragonfly.rs`           | 4 (local), 2 (global) |
//! | `minimal`       | HyperX         | `hyperx.rs`              | 1          |
//! | `valiant`       | HyperX         | `hyperx.rs`              | 2          |
//! | `ugal-l`        | HyperX         | `hyperx.rs`              | 2          |
//!
//! Every function routes toward the destination's router and ejects on port 0; with
//! `c > 1` terminals per router, `concentration.rs` wraps it (see there).
//!
//! Adaptive functions return every allowed candidate; the selection function picks among
//! the free ones in VA, from the output VC state as of the start of that stage (the
//! congestion snapshot: nothing committed in the same cycle is visible). Functions built
//! on Duato's methodology declare their escape VCs ([`RoutingFunction::escape_vcs`]):
//! selection prefers a free adaptive candidate and falls back to the escape ones, and the
//! static check ([`cdg`]) builds the escape sub-network's extended dependency graph.

#![warn(missing_docs)]

pub mod cdg;
mod cdg_explore;
mod classes;
pub mod committed;
mod concentration;
mod describe;
mod function;
pub mod functions;
mod geometry;
mod mismatch;
mod registry;
pub mod selection;
mod table_size;
mod validation;
mod walk;

pub use describe::{describe_topology, kind_name};
pub use function::{Candidate, RouteCtx, RouteSet, RoutingFunction, VcRange, ROUTE_INLINE};
pub use geometry::Geometry;
pub use mismatch::RoutingMismatch;
pub use registry::{build, deadlock_check_method, deadlock_warning, warn_only};
pub use selection::Selection;
pub use table_size::{table_bytes, TABLE_LIMIT};
pub use validation::RoutingRegistry;
pub use walk::{hops, walk, Hop};

#[cfg(test)]
pub(crate) mod testutil;

#[cfg(test)]
mod tests;
