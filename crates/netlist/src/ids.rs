//! Typed indices. Every id is a dense index into a `Vec` of its kind; ids never cross a
//! crate boundary as bare integers.

use serde::{Deserialize, Serialize};
use std::fmt;

macro_rules! id_type {
    ($(#[$doc:meta])* $name:ident($inner:ty), $prefix:literal) => {
        $(#[$doc])*
        #[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, Default)]
        #[serde(transparent)]
        pub struct $name(pub $inner);

        impl $name {
            /// The id as an index into a dense `Vec`.
            #[inline]
            pub fn index(self) -> usize {
                self.0 as usize
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, concat!($prefix, "{}"), self.0)
            }
        }
    };
}

id_type!(
    /// A router (switching element). Router `i` is node `i` of the netlist graph.
    RouterId(u32), "r"
);
id_type!(
    /// A terminal (traffic endpoint), numbered router by router ([`crate::TerminalMap`]).
    /// With concentration `c`, terminal `i` is attached to router `i / c` on port `i % c`.
    TerminalId(u32), "t"
);
id_type!(
    /// A unidirectional router-to-router channel. Channel `i` is edge `i` of the graph.
    ChannelId(u32), "c"
);
id_type!(
    /// An input port of a router (router-local index; ports `0..c` are the terminals' injection).
    InPort(u8), "in"
);
id_type!(
    /// An output port of a router (router-local index; ports `0..c` are the terminals' ejection).
    OutPort(u8), "out"
);
id_type!(
    /// A virtual channel of a port (router-local index).
    VcId(u8), "vc"
);

/// A packet's identity: its source terminal and a per-source sequence number. No global
/// counter exists, so ids are the same for any thread count.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct PacketId {
    /// The terminal that generated the packet.
    pub source: TerminalId,
    /// Sequence number at that terminal (0, 1, 2, ...).
    pub seq: u32,
}

impl fmt::Display for PacketId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.source.0, self.seq)
    }
}

/// Simulated time in cycles. One cycle moves one flit across one channel.
#[derive(
    Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, Default,
)]
#[serde(transparent)]
pub struct Cycle(pub u64);

impl Cycle {
    /// The cycle `d` cycles later.
    #[inline]
    #[must_use]
    pub fn plus(self, d: u64) -> Cycle {
        Cycle(self.0 + d)
    }
}

impl fmt::Display for Cycle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// The first terminal port of a router with terminals: input port 0 receives the
/// injection channel of the router's first terminal, output port 0 drives its ejection
/// channel. With concentration `c`, ports `0..c` are terminal ports; a router without
/// terminals (a fat tree's upper levels) has none.
pub const TERMINAL_PORT: u8 = 0;
