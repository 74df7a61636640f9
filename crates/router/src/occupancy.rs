//! Occupancy counters, accumulated lazily at the events that change them (so a router
//! the engine skips while quiescent needs no per-cycle work): per output port the time
//! spent with v = 0..=V busy VCs (P(v), the quantity of Dally's Markov model), VC
//! allocations and holding times; per input VC FIFO the time spent at each occupancy,
//! arrivals and residence times (buffer requirements, Little's law per VC).
//!
//! A VC is busy from its VC allocation until its tail has left and all its credits are
//! home (the router's `busy_vcs`; under `vc_release = tail` a following packet may take
//! the VC before that, which extends the same busy period).

/// Busy-VC time distribution and holding times of every output port of a router.
#[derive(Clone, Debug, Default)]
pub struct ChannelOccupancy {
    /// `hist[o][v]`: cycles port `o` spent with `v` busy VCs, up to its last change.
    hist: Vec<Vec<u64>>,
    /// Allocation cycle of each flat output VC currently held.
    held_from: Vec<u64>,
    /// Port of each flat output VC.
    port_of: Vec<usize>,
    /// Per port: allocations, releases and summed holding time of released VCs.
    holding: Vec<VcHolding>,
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
    /// Counters for output ports with `out_vcs[o]` VCs each.
    pub fn new(out_vcs: &[u8]) -> ChannelOccupancy {
        ChannelOccupancy {
            hist: out_vcs
                .iter()
                .map(|&v| vec![0; usize::from(v) + 1])
                .collect(),
            held_from: vec![0; out_vcs.iter().map(|&v| usize::from(v)).sum()],
            port_of: out_vcs
                .iter()
                .enumerate()
                .flat_map(|(o, &v)| std::iter::repeat_n(o, usize::from(v)))
                .collect(),
            holding: vec![VcHolding::default(); out_vcs.len()],
        }
    }

    /// Port `o` spent `cycles` cycles with `busy` busy VCs (called before each change).
    #[inline]
    pub fn dwell(&mut self, o: usize, busy: u32, cycles: u64) {
        self.hist[o][busy as usize] += cycles;
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
            self.held_from[ovc] = now.0;
        }
        self.holding[o].allocations += 1;
    }

    /// Flat output VC `ovc` of port `o` was released at `now`.
    #[inline]
    pub fn released(&mut self, o: usize, ovc: usize, now: flitsim_netlist::Cycle) {
        debug_assert_eq!(self.port_of[ovc], o);
        let h = &mut self.holding[o];
        h.releases += 1;
        h.held_cycles += now.0 - self.held_from[ovc];
    }

    /// Accumulated histogram of port `o` (up to its last change).
    pub fn histogram(&self, o: usize) -> &[u64] {
        &self.hist[o]
    }

    /// Allocations and holding times of port `o`.
    pub fn holding(&self, o: usize) -> VcHolding {
        self.holding[o]
    }

    /// Forgets everything accumulated (end of warm-up). The caller restarts the busy
    /// integral at the same cycle, so the histograms restart there too. VCs held across
    /// the reset count their holding time from the reset.
    pub fn reset(&mut self) {
        for h in &mut self.hist {
            h.fill(0);
        }
        for h in &mut self.holding {
            *h = VcHolding::default();
        }
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
