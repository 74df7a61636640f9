//! Graph measures of a netlist: hop distances between routers (breadth-first search over
//! the petgraph graph), the diameter and the average distance between distinct terminals.
//!
//! For the generator families (and explicit netlists declaring one, which loading
//! matches exactly) the diameter and the distance sum come from closed forms, per
//! dimension of radix k over its k^2 ordered pairs: a ring sums k * sum_j min(j, k - j)
//! hops, a line (mesh) (k^3 - k) / 3, a HyperX dimension (all-to-all) k (k - 1); a
//! hypercube is a mesh of radix 2 per dimension.
//! Other netlists take one breadth-first search per router up to [`EXACT_ROUTERS`]
//! routers, and above that a search from [`SAMPLED_SOURCES`] evenly spaced routers.

use crate::ids::RouterId;
use crate::netlist::{Netlist, Topology};
use petgraph::graph::NodeIndex;
use std::collections::VecDeque;
use std::fmt;

/// Largest explicit netlist (routers) whose distances are summed over every pair.
pub const EXACT_ROUTERS: usize = 2048;

/// Sources of the breadth-first searches of larger explicit netlists.
pub const SAMPLED_SOURCES: usize = 64;

/// How the routers along one dimension are joined.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Shape {
    /// A line (mesh, hypercube).
    Line,
    /// A ring (torus).
    Ring,
    /// Every pair joined (HyperX).
    AllToAll,
}

/// Per dimension of radix `k`: (largest distance, distance summed over the k^2 ordered
/// pairs).
fn dimension(k: u64, shape: Shape) -> (u64, u64) {
    if shape == Shape::AllToAll {
        (1, k * (k - 1))
    } else if shape == Shape::Ring {
        (k / 2, k * (0..k).map(|j| j.min(k - j)).sum::<u64>())
    } else {
        (k.saturating_sub(1), (k * k * k - k) / 3)
    }
}

/// (diameter, distance sum over ordered pairs of distinct routers, pairs) of a generator
/// topology, from closed forms; `None` for explicit netlists.
fn closed_form(t: &Topology) -> Option<(u32, u64, u64)> {
    let wide = |radix: &[u32]| radix.iter().map(|&k| u64::from(k)).collect();
    let (radix, shape): (Vec<u64>, Shape) = match t {
        Topology::Torus { radix } => (wide(radix), Shape::Ring),
        Topology::Ring { n } => (vec![u64::from(*n)], Shape::Ring),
        Topology::Mesh { radix } => (wide(radix), Shape::Line),
        Topology::Hypercube { dim } => (vec![2; *dim as usize], Shape::Line),
        Topology::HyperX { radix } => (wide(radix), Shape::AllToAll),
        Topology::Dragonfly { .. } | Topology::FatTree { .. } | Topology::Explicit => return None,
    };
    let n: u64 = radix.iter().product();
    let (mut max, mut sum) = (0, 0);
    for &k in &radix {
        let (m, s) = dimension(k, shape);
        max += m;
        // Each pair of coordinates along this dimension occurs (n/k)^2 times.
        sum += s * (n / k) * (n / k);
    }
    Some((u32::try_from(max).ok()?, sum, n * (n - 1)))
}

impl Netlist {
    /// Router-to-router hops from `src` to every router along shortest paths
    /// (`None` where unreachable), indexed by router id.
    pub fn distances_from(&self, src: RouterId) -> Vec<Option<u32>> {
        let mut dist = vec![None; self.num_routers()];
        let mut queue = VecDeque::new();
        dist[src.index()] = Some(0);
        queue.push_back(NodeIndex::new(src.index()));
        while let Some(u) = queue.pop_front() {
            let du = dist[u.index()].unwrap_or(0);
            for v in self.graph.neighbors(u) {
                if dist[v.index()].is_none() {
                    dist[v.index()] = Some(du + 1);
                    queue.push_back(v);
                }
            }
        }
        dist
    }

    /// (largest distance, sum of distances, number of ordered pairs of distinct routers
    /// that are connected), and whether every pair was counted (see the module docs).
    fn distance_totals(&self) -> (u32, u64, u64, bool) {
        if let Some((max, sum, pairs)) = closed_form(&self.topology) {
            return (max, sum, pairs, true);
        }
        let n = self.num_routers();
        if n <= EXACT_ROUTERS {
            let (max, sum, pairs) = self.searched_totals(0..n);
            return (max, sum, pairs, true);
        }
        let (max, sum, pairs) =
            self.searched_totals((0..SAMPLED_SOURCES).map(|i| i * n / SAMPLED_SOURCES));
        (max, sum, pairs, false)
    }

    /// [`Self::distance_totals`] by breadth-first search from each router of `sources`.
    fn searched_totals(&self, sources: impl Iterator<Item = usize>) -> (u32, u64, u64) {
        let mut max = 0;
        let mut sum = 0u64;
        let mut pairs = 0u64;
        for s in sources {
            for (t, d) in self
                .distances_from(RouterId(s as u32))
                .into_iter()
                .enumerate()
            {
                if let (Some(d), true) = (d, t != s) {
                    max = max.max(d);
                    sum += u64::from(d);
                    pairs += 1;
                }
            }
        }
        (max, sum, pairs)
    }

    /// The largest shortest-path distance (router-to-router hops) between two terminals'
    /// routers. A validated netlist is strongly connected; otherwise unreachable pairs are
    /// ignored. 0 for a single router.
    pub fn diameter(&self) -> u32 {
        self.distance_summary().0
    }

    /// Mean shortest-path distance (router-to-router hops) over all ordered pairs of
    /// distinct terminals (unreachable pairs ignored; 0.0 for a single router).
    pub fn average_distance(&self) -> f64 {
        self.distance_summary().1
    }

    /// Both [`diameter`](Self::diameter) and [`average_distance`](Self::average_distance),
    /// and whether they are exact: `false` for an explicit netlist of more than
    /// [`EXACT_ROUTERS`] routers, where they come from [`SAMPLED_SOURCES`] sources (the
    /// diameter is then a lower bound, the average an estimate).
    pub fn distance_summary(&self) -> (u32, f64, bool) {
        let (max, sum, pairs, exact) = self.distance_totals();
        let avg = if pairs == 0 {
            0.0
        } else {
            sum as f64 / pairs as f64
        };
        (max, avg, exact)
    }
}

/// `torus 8x8`, `mesh 4x4`, `hypercube 6`, `ring 8`, `explicit`.
impl fmt::Display for Topology {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let dims = |r: &[u32]| r.iter().map(u32::to_string).collect::<Vec<_>>().join("x");
        match self {
            Topology::Torus { radix } => write!(f, "torus {}", dims(radix)),
            Topology::Mesh { radix } => write!(f, "mesh {}", dims(radix)),
            Topology::Hypercube { dim } => write!(f, "hypercube {dim}"),
            Topology::Ring { n } => write!(f, "ring {n}"),
            Topology::Dragonfly { a, h } => write!(f, "dragonfly a={a} h={h}"),
            Topology::HyperX { radix } => write!(f, "hyperx {}", dims(radix)),
            Topology::FatTree { k, n } => write!(f, "fat tree {k}-ary {n}-tree"),
            Topology::Explicit => f.write_str("explicit"),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::topology::{hypercube, hyperx, mesh, ring, torus};

    // Closed forms over all N^2 ordered pairs (self included), per dimension of radix k:
    // torus k/4 (k even) or (k^2-1)/(4k) (k odd); mesh (k^2-1)/(3k); the hypercube n/2.
    // Over distinct pairs multiply by N/(N-1).
    fn torus_dim(k: u32) -> f64 {
        let k = f64::from(k);
        if k as u32 % 2 == 0 {
            k / 4.0
        } else {
            (k * k - 1.0) / (4.0 * k)
        }
    }

    fn mesh_dim(k: u32) -> f64 {
        let k = f64::from(k);
        (k * k - 1.0) / (3.0 * k)
    }

    fn distinct(all_pairs_mean: f64, n: f64) -> f64 {
        all_pairs_mean * n / (n - 1.0)
    }

    #[test]
    fn torus_matches_closed_forms() {
        for radix in [
            vec![3, 3],
            vec![4, 4],
            vec![5, 4],
            vec![8, 8],
            vec![3, 4, 5],
            vec![7],
        ] {
            let n = torus(&radix);
            let count: u32 = radix.iter().product();
            let mean: f64 = radix.iter().map(|&k| torus_dim(k)).sum();
            let diam: u32 = radix.iter().map(|k| k / 2).sum();
            assert_eq!(n.diameter(), diam, "{radix:?}");
            let want = distinct(mean, f64::from(count));
            assert!(
                (n.average_distance() - want).abs() < 1e-9,
                "{radix:?}: {want}"
            );
        }
    }

    #[test]
    fn mesh_matches_closed_forms() {
        for radix in [vec![2, 2], vec![3, 5], vec![8, 8], vec![4, 4, 4], vec![6]] {
            let n = mesh(&radix);
            let count: u32 = radix.iter().product();
            let mean: f64 = radix.iter().map(|&k| mesh_dim(k)).sum();
            let diam: u32 = radix.iter().map(|k| k - 1).sum();
            assert_eq!(n.diameter(), diam, "{radix:?}");
            let want = distinct(mean, f64::from(count));
            assert!(
                (n.average_distance() - want).abs() < 1e-9,
                "{radix:?}: {want}"
            );
        }
    }

    #[test]
    fn hypercube_and_ring_match_closed_forms() {
        for dim in 1..=8u32 {
            let n = hypercube(dim);
            let count = f64::from(1u32 << dim);
            assert_eq!(n.diameter(), dim);
            let want = f64::from(dim) * count / 2.0 / (count - 1.0);
            assert!((n.average_distance() - want).abs() < 1e-9, "dim {dim}");
        }
        for k in [2, 3, 8, 9] {
            let n = ring(k);
            assert_eq!(n.diameter(), k / 2);
            let want = distinct(torus_dim(k), f64::from(k));
            assert!((n.average_distance() - want).abs() < 1e-9, "ring {k}");
        }
    }

    #[test]
    fn closed_forms_are_the_searched_distances() {
        for n in [
            torus(&[3, 3]),
            torus(&[2, 5, 4]),
            mesh(&[4, 2, 3]),
            hypercube(5),
            ring(7),
            ring(2),
            hyperx(&[4, 4]),
            hyperx(&[2, 3, 4]),
            hyperx(&[5]),
        ] {
            let (max, sum, pairs) = n.searched_totals(0..n.num_routers());
            assert_eq!(
                super::closed_form(&n.topology),
                Some((max, sum, pairs)),
                "{}",
                n.topology
            );
        }
    }

    #[test]
    fn topology_displays_its_shape() {
        assert_eq!(torus(&[8, 4]).topology.to_string(), "torus 8x4");
        assert_eq!(hypercube(3).topology.to_string(), "hypercube 3");
        assert_eq!(hyperx(&[4, 4]).topology.to_string(), "hyperx 4x4");
    }
}
