//! The state machine of one input VC: `Idle -> Routing -> VcWait -> Active -> Idle`.
//!
//! - `Idle`: no packet. A head arriving at cycle t moves the VC to `Routing`, ready at t.
//! - `Routing`: route computation (RC) may run at `ready_at`; it stores the candidates and
//!   moves to `VcWait`, ready at RC cycle + `routing_delay`.
//! - `VcWait`: VC allocation (VA) may run from `ready_at` on; a grant stores the output
//!   port and VC and moves to `Active`, ready at VA cycle + `vc_alloc_delay`.
//! - `Active`: the flit at the front of the FIFO may request the switch from `ready_at` on
//!   (and not before its own arrival); when the tail wins the switch the VC goes `Idle`.
//!
//! `ready_at` is the pipeline delay expressed as a time on the VC (Garnet's
//! `need_stage(vc, stage, time)`), not as a queue of events.
//!
//! [`InputVcs`] holds the state machines of all input VCs of a router together with a
//! word mask ([`crate::mask`]) of the VCs in each non-idle phase, so each stage visits
//! only the VCs in its phase (usually few) instead of scanning every VC every cycle. All
//! transitions go through [`InputVcs`], which keeps the masks exact.

use crate::mask;
use flitsim_netlist::{Cycle, OutPort, VcId};
use flitsim_routing::RouteSet;

/// Phase of an input VC (see the module docs).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum VcPhase {
    /// No packet.
    Idle,
    /// A head waits for (or is in) route computation.
    Routing,
    /// Routed; waits for an output VC.
    VcWait,
    /// Holds an output VC; flits cross the switch.
    Active,
}

/// State of one input VC: what every stage reads, 16 bytes (four VCs to a cache line).
/// Its route candidates, read only by VA, are kept apart ([`InputVcs::route`]).
#[derive(Copy, Clone, Debug)]
pub struct InputVcState {
    /// First cycle the current phase's stage may act.
    pub ready_at: Cycle,
    /// Flat output VC index of `(out_port, out_vc)` (valid in `Active`; saves the layout
    /// lookup on the switch-allocation path).
    pub out_ovc: u32,
    /// Current phase.
    pub phase: VcPhase,
    /// Output port held (valid in `Active`).
    pub out_port: OutPort,
    /// Downstream VC held (valid in `Active`).
    pub out_vc: VcId,
}

impl Default for InputVcState {
    fn default() -> Self {
        InputVcState {
            ready_at: Cycle(0),
            out_ovc: 0,
            phase: VcPhase::Idle,
            out_port: OutPort(0),
            out_vc: VcId(0),
        }
    }
}

impl InputVcState {
    /// A head reached the front of an idle VC; RC may run at `ready`.
    pub fn head_arrived(&mut self, ready: Cycle) {
        debug_assert_eq!(self.phase, VcPhase::Idle, "head arrived at a busy VC");
        self.phase = VcPhase::Routing;
        self.ready_at = ready;
    }

    /// RC done: wait for an output VC from `ready` on (the candidates are stored apart,
    /// by [`InputVcs::routed`]).
    pub fn routed(&mut self, ready: Cycle) {
        debug_assert_eq!(self.phase, VcPhase::Routing);
        self.phase = VcPhase::VcWait;
        self.ready_at = ready;
    }

    /// VA granted `(port, vc)`, flat output VC `ovc`: flits may request the switch from
    /// `ready` on.
    pub fn allocated(&mut self, port: OutPort, vc: VcId, ovc: u32, ready: Cycle) {
        debug_assert_eq!(self.phase, VcPhase::VcWait);
        self.phase = VcPhase::Active;
        self.out_port = port;
        self.out_vc = vc;
        self.out_ovc = ovc;
        self.ready_at = ready;
    }

    /// The tail won the switch: the VC is free.
    pub fn tail_left(&mut self) {
        debug_assert_eq!(self.phase, VcPhase::Active);
        self.phase = VcPhase::Idle;
    }

    /// Is the VC's current stage allowed to act at `now`?
    #[inline]
    pub fn ready(&self, now: Cycle) -> bool {
        self.ready_at <= now
    }
}

/// The state machines of all input VCs of a router (flat index), their route candidates
/// and the VCs in each phase (see the module docs). Read a VC with `vcs[i]` and its
/// candidates with [`InputVcs::route`]; change them with the transition methods, the only
/// way to change them. `repr(C)`: what every step reads first, the candidates last.
#[derive(Clone, Debug, Default)]
#[repr(C)]
pub struct InputVcs {
    states: Vec<InputVcState>,
    /// VCs in `Routing`.
    routing: Vec<u64>,
    /// VCs in `VcWait`.
    waiting: Vec<u64>,
    /// VCs in `Active`.
    active: Vec<u64>,
    /// Route candidates per VC (valid in `VcWait`; those of its last packet in the other
    /// phases), apart from `states` so that the other stages read 16 bytes per VC.
    routes: Vec<RouteSet>,
}

impl std::ops::Index<usize> for InputVcs {
    type Output = InputVcState;
    #[inline]
    fn index(&self, i: usize) -> &InputVcState {
        &self.states[i]
    }
}

impl InputVcs {
    /// `n` idle VCs.
    pub fn new(n: usize) -> InputVcs {
        InputVcs {
            states: vec![InputVcState::default(); n],
            routes: vec![RouteSet::new(); n],
            routing: vec![0; mask::words(n)],
            waiting: vec![0; mask::words(n)],
            active: vec![0; mask::words(n)],
        }
    }

    /// Number of VCs.
    #[inline]
    pub fn len(&self) -> usize {
        self.states.len()
    }

    /// True when the router has no input VC.
    pub fn is_empty(&self) -> bool {
        self.states.is_empty()
    }

    /// Every VC's state, by flat index.
    pub fn iter(&self) -> std::slice::Iter<'_, InputVcState> {
        self.states.iter()
    }

    /// Route candidates of VC `i` (valid in `VcWait`; in the other phases those of its
    /// last routed packet, or none).
    #[inline]
    pub fn route(&self, i: usize) -> &RouteSet {
        &self.routes[i]
    }

    /// Mask of the VCs in `Routing`.
    #[inline]
    pub fn routing(&self) -> &[u64] {
        &self.routing
    }

    /// Mask of the VCs in `VcWait`.
    #[inline]
    pub fn waiting(&self) -> &[u64] {
        &self.waiting
    }

    /// Mask of the VCs in `Active`.
    #[inline]
    pub fn active(&self) -> &[u64] {
        &self.active
    }

    /// See [`InputVcState::head_arrived`].
    #[inline]
    pub fn head_arrived(&mut self, i: usize, ready: Cycle) {
        self.states[i].head_arrived(ready);
        mask::set(&mut self.routing, i);
    }

    /// See [`InputVcState::routed`]. The candidates are moved in from `route`, which gets
    /// the VC's previous ones back, cleared: a swap of two sets, not a copy (RC reuses its
    /// decision list every cycle).
    #[inline]
    pub fn routed(&mut self, i: usize, route: &mut RouteSet, ready: Cycle) {
        debug_assert!(!route.is_empty(), "routing function gave no candidate");
        self.states[i].routed(ready);
        std::mem::swap(&mut self.routes[i], route);
        route.clear();
        mask::unset(&mut self.routing, i);
        mask::set(&mut self.waiting, i);
    }

    /// See [`InputVcState::allocated`].
    #[inline]
    pub fn allocated(&mut self, i: usize, port: OutPort, vc: VcId, ovc: u32, ready: Cycle) {
        self.states[i].allocated(port, vc, ovc, ready);
        mask::unset(&mut self.waiting, i);
        mask::set(&mut self.active, i);
    }

    /// Active VC `i` may next request the switch at `ready` (a head that won the switch
    /// speculatively: its body follows the next cycle, not `vc_alloc_delay` after VA).
    #[inline]
    pub fn ready_from(&mut self, i: usize, ready: Cycle) {
        debug_assert_eq!(self.states[i].phase, VcPhase::Active);
        self.states[i].ready_at = ready;
    }

    /// See [`InputVcState::tail_left`].
    #[inline]
    pub fn tail_left(&mut self, i: usize) {
        self.states[i].tail_left();
        mask::unset(&mut self.active, i);
    }

    /// The VC's packet was dropped (timeout reset): back to `Idle` from any phase.
    pub fn abandon(&mut self, i: usize) {
        self.states[i].phase = VcPhase::Idle;
        for m in [&mut self.routing, &mut self.waiting, &mut self.active] {
            mask::unset(m, i);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use flitsim_routing::{Candidate, VcRange};

    #[test]
    fn walks_idle_routing_vcwait_active_idle() {
        let mut s = InputVcState::default();
        assert_eq!(s.phase, VcPhase::Idle);
        s.head_arrived(Cycle(5));
        assert_eq!(s.phase, VcPhase::Routing);
        assert!(s.ready(Cycle(5)) && !s.ready(Cycle(4)));
        s.routed(Cycle(6));
        assert_eq!((s.phase, s.ready_at), (VcPhase::VcWait, Cycle(6)));
        s.allocated(OutPort(2), VcId(1), 9, Cycle(7));
        assert_eq!(s.phase, VcPhase::Active);
        assert_eq!((s.out_port, s.out_vc), (OutPort(2), VcId(1)));
        s.tail_left();
        assert_eq!(s.phase, VcPhase::Idle);
    }

    #[test]
    fn phase_masks_follow_the_transitions() {
        let mut v = InputVcs::new(70);
        let masks = |v: &InputVcs| {
            [v.routing(), v.waiting(), v.active()].map(|m| mask::ones(m).collect::<Vec<_>>())
        };
        let route: RouteSet = [Candidate {
            port: OutPort(1),
            vcs: VcRange::new(0, 1),
            hops: 0,
        }]
        .into_iter()
        .collect();
        v.head_arrived(3, Cycle(0));
        v.head_arrived(66, Cycle(0));
        let mut handed = route.clone();
        v.routed(66, &mut handed, Cycle(1));
        assert_eq!(masks(&v), [vec![3], vec![66], vec![]]);
        // The candidates moved in; RC's list comes back empty.
        assert_eq!((v.route(66), handed.is_empty()), (&route, true));
        v.allocated(66, OutPort(1), VcId(0), 4, Cycle(2));
        v.routed(3, &mut route.clone(), Cycle(1));
        assert_eq!(masks(&v), [vec![], vec![3], vec![66]]);
        v.abandon(3);
        v.tail_left(66);
        assert_eq!(masks(&v), [vec![], vec![], vec![]]);
        assert_eq!((v[3].phase, v[66].phase), (VcPhase::Idle, VcPhase::Idle));
    }

    /// A route longer than the inline room is kept whole, and so is a shorter one after
    /// it; RC's set comes back empty; a VC's route candidates are 24 bytes.
    #[test]
    fn routes_of_any_length_are_kept_whole() {
        assert_eq!(std::mem::size_of::<RouteSet>(), 24);
        let mut v = InputVcs::new(2);
        let long: RouteSet = (0..9)
            .map(|p| Candidate {
                port: OutPort(p),
                vcs: VcRange::new(0, 2),
                hops: p,
            })
            .collect();
        for (n, ready) in [(9, 1), (1, 5), (5, 9), (2, 13)] {
            v.head_arrived(1, Cycle(ready - 1));
            let mut handed: RouteSet = long[..n].iter().copied().collect();
            v.routed(1, &mut handed, Cycle(ready));
            assert_eq!((&v.route(1)[..], handed.is_empty()), (&long[..n], true));
            v.abandon(1);
        }
        assert!(v.route(0).is_empty());
    }

    /// What every stage reads of a VC fits in 16 bytes, four VCs to a cache line.
    #[test]
    fn a_vc_state_is_16_bytes() {
        assert_eq!(std::mem::size_of::<InputVcState>(), 16);
    }

    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "head arrived at a busy VC")]
    fn a_head_cannot_enter_a_busy_vc() {
        let mut s = InputVcState::default();
        s.head_arrived(Cycle(0));
        s.head_arrived(Cycle(1));
    }
}
