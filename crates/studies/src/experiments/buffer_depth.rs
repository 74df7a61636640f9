//! The buffer-depth search (`flitsim buffers`): occupancy with unbounded buffers as the
//! reference, then the smallest depth per VC whose accepted throughput reaches a fraction
//! of it. The depth halves from the peak storage used until one falls short, then bisects,
//! so the answer `d` and `d - 1` are both simulated.

use super::pool::Progress;
use anyhow::bail;
use flitsim_engine::stats::buffer::BufferStats;
use flitsim_engine::{SimConfig, Simulation};
use flitsim_netlist::Netlist;
use serde::Serialize;

/// Occupancy of one input port (over its VCs).
#[derive(Clone, Debug, Serialize)]
pub struct PortBuffers {
    /// Router name.
    pub router: String,
    /// Input port name.
    pub port: String,
    /// VCs.
    pub vcs: usize,
    /// Mean occupancy summed over the port's VCs (flits).
    pub mean: f64,
    /// Largest p99 of its VCs (flits).
    pub p99: u32,
    /// Peak occupancy of any of its VCs (flits): the storage one VC needed.
    pub peak: u32,
}

/// One depth tried by the search.
#[derive(Clone, Debug, Serialize)]
pub struct Tried {
    /// Depth per VC (flits).
    pub depth: u32,
    /// Accepted flits per terminal per cycle.
    pub accepted: f64,
    /// `accepted` / unbounded throughput.
    pub fraction: f64,
    /// `fraction >= --fraction`.
    pub reaches: bool,
}

/// The outcome of a depth search.
#[derive(Clone, Debug, Default)]
pub struct DepthSearch {
    /// Every depth tried, deepest first.
    pub tried: Vec<Tried>,
    /// The smallest depth that reaches the fraction; `None` if even the peak did not.
    pub required: Option<u32>,
}

/// Simulates `netlist` with every buffer `depth` deep (`"unbounded"` or a number of
/// flits): (accepted flits/terminal/cycle, per-VC occupancy).
///
/// # Errors
/// A depth the netlist refuses, a configuration the engine refuses, or a run that
/// stopped (a deadlock).
pub fn simulate_buffers(
    netlist: &Netlist,
    depth: &str,
    config: &SimConfig,
) -> anyhow::Result<(f64, Vec<BufferStats>)> {
    let mut n = netlist.clone();
    n.set_all([("buffer_depth", depth)])
        .map_err(|d| anyhow::anyhow!("buffer_depth={depth}: {d}"))?;
    let mut sim = Simulation::new(&n, config)?;
    let report = sim.run();
    if let Some(e) = sim.error() {
        bail!("the run stopped: {e}");
    }
    Ok((
        report.accepted.flits_per_terminal_cycle,
        sim.buffer_stats(&n),
    ))
}

/// Finds the smallest depth per VC, at least `floor` (the packet length under virtual
/// cut-through and store-and-forward), whose accepted throughput reaches `fraction` of
/// `reference`, starting from `peak` (capped at [`flitsim_netlist::MAX_BUFFER_DEPTH`]).
///
/// # Errors
/// As [`simulate_buffers`].
pub fn search_depth(
    netlist: &Netlist,
    config: &SimConfig,
    (reference, fraction): (f64, f64),
    (floor, peak): (u32, u32),
    progress: &dyn Progress,
) -> anyhow::Result<DepthSearch> {
    let mut tried: Vec<Tried> = Vec::new();
    let mut try_depth = |d: u32| -> anyhow::Result<bool> {
        if let Some(t) = tried.iter().find(|t| t.depth == d) {
            return Ok(t.reaches);
        }
        progress.step(&format!("simulating a depth of {d} flits per VC"));
        let (acc, _) = simulate_buffers(netlist, &d.to_string(), config)?;
        let reached = acc / reference;
        let reaches = reached >= fraction;
        tried.push(Tried {
            depth: d,
            accepted: acc,
            fraction: reached,
            reaches,
        });
        Ok(reaches)
    };
    let top = peak.max(floor).min(flitsim_netlist::MAX_BUFFER_DEPTH);
    let required = smallest_reaching(top, floor.max(1), &mut try_depth)?;
    tried.sort_by_key(|t| std::cmp::Reverse(t.depth));
    Ok(DepthSearch { tried, required })
}

/// The smallest depth of at least `floor` that `reaches` accepts, if `top` does: halves
/// from `top` (never below `floor`) until a depth falls short, then bisects between it
/// and the last that reached.
fn smallest_reaching(
    top: u32,
    floor: u32,
    reaches: &mut dyn FnMut(u32) -> anyhow::Result<bool>,
) -> anyhow::Result<Option<u32>> {
    let mut ok = top;
    let mut bad = 0;
    if !reaches(ok)? {
        return Ok(None);
    }
    while ok > floor {
        let d = (ok / 2).max(floor);
        if reaches(d)? {
            ok = d;
        } else {
            bad = d;
            break;
        }
    }
    while ok - bad > 1 && bad > 0 {
        let mid = (ok + bad) / 2;
        if reaches(mid)? {
            ok = mid;
        } else {
            bad = mid;
        }
    }
    Ok(Some(ok))
}

/// Groups VC statistics by router and input port (network ports and injection).
pub fn by_port(buffers: &[BufferStats]) -> Vec<PortBuffers> {
    let mut out: Vec<PortBuffers> = Vec::new();
    for b in buffers {
        match out.last_mut() {
            Some(p) if p.router == b.router && p.port == b.port => {
                p.vcs += 1;
                p.mean += b.mean;
                p.p99 = p.p99.max(b.p99);
                p.peak = p.peak.max(b.max);
            }
            _ => out.push(PortBuffers {
                router: b.router.clone(),
                port: b.port.clone(),
                vcs: 1,
                mean: b.mean,
                p99: b.p99,
                peak: b.max,
            }),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::smallest_reaching;

    #[test]
    fn the_search_finds_the_threshold_and_simulates_its_neighbour() {
        for threshold in [1, 2, 3, 7, 13, 64] {
            let mut asked = Vec::new();
            let mut reaches = |d: u32| {
                asked.push(d);
                Ok(d >= threshold)
            };
            assert_eq!(
                smallest_reaching(64, 1, &mut reaches).unwrap(),
                Some(threshold)
            );
            if threshold > 1 {
                assert!(asked.contains(&(threshold - 1)), "{threshold}: {asked:?}");
            }
        }
        assert_eq!(smallest_reaching(8, 1, &mut |d| Ok(d > 8)).unwrap(), None);
        let mut asked = Vec::new();
        let mut reaches = |d: u32| {
            asked.push(d);
            Ok(true)
        };
        assert_eq!(smallest_reaching(64, 12, &mut reaches).unwrap(), Some(12));
        assert!(asked.iter().all(|&d| d >= 12), "{asked:?}");
    }
}
