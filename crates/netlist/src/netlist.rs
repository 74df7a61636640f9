//! The netlist IR: routers (with their parameters and ports) as nodes of a petgraph
//! `DiGraph`, unidirectional router-to-router channels as its edges.
//!
//! Architecture invariant: node index `i` is `RouterId(i)`, edge index `i` is
//! `ChannelId(i)`. Terminal ids run router by router over each router's terminal ports
//! `0..terminals` ([`crate::TerminalMap`]); with concentration `c` (every router has `c`),
//! terminal `t` hangs off router `t / c` on port `t % c`.
//! Everything else in flitsim (the engine's flat arrays, routing tables, DOT) is built
//! from this graph; petgraph never appears in the cycle loop.

use crate::config::{BufferDepth, RouterConfig};
use crate::ids::{ChannelId, InPort, OutPort, RouterId, TerminalId};
use petgraph::graph::{DiGraph, EdgeIndex, NodeIndex};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// Direction along a dimension.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Dir {
    /// Towards increasing coordinate (wrapping on a torus).
    Plus,
    /// Towards decreasing coordinate (wrapping on a torus).
    Minus,
}

/// The geometry a generator produced (routing functions use it); `Explicit` has none.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Topology {
    /// k-ary n-cube: `radix[d]` routers along dimension `d`, with wrap-around channels.
    Torus {
        /// Routers per dimension.
        radix: Vec<u32>,
    },
    /// Mesh: `radix[d]` routers along dimension `d`, no wrap-around.
    Mesh {
        /// Routers per dimension.
        radix: Vec<u32>,
    },
    /// Binary hypercube of dimension `dim` (2^dim routers).
    Hypercube {
        /// Number of dimensions.
        dim: u32,
    },
    /// Bidirectional ring of `n` routers (a 1-D torus).
    Ring {
        /// Number of routers.
        n: u32,
    },
    /// Dragonfly: `a*h + 1` fully connected groups of `a` routers, `h` global channels per
    /// router, one global channel between every pair of groups.
    Dragonfly {
        /// Routers per group.
        a: u32,
        /// Global channels per router.
        h: u32,
    },
    /// HyperX: `radix[d]` routers along dimension `d`, every pair of routers that differ
    /// in one coordinate joined both ways (the flattened butterfly when all radices are
    /// equal).
    HyperX {
        /// Routers per dimension.
        radix: Vec<u32>,
    },
    /// k-ary n-tree: `n` levels of `k^(n-1)` routers with `k` down and `k` up ports
    /// (none up at the top), `k` terminals on each leaf.
    FatTree {
        /// Down (and up) ports per router; terminals per leaf.
        k: u32,
        /// Levels.
        n: u32,
    },
    /// An explicitly listed netlist without generator geometry.
    Explicit,
}

impl Topology {
    /// Radix per dimension for torus, mesh and ring (ring = 1-D torus); `None` otherwise.
    pub fn radix(&self) -> Option<Vec<u32>> {
        match self {
            Topology::Torus { radix } | Topology::Mesh { radix } => Some(radix.clone()),
            Topology::Ring { n } => Some(vec![*n]),
            _ => None,
        }
    }

    /// True for tori and rings (wrap-around channels).
    pub fn wraps(&self) -> bool {
        matches!(self, Topology::Torus { .. } | Topology::Ring { .. })
    }
}

/// One port of a router. Ports `0..terminals` are the terminal ports (`local`, or
/// `local0`, `local1`, ... under concentration).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PortSpec {
    /// Port name, unique within the router (`local`, `east`, `d0p`, ...).
    pub name: String,
    /// The dimension and direction this port leads to (generated topologies; hypercube
    /// ports use `Dir::Plus` for "flip bit d").
    pub direction: Option<(u8, Dir)>,
    /// Effective VC count of this input port.
    pub vcs: u8,
    /// Effective depth of each VC FIFO of this input port.
    pub buffer_depth: BufferDepth,
}

/// One router: its parameters, its ports, its place in the geometry.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RouterSpec {
    /// Dense id (= graph node index).
    pub id: RouterId,
    /// Name used in messages and TOML (`r3`, `r_2_5`, ...).
    pub name: String,
    /// Coordinates (torus, mesh, ring) or address bits (hypercube: one 0/1 entry per
    /// dimension, bit d of the id at index d).
    pub coord: Option<Vec<u32>>,
    /// Effective router parameters (defaults merged with overrides).
    pub config: RouterConfig,
    /// Ports by index; `ports[..terminals]` are the terminal ports.
    pub ports: Vec<PortSpec>,
    /// Terminals attached to this router (the netlist's concentration), one per port
    /// `0..terminals`.
    pub terminals: u8,
    /// Latency of the injection and of the ejection channel between this router and its
    /// terminal (>= 1). Default 1.
    pub terminal_latency: u32,
}

impl RouterSpec {
    /// Is `port` one of the terminal ports?
    pub fn is_terminal_port(&self, port: u8) -> bool {
        port < self.terminals
    }

    /// The router-to-router ports (every port after the terminal ports), with their index.
    pub fn network_ports(&self) -> impl Iterator<Item = (usize, &PortSpec)> + '_ {
        self.ports
            .iter()
            .enumerate()
            .skip(usize::from(self.terminals))
    }

    /// Index of the port with this name.
    pub fn port_index(&self, name: &str) -> Option<u8> {
        self.ports
            .iter()
            .position(|p| p.name == name)
            .map(|i| i as u8)
    }

    /// The port leading along `dim` in direction `dir`, if the router has one.
    pub fn port_toward(&self, dim: u8, dir: Dir) -> Option<u8> {
        self.ports
            .iter()
            .position(|p| p.direction == Some((dim, dir)))
            .map(|i| i as u8)
    }
}

/// A unidirectional channel from an output port to an input port.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChannelSpec {
    /// Dense id (= graph edge index).
    pub id: ChannelId,
    /// Upstream router.
    pub from: RouterId,
    /// Upstream output port (never the terminal port).
    pub from_port: OutPort,
    /// Downstream router.
    pub to: RouterId,
    /// Downstream input port (never the terminal port).
    pub to_port: InPort,
    /// Cycles from write to read (>= 1); credits take the same latency back.
    pub latency: u32,
}

/// The whole hardware description.
#[derive(Clone, Debug)]
pub struct Netlist {
    /// Human-readable name (from the file or the generator).
    pub name: String,
    /// The file it was read from, if any.
    pub path: Option<PathBuf>,
    /// Generator geometry, or `Explicit`.
    pub topology: Topology,
    /// Routers (nodes) and channels (edges).
    pub graph: DiGraph<RouterSpec, ChannelSpec, u32>,
    /// The longest packet (flits) the netlist declares it must carry (`max_packet_length`
    /// key); loading checks VCT/SAF buffer depths against it. `None`: checked only when the
    /// engine calls [`check_vct_depth`](crate::validate::check_vct_depth).
    pub max_packet_length: Option<u32>,
    /// Bits per flit for the cost model (`flit_width`; `None`: its default).
    pub flit_width: Option<u32>,
    /// Length of every router-to-router channel for the cost model, mm
    /// (`channel_length_mm`; `None`: the latency times the technology's wire per cycle).
    pub channel_length_mm: Option<f64>,
    /// Length of every injection and ejection channel for the cost model, mm
    /// (`terminal_channel_length_mm`; `None`: the terminal latency times the wire per cycle).
    pub terminal_channel_length_mm: Option<f64>,
    /// Where the parts were declared, for diagnostics (`None` when built in code).
    pub source: Option<std::sync::Arc<crate::source::SourceMap>>,
    /// The routers' terminal counts as prefix sums, kept by `add_router` and
    /// `set_concentration` (the only writers of `RouterSpec::terminals`).
    terminal_map: crate::terminal_map::TerminalMap,
}

impl Netlist {
    /// An empty netlist.
    pub fn new(name: impl Into<String>, topology: Topology) -> Self {
        Netlist {
            name: name.into(),
            path: None,
            topology,
            graph: DiGraph::default(),
            max_packet_length: None,
            flit_width: None,
            channel_length_mm: None,
            terminal_channel_length_mm: None,
            source: None,
            terminal_map: crate::terminal_map::TerminalMap::default(),
        }
    }

    /// Adds a router; its `id` field is overwritten with the next dense id.
    pub fn add_router(&mut self, mut spec: RouterSpec) -> RouterId {
        let id = RouterId(self.graph.node_count() as u32);
        spec.id = id;
        self.terminal_map.push(spec.terminals);
        let n = self.graph.add_node(spec);
        debug_assert_eq!(n.index(), id.index());
        id
    }

    /// Adds a channel `from.from_port -> to.to_port`; returns its dense id.
    pub fn add_channel(
        &mut self,
        from: RouterId,
        from_port: OutPort,
        to: RouterId,
        to_port: InPort,
        latency: u32,
    ) -> ChannelId {
        let id = ChannelId(self.graph.edge_count() as u32);
        let e = self.graph.add_edge(
            NodeIndex::new(from.index()),
            NodeIndex::new(to.index()),
            ChannelSpec {
                id,
                from,
                from_port,
                to,
                to_port,
                latency,
            },
        );
        debug_assert_eq!(e.index(), id.index());
        id
    }

    /// Number of routers.
    pub fn num_routers(&self) -> usize {
        self.graph.node_count()
    }

    /// Terminals per router when every router has the same nonzero number (1 for an
    /// empty netlist); `None` when the counts differ (a fat tree).
    pub fn concentration(&self) -> Option<u32> {
        if self.num_routers() == 0 {
            return Some(1);
        }
        self.terminal_map.uniform()
    }

    /// Where each terminal hangs (router and port).
    pub fn terminal_map(&self) -> &crate::terminal_map::TerminalMap {
        &self.terminal_map
    }

    /// Rebuilds the terminal map after the routers' terminal counts changed.
    pub(crate) fn renumber_terminals(&mut self) {
        self.terminal_map =
            crate::terminal_map::TerminalMap::from_counts(self.routers().map(|r| r.terminals));
    }

    /// Terminal `i` of router `r`.
    pub fn terminal_of(&self, r: RouterId, i: u8) -> TerminalId {
        self.terminal_map.terminal(r, i)
    }

    /// Number of terminals.
    pub fn num_terminals(&self) -> usize {
        self.terminal_map.total()
    }

    /// Number of router-to-router channels.
    pub fn num_channels(&self) -> usize {
        self.graph.edge_count()
    }

    /// Bytes the netlist holds on the heap, summed over the capacities of its arrays and
    /// strings: routers and channels (as the graph stores them), each router's name,
    /// coordinates and ports, each port's name, and the source text and spans of a
    /// netlist read from a file.
    pub fn heap_bytes(&self) -> u64 {
        use std::mem::size_of;
        let (nodes, edges) = self.graph.capacity();
        let routers: usize = self
            .routers()
            .map(|r| {
                r.name.capacity()
                    + r.coord
                        .as_ref()
                        .map_or(0, |c| c.capacity() * size_of::<u32>())
                    + r.ports.capacity() * size_of::<PortSpec>()
                    + r.ports.iter().map(|p| p.name.capacity()).sum::<usize>()
            })
            .sum();
        let graph = nodes * (size_of::<RouterSpec>() + 2 * size_of::<u32>())
            + edges * (size_of::<ChannelSpec>() + 4 * size_of::<u32>());
        let source = self.source.as_ref().map_or(0, |s| s.heap_bytes());
        (self.name.capacity() + graph + routers + source) as u64
    }

    /// A router by id.
    pub fn router(&self, id: RouterId) -> &RouterSpec {
        &self.graph[NodeIndex::new(id.index())]
    }

    /// A router by id, mutably.
    pub fn router_mut(&mut self, id: RouterId) -> &mut RouterSpec {
        &mut self.graph[NodeIndex::new(id.index())]
    }

    /// A channel by id.
    pub fn channel(&self, id: ChannelId) -> &ChannelSpec {
        &self.graph[EdgeIndex::new(id.index())]
    }

    /// All routers in id order.
    pub fn routers(&self) -> impl Iterator<Item = &RouterSpec> + '_ {
        self.graph.node_weights()
    }

    /// All channels in id order.
    pub fn channels(&self) -> impl Iterator<Item = &ChannelSpec> + '_ {
        self.graph.edge_weights()
    }

    /// The channel driven by `router`'s output `port`, if any (never for the terminal port).
    pub fn out_channel(&self, router: RouterId, port: OutPort) -> Option<ChannelId> {
        self.graph
            .edges(NodeIndex::new(router.index()))
            .map(|e| e.weight())
            .find(|c| c.from_port == port)
            .map(|c| c.id)
    }

    /// The channel feeding `router`'s input `port`, if any (never for the terminal port).
    pub fn in_channel(&self, router: RouterId, port: InPort) -> Option<ChannelId> {
        self.graph
            .edges_directed(
                NodeIndex::new(router.index()),
                petgraph::Direction::Incoming,
            )
            .map(|e| e.weight())
            .find(|c| c.to_port == port)
            .map(|c| c.id)
    }

    /// The router a terminal is attached to.
    pub fn terminal_router(&self, t: TerminalId) -> RouterId {
        self.terminal_map.router_of(t)
    }

    /// The port of its router a terminal is attached to (input: its injection channel,
    /// output: its ejection channel).
    pub fn terminal_port(&self, t: TerminalId) -> u8 {
        self.terminal_map.port_of(t)
    }
}
