//! The channels of a router's ports as its steps meet them, by port.

use crate::channel::{ChannelSide, DelayLine, WakeRef, WakeSpot, WriteSide};

/// One side of a router port (input or output) as the router meets its channel: the
/// channel side it reads (the far end's), the side it writes (its own) and the far end's
/// spot in the wake-ups, with the far end's partition (which holds the side read and is
/// woken by what is written). The two sides of a channel share that partition and the
/// latency, so one entry serves both (a port without a channel: [`ChannelSide::NONE`] and
/// [`WriteSide::NONE`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct PortSide {
    read: DelayLine,
    write: DelayLine,
    part: u32,
    wake: WakeSpot,
}

impl PortSide {
    /// The port side that reads `read` and writes `write` (the partition `read` lies in
    /// is the one `write` wakes, or both are missing).
    pub fn new(read: ChannelSide, write: WriteSide) -> PortSide {
        debug_assert_eq!(read.part, write.wake.part, "two far ends for one channel");
        PortSide {
            read: read.line,
            write: write.line,
            part: read.part,
            wake: write.wake.spot,
        }
    }

    /// The channel side read.
    #[inline(always)]
    pub fn read(&self) -> ChannelSide {
        ChannelSide {
            part: self.part,
            line: self.read,
        }
    }

    /// The channel side written and whom it wakes.
    #[inline(always)]
    pub fn write(&self) -> WriteSide {
        WriteSide {
            line: self.write,
            wake: WakeRef {
                part: self.part,
                spot: self.wake,
            },
        }
    }
}

/// The two sides of one router port: its input side (flits read from the forward side
/// feeding it, credits and resets written on that channel's reverse side, which is the
/// router's own) and its output side (credits read from the reverse side of its channel,
/// flits written on that channel's forward side, the router's own; for the ejection port,
/// the terminal is woken).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct PortChannels {
    pub input: PortSide,
    pub output: PortSide,
}

/// Ports of a router whose channels its [`WiredRouter`](super::WiredRouter) holds inline ([`PortTable`]).
pub(crate) const NEAR_PORTS: usize = 8;

/// The channels of a router's ports ([`PortChannels`], by port): the first [`NEAR_PORTS`]
/// inline in the wired router (a step finds them without following a pointer), the
/// others of a wider router on the heap.
pub(crate) struct PortTable {
    near: [PortChannels; NEAR_PORTS],
    far: Box<[PortChannels]>,
    len: usize,
}

impl PortTable {
    /// The table of `channels` (by port).
    pub fn new(channels: &[PortChannels]) -> PortTable {
        let none = PortChannels {
            input: PortSide::new(ChannelSide::NONE, WriteSide::NONE),
            output: PortSide::new(ChannelSide::NONE, WriteSide::NONE),
        };
        let mut near = [none; NEAR_PORTS];
        let n = channels.len().min(NEAR_PORTS);
        near[..n].copy_from_slice(&channels[..n]);
        PortTable {
            near,
            far: channels[n..].into(),
            len: channels.len(),
        }
    }

    /// The channels of port `p`.
    #[inline(always)]
    pub fn get(&self, p: usize) -> &PortChannels {
        debug_assert!(p < self.len, "port {p} of a router of {} ports", self.len);
        match self.near.get(p) {
            Some(w) => w,
            None => self.far_port(p),
        }
    }

    /// The channels of port `p` from [`NEAR_PORTS`] on (out of the step's straight path).
    #[cold]
    #[inline(never)]
    fn far_port(&self, p: usize) -> &PortChannels {
        &self.far[p - NEAR_PORTS]
    }

    /// Every port's channels, by port.
    pub fn iter(&self) -> impl Iterator<Item = &PortChannels> + '_ {
        self.near[..self.len.min(NEAR_PORTS)]
            .iter()
            .chain(self.far.iter())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::channel::{DelayLines, Wakes};
    use flitsim_router::{Credit, Flit};

    /// Distinct channels for port `p` (lines of a test arena, wake spots of a test reader).
    fn port_channels(
        p: usize,
        flits: &mut DelayLines<Flit>,
        credits: &mut DelayLines<Credit>,
    ) -> PortChannels {
        let wakes = Wakes::new(1, 64);
        let side = |read: DelayLine, write: DelayLine, part: u32, id: u32| PortSide {
            read,
            write,
            part,
            wake: wakes.spot(id, 1 << (p % 64)),
        };
        let latency = p as u32 % 3 + 1;
        PortChannels {
            input: side(
                flits.push(latency),
                credits.push(latency),
                p as u32,
                2 * p as u32,
            ),
            output: side(credits.push(latency), flits.push(latency), p as u32 + 1, 3),
        }
    }

    #[test]
    fn a_port_table_finds_every_port_of_narrow_and_wide_routers() {
        let (mut flits, mut credits) = (DelayLines::default(), DelayLines::default());
        for ports in [1, 5, NEAR_PORTS, NEAR_PORTS + 1, 40] {
            let all: Vec<PortChannels> = (0..ports)
                .map(|p| port_channels(p, &mut flits, &mut credits))
                .collect();
            let table = PortTable::new(&all);
            for (p, w) in all.iter().enumerate() {
                assert_eq!(table.get(p), w, "port {p} of {ports}");
            }
            assert!(table.iter().eq(all.iter()), "{ports} ports");
        }
    }

    #[test]
    fn a_side_reads_and_writes_the_lines_of_its_channel() {
        let (mut flits, mut credits) = (
            DelayLines::<Flit>::default(),
            DelayLines::<Credit>::default(),
        );
        let (f, r) = (flits.push(2), credits.push(2));
        let wake = WakeRef {
            part: 3,
            spot: Wakes::new(2, 10).spot(7, 1 << 33),
        };
        let side = PortSide::new(
            ChannelSide { part: 3, line: f },
            WriteSide { line: r, wake },
        );
        assert_eq!(side.read(), ChannelSide { part: 3, line: f });
        assert_eq!(side.write(), WriteSide { line: r, wake });
    }
}
