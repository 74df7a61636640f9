//! BookSim's `topology`, `k`, `n` and `use_noc_latency` -> flitsim's generator table.
//!
//! BookSim numbers a k-ary n-cube's nodes with dimension 0 fastest and gives each
//! router ports `2d` (+) and `2d+1` (-) per dimension, like flitsim's generators. A
//! BookSim mesh with k = 2 is the binary n-cube (one channel per dimension), flitsim's
//! `hypercube`; a torus with k = 2 keeps its two parallel channels per dimension.

use super::anynet::{listing_path, AnyNet};
use super::config::Config;
use super::error::ImportError;
use super::line::Line;
use std::fmt::Write as _;

/// flitsim's limits on generated networks.
const MAX_ROUTERS: i64 = flitsim_netlist::topology::MAX_ROUTERS as i64;
const MAX_DIMS: i64 = 16;

/// The network's shape.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Shape {
    /// k-ary n-cube with wrap-around channels.
    Torus {
        /// Radix.
        k: u32,
        /// Dimensions.
        n: u32,
    },
    /// k-ary n-mesh, k > 2.
    Mesh {
        /// Radix.
        k: u32,
        /// Dimensions.
        n: u32,
    },
    /// Binary n-cube (BookSim's 2-ary n-mesh).
    Hypercube {
        /// Dimensions.
        n: u32,
    },
    /// BookSim's `anynet`: the routers and channels of its `network_file`.
    AnyNet(Box<AnyNet>),
}

impl Shape {
    /// Reads `topology`, `k` and `n`.
    ///
    /// # Errors
    /// A topology other than torus or mesh, or a size flitsim cannot generate.
    pub fn from_config(config: &Config, lines: &mut Vec<Line>) -> Result<Shape, ImportError> {
        let (topology, _) = config.get("topology");
        if topology == "anynet" {
            return any_net(config, lines);
        }
        if topology != "torus" && topology != "mesh" {
            return Err(config.unsupported(
                "topology",
                "flitsim imports BookSim's k-ary n-cubes and anynet",
                "use `topology = torus;`, `mesh` or `anynet` (a flitsim netlist can describe other networks by hand)",
            ));
        }
        let k = config.int("k", 2, MAX_ROUTERS)?;
        let n = config.int("n", 1, MAX_DIMS)?;
        let routers = (0..n).try_fold(1_i64, |acc, _| {
            acc.checked_mul(k).filter(|&r| r <= MAX_ROUTERS)
        });
        if routers.is_none() {
            return Err(config.unsupported(
                "k",
                &format!("k^n routers is more than flitsim's {MAX_ROUTERS}"),
                "choose a smaller k or n",
            ));
        }
        let (k, n) = (k as u32, n as u32);
        let shape = match (topology.as_str(), k) {
            ("torus", _) => Shape::Torus { k, n },
            (_, 2) => Shape::Hypercube { n },
            _ => Shape::Mesh { k, n },
        };
        let (table, note) = match &shape {
            Shape::Torus { .. } => (format!("kind = \"torus\", radix = {}", shape.radix()), None),
            Shape::Mesh { .. } => (format!("kind = \"mesh\", radix = {}", shape.radix()), None),
            Shape::Hypercube { n } => (
                format!("kind = \"hypercube\", dim = {n}"),
                Some("a 2-ary n-mesh is the binary n-cube".to_string()),
            ),
            Shape::AnyNet(_) => unreachable_shape(),
        };
        lines.push(config.line("topology", format!("[topology] {table}"), note));
        lines.push(config.line("k", "[topology]", None));
        lines.push(config.line("n", "[topology]", None));
        Ok(shape)
    }

    /// BookSim's router-to-router channel latency: 2 on a torus with `use_noc_latency`
    /// (its wrap-around layout), else 1.
    ///
    /// # Errors
    /// `use_noc_latency` is not an integer.
    pub fn booksim_channel_latency(&self, config: &Config) -> Result<u32, ImportError> {
        let noc = config.int("use_noc_latency", 0, 1)? == 1;
        Ok(match self {
            Shape::Torus { .. } if noc => 2,
            _ => 1,
        })
    }

    /// `radix = [k, k, ...]`.
    fn radix(&self) -> String {
        let (k, n) = match *self {
            Shape::Torus { k, n } | Shape::Mesh { k, n } => (k, n),
            Shape::Hypercube { n } => (2, n),
            Shape::AnyNet(_) => (1, 0),
        };
        let ks: Vec<String> = (0..n).map(|_| k.to_string()).collect();
        format!("[{}]", ks.join(", "))
    }

    /// Is this a torus (where the dateline and tie rules matter)?
    #[must_use]
    pub fn is_torus(&self) -> bool {
        matches!(self, Shape::Torus { .. })
    }

    /// Is this an anynet listing (explicit routers, no coordinates)?
    #[must_use]
    pub fn is_any_net(&self) -> bool {
        matches!(self, Shape::AnyNet(_))
    }

    /// `torus-8x8`, `mesh-4`, `hypercube-6`, `anynet-3`.
    #[must_use]
    pub fn name(&self) -> String {
        let size = |k: u32, n: u32| vec![k.to_string(); n as usize].join("x");
        match *self {
            Shape::AnyNet(ref a) => format!("anynet-{}", a.routers()),
            Shape::Torus { k, n } => format!("torus-{}", size(k, n)),
            Shape::Mesh { k, n } => format!("mesh-{}", size(k, n)),
            Shape::Hypercube { n } => format!("hypercube-{n}"),
        }
    }

    /// The `[topology]` table.
    pub fn write_topology(&self, out: &mut String) {
        if self.is_any_net() {
            return;
        }
        let _ = writeln!(out, "\n[topology]");
        match self {
            Shape::Torus { .. } => {
                let _ = writeln!(out, "kind = \"torus\"\nradix = {}", self.radix());
            }
            Shape::Mesh { .. } => {
                let _ = writeln!(out, "kind = \"mesh\"\nradix = {}", self.radix());
            }
            Shape::Hypercube { n } => {
                let _ = writeln!(out, "kind = \"hypercube\"\ndim = {n}");
            }
            Shape::AnyNet(_) => {}
        }
    }

    /// The explicit routers and channels of an anynet listing (after `[defaults]`).
    pub fn write_routers(&self, out: &mut String) {
        if let Shape::AnyNet(a) = self {
            a.write(out);
        }
    }
}

/// `topology = anynet` with its `network_file`.
fn any_net(config: &Config, lines: &mut Vec<Line>) -> Result<Shape, ImportError> {
    let (file, origin) = config.get("network_file");
    if file.is_empty() {
        return Err(config.bad(
            "network_file",
            "anynet needs the listing of its routers",
            "set `network_file = FILE;` (a relative path is read from the config's folder)",
        ));
    }
    let path = listing_path(&file, &origin);
    let net = AnyNet::read(&path, &origin)?;
    let routers = net.routers();
    lines.push(config.line(
        "topology",
        "explicit [[router]] and [[channel]] entries",
        None,
    ));
    lines.push(config.line(
        "network_file",
        format!("{routers} routers, one port per neighbour, channel latency = weight + 1"),
        None,
    ));
    Ok(Shape::AnyNet(Box::new(net)))
}

/// The generator table is never written for an anynet (its routers are explicit).
fn unreachable_shape() -> (String, Option<String>) {
    (String::new(), None)
}
