//! Generators: build the explicit IR (the same [`Netlist`] the explicit TOML form builds)
//! from a few geometric parameters.
//!
//! Conventions every generator follows (routing functions rely on them):
//! - router `i` is named `r{i}`; ids run with coordinate 0 fastest
//!   (`id = x0 + k0 * (x1 + k1 * (x2 + ...))`); a hypercube router's id is its address;
//! - `ports[0]` is the terminal port `local`; network ports follow in dimension order, the
//!   plus direction before the minus direction;
//! - port names: 1-D and 2-D tori/meshes/rings use `east` (x+), `west` (x-), `north` (y+),
//!   `south` (y-); three or more dimensions use `d{k}p` / `d{k}m`; hypercube ports are
//!   `d{k}` (flip bit k, direction `(k, Plus)`); every port carries its `direction`;
//! - mesh boundary routers simply lack the ports that would leave the mesh;
//! - channels are numbered router by router, port by port (output side).

mod dragonfly;
mod fat_tree;
mod hypercube;
mod hyperx;
mod mesh;
mod ring;
mod torus;

pub use dragonfly::{dragonfly, global_peer, groups};
pub use fat_tree::{fat_tree, fat_tree_width};
pub use hypercube::hypercube;
pub use hyperx::{hyperx, hyperx_coord, hyperx_port};
pub use mesh::mesh;
pub use ring::ring;
pub use torus::torus;

use crate::config::{RouterConfig, DEFAULT_CHANNEL_LATENCY};
use crate::ids::{InPort, OutPort, RouterId};
use crate::netlist::{Dir, Netlist, PortSpec, RouterSpec, Topology};

/// The largest network a generator builds (routers): a 1024x1024 torus. The engine's
/// memory check refuses any network the machine cannot hold before assembling it.
pub const MAX_ROUTERS: u64 = 1 << 20;

/// The most router-to-router channels a HyperX generator builds (a 1024x1024 torus has
/// this many).
pub const MAX_HYPERX_CHANNELS: u64 = 1 << 22;

/// Checks that `topology` describes a network a generator can build; the message says why
/// not (it becomes a `bad-topology` diagnostic).
pub fn check_params(topology: &Topology) -> Result<(), String> {
    let count = match topology {
        Topology::Torus { radix } | Topology::Mesh { radix } => {
            let min = if matches!(topology, Topology::Torus { .. }) {
                2
            } else {
                1
            };
            if radix.is_empty() || radix.len() > 16 {
                return Err(format!(
                    "radix needs 1 to 16 dimensions, not {}",
                    radix.len()
                ));
            }
            if let Some(k) = radix.iter().find(|&&k| k < min) {
                return Err(format!("radix {k} is below the minimum {min}"));
            }
            radix
                .iter()
                .try_fold(1u64, |acc, &k| acc.checked_mul(u64::from(k)))
        }
        Topology::Hypercube { dim } => {
            if !(1..=16).contains(dim) {
                return Err(format!("dimension {dim} is outside 1..=16"));
            }
            Some(1u64 << dim)
        }
        Topology::Ring { n } => {
            if *n < 2 {
                return Err(format!("a ring needs at least 2 routers, not {n}"));
            }
            Some(u64::from(*n))
        }
        Topology::Dragonfly { a, h } => {
            if *a < 1 || *h < 1 {
                return Err(format!(
                    "a dragonfly needs a >= 1 and h >= 1, not a = {a}, h = {h}"
                ));
            }
            let ports = u64::from(*a) + u64::from(*h);
            if ports > 200 {
                return Err(format!("a + h = {ports} ports per router is above 200"));
            }
            u64::from(*a).checked_mul(u64::from(*a) * u64::from(*h) + 1)
        }
        Topology::HyperX { radix } => hyperx_routers(radix)?,
        Topology::FatTree { k, n } => fat_tree::routers(*k, *n)?,
        Topology::Explicit => return Err("an explicit netlist has no generator".into()),
    };
    match count {
        Some(c) if c <= MAX_ROUTERS => Ok(()),
        _ => Err(format!("more than {MAX_ROUTERS} routers")),
    }
}

/// The router count of a HyperX, after checking its radices, ports and channels.
fn hyperx_routers(radix: &[u32]) -> Result<Option<u64>, String> {
    if radix.is_empty() || radix.len() > 16 {
        return Err(format!(
            "radix needs 1 to 16 dimensions, not {}",
            radix.len()
        ));
    }
    if let Some(k) = radix.iter().find(|&&k| k < 2) {
        return Err(format!("radix {k} is below the minimum 2"));
    }
    let ports: u64 = radix.iter().map(|&k| u64::from(k) - 1).sum();
    if ports > 200 {
        return Err(format!(
            "{ports} network ports per router (the sum of radix - 1) is above 200"
        ));
    }
    let count = radix
        .iter()
        .try_fold(1u64, |acc, &k| acc.checked_mul(u64::from(k)));
    if count.is_some_and(|c| c <= MAX_ROUTERS && c * ports > MAX_HYPERX_CHANNELS) {
        return Err(format!("more than {MAX_HYPERX_CHANNELS} channels"));
    }
    Ok(count)
}

/// Builds the netlist of a generator topology with the given parameters for every router,
/// every channel latency and every terminal latency. Errors as [`check_params`].
pub fn generate(
    topology: &Topology,
    config: &RouterConfig,
    channel_latency: u32,
    terminal_latency: u32,
) -> Result<Netlist, String> {
    check_params(topology)?;
    let mut n = match topology {
        Topology::Torus { radix } => grid(topology.clone(), radix, true),
        Topology::Mesh { radix } => grid(topology.clone(), radix, false),
        Topology::Ring { n } => grid(topology.clone(), &[*n], true),
        Topology::Hypercube { dim } => cube(*dim),
        Topology::Dragonfly { a, h } => dragonfly::build(*a, *h),
        Topology::HyperX { radix } => hyperx::build(radix),
        Topology::FatTree { k, n } => fat_tree::build(*k, *n),
        Topology::Explicit => unreachable!("check_params rejects Explicit"),
    };
    n.name = describe_name(topology);
    for id in 0..n.num_routers() {
        let r = n.router_mut(RouterId(id as u32));
        r.config = config.clone();
        r.terminal_latency = terminal_latency;
        for p in &mut r.ports {
            p.vcs = config.vcs;
            p.buffer_depth = config.buffer_depth;
        }
    }
    for e in n.graph.edge_weights_mut() {
        e.latency = channel_latency;
    }
    Ok(n)
}

/// `torus-8x8`, `hypercube-6`, ...: the name a generated netlist gets.
fn describe_name(t: &Topology) -> String {
    let dims = |r: &[u32]| r.iter().map(u32::to_string).collect::<Vec<_>>().join("x");
    match t {
        Topology::Torus { radix } => format!("torus-{}", dims(radix)),
        Topology::Mesh { radix } => format!("mesh-{}", dims(radix)),
        Topology::Hypercube { dim } => format!("hypercube-{dim}"),
        Topology::Ring { n } => format!("ring-{n}"),
        Topology::Dragonfly { a, h } => format!("dragonfly-a{a}h{h}"),
        Topology::HyperX { radix } => format!("hyperx-{}", dims(radix)),
        Topology::FatTree { k, n } => format!("fat-tree-{k}ary{n}"),
        Topology::Explicit => "explicit".into(),
    }
}

fn port(name: String, direction: (u8, Dir), config: &RouterConfig) -> PortSpec {
    PortSpec {
        name,
        direction: Some(direction),
        vcs: config.vcs,
        buffer_depth: config.buffer_depth,
    }
}

/// The terminal port every router has as port 0.
/// A generated router: named `r{id}`, its one terminal on port 0 (`ports[0]`, the
/// `local` port), 1-cycle terminal channels.
pub(crate) fn generated_router(
    id: u32,
    coord: Vec<u32>,
    config: &RouterConfig,
    mut ports: Vec<PortSpec>,
) -> RouterSpec {
    // Pushed one by one, the ports' vector would keep up to twice their size (a million
    // routers hold it).
    ports.shrink_to_fit();
    RouterSpec {
        id: RouterId(id),
        name: format!("r{id}"),
        coord: Some(coord),
        config: config.clone(),
        ports,
        terminal_latency: 1,
        terminals: 1,
    }
}

pub(crate) fn local_port(config: &RouterConfig) -> PortSpec {
    PortSpec {
        name: "local".into(),
        direction: None,
        vcs: config.vcs,
        buffer_depth: config.buffer_depth,
    }
}

/// Port name for a k-ary n-cube with `dims` dimensions.
fn grid_port_name(dims: usize, d: usize, dir: Dir) -> String {
    if dims <= 2 {
        match (d, dir) {
            (0, Dir::Plus) => "east",
            (0, Dir::Minus) => "west",
            (_, Dir::Plus) => "north",
            (_, Dir::Minus) => "south",
        }
        .to_string()
    } else {
        format!("d{d}{}", if dir == Dir::Plus { 'p' } else { 'm' })
    }
}

fn opposite(dir: Dir) -> Dir {
    match dir {
        Dir::Plus => Dir::Minus,
        Dir::Minus => Dir::Plus,
    }
}

/// Torus (`wrap`) or mesh with default parameters and latency 1.
fn grid(topology: Topology, radix: &[u32], wrap: bool) -> Netlist {
    let config = RouterConfig::default();
    let mut n = Netlist::new(describe_name(&topology), topology);
    let total: u32 = radix.iter().product();
    let dims = radix.len();
    let coord_of = |mut id: u32| -> Vec<u32> {
        radix
            .iter()
            .map(|&k| {
                let c = id % k;
                id /= k;
                c
            })
            .collect()
    };
    let id_of = |c: &[u32]| -> u32 {
        c.iter()
            .zip(radix)
            .rev()
            .fold(0, |acc, (&x, &k)| acc * k + x)
    };
    let neighbour = |c: &[u32], d: usize, dir: Dir| -> Option<Vec<u32>> {
        let k = radix[d];
        let mut c = c.to_vec();
        match dir {
            Dir::Plus if c[d] + 1 < k => c[d] += 1,
            Dir::Plus if wrap => c[d] = 0,
            Dir::Minus if c[d] > 0 => c[d] -= 1,
            Dir::Minus if wrap => c[d] = k - 1,
            _ => return None,
        }
        Some(c)
    };
    for id in 0..total {
        let c = coord_of(id);
        let mut ports = vec![local_port(&config)];
        for d in 0..dims {
            for dir in [Dir::Plus, Dir::Minus] {
                if neighbour(&c, d, dir).is_some() {
                    ports.push(port(grid_port_name(dims, d, dir), (d as u8, dir), &config));
                }
            }
        }
        n.add_router(generated_router(id, c, &config, ports));
    }
    for id in 0..total {
        let c = coord_of(id);
        for d in 0..dims {
            for dir in [Dir::Plus, Dir::Minus] {
                if let Some(nc) = neighbour(&c, d, dir) {
                    let to = RouterId(id_of(&nc));
                    let from_port = n.router(RouterId(id)).port_toward(d as u8, dir);
                    let to_port = n.router(to).port_toward(d as u8, opposite(dir));
                    let (Some(fp), Some(tp)) = (from_port, to_port) else {
                        unreachable!("every neighbour has the opposite port");
                    };
                    n.add_channel(
                        RouterId(id),
                        OutPort(fp),
                        to,
                        InPort(tp),
                        DEFAULT_CHANNEL_LATENCY,
                    );
                }
            }
        }
    }
    n
}

/// Binary hypercube with default parameters and latency 1.
fn cube(dim: u32) -> Netlist {
    let config = RouterConfig::default();
    let topology = Topology::Hypercube { dim };
    let mut n = Netlist::new(describe_name(&topology), topology);
    let total = 1u32 << dim;
    for id in 0..total {
        let mut ports = vec![local_port(&config)];
        for d in 0..dim {
            ports.push(port(format!("d{d}"), (d as u8, Dir::Plus), &config));
        }
        n.add_router(generated_router(
            id,
            (0..dim).map(|d| (id >> d) & 1).collect(),
            &config,
            ports,
        ));
    }
    for id in 0..total {
        for d in 0..dim {
            // Port d is index d + 1 on every router.
            let p = d as u8 + 1;
            n.add_channel(
                RouterId(id),
                OutPort(p),
                RouterId(id ^ (1 << d)),
                InPort(p),
                1,
            );
        }
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn params_are_checked() {
        assert!(check_params(&Topology::Torus { radix: vec![1, 4] }).is_err());
        assert!(check_params(&Topology::Torus { radix: vec![] }).is_err());
        assert!(check_params(&Topology::Mesh { radix: vec![1, 4] }).is_ok());
        assert!(check_params(&Topology::Hypercube { dim: 0 }).is_err());
        assert!(check_params(&Topology::Hypercube { dim: 17 }).is_err());
        assert!(check_params(&Topology::Ring { n: 1 }).is_err());
        assert!(check_params(&Topology::Torus {
            radix: vec![u32::MAX, u32::MAX, u32::MAX]
        })
        .is_err());
        assert!(check_params(&Topology::Explicit).is_err());
        assert!(check_params(&Topology::Dragonfly { a: 0, h: 2 }).is_err());
        assert!(check_params(&Topology::Dragonfly { a: u32::MAX, h: 2 }).is_err());
        // More than 200 ports per router, and more than MAX_ROUTERS routers.
        assert!(check_params(&Topology::Dragonfly { a: 101, h: 100 }).is_err());
        assert!(check_params(&Topology::Dragonfly { a: 150, h: 50 }).is_err());
        assert!(check_params(&Topology::Dragonfly { a: 4, h: 2 }).is_ok());
        let hx = |radix: &[u32]| {
            check_params(&Topology::HyperX {
                radix: radix.to_vec(),
            })
        };
        assert!(hx(&[4, 4]).is_ok());
        assert!(hx(&[]).is_err());
        assert!(hx(&[4, 1]).is_err());
        // 201 ports; 2^20 routers of 20 ports (more than 2^22 channels); overflow.
        assert!(hx(&[202]).is_err());
        assert!(hx(&[2; 20]).is_err());
        assert!(hx(&[u32::MAX, u32::MAX, 3]).is_err());
    }

    #[test]
    fn generate_applies_parameters_everywhere() {
        let cfg = RouterConfig {
            vcs: 2,
            ..RouterConfig::default()
        };
        let n = generate(&Topology::Torus { radix: vec![3, 3] }, &cfg, 5, 7).unwrap();
        assert_eq!(n.name, "torus-3x3");
        assert!(n.routers().all(|r| r.config.vcs == 2
            && r.terminal_latency == 7
            && r.ports.iter().all(|p| p.vcs == 2)));
        assert!(n.channels().all(|c| c.latency == 5));
    }

    #[test]
    fn channels_connect_opposite_ports() {
        for n in [
            torus(&[4, 3]),
            mesh(&[3, 5]),
            ring(5),
            torus(&[3, 2, 4]),
            hypercube(4),
        ] {
            for c in n.channels() {
                let from = &n.router(c.from).ports[c.from_port.index()];
                let to = &n.router(c.to).ports[c.to_port.index()];
                let (fd, fdir) = from.direction.unwrap();
                let (td, tdir) = to.direction.unwrap();
                assert_eq!(fd, td);
                if matches!(n.topology, Topology::Hypercube { .. }) {
                    assert_eq!(c.from.0 ^ c.to.0, 1 << fd);
                } else {
                    assert_eq!(fdir, opposite(tdir));
                }
                // Every port is used once per side.
                assert_eq!(n.out_channel(c.from, c.from_port), Some(c.id));
                assert_eq!(n.in_channel(c.to, c.to_port), Some(c.id));
            }
        }
    }

    #[test]
    fn ids_run_with_coordinate_zero_fastest() {
        let n = torus(&[4, 3]);
        let r = n.router(RouterId(6));
        assert_eq!(r.coord.as_deref(), Some(&[2, 1][..]));
        assert_eq!(r.name, "r6");
        // r6 east -> r7, north -> r10, west -> r5, south -> r2.
        let east = r.port_toward(0, Dir::Plus).unwrap();
        let c = n.out_channel(RouterId(6), OutPort(east)).unwrap();
        assert_eq!(n.channel(c).to, RouterId(7));
        let north = r.port_toward(1, Dir::Plus).unwrap();
        assert_eq!(r.ports[north as usize].name, "north");
        let c = n.out_channel(RouterId(6), OutPort(north)).unwrap();
        assert_eq!(n.channel(c).to, RouterId(10));
        let h = hypercube(3);
        assert_eq!(h.router(RouterId(6)).coord.as_deref(), Some(&[0, 1, 1][..]));
    }

    #[test]
    fn counts_match_the_geometry() {
        // Torus: 2n channels per router; mesh: 2 n (k-1) k^(n-1); hypercube n 2^n.
        assert_eq!(torus(&[8, 8]).num_channels(), 256);
        assert_eq!(mesh(&[8, 8]).num_channels(), 224);
        assert_eq!(mesh(&[4, 5]).num_channels(), 2 * (3 * 5 + 4 * 4));
        assert_eq!(hypercube(6).num_channels(), 384);
        assert_eq!(ring(8).num_channels(), 16);
        let m = mesh(&[3, 3]);
        // Corner: local + 2, edge: local + 3, centre: local + 4.
        assert_eq!(m.router(RouterId(0)).ports.len(), 3);
        assert_eq!(m.router(RouterId(1)).ports.len(), 4);
        assert_eq!(m.router(RouterId(4)).ports.len(), 5);
        let t = torus(&[2, 3, 2]);
        assert_eq!(t.router(RouterId(0)).ports[1].name, "d0p");
    }
}
