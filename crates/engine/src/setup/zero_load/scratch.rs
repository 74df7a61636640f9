//! One walk worker's memo and scratch space.

use super::memo::Memo;
use flitsim_netlist::TerminalId;
use flitsim_routing::RouteSet;

/// One worker's memo and scratch space.
pub(super) struct Scratch {
    /// By router ([`Walker::sums_by_router`]) or by state ([`Walker::sums_by_state`]).
    pub(super) memo: Vec<Memo>,
    /// The memo indices of the walk in progress with their own `(base, saf)`.
    pub(super) walk: Vec<(usize, u64, u64)>,
    pub(super) set: RouteSet,
}

impl Scratch {
    /// Bytes its memo holds on the heap (its capacity).
    #[cfg(test)]
    pub(super) fn memo_bytes(&self) -> u64 {
        (self.memo.capacity() * std::mem::size_of::<Memo>()) as u64
    }

    /// A memo of `states` routers or states, none remembered.
    pub(super) fn new(states: usize) -> Scratch {
        let memo = Memo {
            stamp: u32::MAX,
            saf: 0,
            base: 0,
        };
        Scratch {
            memo: vec![memo; states],
            walk: Vec::new(),
            set: RouteSet::new(),
        }
    }

    /// The `(base, saf)` remembered for memo index `st` toward `dst`, if any.
    #[inline(always)]
    pub(super) fn recall(&self, st: usize, dst: TerminalId) -> Option<(u64, u64)> {
        let m = self.memo[st];
        (m.stamp == dst.0).then_some((m.base, u64::from(m.saf)))
    }

    /// Remembers `(base, saf)` for memo index `st` toward `dst`.
    #[inline(always)]
    pub(super) fn remember(&mut self, st: usize, dst: TerminalId, (base, saf): (u64, u64)) {
        self.memo[st] = Memo {
            stamp: dst.0,
            saf: u32::try_from(saf).expect("at most one per router"),
            base,
        };
    }

    /// Adds the walk's entries to `rest`, last first, remembering each sum.
    pub(super) fn remember_walk(&mut self, dst: TerminalId, rest: &mut (u64, u64)) {
        for i in (0..self.walk.len()).rev() {
            let (st, base, saf) = self.walk[i];
            *rest = (rest.0 + base, rest.1 + saf);
            self.remember(st, dst, *rest);
        }
    }
}
