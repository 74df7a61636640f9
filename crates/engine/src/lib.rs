//! flitsim-engine: network assembly, channels, terminals, traffic, the cycle loop, statistics.
#![warn(missing_docs)]
