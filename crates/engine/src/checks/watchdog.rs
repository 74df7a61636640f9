//! Deadlock watchdog: if flits are in the network and none has moved (no flit written onto
//! any channel, none consumed) for `limit` cycles, and nothing is scheduled to happen
//! (no flit, credit or reset travelling on a channel, none inside a router's pipeline
//! delay), the run stops and reports which input VCs wait for which. A flit on a channel
//! of latency L or in a pipeline delay of D cycles is progress: the limit counts from its
//! arrival, so no latency or delay needs a larger limit.
//!
//! With request/reply traffic a terminal's ejection buffer is a node too (port
//! [`EJECTION_BUFFER`] of its router): a router VC waiting for an ejection credit waits for
//! it, and while the terminal refuses a request tail (its reply queue full) it waits for
//! the injection VCs its next reply needs.
//!
//! The diagnosis is off the hot path: it asks every router for its waiting input VCs
//! (`Router::waits`), maps each wait through the channel map to the downstream input VCs
//! it waits for, and looks for a cycle in that wait-for graph (petgraph's Tarjan SCC). The
//! cycle is reported deterministically: the strongly connected component with the smallest
//! VC first, walked from its smallest VC, always to the smallest successor inside the
//! component, and rotated to start at its smallest VC.

use crate::cycle::View;
use crate::error::{SimError, WaitingVc, EJECTION_BUFFER};
use flitsim_netlist::{Cycle, InPort, RouterId, VcId, TERMINAL_PORT};
use petgraph::algo::tarjan_scc;
use petgraph::graphmap::DiGraphMap;
use std::collections::{BTreeMap, BTreeSet};

/// An input VC: (router, input port, VC), ordered by id.
type VcNode = (u32, u8, u8);

/// Counts cycles without movement.
#[derive(Clone, Debug)]
pub(crate) struct Watchdog {
    limit: u64,
    last_move: Cycle,
}

impl Watchdog {
    /// A watchdog firing after `limit` cycles without movement (0 = never).
    pub fn new(limit: u64) -> Watchdog {
        Watchdog {
            limit,
            last_move: Cycle(0),
        }
    }

    /// Records cycle `now`; true when the watchdog fires.
    pub fn observe(&mut self, now: Cycle, moved: bool, flits_in_network: u64) -> bool {
        if moved || flits_in_network == 0 {
            self.last_move = self.last_move.max(now);
            return false;
        }
        self.limit > 0 && self.idle(now) >= self.limit
    }

    /// Could the watchdog fire when it observes cycle `at` (no movement seen from now on)?
    pub fn could_fire(&self, at: Cycle) -> bool {
        self.limit > 0 && self.idle(at) >= self.limit
    }

    /// Counts the network as progressing until `until` (a scheduled arrival, a pipeline
    /// delay): the limit counts from there.
    pub fn progress_until(&mut self, until: Cycle) {
        self.last_move = self.last_move.max(until);
    }

    /// Cycles since the last movement (or scheduled progress).
    pub fn idle(&self, now: Cycle) -> u64 {
        now.0.saturating_sub(self.last_move.0)
    }
}

/// Builds the wait-for graph of `net` and reports its first cycle (or every waiting VC).
pub(crate) fn diagnose(now: Cycle, idle: u64, view: &View<'_>) -> SimError {
    let net = view.net;
    let out_channel: BTreeMap<(RouterId, u8), usize> = net
        .ends
        .iter()
        .enumerate()
        .filter_map(|(ch, e)| e.from().map(|(r, o)| ((r, o.0), ch)))
        .collect();
    let mut graph: DiGraphMap<VcNode, ()> = DiGraphMap::new();
    let mut waiting: BTreeSet<VcNode> = BTreeSet::new();
    for (r, wired) in view.routers().enumerate() {
        for w in wired.router.waits() {
            let from: VcNode = (r as u32, w.in_port.0, w.vc.0);
            waiting.insert(from);
            graph.add_node(from);
            if w.out_port.index() < net.terminals.count(r) as usize {
                // The terminal's ejection buffer (bounded with request/reply traffic,
                // which runs with one terminal per router).
                for vc in &w.out_vcs {
                    graph.add_edge(from, (r as u32, EJECTION_BUFFER.0, vc.0), ());
                }
                continue;
            }
            let Some(&ch) = out_channel.get(&(RouterId(r as u32), w.out_port.0)) else {
                continue;
            };
            let Some((to_r, to_p)) = net.ends[ch].to() else {
                continue;
            };
            for vc in &w.out_vcs {
                graph.add_edge(from, (to_r.0, to_p.0, vc.0), ());
            }
        }
    }
    add_terminal_waits(view, &mut graph, &mut waiting);
    let name = |n: VcNode| WaitingVc {
        router: RouterId(n.0),
        port: InPort(n.1),
        vc: VcId(n.2),
        name: if InPort(n.1) == EJECTION_BUFFER {
            format!(
                "terminal {} ejection vc{} (its reply queue is full)",
                net.names.router(n.0 as usize),
                n.2
            )
        } else {
            net.names.vc(RouterId(n.0), InPort(n.1), VcId(n.2))
        },
    };
    match find_cycle(&graph) {
        Some(cycle) => SimError::Deadlock {
            cycle: now,
            waiting: cycle.into_iter().map(name).collect(),
        },
        None => {
            if waiting.is_empty() {
                waiting = holding(view);
            }
            SimError::Stalled {
                cycle: now,
                idle,
                waiting: waiting.into_iter().map(name).collect(),
            }
        }
    }
}

/// The waits of request/reply terminals: an ejection VC whose request tail the terminal
/// refuses waits for the injection VCs its next reply needs (input port 0 of its router).
fn add_terminal_waits(
    view: &View<'_>,
    graph: &mut DiGraphMap<VcNode, ()>,
    waiting: &mut BTreeSet<VcNode>,
) {
    for (r, wired) in view.terminals().enumerate() {
        let Some(w) = wired.terminal.reply_wait() else {
            continue;
        };
        for e in &w.ejection_vcs {
            let from: VcNode = (r as u32, EJECTION_BUFFER.0, e.0);
            waiting.insert(from);
            for vc in &w.injection_vcs {
                graph.add_edge(from, (r as u32, TERMINAL_PORT, vc.0), ());
            }
        }
    }
}

/// Every input VC holding a flit: what a stall report names when no VC is waiting for a
/// VC or a credit (a flit still in a pipeline stage, or a state the wait-for graph does
/// not know), so that a report always says where the undelivered flits are.
fn holding(view: &View<'_>) -> BTreeSet<VcNode> {
    let mut held = BTreeSet::new();
    for (r, wired) in view.routers().enumerate() {
        held.extend(
            wired
                .router
                .holding_vcs()
                .map(|(p, v)| (r as u32, p.0, v.0)),
        );
    }
    held
}

/// The deterministic cycle described in the module docs, if the graph has one.
fn find_cycle(graph: &DiGraphMap<VcNode, ()>) -> Option<Vec<VcNode>> {
    let comps: Vec<BTreeSet<VcNode>> = tarjan_scc(graph)
        .into_iter()
        .map(|c| c.into_iter().collect::<BTreeSet<_>>())
        .filter(|c| c.len() > 1 || c.iter().any(|&n| graph.contains_edge(n, n)))
        .collect();
    let comp = comps
        .into_iter()
        .min_by_key(|c| *c.first().expect("non-empty component"))?;
    let start = *comp.first()?;
    let mut path = vec![start];
    let mut cur = start;
    loop {
        let next = graph
            .neighbors(cur)
            .filter(|n| comp.contains(n))
            .min()
            .expect("a node of a strongly connected component has a successor inside it");
        if let Some(pos) = path.iter().position(|&n| n == next) {
            let mut cycle = path.split_off(pos);
            let min_at = cycle
                .iter()
                .enumerate()
                .min_by_key(|(_, n)| **n)
                .map(|(i, _)| i)
                .unwrap_or(0);
            cycle.rotate_left(min_at);
            return Some(cycle);
        }
        path.push(next);
        cur = next;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_smallest_cycle_deterministically() {
        let mut g: DiGraphMap<VcNode, ()> = DiGraphMap::new();
        // a tail into a cycle 3 -> 4 -> 5 -> 3, and a second cycle 7 <-> 8.
        let n = |i: u32| (i, 1u8, 0u8);
        g.add_edge(n(1), n(3), ());
        g.add_edge(n(3), n(4), ());
        g.add_edge(n(4), n(5), ());
        g.add_edge(n(5), n(3), ());
        g.add_edge(n(8), n(7), ());
        g.add_edge(n(7), n(8), ());
        assert_eq!(find_cycle(&g), Some(vec![n(3), n(4), n(5)]));
    }

    #[test]
    fn no_cycle_in_a_chain() {
        let mut g: DiGraphMap<VcNode, ()> = DiGraphMap::new();
        g.add_edge((0, 1, 0), (1, 1, 0), ());
        g.add_edge((1, 1, 0), (2, 1, 0), ());
        assert_eq!(find_cycle(&g), None);
    }

    #[test]
    fn fires_only_after_the_limit_with_flits_in_the_network() {
        let mut w = Watchdog::new(3);
        assert!(!w.observe(Cycle(0), true, 5));
        assert!(!w.observe(Cycle(1), false, 5));
        assert!(!w.observe(Cycle(2), false, 5));
        assert!(w.observe(Cycle(3), false, 5));
        let mut w = Watchdog::new(3);
        for t in 0..10 {
            assert!(!w.observe(Cycle(t), false, 0));
        }
    }
}
