//! Per output port histograms of head inter-arrival times and of waiting times (Hu and
//! Kleinrock, paper 003, Figs. 2-3), kept only when the engine asks for them.
//!
//! - A head *arrives* at an output port when RC has routed it and it may first request
//!   that port in VA (`ready_at` of `VcWait`). A head with several candidates arrives at
//!   its first. A head restarted behind a dropped packet arrives again when it is routed.
//! - Its *wait* runs from its arrival to its VC grant, on the port granted. A head that
//!   times out is counted, not binned (its wait is cut at the timeout).
//! - A port is *held* from a VC grant until the packet's tail leaves or a timeout reset
//!   takes the VC back (the paper's link holding time); the credits still out after the
//!   tail do not count.
//! - Histograms have `bins` bins of `bin_width` cycles, `[k w, (k + 1) w)`, and one more
//!   bin for everything from `bins * w` on.

use flitsim_netlist::Cycle;

/// Largest number of bins (each port holds two histograms of `bins + 1` counters).
pub const MAX_BINS: u32 = 4096;

/// The histograms of one output port.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PortTimes {
    /// Heads that arrived.
    pub arrivals: u64,
    /// Inter-arrival times between successive heads (`bins + 1` counters).
    pub inter_arrival: Vec<u64>,
    /// Waits of the heads granted a VC here (`bins + 1` counters).
    pub wait: Vec<u64>,
    /// Heads granted a VC here.
    pub granted: u64,
    /// Sum of the granted heads' waits (cycles).
    pub wait_cycles: u64,
    /// Heads that timed out waiting for this port.
    pub timeouts: u64,
    /// Holding periods ended (tail left or reset).
    pub releases: u64,
    /// Their cycles summed.
    pub held_cycles: u64,
    /// Their squares summed (saturating).
    pub held_cycles_sq: u64,
}

/// The histograms of every output port of a router.
#[derive(Clone, Debug)]
pub struct OutputTimes {
    bin_width: u32,
    bins: u32,
    ports: Vec<PortTimes>,
    /// Arrival cycle of the last head per port (kept across a reset).
    last: Vec<Option<u64>>,
    /// Grant cycle per flat output VC (valid while it is held).
    held_from: Vec<u64>,
}

impl OutputTimes {
    /// Empty histograms for `ports` output ports of `out_vcs` VCs in all, `bins` bins of
    /// `bin_width` cycles (both at least 1, `bins` at most [`MAX_BINS`]).
    pub fn new(ports: usize, out_vcs: usize, bin_width: u32, bins: u32) -> OutputTimes {
        let (bin_width, bins) = (bin_width.max(1), bins.clamp(1, MAX_BINS));
        let port = PortTimes {
            inter_arrival: vec![0; bins as usize + 1],
            wait: vec![0; bins as usize + 1],
            ..PortTimes::default()
        };
        OutputTimes {
            bin_width,
            bins,
            ports: vec![port; ports],
            last: vec![None; ports],
            held_from: vec![0; out_vcs],
        }
    }

    /// Bytes [`OutputTimes::new`] allocates, computed without allocating.
    pub fn bytes(ports: usize, out_vcs: usize, bins: u32) -> u64 {
        let per_port = std::mem::size_of::<PortTimes>() as u64
            + 16
            + 2 * 8 * (u64::from(bins.clamp(1, MAX_BINS)) + 1);
        (ports as u64)
            .saturating_mul(per_port)
            .saturating_add((out_vcs as u64).saturating_mul(8))
    }

    fn bin(&self, cycles: u64) -> usize {
        (cycles / u64::from(self.bin_width)).min(u64::from(self.bins)) as usize
    }

    /// A head arrived at port `o` at `at`.
    pub fn arrived(&mut self, o: usize, at: Cycle) {
        if let Some(prev) = self.last[o] {
            let k = self.bin(at.0.saturating_sub(prev));
            self.ports[o].inter_arrival[k] += 1;
        }
        self.last[o] = Some(at.0);
        self.ports[o].arrivals += 1;
    }

    /// A head that arrived at `since` was granted flat output VC `ovc` of port `o` at
    /// `now`.
    pub fn granted(&mut self, o: usize, ovc: usize, since: Cycle, now: Cycle) {
        self.held_from[ovc] = now.0;
        let w = now.0.saturating_sub(since.0);
        let k = self.bin(w);
        let p = &mut self.ports[o];
        p.wait[k] += 1;
        p.granted += 1;
        p.wait_cycles += w;
    }

    /// Flat output VC `ovc` of port `o` was released at `now` (tail left, or reset).
    pub fn released(&mut self, o: usize, ovc: usize, now: Cycle) {
        let h = now.0.saturating_sub(self.held_from[ovc]);
        let p = &mut self.ports[o];
        p.releases += 1;
        p.held_cycles += h;
        p.held_cycles_sq = p.held_cycles_sq.saturating_add(h.saturating_mul(h));
    }

    /// A head waiting for port `o` timed out.
    pub fn timed_out(&mut self, o: usize) {
        self.ports[o].timeouts += 1;
    }

    /// Port `o`'s histograms.
    pub fn port(&self, o: usize) -> &PortTimes {
        &self.ports[o]
    }

    /// Bin width (cycles).
    pub fn bin_width(&self) -> u32 {
        self.bin_width
    }

    /// Forgets the counts (the window opens); the last arrivals are kept, so the first
    /// inter-arrival time of the window is measured from the last head before it.
    pub fn reset(&mut self) {
        for p in &mut self.ports {
            *p = PortTimes {
                inter_arrival: vec![0; p.inter_arrival.len()],
                wait: vec![0; p.wait.len()],
                ..PortTimes::default()
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arrivals_and_waits_fall_in_their_bins() {
        let mut t = OutputTimes::new(2, 2, 10, 3);
        for at in [5, 12, 40, 41] {
            t.arrived(1, Cycle(at));
        }
        // Gaps 7, 28, 1; the last bin takes 30 and more.
        assert_eq!(t.port(1).inter_arrival, [2, 0, 1, 0]);
        t.granted(1, 1, Cycle(5), Cycle(5));
        t.released(1, 1, Cycle(25));
        t.granted(1, 1, Cycle(12), Cycle(55));
        t.released(1, 1, Cycle(58));
        t.timed_out(1);
        let p = t.port(1);
        assert_eq!((p.arrivals, p.granted, p.timeouts), (4, 2, 1));
        assert_eq!((p.releases, p.held_cycles, p.held_cycles_sq), (2, 23, 409));
        assert_eq!((p.wait.clone(), p.wait_cycles), (vec![1, 0, 0, 1], 43));
        assert_eq!(
            t.port(0),
            &PortTimes {
                inter_arrival: vec![0; 4],
                wait: vec![0; 4],
                ..PortTimes::default()
            }
        );
        // After a reset the next gap is measured from the last head before it.
        t.reset();
        t.arrived(1, Cycle(50));
        assert_eq!(t.port(1).inter_arrival, [1, 0, 0, 0]);
        assert_eq!(t.port(1).arrivals, 1);
    }
}
