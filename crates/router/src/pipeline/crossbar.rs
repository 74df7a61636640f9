//! Stage 4, the crossbar (switch traversal).
//!
//! - Reads: flits granted by SA at cycle `c` (at most one per input port and per output
//!   port per cycle, which SA guarantees).
//! - Writes: each flit onto its output channel at `c + sd + xd`: `emit` leaves the flits
//!   due in their slot, where the engine reads them ([`Crossbar::emitted`]) and copies each
//!   once, straight onto its channel.
//! - Knob: `crossbar_delay` (xd), modelled together with `switch_alloc_delay` (sd) as an
//!   internal pipeline per output port; term `sd + xd` after SA in the head latency.
//!   Every flit takes the same delay, so the flits inside exit in the `sd + xd + 1` cycles
//!   from now on: a ring of that many slots (rounded up to a power of two), indexed by
//!   exit cycle, each slot holding the flits due in its cycle (at most one per output
//!   port, since SA grants an output port at most once per cycle). `emit` looks only at
//!   the slot due now instead of at every port.

use crate::flit::Flit;
use crate::stats::RouterStats;
use flitsim_netlist::Cycle;

/// Flits between SA and their output channel, by exit cycle.
#[derive(Clone, Debug)]
pub struct Crossbar {
    /// Output ports (the capacity of a slot).
    ports: usize,
    /// Ring size - 1 (the size is a power of two above the delay `sd + xd`).
    mask: u64,
    /// Slot `s` holds its flits (output port, flit) in `flits[s * ports..][..count[s]]`.
    flits: Vec<(u32, Flit)>,
    /// Flits in each slot.
    count: Vec<u32>,
    /// Flits in all slots.
    len: usize,
    /// Where the flits of the last `emit` lie in `flits` (start, count): their slot takes
    /// new flits only from the next step on, so they stay there until then.
    emitted: (usize, usize),
    /// Exit cycle of each slot's flits (debug builds check that no slot is reused early).
    #[cfg(debug_assertions)]
    exit: Vec<Cycle>,
}

impl Crossbar {
    /// For `ports` output ports and a pipeline of `depth` cycles (`sd + xd`).
    pub fn new(ports: usize, depth: u64) -> Crossbar {
        let slots = (depth + 1).next_power_of_two();
        let empty = (u32::MAX, Flit::PLACEHOLDER);
        Crossbar {
            ports,
            mask: slots - 1,
            flits: vec![empty; slots as usize * ports],
            count: vec![0; slots as usize],
            len: 0,
            emitted: (0, 0),
            #[cfg(debug_assertions)]
            exit: vec![Cycle(0); slots as usize],
        }
    }

    /// A copy of a flit granted the switch, to be written onto output `port` at `exit`
    /// (every flit of the router takes the same delay, so `exit` is `sd + xd` after the
    /// current cycle). Returns the copy, for the fields the hop changes.
    #[inline]
    pub fn push(&mut self, port: usize, exit: Cycle, flit: &Flit) -> &mut Flit {
        let s = (exit.0 & self.mask) as usize;
        let n = self.count[s] as usize;
        #[cfg(debug_assertions)]
        {
            assert!(
                n == 0 || self.exit[s] == exit,
                "crossbar slot of cycle {exit} still holds flits of cycle {}",
                self.exit[s]
            );
            assert!(
                !self.flits[s * self.ports..][..n]
                    .iter()
                    .any(|&(p, _)| p as usize == port),
                "two flits for output {port} in one cycle"
            );
            self.exit[s] = exit;
        }
        self.count[s] = n as u32 + 1;
        self.len += 1;
        let slot = &mut self.flits[s * self.ports + n];
        *slot = (port as u32, *flit);
        &mut slot.1
    }

    /// Takes the flits due at `now` out of the pipeline and counts them; they stay
    /// readable through [`Crossbar::emitted`] until the next step. Returns how many heads
    /// leave on router-to-router ports (not the ejection port 0).
    #[inline(always)]
    pub fn emit(&mut self, now: Cycle, stats: &mut RouterStats) -> u32 {
        let s = (now.0 & self.mask) as usize;
        let n = self.count[s] as usize;
        self.emitted = (s * self.ports, n);
        if n == 0 {
            return 0;
        }
        #[cfg(debug_assertions)]
        assert_eq!(self.exit[s], now, "crossbar flit missed its cycle");
        self.count[s] = 0;
        self.len -= n;
        let mut network_heads = 0;
        for (port, flit) in &self.flits[s * self.ports..][..n] {
            let port = *port as usize;
            stats.flits_sent[port] += 1;
            if flit.kind.is_head() {
                stats.packets_sent[port] += 1;
                network_heads += u32::from(port != 0);
            }
        }
        network_heads
    }

    /// The flits the last [`Crossbar::emit`] took out, as (output port, flit), at most
    /// one per port, in no particular order (valid until the next step pushes a flit).
    #[inline]
    pub fn emitted(&self) -> &[(u32, Flit)] {
        &self.flits[self.emitted.0..][..self.emitted.1]
    }

    /// Flits inside the crossbar pipelines.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when no flit is inside.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Flits inside bound for downstream VC `vc` of output `port`.
    pub fn in_flight_to(&self, port: usize, vc: u8) -> u32 {
        self.count
            .iter()
            .enumerate()
            .flat_map(|(s, &n)| &self.flits[s * self.ports..][..n as usize])
            .filter(|(p, f)| *p as usize == port && f.vc.0 == vc)
            .count() as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::buffer::tests::flit;

    #[test]
    fn flits_leave_after_the_delay_in_every_slot_of_the_ring() {
        // Delay 2: a ring of 4 slots, reused every 4 cycles.
        let mut x = Crossbar::new(3, 2);
        let mut stats = RouterStats::new(3);
        for t in 0..20u64 {
            let port = (t % 3) as usize;
            x.push(port, Cycle(t + 2), &flit(t as u32, 100));
            if t % 2 == 0 {
                x.push((port + 1) % 3, Cycle(t + 2), &flit(1000 + t as u32, 100));
            }
            assert_eq!(x.len(), x.count.iter().sum::<u32>() as usize);
            x.emit(Cycle(t), &mut stats);
            let mut out = [None; 3];
            for &(p, f) in x.emitted() {
                assert!(
                    out[p as usize].replace(f).is_none(),
                    "two flits on port {p}"
                );
            }
            let ports = x.emitted().len();
            if t >= 2 {
                let p = ((t - 2) % 3) as usize;
                assert_eq!(out[p].map(|f| f.index), Some(t as u32 - 2));
                let both = (t - 2) % 2 == 0;
                assert_eq!(ports, 1 + usize::from(both));
                if both {
                    assert_eq!(out[(p + 1) % 3].map(|f| f.index), Some(1000 + t as u32 - 2));
                }
            } else {
                assert_eq!(ports, 0);
            }
        }
        assert_eq!(x.len(), 3);
        assert_eq!(
            x.in_flight_to(0, 0) + x.in_flight_to(1, 0) + x.in_flight_to(2, 0),
            3
        );
    }

    #[test]
    fn zero_delay_leaves_in_the_same_cycle() {
        let mut x = Crossbar::new(2, 0);
        x.push(1, Cycle(5), &flit(0, 1));
        assert_eq!(x.in_flight_to(1, 0), 1);
        let heads = x.emit(Cycle(5), &mut RouterStats::new(2));
        assert_eq!((heads, x.is_empty()), (1, true));
        assert_eq!(
            x.emitted()
                .iter()
                .map(|&(p, f)| (p, f.index))
                .collect::<Vec<_>>(),
            [(1, 0)]
        );
        // Nothing due: nothing emitted.
        assert_eq!(x.emit(Cycle(6), &mut RouterStats::new(2)), 0);
        assert!(x.emitted().is_empty());
    }
}
