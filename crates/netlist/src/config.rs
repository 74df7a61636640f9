//! Router parameters: the part of the hardware description that configures one router.
//!
//! These types live in the netlist crate because the netlist (TOML) carries them; the
//! router crate re-exports them as its configuration. Every field's doc comment is user
//! documentation, and the default sits next to it.

use serde::{Deserialize, Serialize};
use std::fmt;

/// Capacity of one virtual channel's FIFO.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum BufferDepth {
    /// A FIFO of this many flits (>= 1).
    Flits(u32),
    /// Unlimited storage (paper 004's storage buffer under virtual cut-through).
    Unbounded,
}

impl BufferDepth {
    /// The depth in flits, `None` for unbounded.
    pub fn flits(self) -> Option<u32> {
        match self {
            BufferDepth::Flits(n) => Some(n),
            BufferDepth::Unbounded => None,
        }
    }
}

impl fmt::Display for BufferDepth {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BufferDepth::Flits(n) => write!(f, "{n}"),
            BufferDepth::Unbounded => f.write_str("unbounded"),
        }
    }
}

/// Switching technique (flow control at packet level).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Switching {
    /// Wormhole: a head acquires a downstream VC when it is free; flits advance with credits.
    #[default]
    Wormhole,
    /// Virtual cut-through: a head acquires a downstream VC only if it can hold the whole packet.
    Vct,
    /// Store-and-forward: a packet leaves a router only after its tail has arrived.
    Saf,
}

/// When an output VC may be allocated to the next packet (`vc_release`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum VcRelease {
    /// As soon as the previous packet's tail has been granted the switch (BookSim's
    /// default): the next head may queue behind the old tail in the downstream FIFO, so
    /// one input VC FIFO can hold flits of several packets.
    #[default]
    Tail,
    /// Only when the tail has been granted the switch AND every credit of the VC is back
    /// (the downstream FIFO is empty): one packet per downstream FIFO, at the cost of
    /// a credit round trip per packet per VC (it caps 1-flit packets).
    Credits,
}

/// What building a routing function does when its VCs are too few for the escape classes
/// its deadlock-freedom proof needs (`deadlock_check`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum DeadlockCheck {
    /// Refuse the netlist (the default): a run is deadlock-free by construction.
    #[default]
    Refuse,
    /// Run the split as given (`vcs - adaptive_vcs` escape VCs, at least 1) with a
    /// warning: the run's watchdog reports a deadlock if one happens.
    Warn,
}

/// Separable or other allocator used for VC allocation and switch allocation.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum AllocatorKind {
    /// Separable input-first: each input picks one request, then each output picks one input.
    #[default]
    SeparableInputFirst,
    /// Separable output-first: each output picks one request, then each input accepts one grant.
    SeparableOutputFirst,
    /// iSLIP (McKeown): output-first rounds over the unmatched inputs and outputs,
    /// `alloc_iters` of them; arbiter priorities move only for first-round grants.
    Islip,
    /// Wavefront: the cells of a square request matrix visited diagonal by diagonal from a
    /// rotating priority diagonal, each granted when its row and column are still free.
    Wavefront,
    /// Parallel iterative matching (Anderson et al.): `alloc_iters` rounds in which each
    /// unmatched output grants a random requesting input and each input accepts a random
    /// grant, from the router's own random stream.
    Pim,
}

/// Largest `alloc_iters`: rounds past the smaller side of the allocator add no grant.
pub const MAX_ALLOC_ITERS: u8 = 64;

/// The default `alloc_iters` (BookSim's): one round.
fn one_iteration() -> u8 {
    1
}

/// `alloc_iters` is left out of the configuration echo when it is the default.
fn is_one_iteration(n: &u8) -> bool {
    *n == 1
}

/// One-of-N arbiter used inside the allocators.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum ArbiterKind {
    /// Round-robin: priority moves past the last winner.
    #[default]
    RoundRobin,
    /// Matrix: least-recently-served wins.
    Matrix,
    /// Round-robin whose priority moves two places past the last winner, starting at
    /// requester 1: the binary-state round-robin arbiter of the Stanford open-source VC
    /// router (docs/rtl.md).
    RoundRobinSkip,
}

/// Which output VCs one arbiter of an input VC chooses among in VC allocation
/// (`output_vc_arbiter`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum OutputVcArbiter {
    /// One arbiter per input VC over every output VC of the router (BookSim's separable
    /// allocators): the allocator's own row arbiter.
    #[default]
    Router,
    /// One arbiter per input VC over the VCs of one port, indexed by VC number and shared
    /// by all the ports the VC's packets go to: the VC picks one output VC of its route's
    /// port with it, and only that pick goes to the allocator (the Stanford open-source
    /// VC router's separable input-first VC allocator, docs/rtl.md). Its priority moves
    /// when the pick is granted.
    Port,
}

/// Which non-speculative traffic keeps a speculative switch grant from being used
/// (`spec_masking`, with `speculative = true`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum SpecMasking {
    /// The non-speculative grants: speculative requests compete, in an allocator of their
    /// own, for the input and output ports the non-speculative grants left free.
    #[default]
    Grants,
    /// The non-speculative requests (the Stanford open-source VC router's
    /// `sw_alloc_spec_type = REQ`, docs/rtl.md): the speculative requests are allocated
    /// on their own, beside the non-speculative ones; a speculative grant is dropped when
    /// a non-speculative request comes from its input port or asks for its output port.
    Requests,
}

/// Routing function (the registry of names used in netlists and on the command line).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum RoutingKind {
    /// Dimension-order: mesh DOR, torus DOR with dateline VC classes, hypercube e-cube.
    #[default]
    Dor,
    /// Torus DOR without datelines (one VC class): deadlocks under load; for the watchdog test.
    #[serde(rename = "dor-nodateline")]
    DorNoDateline,
    /// Duato's minimal fully adaptive routing: adaptive VCs in any minimal direction plus
    /// escape VCs running dimension-order routing (datelines on tori). Tori, meshes, rings.
    Duato,
    /// Duato-Nbc (paper 001): V1 fully adaptive VCs plus V2 escape VCs managed by
    /// negative-hop routing with bonus cards. Tori, meshes, rings.
    #[serde(rename = "duato-nbc")]
    DuatoNbc,
    /// Paper 000's scheme on 2-D tori: continue in X while X hops remain, take Y when X is
    /// busy, wait for whichever frees first (2 adaptive + 2 dateline escape VCs).
    Quaglia,
    /// Paper 004's routing: every minimal port with every VC, the first free one taken.
    /// Deadlock-free only with unbounded virtual cut-through storage. Tori, meshes, rings.
    MinimalAdaptive,
    /// P-cube (paper 002) on hypercubes: 1 -> 0 dimensions first (any order), then 0 -> 1.
    Pcube,
    /// West-first turn model on 2-D meshes.
    WestFirst,
    /// North-last turn model on 2-D meshes.
    NorthLast,
    /// Negative-first turn model on meshes (any number of dimensions).
    NegativeFirst,
    /// Source routing: the path is fixed at the source (a shortest path) and carried by
    /// the head flit. Any netlist.
    Source,
    /// Table routing from shortest paths restricted to up*/down* paths. Any netlist.
    Table,
    /// Minimal routing on a dragonfly (local, global, local hop) or a HyperX (dimension
    /// order).
    Minimal,
    /// Valiant's routing on a dragonfly or a HyperX: minimal to a random intermediate
    /// group (router), then minimal to the destination.
    Valiant,
    /// UGAL-L on a dragonfly or a HyperX: minimal or Valiant, chosen at the source router
    /// from its output queues times the paths' hops.
    #[serde(rename = "ugal-l")]
    UgalL,
}

/// Where torus dimension-order routing goes when the destination is exactly `k/2` hops
/// away in a dimension of even radix `k` (both directions are minimal): `dor_tie`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum DorTie {
    /// Each packet picks a direction when it turns into the dimension, from a hash of its
    /// packet id (source terminal and sequence number): half the tie traffic goes each
    /// way, and the choice is the same for any thread count.
    #[default]
    Balanced,
    /// Always `Plus`: one route per (source, destination), but the `Plus` channels carry
    /// all the tie traffic.
    Plus,
}

/// Which dateline VC class torus dimension-order routing uses on a hop: `dateline`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum DatelineRule {
    /// Class 0 until the wrap-around channel, class 1 on it and after it.
    Wrap,
    /// The class is fixed when the packet turns into the dimension (class 1 iff its
    /// coordinate there is above the destination's) and kept along the dimension
    /// (BookSim's rule).
    #[default]
    Entry,
}

/// Selection function: picks one candidate among the free ones the routing function offers.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum SelectionKind {
    /// The free candidate with the lowest output port (then lowest VC).
    #[default]
    FirstFree,
    /// A uniformly random free candidate (from the router's own RNG stream).
    Random,
    /// The free candidate whose downstream VC has the most credits.
    MostCredits,
    /// Prefer the lowest dimension (X first, as paper 000).
    XFirst,
    /// Paper 004's rule: the lowest port carrying no packet; when every candidate port
    /// carries one, commit to the highest and wait for it. A port carries one packet at a
    /// time.
    FirstFreeElseHighest,
}

/// Parameters of one router. Defaults: the canonical 4-stage input-queued VC router
/// (route, VC allocation, switch allocation, crossbar: one cycle each), 4 VCs of 8 flits,
/// separable input-first allocation with round-robin arbiters, dimension-order routing.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RouterConfig {
    /// Virtual channels per input port (>= 1). Default 4.
    pub vcs: u8,
    /// Flits per VC FIFO, or unbounded. Default 8. One VC streams at most
    /// `buffer_depth / (sd + xd + 2*L + cd)` flits per cycle (the credit round trip over a
    /// channel of latency L), so full throughput needs
    /// `buffer_depth >= switch_alloc_delay + crossbar_delay + 2*channel_latency + credit_delay`.
    /// Virtual cut-through and store-and-forward need `buffer_depth >=` the longest packet
    /// (or `"unbounded"`).
    pub buffer_depth: BufferDepth,
    /// Cycles from a head's arrival until route computation is done. Default 1.
    pub routing_delay: u32,
    /// Cycles from route computed until the VC allocation result is usable. Default 1.
    pub vc_alloc_delay: u32,
    /// Cycles from VC allocated (or body arrival) until the switch grant is usable. Default 1.
    pub switch_alloc_delay: u32,
    /// Cycles from switch grant until the flit is written onto the output channel. Default 1.
    pub crossbar_delay: u32,
    /// Cycles from a flit leaving an input buffer until its credit is written onto the
    /// upstream channel's reverse side (which then takes the channel latency). Default 1.
    /// It lengthens the credit round trip (see `buffer_depth`), not the zero-load latency.
    pub credit_delay: u32,
    /// Switching technique. Default wormhole. `vct`: a head gets a downstream VC only if it
    /// can hold the whole packet (zero-load latency as wormhole); `saf`: a packet is routed
    /// only once its tail has arrived (adds `M - 1` cycles per router at zero load).
    pub switching: Switching,
    /// Output VC release: `tail` (default; reallocate once the previous tail has won the
    /// switch, BookSim's behaviour) or `credits` (also wait until all the VC's credits are
    /// home, so each downstream FIFO holds one packet). Zero-load latency is the same.
    pub vc_release: VcRelease,
    /// Timeout reset (paper 003), in cycles; 0 = off (default). A head that has waited
    /// this long for an output VC is dropped with the rest of its packet at this router,
    /// and a reset travels upstream hop by hop (each channel's latency) freeing VCs,
    /// flits and credits up to the source, which re-queues the packet at the tail of its
    /// queue. Set it on every router (`--timeout C`).
    pub timeout: u32,
    /// VC allocator. Default separable input-first.
    pub vc_allocator: AllocatorKind,
    /// Switch allocator. Default separable input-first.
    pub switch_allocator: AllocatorKind,
    /// Rounds of the iterative allocators (`islip`, `pim`), 1 to [`MAX_ALLOC_ITERS`].
    /// Default 1. Ignored by the other allocators.
    #[serde(default = "one_iteration", skip_serializing_if = "is_one_iteration")]
    pub alloc_iters: u8,
    /// Arbiter used inside both allocators. Default round-robin.
    pub arbiter: ArbiterKind,
    /// The output VCs an input VC's VC-allocation arbiter spans: `router` (default, every
    /// output VC of the router) or `port` (the VCs of one port, the RTL router's rule; see
    /// [`OutputVcArbiter`]).
    #[serde(default, skip_serializing_if = "is_router_wide")]
    pub output_vc_arbiter: OutputVcArbiter,
    /// Routing function. Default `dor`.
    pub routing: RoutingKind,
    /// Selection function. Default `first-free`.
    pub selection: SelectionKind,
    /// Adaptive VCs per port (V1) for `duato`, `duato-nbc` and `quaglia`; the other
    /// `vcs - adaptive_vcs` VCs are the escape VCs (V2). 0 (the default) = automatic: the
    /// escape VCs the function needs (2 on tori, 1 on meshes for `duato`/`quaglia`, the
    /// negative-hop classes for `duato-nbc`) and every other VC adaptive. Ignored by the
    /// other routing functions.
    #[serde(default)]
    pub adaptive_vcs: u8,
    /// Torus dimension-order routing at a tie (distance exactly `k/2`): `balanced`
    /// (default; a per-packet choice) or `plus`. Used by `dor` and by the escape VCs of
    /// `duato` and `quaglia`; ignored elsewhere.
    #[serde(default)]
    pub dor_tie: DorTie,
    /// Dateline VC class rule of torus `dor`: `entry` (default; class fixed when the
    /// packet enters the dimension) or `wrap` (class 1 from the wrap-around channel on).
    /// Ignored elsewhere.
    #[serde(default)]
    pub dateline: DatelineRule,
    /// `refuse` (default): too few VCs for the routing's escape classes is an error.
    /// `warn`: the split runs as given, with a warning (see [`DeadlockCheck`]).
    #[serde(default)]
    pub deadlock_check: DeadlockCheck,
    /// Message classes (1..=[`MAX_MESSAGE_CLASSES`]). Default 1. With `C > 1` every
    /// port's VCs are split into `C` equal ranges, class `c` taking VCs
    /// `c*w .. (c+1)*w` (`w = vcs / C`, so every port's `vcs` must be a multiple of `C`);
    /// the routing function runs inside each range as if the port had `w` VCs, so `w`
    /// must hold its VC classes. A packet's class is its sequence number modulo `C` (the
    /// source's packets take the classes in turn); with `reply_length` requests are
    /// class 0 and replies class 1. Set it on every router.
    #[serde(default = "one_class", skip_serializing_if = "is_one_class")]
    pub message_classes: u8,
    /// Speculative switch allocation (BookSim `speculative = 1`): a head requests the
    /// switch in the cycle it requests an output VC, at a lower priority than flits that
    /// hold one; the grant is used only if VC allocation succeeds in that cycle (and the
    /// output VC has a credit), else the crossbar slot goes unused. VA then costs no stage
    /// of its own: needs `vc_alloc_delay <= switch_alloc_delay`. Default off.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub speculative: bool,
    /// With `speculative`: what drops a speculative switch grant, `grants` (default, the
    /// non-speculative grants' ports) or `requests` (the non-speculative requests'
    /// ports, the RTL router's `REQ` mode; see [`SpecMasking`]). Ignored otherwise.
    #[serde(default, skip_serializing_if = "is_grant_masking")]
    pub spec_masking: SpecMasking,
    /// Lookahead routing: each router's route is computed one hop ahead, while the head
    /// crosses the router upstream (by the terminal for the first router), so route
    /// computation leaves the critical path: a head is ready for VA on arrival. The
    /// `routing_delay` cycles must fit in the stages they overlap: needs
    /// `routing_delay <= vc_alloc_delay + switch_alloc_delay + crossbar_delay`
    /// (`switch_alloc_delay + crossbar_delay` when `speculative`). Default off.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub lookahead_routing: bool,
    /// Input speedup (1..=[`MAX_SPEEDUP`], BookSim `input_speedup`): an input port may
    /// send up to this many flits per cycle through the crossbar, from different VCs.
    /// VC `v` of a port uses crossbar input `v % input_speedup` of that port. Default 1.
    #[serde(default = "one_speedup", skip_serializing_if = "is_one_speedup")]
    pub input_speedup: u8,
    /// Output speedup (1..=[`MAX_SPEEDUP`], BookSim `output_speedup`): an output port may
    /// accept up to this many flits per cycle, from different input ports, into an output
    /// queue that writes one flit per cycle onto the channel. Input port `p` uses crossbar
    /// output `p % output_speedup` of each port. Default 1.
    #[serde(default = "one_speedup", skip_serializing_if = "is_one_speedup")]
    pub output_speedup: u8,
    /// Request/reply traffic: every packet a terminal generates is a request, and the
    /// terminal consuming a request's tail sends a reply of this many flits back to its
    /// source. 0 (the default) = off. Read at the router of the replying terminal.
    /// With `message_classes >= 2` requests take class 0 and replies class 1.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub reply_length: u32,
    /// Cycles from a request's tail consumed to its reply being generated (ignored
    /// without `reply_length`). Default 0.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub service_delay: u32,
    /// Replies a terminal holds at most (in service, waiting or being injected); while it
    /// holds this many it consumes no request tail, so the ejection channel's credits are
    /// withheld (ignored without `reply_length`). 1 to [`MAX_REPLY_QUEUE`]. Default
    /// [`DEFAULT_REPLY_QUEUE`].
    #[serde(
        default = "default_reply_queue",
        skip_serializing_if = "is_default_reply_queue"
    )]
    pub reply_queue: u32,
}

/// Largest `reply_length` in flits.
pub const MAX_REPLY_LENGTH: u32 = 65_536;

/// Largest `service_delay` in cycles.
pub const MAX_SERVICE_DELAY: u32 = 65_536;

/// Largest `reply_queue` in packets.
pub const MAX_REPLY_QUEUE: u32 = 65_536;

/// Default `reply_queue` in packets.
pub const DEFAULT_REPLY_QUEUE: u32 = 4;

fn is_router_wide(a: &OutputVcArbiter) -> bool {
    *a == OutputVcArbiter::Router
}

fn is_grant_masking(m: &SpecMasking) -> bool {
    *m == SpecMasking::Grants
}

fn is_zero(v: &u32) -> bool {
    *v == 0
}

fn default_reply_queue() -> u32 {
    DEFAULT_REPLY_QUEUE
}

fn is_default_reply_queue(v: &u32) -> bool {
    *v == DEFAULT_REPLY_QUEUE
}

/// Largest `input_speedup` and `output_speedup`.
pub const MAX_SPEEDUP: u8 = 4;

fn one_speedup() -> u8 {
    1
}

fn is_one_speedup(s: &u8) -> bool {
    *s == 1
}

/// Largest `message_classes`.
pub const MAX_MESSAGE_CLASSES: u8 = 16;

fn one_class() -> u8 {
    1
}

fn is_one_class(c: &u8) -> bool {
    *c == 1
}

impl Default for RouterConfig {
    fn default() -> Self {
        RouterConfig {
            vcs: 4,
            buffer_depth: BufferDepth::Flits(8),
            routing_delay: 1,
            vc_alloc_delay: 1,
            switch_alloc_delay: 1,
            crossbar_delay: 1,
            credit_delay: 1,
            switching: Switching::Wormhole,
            vc_release: VcRelease::Tail,
            timeout: 0,
            vc_allocator: AllocatorKind::SeparableInputFirst,
            switch_allocator: AllocatorKind::SeparableInputFirst,
            alloc_iters: 1,
            arbiter: ArbiterKind::RoundRobin,
            output_vc_arbiter: OutputVcArbiter::Router,
            routing: RoutingKind::Dor,
            selection: SelectionKind::FirstFree,
            adaptive_vcs: 0,
            dor_tie: DorTie::Balanced,
            dateline: DatelineRule::Entry,
            deadlock_check: DeadlockCheck::Refuse,
            message_classes: 1,
            speculative: false,
            spec_masking: SpecMasking::Grants,
            lookahead_routing: false,
            input_speedup: 1,
            output_speedup: 1,
            reply_length: 0,
            service_delay: 0,
            reply_queue: DEFAULT_REPLY_QUEUE,
        }
    }
}

impl RouterConfig {
    /// Cycles a head spends in an uncontended router, from the cycle it is read from the
    /// input channel to the cycle it is written onto the output: the stages on its
    /// critical path. `rd + vd + sd + xd`; `rd` leaves it under `lookahead_routing`, `vd`
    /// under `speculative` (VA runs beside SA).
    pub fn head_latency(&self) -> u64 {
        let rd = if self.lookahead_routing {
            0
        } else {
            u64::from(self.routing_delay)
        };
        let vd = if self.speculative {
            0
        } else {
            u64::from(self.vc_alloc_delay)
        };
        rd + vd + u64::from(self.switch_alloc_delay) + u64::from(self.crossbar_delay)
    }

    /// The cycles the stages after route computation take on a head's path (those a
    /// lookahead route computation overlaps): `vd + sd + xd`, `sd + xd` when speculative.
    pub fn after_routing(&self) -> u64 {
        let vd = if self.speculative {
            0
        } else {
            u64::from(self.vc_alloc_delay)
        };
        vd + u64::from(self.switch_alloc_delay) + u64::from(self.crossbar_delay)
    }
}

/// Default latency of a channel, in cycles, when the netlist does not say.
pub const DEFAULT_CHANNEL_LATENCY: u32 = 1;

/// Largest `buffer_depth` in flits (per VC) a netlist or `--set` may give. A bounded
/// FIFO allocates its slots up front (the depth rounded up to a power of two), so a
/// depth meant as "infinite" would try to allocate gigabytes per VC; `"unbounded"` is
/// the infinite buffer and grows only as far as flits fill it.
pub const MAX_BUFFER_DEPTH: u32 = 65_536;

/// Largest channel latency (`channel_latency`, a channel's `latency`) and terminal
/// latency (`terminal_latency`) in cycles. Each side of a channel or terminal link is a
/// ring of slots allocated up front (a power of two above the latency), and the wake-up
/// buckets are a ring as long as the largest latency.
pub const MAX_LATENCY: u32 = 65_536;

/// Largest router pipeline delay in cycles: each of `routing_delay`, `vc_alloc_delay`,
/// `switch_alloc_delay`, `crossbar_delay` and `credit_delay`. The crossbar keeps a ring
/// of `switch_alloc_delay + crossbar_delay` cycles of flits per output port and the
/// credit return one of `credit_delay` cycles per input port, allocated up front; the
/// bound also keeps sums of the delays within 32 bits.
pub const MAX_PIPELINE_DELAY: u32 = 65_536;
