//! Paper 003's switch in flitsim (Hu and Kleinrock): the parameters of one curve and the
//! netlist they give, shared by the latency figures ([`super::p003`]) and the channel
//! distributions ([`super::p003_channels`]).

use super::preset;

/// One curve of a figure: the paper's parameters and flitsim's buffer depth.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Case {
    /// Mean worm length (flits, exponential).
    pub length: f64,
    /// Timeout (time units).
    pub timeout: f64,
    /// Channel propagation delay (time units): the channel latency.
    pub propagation: u32,
    /// Flits of buffer per switch input.
    pub depth: u32,
    /// Constant delay before a retransmission (Fig. 10).
    pub backoff: u64,
}

/// The buffer that covers the credit round trip of a channel with propagation `p` (flit
/// out, `p` cycles over, credit `p` cycles back, one cycle to use it): `2p + 1` flits let
/// a channel carry one flit per time unit, as in the paper ("a minimum buffer which
/// stores the data currently being propagated across the link", section 7).
pub fn round_trip_depth(propagation: u32) -> u32 {
    2 * propagation + 1
}

/// The paper's switch in flitsim: `netlists/torus-3x3.toml` with one VC per channel,
/// fixed dimension-order paths without datelines (the paper's source routes; the
/// timeouts break deadlocks), every router stage 0 cycles (one flit per time unit per
/// channel), the case's propagation, buffer and timeout.
pub fn netlist(c: &Case) -> Result<flitsim_netlist::Netlist, String> {
    netlist_sized(c, 3)
}

/// [`netlist`] on a `side` x `side` torus.
pub fn netlist_sized(c: &Case, side: u32) -> Result<flitsim_netlist::Netlist, String> {
    let (t, d, p) = (
        format!("{}", c.timeout),
        c.depth.to_string(),
        c.propagation.to_string(),
    );
    let src = include_str!("../../../../netlists/torus-3x3.toml")
        .replace("radix = [3, 3]", &format!("radix = [{side}, {side}]"))
        .replace("\"torus-3x3\"", &format!("\"torus-{side}x{side}\""));
    preset(
        "netlists/torus-3x3.toml",
        &src,
        &[
            ("vcs", "1"),
            ("routing", "dor-nodateline"),
            ("buffer_depth", &d),
            ("channel_latency", &p),
            ("terminal_latency", &p),
            ("routing_delay", "0"),
            ("vc_alloc_delay", "0"),
            ("switch_alloc_delay", "0"),
            ("crossbar_delay", "0"),
            ("timeout", &t),
        ],
    )
}
