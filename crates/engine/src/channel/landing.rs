//! Landing arithmetic: where what is sent at one cycle lands in a delay line's ring, and
//! where what is due at one cycle lies, located once per cycle for every line of one
//! latency.

use super::ring::{ring_size, DelayLine};

/// and its slot's offset in the line's ring, the same for every such line (computed once
/// per cycle by a writer whose lines all have that latency).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Landing {
    due: u64,
    offset: u32,
    latency: u32,
}

impl Landing {
    /// For items sent at `now` on lines of `latency` cycles.
    pub fn new(now: u64, latency: u32) -> Landing {
        let due = now + u64::from(latency);
        Landing {
            due,
            offset: due as u32 & (ring_size(latency) - 1),
            latency,
        }
    }

    /// The cycle the items are due.
    pub fn due(self) -> u64 {
        self.due
    }
}

/// Where the items due at one cycle lie on any line of one latency: the cycle and its
/// slot's offset in the line's ring, the same for every such line (computed once per
/// cycle by a reader whose lines all have that latency).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Arrival {
    now: u64,
    offset: u32,
    latency: u32,
}

impl Arrival {
    /// For items due at `now` on lines of `latency` cycles.
    pub fn new(now: u64, latency: u32) -> Arrival {
        Arrival {
            now,
            offset: now as u32 & (ring_size(latency) - 1),
            latency,
        }
    }
}

/// Where a writer's items of one cycle land on a line
/// ([`DelayLines::send`](super::DelayLines::send)): a [`Landing`] on a line of its latency (the
/// slot located once per cycle), or on a line of any latency the cycle they are sent (`u64`; the
/// slot located per line).
pub trait Land: Copy {
    /// The index of the slot the item sent on `l` lands in, and the cycle it is due.
    fn on(self, l: DelayLine) -> (usize, u64);
}

impl Land for Landing {
    #[inline(always)]
    fn on(self, l: DelayLine) -> (usize, u64) {
        debug_assert_eq!(l.latency, self.latency, "a line of another latency");
        ((l.start + self.offset) as usize, self.due)
    }
}

impl Land for u64 {
    #[inline(always)]
    fn on(self, l: DelayLine) -> (usize, u64) {
        let due = self + u64::from(l.latency);
        (l.slot(due), due)
    }
}

/// Where a reader finds the items due at one cycle on a line
/// ([`DelayLines::peek`](super::DelayLines::peek), [`DelayLines::due`](super::DelayLines::due)): an
/// [`Arrival`] on a line of its latency (the slot located once per cycle), or on a line of any
/// latency the cycle itself (`u64`).
pub trait Due: Copy {
    /// The index of the slot of the cycle on `l`, and the cycle.
    fn on(self, l: DelayLine) -> (usize, u64);
}

impl Due for Arrival {
    #[inline(always)]
    fn on(self, l: DelayLine) -> (usize, u64) {
        debug_assert_eq!(l.latency, self.latency, "a line of another latency");
        ((l.start + self.offset) as usize, self.now)
    }
}

impl Due for u64 {
    #[inline(always)]
    fn on(self, l: DelayLine) -> (usize, u64) {
        (l.slot(self), self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::channel::delay_line::DelayLines;

    #[test]
    fn sending_at_a_landing_is_sending_at_its_cycle() {
        for lat in 1..6u32 {
            let (mut a, mut b): (DelayLines<u32>, DelayLines<u32>) = Default::default();
            let (la, lb) = ((a.push(2), a.push(lat)), (b.push(2), b.push(lat)));
            for t in 0..20u64 {
                assert_eq!(a.peek(la.1, t), b.peek(lb.1, t), "cycle {t}");
                let at = Landing::new(t, lat);
                assert_eq!(at.due(), a.send(la.1, t, &(t as u32)));
                assert_eq!(at.due(), b.send(lb.1, at, &(t as u32)));
            }
            assert_eq!(
                a.slots.iter().map(|s| (s.due, s.item)).collect::<Vec<_>>(),
                b.slots.iter().map(|s| (s.due, s.item)).collect::<Vec<_>>()
            );
        }
    }

    #[test]
    fn reading_at_an_arrival_is_reading_at_its_cycle() {
        for lat in 1..6u32 {
            let mut l: DelayLines<u32> = DelayLines::default();
            let (_other, i) = (l.push(2), l.push(lat));
            for t in 0..20u64 {
                assert_eq!(l.peek(i, Arrival::new(t, lat)), l.peek(i, t), "cycle {t}");
                if t >= u64::from(lat) {
                    assert_eq!(l.due(i, Arrival::new(t, lat)), l.due(i, t));
                }
                l.send(i, Landing::new(t, lat), &(t as u32));
            }
        }
    }

    #[test]
    #[should_panic(expected = "two items sent on one channel side")]
    fn a_second_send_at_a_landing_panics() {
        let mut l: DelayLines<u32> = DelayLines::default();
        let i = l.push(3);
        l.send(i, Landing::new(4, 3), &1);
        l.send(i, Landing::new(4, 3), &2);
    }
}
