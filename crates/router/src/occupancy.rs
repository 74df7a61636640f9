//! Occupancy counters, accumulated lazily at the events that change them (so a router
//! the engine skips while quiescent needs no per-cycle work): per output port the time
//! spent with v = 0..=V busy VCs (P(v), the quantity of Dally's Markov model), VC
//! allocations and holding times; per input VC FIFO the time spent at each occupancy,
//! arrivals and residence times (buffer requirements, Little's law per VC).
//!
//! A VC is busy from its VC allocation until its tail has left and all its credits are
//! home (the router's `busy_vcs`; under `vc_release = tail` a following packet may take
//! the VC before that, which extends the same busy period).

use crate::flit::Stamp;

/// Busy VCs, their time distribution and holding times of every output port of a router.
/// What a change of a port's busy VCs updates (its count, integral, allocations and
/// holding times) sits together in the port's `PortBusy`. Cycles and counts of cycles
/// are 32 bits: no run passes `Stamp::LAST`, so each is exact.
#[derive(Clone, Debug, Default)]
pub struct ChannelOccupancy {
    /// Per output port.
    ports: Vec<PortBusy>,
    /// `hist[ports[o].hist_base + v]`: cycles port `o` spent with `v` busy VCs, up to its
    /// last change.
    hist: Vec<u32>,
    /// Allocation cycle of each flat output VC currently held.
    held_from: Vec<Stamp>,
    /// Port of each flat output VC (debug builds check releases against it).
    #[cfg(debug_assertions)]
    port_of: Vec<u8>,
}

/// The busy-VC bookkeeping of one output port, 48 bytes.
#[derive(Copy, Clone, Debug, Default)]
struct PortBusy {
    /// Busy VCs (owned or credits out), kept current.
    busy: u32,
    /// Its busy-VC histogram's first entry in `hist` (`V + 1` entries).
    hist_base: u32,
    /// Cycle up to which `integral` and the histogram are accumulated.
    since: Stamp,
    /// Integral of `busy` up to `since`.
    integral: u64,
    /// Allocations and holding times.
    holding: VcHolding,
}

/// VC allocations and holding times of one output port.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct VcHolding {
    /// VCs allocated to packets.
    pub allocations: u64,
    /// Busy periods ended (VC released).
    pub releases: u64,
    /// Sum over ended busy periods of (release cycle - allocation cycle that started it).
    pub held_cycles: u64,
}

impl ChannelOccupancy {
    /// Bytes of one output port's counters.
    pub const PORT_BYTES: usize = std::mem::size_of::<PortBusy>();

    /// Counters for output ports with `out_vcs[o]` VCs each, none busy.
    pub fn new(out_vcs: &[u8]) -> ChannelOccupancy {
        let mut hist_base = 0u32;
        let ports = out_vcs
            .iter()
            .map(|&v| {
                let p = PortBusy {
                    hist_base,
                    ..PortBusy::default()
                };
                hist_base += u32::from(v) + 1;
                p
            })
            .collect();
        ChannelOccupancy {
            ports,
            hist: vec![0; hist_base as usize],
            held_from: vec![Stamp(0); out_vcs.iter().map(|&v| usize::from(v)).sum()],
            #[cfg(debug_assertions)]
            port_of: {
                let mut p = Vec::with_capacity(out_vcs.iter().map(|&v| usize::from(v)).sum());
                p.extend(
                    out_vcs
                        .iter()
                        .enumerate()
                        .flat_map(|(o, &v)| std::iter::repeat_n(o as u8, usize::from(v))),
                );
                p
            },
        }
    }

    /// Port `o` gained (`+1`) or lost (`-1`) a busy VC at `now`: the time since its last
    /// change is accounted at the previous count.
    #[inline(always)]
    pub fn busy_change(&mut self, o: usize, delta: i32, now: flitsim_netlist::Cycle) {
        let p = &mut self.ports[o];
        debug_assert!(
            delta >= 0 || p.busy >= delta.unsigned_abs(),
            "output port {o} loses a busy VC it does not have"
        );
        let now = Stamp::of(now);
        let cycles = now.0 - p.since.0;
        p.integral += u64::from(p.busy) * u64::from(cycles);
        self.hist[(p.hist_base + p.busy) as usize] += cycles;
        p.since = now;
        p.busy = p.busy.wrapping_add_signed(delta);
    }

    /// Busy VCs of port `o` now.
    #[inline]
    pub fn busy(&self, o: usize) -> u32 {
        self.ports[o].busy
    }

    /// Busy-VC-cycles of port `o` over `[.., until)`.
    pub fn busy_vc_cycles(&self, o: usize, until: flitsim_netlist::Cycle) -> u64 {
        let p = &self.ports[o];
        p.integral + u64::from(p.busy) * until.0.saturating_sub(p.since.cycle().0)
    }

    /// Cycles port `o` spent with exactly `v` busy VCs, `v = 0..=V`, up to the start of
    /// `until` (not before its last change).
    pub fn histogram(&self, o: usize, until: flitsim_netlist::Cycle) -> Vec<u64> {
        let p = &self.ports[o];
        let end = self
            .ports
            .get(o + 1)
            .map_or(self.hist.len(), |n| n.hist_base as usize);
        let mut h: Vec<u64> = self.hist[p.hist_base as usize..end]
            .iter()
            .map(|&c| u64::from(c))
            .collect();
        h[p.busy as usize] += until.0.saturating_sub(p.since.cycle().0);
        h
    }

    /// Flat output VC `ovc` of port `o` was allocated to a packet at `now`;
    /// `starts_busy`: it was not busy before (under tail release a packet may take a VC
    /// whose previous packet's credits are still out: the busy period goes on).
    #[inline]
    pub fn allocated(
        &mut self,
        o: usize,
        ovc: usize,
        now: flitsim_netlist::Cycle,
        starts_busy: bool,
    ) {
        if starts_busy {
            self.held_from[ovc] = Stamp::of(now);
        }
        self.ports[o].holding.allocations += 1;
    }

    /// Flat output VC `ovc` of port `o` was released at `now`.
    #[inline]
    pub fn released(&mut self, o: usize, ovc: usize, now: flitsim_netlist::Cycle) {
        #[cfg(debug_assertions)]
        debug_assert_eq!(usize::from(self.port_of[ovc]), o);
        let h = &mut self.ports[o].holding;
        h.releases += 1;
        h.held_cycles += now.0 - self.held_from[ovc].cycle().0;
    }

    /// Allocations and holding times of port `o`.
    pub fn holding(&self, o: usize) -> VcHolding {
        self.ports[o].holding
    }

    /// Forgets everything accumulated (end of warm-up): the busy integrals and histograms
    /// restart at `now`. VCs held across the reset count their holding time from the
    /// reset.
    pub fn reset(&mut self, now: flitsim_netlist::Cycle) {
        self.hist.fill(0);
        for p in &mut self.ports {
            p.integral = 0;
            p.since = Stamp::of(now);
            p.holding = VcHolding::default();
        }
        // A VC allocated later overwrites its entry; one held now counts from here.
        self.held_from.fill(Stamp::of(now));
    }
}

/// Occupancy of one input VC FIFO over an interval.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BufferOccupancy {
    /// `histogram[n]`: cycles the FIFO held `n` flits.
    pub histogram: Vec<u64>,
    /// Flits that arrived.
    pub arrivals: u64,
    /// Flits that left.
    pub departures: u64,
    /// Sum over departed flits of (departure cycle - arrival cycle).
    pub residence_cycles: u64,
    /// Largest occupancy reached.
    pub max: u32,
}

impl BufferOccupancy {
    /// Cycles covered.
    pub fn cycles(&self) -> u64 {
        self.histogram.iter().sum()
    }

    /// Time-average occupancy (flits).
    pub fn mean(&self) -> f64 {
        let t = self.cycles();
        if t == 0 {
            return 0.0;
        }
        self.histogram
            .iter()
            .enumerate()
            .map(|(n, &c)| n as f64 * c as f64)
            .sum::<f64>()
            / t as f64
    }

    /// Smallest occupancy `n` with P(occupancy <= n) >= `q` (time-weighted).
    pub fn quantile(&self, q: f64) -> u32 {
        let t = self.cycles() as f64;
        let mut acc = 0.0;
        for (n, &c) in self.histogram.iter().enumerate() {
            acc += c as f64;
            if acc >= q * t {
                return n as u32;
            }
        }
        self.histogram.len().saturating_sub(1) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use flitsim_netlist::Cycle;

    #[test]
    fn a_port_is_48_bytes() {
        assert_eq!(ChannelOccupancy::PORT_BYTES, 48);
    }

    /// Busy-VC histograms, integrals and holding times of two ports against a direct
    /// count, across a reset with VCs busy.
    #[test]
    fn busy_vc_counts_match_a_direct_count() {
        let mut c = ChannelOccupancy::new(&[2, 3]);
        // Port 0: one VC busy over [2, 10), two over [5, 8). Port 1: one over [4, ..).
        c.busy_change(0, 1, Cycle(2));
        c.allocated(0, 0, Cycle(2), true);
        c.busy_change(1, 1, Cycle(4));
        c.allocated(1, 2, Cycle(4), true);
        c.busy_change(0, 1, Cycle(5));
        c.allocated(0, 1, Cycle(5), true);
        c.released(0, 1, Cycle(8));
        c.busy_change(0, -1, Cycle(8));
        c.released(0, 0, Cycle(10));
        c.busy_change(0, -1, Cycle(10));
        assert_eq!(c.histogram(0, Cycle(12)), [2 + 2, 3 + 2, 3]);
        assert_eq!(c.histogram(1, Cycle(12)), [4, 8, 0, 0]);
        assert_eq!((c.busy(0), c.busy(1)), (0, 1));
        assert_eq!(c.busy_vc_cycles(0, Cycle(12)), 3 + 2 * 3 + 2);
        assert_eq!(c.busy_vc_cycles(1, Cycle(12)), 8);
        let held = VcHolding {
            allocations: 2,
            releases: 2,
            held_cycles: 3 + 8,
        };
        assert_eq!(c.holding(0), held);
        // From the reset on, port 1's busy VC counts from the reset cycle.
        c.reset(Cycle(20));
        c.busy_change(1, -1, Cycle(26));
        assert_eq!(c.histogram(1, Cycle(30)), [4, 6, 0, 0]);
        assert_eq!(c.busy_vc_cycles(1, Cycle(30)), 6);
        assert_eq!(c.holding(0), VcHolding::default());
        // Port 1's VC, held since cycle 4, is released after the reset: held from 20.
        c.released(1, 2, Cycle(26));
        let after = VcHolding {
            allocations: 0,
            releases: 1,
            held_cycles: 6,
        };
        assert_eq!(c.holding(1), after);
    }

    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "loses a busy VC it does not have")]
    fn losing_a_busy_vc_that_is_not_busy_panics_in_debug_builds() {
        let mut c = ChannelOccupancy::new(&[2]);
        c.busy_change(0, -1, Cycle(3));
    }
}
