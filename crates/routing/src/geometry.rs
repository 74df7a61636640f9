//! Per-router tables the coordinate-based routing functions share, built once from the
//! netlist (petgraph is read here, never in the cycle loop).

use crate::describe::{describe_topology, kind_name, DOR_NEEDS_COORDINATES};
use crate::RoutingMismatch;
use flitsim_netlist::{Dir, Netlist, PacketId, RouterId, RouterSpec, RoutingKind, Topology};

/// Flat per-router geometry: coordinates, radix, and the port leading along each
/// (dimension, direction).
#[derive(Clone, Debug)]
pub struct Geometry {
    /// Number of dimensions.
    pub dims: usize,
    /// Routers per dimension (2 for every hypercube dimension).
    pub radix: Vec<u32>,
    /// True for tori and rings.
    pub wraps: bool,
    /// True for hypercubes (only `Plus` ports: "flip bit d").
    pub hypercube: bool,
    /// `coord[r * dims + d]`.
    coord: Vec<u32>,
    /// Each router's coordinates in one word, 16 bits per dimension, dimension 0 lowest;
    /// empty when they do not fit (more than 4 dimensions or a radix above 2^16).
    packed: Vec<u64>,
    /// `port[(r * dims + d) * 2 + dir]` (dir 0 = Plus, 1 = Minus); `u8::MAX` = none.
    port: Vec<u8>,
    /// `travel[r][in_port]`: the (dimension, direction) a packet arriving on that input
    /// port was travelling, or `None` for the terminal port and unconnected ports.
    travel: Vec<Vec<Option<(u8, Dir)>>>,
    /// VCs of each router's terminal port (the ejection candidate's range).
    terminal_vcs: Vec<u8>,
    /// `out_vcs[r][out_port]`: VCs of the downstream input port the output drives (0 when
    /// unconnected; the terminal port's own VC count for port 0).
    out_vcs: Vec<Vec<u8>>,
    /// `in_vcs[r][in_port]`: VCs of that input port.
    in_vcs: Vec<Vec<u8>>,
}

const NO_PORT: u8 = u8::MAX;

/// Bits per coordinate in [`Geometry`]'s packed coordinates.
const PACKED_BITS: u32 = 16;
/// Dimensions that fit in one packed word.
const PACKED_DIMS: usize = (u64::BITS / PACKED_BITS) as usize;

/// The panic of [`Geometry::port`], out of line (its formatting would otherwise make the
/// callers set up a stack frame on every call).
#[cold]
#[inline(never)]
fn no_port(r: RouterId, d: usize, dir: Dir) -> ! {
    panic!("router {r} has no port toward {d} {dir:?}");
}

fn dir_index(dir: Dir) -> usize {
    match dir {
        Dir::Plus => 0,
        Dir::Minus => 1,
    }
}

/// The radix and wrap-around of a coordinate topology, for reading each router.
struct Shape<'a> {
    radix: &'a [u32],
    wraps: bool,
    hypercube: bool,
}

impl Shape<'_> {
    /// Router `r`'s coordinates, checked against the radix.
    fn coordinates<'r>(&self, r: &'r RouterSpec) -> Result<&'r [u32], String> {
        let dims = self.radix.len();
        let c = r
            .coord
            .as_deref()
            .filter(|c| c.len() == dims)
            .ok_or_else(|| format!("router {} needs {dims} coordinates", r.name))?;
        for (d, (&x, &k)) in c.iter().zip(self.radix).enumerate() {
            if x >= k {
                return Err(format!(
                    "router {} coordinate {x} in dimension {d} is outside radix {k}",
                    r.name
                ));
            }
        }
        Ok(c)
    }

    /// Fills `ports[d * 2 + dir]` with router `r`'s connected port along each (dimension,
    /// direction); fails when one the topology needs at coordinates `c` is missing.
    fn ports(
        &self,
        netlist: &Netlist,
        r: &RouterSpec,
        c: &[u32],
        ports: &mut [u8],
    ) -> Result<(), String> {
        for d in 0..self.radix.len() {
            for dir in [Dir::Plus, Dir::Minus] {
                if self.hypercube && dir == Dir::Minus {
                    continue;
                }
                let needed = self.wraps
                    || self.hypercube
                    || match dir {
                        Dir::Plus => c[d] + 1 < self.radix[d],
                        Dir::Minus => c[d] > 0,
                    };
                match r.port_toward(d as u8, dir) {
                    Some(p)
                        if netlist
                            .out_channel(r.id, flitsim_netlist::OutPort(p))
                            .is_some() =>
                    {
                        ports[d * 2 + dir_index(dir)] = p;
                    }
                    _ if needed => {
                        return Err(format!(
                            "router {} has no connected port toward dimension {d} {dir:?}",
                            r.name
                        ))
                    }
                    _ => {}
                }
            }
        }
        Ok(())
    }
}

/// Per router and port, from the channels: the (dimension, direction) a packet arriving
/// on each input port was travelling, and the VCs of the input port each output drives.
#[allow(clippy::type_complexity)]
fn channel_tables(netlist: &Netlist) -> (Vec<Vec<Option<(u8, Dir)>>>, Vec<Vec<u8>>) {
    let mut travel: Vec<Vec<Option<(u8, Dir)>>> = netlist
        .routers()
        .map(|r| vec![None; r.ports.len()])
        .collect();
    let mut out_vcs: Vec<Vec<u8>> = netlist
        .routers()
        .map(|r| {
            let mut v = vec![0; r.ports.len()];
            v[0] = r.ports.first().map_or(r.config.vcs, |p| p.vcs);
            v
        })
        .collect();
    for ch in netlist.channels() {
        let down = netlist.router(ch.to);
        if let Some(slot) = out_vcs[ch.from.index()].get_mut(ch.from_port.index()) {
            *slot = down.ports.get(ch.to_port.index()).map_or(0, |p| p.vcs);
        }
        let up = netlist.router(ch.from);
        let dir = up.ports.get(ch.from_port.index()).and_then(|p| p.direction);
        if let Some(slot) = travel[ch.to.index()].get_mut(ch.to_port.index()) {
            *slot = dir;
        }
    }
    (travel, out_vcs)
}

/// Each router's coordinates `coord` packed in one word ([`PACKED_BITS`] per dimension),
/// or nothing when they do not fit.
fn pack(coord: &[u32], radix: &[u32]) -> Vec<u64> {
    let dims = radix.len();
    if dims > PACKED_DIMS || radix.iter().any(|&k| k > 1 << PACKED_BITS) {
        return Vec::new();
    }
    coord
        .chunks(dims.max(1))
        .map(|c| {
            c.iter()
                .rev()
                .fold(0u64, |w, &x| w << PACKED_BITS | u64::from(x))
        })
        .collect()
}

impl Geometry {
    /// Reads the geometry of `netlist` for routing `kind`; fails when a router lacks
    /// coordinates or a port the routing needs.
    pub fn new(netlist: &Netlist, kind: RoutingKind) -> Result<Geometry, RoutingMismatch> {
        let topo = &netlist.topology;
        let misfit = |why: String| RoutingMismatch::DoesNotFit {
            routing: kind_name(kind).to_string(),
            topology: describe_topology(topo),
            help: why,
        };
        let (radix, wraps) = match topo {
            Topology::Torus { radix } | Topology::Mesh { radix } => (radix.clone(), topo.wraps()),
            Topology::Ring { n } => (vec![*n], true),
            Topology::Hypercube { dim } => (vec![2; *dim as usize], false),
            Topology::HyperX { .. } => {
                return Err(misfit(
                    "on a HyperX, `minimal` is dimension-order routing".into(),
                ))
            }
            Topology::FatTree { .. } => {
                return Err(misfit(
                    "on a fat tree, use `minimal` or `minimal-adaptive`".into(),
                ))
            }
            Topology::Dragonfly { .. } | Topology::Explicit => {
                return Err(misfit(DOR_NEEDS_COORDINATES.into()))
            }
        };
        let hypercube = matches!(topo, Topology::Hypercube { .. });
        let dims = radix.len();
        let n = netlist.num_routers();
        let mut coord = Vec::with_capacity(n * dims);
        let mut port = vec![NO_PORT; n * dims * 2];
        let mut terminal_vcs = Vec::with_capacity(n);
        let shape = Shape {
            radix: &radix,
            wraps,
            hypercube,
        };
        for r in netlist.routers() {
            let c = shape.coordinates(r).map_err(misfit)?;
            coord.extend_from_slice(c);
            terminal_vcs.push(r.ports.first().map_or(r.config.vcs, |p| p.vcs));
            let ports = &mut port[r.id.index() * dims * 2..][..dims * 2];
            shape.ports(netlist, r, c, ports).map_err(misfit)?;
        }
        let (travel, out_vcs) = channel_tables(netlist);
        let packed = pack(&coord, &radix);
        Ok(Geometry {
            dims,
            radix,
            wraps,
            hypercube,
            coord,
            packed,
            port,
            travel,
            terminal_vcs,
            out_vcs,
            in_vcs: netlist
                .routers()
                .map(|r| r.ports.iter().map(|p| p.vcs).collect())
                .collect(),
        })
    }

    /// Coordinate of router `r` in dimension `d` (hypercube: bit `d` of the address).
    #[inline]
    pub fn coord(&self, r: RouterId, d: usize) -> u32 {
        self.coord[r.index() * self.dims + d]
    }

    /// Coordinates of router `r`, dimension 0 first (one bounds check for all of them).
    #[inline]
    pub fn coords(&self, r: RouterId) -> &[u32] {
        let at = r.index() * self.dims;
        &self.coord[at..at + self.dims]
    }

    /// The first dimension in which routers `a` and `b` differ, with their coordinates
    /// there; `None` when `a == b`.
    #[inline]
    pub fn first_difference(&self, a: RouterId, b: RouterId) -> Option<(usize, u32, u32)> {
        // Packed coordinates: the lowest set bit of the difference names the dimension.
        if let (Some(&pa), Some(&pb)) = (self.packed.get(a.index()), self.packed.get(b.index())) {
            let diff = pa ^ pb;
            if diff == 0 {
                return None;
            }
            let d = diff.trailing_zeros() / PACKED_BITS;
            let coord = |p: u64| (p >> (d * PACKED_BITS)) as u32 & ((1 << PACKED_BITS) - 1);
            return Some((d as usize, coord(pa), coord(pb)));
        }
        self.coords(a)
            .iter()
            .zip(self.coords(b))
            .enumerate()
            .find(|(_, (x, y))| x != y)
            .map(|(d, (&x, &y))| (d, x, y))
    }

    /// The output port of `r` leading along `d` in direction `dir`.
    ///
    /// # Panics
    /// If there is none (construction checked every port a minimal route needs).
    #[inline]
    pub fn port(&self, r: RouterId, d: usize, dir: Dir) -> u8 {
        let p = self.port[(r.index() * self.dims + d) * 2 + dir_index(dir)];
        if p == NO_PORT {
            no_port(r, d, dir);
        }
        p
    }

    /// The (dimension, direction) a packet arriving at `r` on `in_port` was travelling.
    #[inline]
    pub fn travel(&self, r: RouterId, in_port: u8) -> Option<(u8, Dir)> {
        self.travel[r.index()]
            .get(usize::from(in_port))
            .copied()
            .flatten()
    }

    /// Number of routers.
    #[inline]
    pub fn routers(&self) -> usize {
        self.terminal_vcs.len()
    }

    /// Number of input ports of router `r` (the terminal port included).
    #[inline]
    pub fn in_ports(&self, r: RouterId) -> usize {
        self.in_vcs[r.index()].len()
    }

    /// VCs of router `r`'s terminal port.
    #[inline]
    pub fn terminal_vcs(&self, r: RouterId) -> u8 {
        self.terminal_vcs[r.index()]
    }

    /// VCs of the downstream input port that output `port` of `r` drives.
    #[inline]
    pub fn out_vcs(&self, r: RouterId, port: u8) -> u8 {
        self.out_vcs[r.index()][usize::from(port)]
    }

    /// VCs of input port `in_port` of `r`.
    #[inline]
    pub fn in_vcs(&self, r: RouterId, in_port: u8) -> u8 {
        self.in_vcs[r.index()][usize::from(in_port)]
    }

    /// Minimal direction and distance from `a` to `b` along a ring of `k` (ties go Plus),
    /// or along a line when the topology does not wrap. `None` when `a == b`.
    #[inline]
    pub fn step(&self, d: usize, a: u32, b: u32) -> Option<Dir> {
        if a == b {
            return None;
        }
        if !self.wraps {
            return Some(if b > a { Dir::Plus } else { Dir::Minus });
        }
        let k = self.radix[d];
        // Coordinates are below the radix (checked at construction): no division needed.
        let plus = if b >= a { b - a } else { b + k - a };
        Some(if plus <= k / 2 { Dir::Plus } else { Dir::Minus })
    }

    /// Are both directions minimal from `a` to `b` in dimension `d` (a ring of even radix
    /// `k` with `b` exactly `k/2` hops away)?
    #[inline]
    pub fn is_tie(&self, d: usize, a: u32, b: u32) -> bool {
        let k = self.radix[d];
        self.wraps && a != b && 2 * a.abs_diff(b) == k
    }

    /// Is the hop from coordinate `a` in direction `dir` the wrap-around channel of
    /// dimension `d` (the dateline: `k-1 -> 0` going Plus, `0 -> k-1` going Minus)?
    #[inline]
    pub fn crosses_dateline(&self, d: usize, a: u32, dir: Dir) -> bool {
        match dir {
            Dir::Plus => a + 1 == self.radix[d],
            Dir::Minus => a == 0,
        }
    }

    /// The output port of `r` leading along `d` in direction `dir`, if connected.
    #[inline]
    pub fn try_port(&self, r: RouterId, d: usize, dir: Dir) -> Option<u8> {
        let p = self.port[(r.index() * self.dims + d) * 2 + dir_index(dir)];
        (p != NO_PORT).then_some(p)
    }

    /// The direction dimension-order routing takes in dimension `d` from `a` toward `b`
    /// (ties at `k/2` go `Plus`; hypercube: `Plus` when bit `d` differs), `None` when equal.
    pub fn offset(&self, a: RouterId, b: RouterId, d: usize) -> Option<Dir> {
        let (x, y) = (self.coord(a, d), self.coord(b, d));
        if self.hypercube {
            (x != y).then_some(Dir::Plus)
        } else {
            self.step(d, x, y)
        }
    }

    /// Minimal directions from `a` to `b` in dimension `d`: none, one, or both on a torus
    /// when the distance is exactly `k/2` (`Plus` first).
    pub fn minimal_dirs(&self, a: RouterId, b: RouterId, d: usize) -> [Option<Dir>; 2] {
        let (x, y) = (self.coord(a, d), self.coord(b, d));
        if x == y {
            return [None, None];
        }
        if self.hypercube {
            return [Some(Dir::Plus), None];
        }
        if self.wraps {
            let k = self.radix[d];
            let plus = (y + k - x) % k;
            if 2 * plus == k {
                return [Some(Dir::Plus), Some(Dir::Minus)];
            }
        }
        [self.step(d, x, y), None]
    }

    /// The port dimension-order routing takes at `here` toward `there` (lowest differing
    /// dimension, minimal direction, ties `Plus`), `None` at `there`. The reference of
    /// the `adaptive_hops_fraction` statistic.
    pub fn dor_port(&self, here: RouterId, there: RouterId) -> Option<u8> {
        let (d, x, y) = self.first_difference(here, there)?;
        let dir = if self.hypercube {
            Dir::Plus
        } else {
            self.step(d, x, y)?
        };
        Some(self.port(here, d, dir))
    }
}

/// The balanced tie rule: the direction `packet` takes in dimension `d` when both are
/// minimal. A hash of the packet id (source terminal, sequence number) and the dimension,
/// so each packet's choice is fixed wherever and by whichever thread it is routed, and
/// half the packets go each way. A minimal route meets a tie only where it turns into the
/// dimension (one hop later the distance is below `k/2`), so this is a choice made once
/// per dimension.
pub fn tie_dir(packet: PacketId, d: usize) -> Dir {
    // SplitMix64's finaliser over the packet id and the dimension.
    let mut z = (u64::from(packet.source.0) << 32 | u64::from(packet.seq))
        ^ (d as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^= z >> 31;
    if z & 1 == 0 {
        Dir::Plus
    } else {
        Dir::Minus
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::{hypercube, mesh, torus};

    /// The first differing dimension read from the coordinate slices (the definition).
    fn first_difference_of_slices(
        g: &Geometry,
        a: RouterId,
        b: RouterId,
    ) -> Option<(usize, u32, u32)> {
        (0..g.dims)
            .map(|d| (d, g.coord(a, d), g.coord(b, d)))
            .find(|&(_, x, y)| x != y)
    }

    #[test]
    fn first_difference_packed_or_not_matches_the_coordinates() {
        // Packed (up to 4 dimensions) and unpacked (hypercube-6) geometries.
        let nets = [
            (torus(&[8, 8], 2), RoutingKind::Dor, true),
            (torus(&[3, 4, 5], 2), RoutingKind::Dor, true),
            (mesh(&[5, 3], 1), RoutingKind::Dor, true),
            (torus(&[7], 2), RoutingKind::Dor, true),
            (hypercube(6, 1), RoutingKind::Dor, false),
        ];
        for (n, kind, packs) in nets {
            let g = Geometry::new(&n, kind).unwrap();
            assert_eq!(!g.packed.is_empty(), packs);
            for a in 0..g.routers() {
                for b in 0..g.routers() {
                    let (a, b) = (RouterId(a as u32), RouterId(b as u32));
                    assert_eq!(
                        g.first_difference(a, b),
                        first_difference_of_slices(&g, a, b),
                        "{a} -> {b}"
                    );
                }
            }
        }
    }

    #[test]
    fn ties_split_packets_evenly_per_source_and_dimension() {
        use flitsim_netlist::TerminalId;
        // Every source's consecutive packets go Plus about half the time in each dimension.
        for source in [0u32, 1, 7, 63, 1000] {
            for d in 0..3 {
                let plus = (0..4000u32)
                    .filter(|&seq| {
                        let id = PacketId {
                            source: TerminalId(source),
                            seq,
                        };
                        tie_dir(id, d) == Dir::Plus
                    })
                    .count();
                assert!((1900..=2100).contains(&plus), "{source} {d}: {plus}");
            }
        }
    }
}
