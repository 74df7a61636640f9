//! The memory a network will take, estimated before assembly allocates it, and the check
//! that refuses a network that cannot fit ([`check`], called by `Simulation::new`).
//!
//! Each netlist value that sizes memory is bounded on its own (`MAX_BUFFER_DEPTH` and the
//! latency and delay bounds of `flitsim-netlist`), but their product over the routers,
//! ports, VCs and channels is not: a torus 4x4 with 255 VCs of 65536 flits would need
//! tens of gigabytes of FIFO slots, and the allocation would abort the process. The
//! estimate counts the arrays whose size follows from those values, with the sizes of the
//! real types, at O(routers + channels + VCs) cost and without allocating them:
//!
//! - input FIFOs: per input VC its ring of slots (the depth rounded up to a power of
//!   two; an unbounded FIFO's start size), its occupancy levels (depth + 1) and its
//!   position and record ([`InputBuffer::bytes_per_fifo`]);
//! - channel delay lines: per router-to-router channel and per terminal link (injection
//!   and ejection), the ring of its forward side (flits) and of its reverse side
//!   (credits, and timeout resets when a router has a timeout) ([`DelayLines::line_bytes`]);
//! - router pipelines: each router's crossbar ring (`switch_alloc_delay +
//!   crossbar_delay`) and credit-return ring (`credit_delay`) ([`Crossbar::bytes`],
//!   [`CreditReturn::bytes`]);
//! - allocators: per router, VC allocation's allocator (input VCs x output VCs over all
//!   its ports: it grows with the square of its VCs, and with matrix arbiters, one per
//!   input VC and one per output VC, with the cube) and switch allocation's (input
//!   ports x output ports, and a VC arbiter per input port) ([`Router::allocator_bytes`]);
//!   their request and grant matrices are each partition's, shaped for its largest
//!   router ([`StepScratch::bytes`]);
//! - wake-ups: per writer and reader partition a ring of buckets over the largest
//!   latency ([`Wakes::bytes`]);
//! - routers and terminals: each one wired (the router's inline state, its terminal),
//!   per-VC state ([`Router::vc_state_bytes`]) and bookkeeping (layout, occupancy
//!   counters, reset markers: [`Router::bookkeeping_bytes`]);
//! - the netlist itself, already loaded ([`flitsim_netlist::Netlist::heap_bytes`]);
//! - the zero-load latency walk, which runs after assembly and so adds to the network's
//!   peak: per walk worker its memo, an entry of 16 bytes per router under a
//!   dimension-order routing function, else per router x most ports x most VCs
//!   ([`WalkMemos::bytes`]; the workers follow the threads asked, at most one per 256
//!   terminals, see [`Walk`]).
//!
//! - routing tables that grow with the square of the routers or groups (`table` and
//!   `source`: 4 bytes per pair of routers; `duato-nbc`: 1; dragonfly routing: 12 per
//!   pair of groups: `routing::table_bytes`), also checked on their own, with the
//!   netlist, before the routing functions are built ([`check_routing`]).
//!
//! Left out: routing tables linear in the netlist, the walk's tables shared by its workers (16 bytes per
//! router and 9 per router and port) and each worker's route in progress, what unbounded
//! FIFOs, source queues and statistics grow to while running, and a few fixed-size
//! arrays per router. So the estimate is a slight lower bound: within 7% of the bytes
//! really allocated for every generator family and an explicit netlist
//! (`tests/memory_peak.rs`); torus 512x512 estimates 5.1 GB against a peak resident set
//! of 5.47 GB (malloc's overhead and the binary on top).

mod check;
mod estimate;
mod limit;
mod part;
mod sizes;

pub(crate) use check::{check, check_routing};
pub(crate) use limit::MemoryLimit;
pub(crate) use sizes::Walk;

#[cfg(test)]
mod tests;
