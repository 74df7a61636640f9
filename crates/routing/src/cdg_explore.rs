//! The exploration behind the static deadlock check ([`crate::cdg`]): for every destination,
//! the states `(router, input port, VC)` a packet can reach from an injection VC, and for
//! each the set of virtual channels it may request next.
//!
//! A request set is a sorted list of [`Span`]s (a VC range of one channel), stored once. A
//! state is routed once per destination; the states a candidate leads to are marked as a
//! bit range, so a candidate costs O(1) words, not one step per VC. Time is about
//! destinations x routers x ports x VCs route computations; memory is the state arrays
//! plus the distinct (VC, set) pairs, counted against [`MEMORY_LIMIT`] before it grows.

use crate::{RouteCtx, RouteSet, RoutingFunction};
use flitsim_netlist::{ChannelId, InPort, Netlist, RouterId, TerminalId, VcId, TERMINAL_PORT};
use std::collections::HashMap;

/// Bytes the exploration may hold at once (its arrays, dependencies and sets).
pub const MEMORY_LIMIT: usize = 1 << 30;

/// VCs `lo..hi` of one channel: a member of a request set.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Span {
    /// Channel id.
    pub channel: u32,
    /// First VC.
    pub lo: u8,
    /// One past the last VC.
    pub hi: u8,
}

/// The exploration would need more than [`MEMORY_LIMIT`] bytes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TooLarge {
    /// Bytes it asked for in all when it stopped.
    pub bytes: usize,
}

/// What the exploration found.
pub struct Dependencies {
    /// Sorted, distinct `node << 32 | set`: the VC `node` depends on every VC of `set`.
    pub pairs: Vec<u64>,
    /// The request sets, each a sorted list of disjoint spans.
    pub sets: Vec<Vec<Span>>,
    /// VCs per channel in node numbering (`node = channel x max_vcs + vc`).
    pub max_vcs: usize,
}

/// Bytes held, checked against the limit before any growth.
struct Budget {
    used: usize,
    limit: usize,
}

impl Budget {
    fn take(&mut self, bytes: usize) -> Result<(), TooLarge> {
        self.used = self.used.saturating_add(bytes);
        if self.used > self.limit {
            return Err(TooLarge { bytes: self.used });
        }
        Ok(())
    }

    /// A vector of `len` copies of `x`, allocated exactly.
    fn vec<T: Clone>(&mut self, len: usize, x: T) -> Result<Vec<T>, TooLarge> {
        self.take(len.saturating_mul(std::mem::size_of::<T>()))?;
        let mut v = Vec::new();
        v.try_reserve_exact(len)
            .map_err(|_| TooLarge { bytes: self.used })?;
        v.resize(len, x);
        Ok(v)
    }

    /// Room for one more element in `v`, doubling its capacity when full.
    fn grow<T>(&mut self, v: &mut Vec<T>) -> Result<(), TooLarge> {
        if v.len() < v.capacity() {
            return Ok(());
        }
        let more = v.capacity().max(1024);
        self.take(more.saturating_mul(std::mem::size_of::<T>()))?;
        v.try_reserve_exact(more)
            .map_err(|_| TooLarge { bytes: self.used })
    }

    /// Room for one more entry in `map`, its new capacity counted.
    fn grow_map<K: Eq + std::hash::Hash, V>(
        &mut self,
        map: &mut HashMap<K, V>,
    ) -> Result<(), TooLarge> {
        let before = map.capacity();
        map.try_reserve(1)
            .map_err(|_| TooLarge { bytes: self.used })?;
        let entry = std::mem::size_of::<(K, V)>() + 1;
        self.take((map.capacity() - before).saturating_mul(entry))
    }
}

/// Request sets, each stored once.
struct Sets {
    ids: HashMap<Vec<Span>, u32>,
    members: Vec<Vec<Span>>,
}

impl Sets {
    /// The id of `spans` (sorted and merged here), interning it if new.
    fn intern(&mut self, mut spans: Vec<Span>, budget: &mut Budget) -> Result<u32, TooLarge> {
        spans.sort_unstable();
        let mut merged: Vec<Span> = Vec::with_capacity(spans.len());
        for s in spans {
            match merged.last_mut() {
                Some(m) if m.channel == s.channel && s.lo <= m.hi => m.hi = m.hi.max(s.hi),
                _ => merged.push(s),
            }
        }
        if let Some(&id) = self.ids.get(&merged) {
            return Ok(id);
        }
        // The spans are stored twice: as the map's key and in the list.
        budget.take(2 * merged.len() * std::mem::size_of::<Span>())?;
        budget.grow_map(&mut self.ids)?;
        budget.grow(&mut self.members)?;
        let id = self.members.len() as u32;
        self.members.push(merged.clone());
        self.ids.insert(merged, id);
        Ok(id)
    }
}

/// No set computed yet for a state.
const NONE: u32 = u32::MAX;

/// The network seen from the exploration: port tables and index arithmetic.
struct Space<'a> {
    f: &'a dyn RoutingFunction,
    /// VCs below this are escape VCs (all VCs without escape VCs).
    escape: u8,
    max_ports: usize,
    max_vcs: usize,
    /// Per (router, port): the channel leaving it, its router and input port.
    out: Vec<Option<(ChannelId, RouterId, InPort)>>,
    /// Per (router, port): the channel entering it.
    input: Vec<Option<ChannelId>>,
}

/// Per-destination state of the exploration.
struct Walk {
    dest: TerminalId,
    /// Per state: its request set, or [`NONE`].
    memo: Vec<u32>,
    /// Per (router, port): the VCs reached, 256 bits.
    seen: Vec<[u64; 4]>,
    /// Per (router, port, adaptive VC range): the union of the states' request sets.
    ranges: HashMap<(u32, u8, u8), u32>,
    /// States to expand.
    stack: Vec<(RouterId, InPort, VcId)>,
}

impl Space<'_> {
    fn port(&self, r: RouterId, p: u8) -> usize {
        r.index() * self.max_ports + usize::from(p)
    }

    fn state(&self, r: RouterId, p: InPort, v: VcId) -> usize {
        self.port(r, p.0) * self.max_vcs + usize::from(v.0)
    }

    fn route(&self, r: RouterId, p: InPort, v: VcId, dest: TerminalId, out: &mut RouteSet) {
        let ctx = RouteCtx {
            router: r,
            in_port: p,
            in_vc: v,
        };
        self.f.route(&ctx, dest, out);
    }

    /// The request set of the candidates `cands` offered at router `r`: their escape VCs,
    /// and through their adaptive VCs the request sets of the states those lead to.
    fn request_set(
        &self,
        r: RouterId,
        cands: &RouteSet,
        walk: &mut Walk,
        sets: &mut Sets,
        budget: &mut Budget,
    ) -> Result<u32, TooLarge> {
        let mut spans = Vec::new();
        for c in cands {
            // Terminal ports have no channel: ejection adds no dependency.
            let Some((ch, to, to_port)) = self.out[self.port(r, c.port.0)] else {
                continue;
            };
            let (lo, hi) = (c.vcs.lo, c.vcs.hi);
            if lo < hi.min(self.escape) {
                spans.push(Span {
                    channel: ch.0,
                    lo,
                    hi: hi.min(self.escape),
                });
            }
            if lo.max(self.escape) < hi {
                let id = self.adaptive(to, to_port, lo.max(self.escape), hi, walk, sets, budget)?;
                spans.extend_from_slice(&sets.members[id as usize]);
            }
        }
        sets.intern(spans, budget)
    }

    /// The union of the request sets of states `(r, p, lo..hi)` (adaptive VCs).
    #[allow(clippy::too_many_arguments)]
    fn adaptive(
        &self,
        r: RouterId,
        p: InPort,
        lo: u8,
        hi: u8,
        walk: &mut Walk,
        sets: &mut Sets,
        budget: &mut Budget,
    ) -> Result<u32, TooLarge> {
        let key = (self.port(r, p.0) as u32, lo, hi);
        if let Some(&id) = walk.ranges.get(&key) {
            return Ok(id);
        }
        let mut spans = Vec::new();
        let mut last = NONE;
        for w in lo..hi {
            let id = self.state_set(r, p, VcId(w), walk, sets, budget)?;
            if id != last {
                spans.extend_from_slice(&sets.members[id as usize]);
                last = id;
            }
        }
        let id = sets.intern(spans, budget)?;
        budget.grow_map(&mut walk.ranges)?;
        walk.ranges.insert(key, id);
        Ok(id)
    }

    /// The request set of state `(r, p, v)`, memoised for the destination.
    fn state_set(
        &self,
        r: RouterId,
        p: InPort,
        v: VcId,
        walk: &mut Walk,
        sets: &mut Sets,
        budget: &mut Budget,
    ) -> Result<u32, TooLarge> {
        let i = self.state(r, p, v);
        if walk.memo[i] != NONE {
            return Ok(walk.memo[i]);
        }
        // Guard against adaptive cycles (none for minimal functions): the empty set
        // (id 0) while this state is being expanded.
        walk.memo[i] = 0;
        let mut cands = RouteSet::new();
        self.route(r, p, v, walk.dest, &mut cands);
        let id = self.request_set(r, &cands, walk, sets, budget)?;
        walk.memo[i] = id;
        Ok(id)
    }
}

/// Marks VCs `lo..hi` in `seen` and calls `new` for each not marked before.
fn mark(seen: &mut [u64; 4], lo: u8, hi: u8, mut new: impl FnMut(u8)) {
    for (word, bits) in seen.iter_mut().enumerate() {
        let base = 64 * word as u32;
        let (a, b) = (u32::from(lo).max(base), u32::from(hi).min(base + 64));
        if a >= b {
            continue;
        }
        let width = b - a;
        let mask = if width == 64 {
            !0
        } else {
            ((1u64 << width) - 1) << (a - base)
        };
        let mut fresh = mask & !*bits;
        *bits |= fresh;
        while fresh != 0 {
            new((base + fresh.trailing_zeros()) as u8);
            fresh &= fresh - 1;
        }
    }
}

/// Pushes the states of VCs `lo..hi` at `(router, port)` not seen before.
fn push_new(
    seen: &mut [u64; 4],
    lo: u8,
    hi: u8,
    (r, p): (RouterId, InPort),
    stack: &mut Vec<(RouterId, InPort, VcId)>,
    budget: &mut Budget,
) -> Result<(), TooLarge> {
    let mut grew = Ok(());
    mark(seen, lo, hi, |w| {
        if grew.is_ok() {
            grew = budget.grow(stack);
            if grew.is_ok() {
                stack.push((r, p, VcId(w)));
            }
        }
    });
    grew
}

/// The dependencies of `f` on `netlist` (see the module docs), or [`TooLarge`].
pub fn dependencies(f: &dyn RoutingFunction, netlist: &Netlist) -> Result<Dependencies, TooLarge> {
    dependencies_within(f, netlist, MEMORY_LIMIT)
}

/// [`dependencies`] holding at most `limit` bytes.
fn dependencies_within(
    f: &dyn RoutingFunction,
    netlist: &Netlist,
    limit: usize,
) -> Result<Dependencies, TooLarge> {
    let max_ports = netlist.routers().map(|r| r.ports.len()).max().unwrap_or(1);
    let max_vcs = netlist
        .routers()
        .flat_map(|r| r.ports.iter().map(|p| usize::from(p.vcs)))
        .max()
        .unwrap_or(1)
        .max(1);
    let mut budget = Budget { used: 0, limit };
    let ports = netlist.num_routers() * max_ports;
    let mut space = Space {
        f,
        escape: f.escape_vcs().unwrap_or(u8::MAX),
        max_ports,
        max_vcs,
        out: budget.vec(ports, None)?,
        input: budget.vec(ports, None)?,
    };
    for c in 0..netlist.num_channels() {
        let ch = netlist.channel(ChannelId(c as u32));
        let (from, to) = (
            space.port(ch.from, ch.from_port.0),
            space.port(ch.to, ch.to_port.0),
        );
        space.out[from] = Some((ch.id, ch.to, ch.to_port));
        space.input[to] = Some(ch.id);
    }
    let mut walk = Walk {
        dest: TerminalId(0),
        memo: budget.vec(ports.saturating_mul(max_vcs), NONE)?,
        seen: budget.vec(ports, [0u64; 4])?,
        ranges: HashMap::new(),
        stack: Vec::new(),
    };
    let mut sets = Sets {
        ids: HashMap::new(),
        members: Vec::new(),
    };
    sets.intern(Vec::new(), &mut budget)?;
    let mut pairs: Vec<u64> = Vec::new();
    // Deduplicated whenever it has doubled: O(E log E) sorting in all.
    let mut distinct = 1usize << 16;
    // One destination per router (routing depends on the terminal only to eject), or
    // every terminal when routers carry different counts (a fat tree's `minimal` picks
    // its up port by the terminal).
    let uniform = netlist.concentration().is_some();
    let dests = netlist.routers().flat_map(|r| {
        let first = netlist.terminal_map().first(r.id.index());
        let count = if uniform { 1 } else { u32::from(r.terminals) };
        (first..first + count).map(TerminalId)
    });
    for dest in dests {
        walk.dest = dest;
        walk.memo.fill(NONE);
        walk.seen.fill([0; 4]);
        walk.ranges.clear();
        explore(
            &space,
            netlist,
            &mut walk,
            &mut sets,
            &mut pairs,
            &mut budget,
        )?;
        if pairs.len() > 2 * distinct {
            pairs.sort_unstable();
            pairs.dedup();
            distinct = distinct.max(pairs.len());
        }
    }
    pairs.sort_unstable();
    pairs.dedup();
    Ok(Dependencies {
        pairs,
        sets: sets.members,
        max_vcs,
    })
}

/// Every state reachable from an injection VC toward `walk.dest`, adding each network
/// state's dependency `(its VC, its request set)` to `pairs`.
fn explore(
    space: &Space,
    netlist: &Netlist,
    walk: &mut Walk,
    sets: &mut Sets,
    pairs: &mut Vec<u64>,
    budget: &mut Budget,
) -> Result<(), TooLarge> {
    let mut stack = std::mem::take(&mut walk.stack);
    // Injection on port 0 of every router with terminals (routing does not tell its
    // terminal ports apart).
    for r in netlist.routers().filter(|r| r.terminals > 0) {
        let seen = &mut walk.seen[space.port(r.id, TERMINAL_PORT)];
        let at = (r.id, InPort(TERMINAL_PORT));
        push_new(seen, 0, r.ports[0].vcs, at, &mut stack, budget)?;
    }
    let mut cands = RouteSet::new();
    while let Some((r, p, v)) = stack.pop() {
        space.route(r, p, v, walk.dest, &mut cands);
        if v.0 < space.escape {
            if let Some(ch) = space.input[space.port(r, p.0)] {
                let i = space.state(r, p, v);
                if walk.memo[i] == NONE {
                    walk.memo[i] = space.request_set(r, &cands, walk, sets, budget)?;
                }
                let set = walk.memo[i];
                if !sets.members[set as usize].is_empty() {
                    budget.grow(pairs)?;
                    let node = ch.index() * space.max_vcs + usize::from(v.0);
                    pairs.push((node as u64) << 32 | u64::from(set));
                }
            }
        }
        for c in &cands {
            let Some((_, to, to_port)) = space.out[space.port(r, c.port.0)] else {
                continue;
            };
            let seen = &mut walk.seen[space.port(to, to_port.0)];
            push_new(seen, c.vcs.lo, c.vcs.hi, (to, to_port), &mut stack, budget)?;
        }
    }
    walk.stack = stack;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::build;
    use crate::testutil::torus;
    use flitsim_netlist::RoutingKind;

    #[test]
    fn mark_reports_each_vc_once() {
        let mut seen = [0u64; 4];
        let mut got = Vec::new();
        mark(&mut seen, 60, 130, |v| got.push(v));
        assert_eq!(got, (60..130).collect::<Vec<u8>>());
        got.clear();
        mark(&mut seen, 0, 255, |v| got.push(v));
        let rest: Vec<u8> = (0..60).chain(130..255).collect();
        assert_eq!(got, rest);
        mark(&mut seen, 0, 255, |_| panic!("all seen"));
    }

    #[test]
    fn memory_beyond_the_limit_is_refused_not_allocated() {
        let n = torus(&[4, 4], 8);
        let f = build(RoutingKind::Dor, &n).unwrap();
        let d = dependencies_within(f.as_ref(), &n, 1 << 20).expect("fits in 1 MB");
        assert!(!d.pairs.is_empty());
        // The state arrays alone (16 routers x 5 ports x 8 VCs) exceed 1 kB.
        let e = dependencies_within(f.as_ref(), &n, 1024)
            .err()
            .expect("refused");
        assert!(e.bytes > 1024, "{e:?}");
    }
}
