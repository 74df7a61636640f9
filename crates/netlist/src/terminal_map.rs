//! Where each terminal hangs: terminal ids run router by router, so router `r` carries
//! terminals `first(r) .. first(r) + count(r)` on its ports `0..count(r)`. With the same
//! count `c` on every router (concentration) that is `r * c + i`; routers may also carry
//! different counts (a fat tree's leaves carry terminals, its upper routers none), and
//! then a terminal's router is found by binary search over the prefix sums.

use crate::ids::{RouterId, TerminalId};

/// Terminal ids <-> (router, terminal port), from the routers' terminal counts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TerminalMap {
    /// The count every router has, when they all have the same nonzero count.
    uniform: Option<u32>,
    /// `first[r]`: the first terminal of router `r`; `first[routers]` is the total.
    first: Vec<u32>,
}

impl TerminalMap {
    /// The map of routers with these terminal counts, in router order.
    pub fn from_counts(counts: impl IntoIterator<Item = u8>) -> TerminalMap {
        let mut map = TerminalMap::default();
        for c in counts {
            map.push(c);
        }
        map
    }

    /// Appends a router with `count` terminals.
    pub fn push(&mut self, count: u8) {
        let c = u32::from(count);
        if self.first.is_empty() {
            self.first.push(0);
            self.uniform = (c > 0).then_some(c);
        } else if self.uniform != Some(c) {
            self.uniform = None;
        }
        let last = *self.first.last().unwrap_or(&0);
        self.first.push(last + c);
    }

    /// The count every router has, if they all have the same nonzero count.
    pub fn uniform(&self) -> Option<u32> {
        self.uniform
    }

    /// Number of terminals.
    pub fn total(&self) -> usize {
        *self.first.last().unwrap_or(&0) as usize
    }

    /// The first terminal of router `r` (the total for `r` = the router count).
    pub fn first(&self, r: usize) -> u32 {
        self.first[r]
    }

    /// Terminals of router `r`.
    pub fn count(&self, r: usize) -> u32 {
        self.first[r + 1] - self.first[r]
    }

    /// Terminal `i` of router `r`.
    pub fn terminal(&self, r: RouterId, i: u8) -> TerminalId {
        TerminalId(self.first[r.index()] + u32::from(i))
    }

    /// The router terminal `t` hangs off.
    pub fn router_of(&self, t: TerminalId) -> RouterId {
        match self.uniform {
            Some(c) => RouterId(t.0 / c),
            None => RouterId((self.first.partition_point(|&f| f <= t.0) - 1) as u32),
        }
    }

    /// The port of its router terminal `t` hangs off.
    pub fn port_of(&self, t: TerminalId) -> u8 {
        match self.uniform {
            Some(c) => (t.0 % c) as u8,
            None => (t.0 - self.first[self.router_of(t).index()]) as u8,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routers_without_terminals_are_skipped() {
        let m = TerminalMap::from_counts([2, 0, 0, 3, 0]);
        assert_eq!((m.uniform(), m.total()), (None, 5));
        let at: Vec<(u32, u8)> = (0..5)
            .map(|t| (m.router_of(TerminalId(t)).0, m.port_of(TerminalId(t))))
            .collect();
        assert_eq!(at, [(0, 0), (0, 1), (3, 0), (3, 1), (3, 2)]);
        assert_eq!(m.terminal(RouterId(3), 2), TerminalId(4));
        assert_eq!((m.count(1), m.count(3), m.first(5)), (0, 3, 5));
    }

    #[test]
    fn a_uniform_map_divides() {
        let m = TerminalMap::from_counts([3; 4]);
        assert_eq!((m.uniform(), m.total()), (Some(3), 12));
        assert_eq!(m.router_of(TerminalId(7)), RouterId(2));
        assert_eq!(m.port_of(TerminalId(7)), 1);
        assert_eq!(TerminalMap::from_counts([0, 0]).uniform(), None);
    }
}
