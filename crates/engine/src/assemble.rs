//! Assembly: turns a [`Netlist`] into flat per-id vectors the cycle loop indexes directly.
//! petgraph is used here and in the watchdog, never in the cycle loop.
//!
//! Channel layout (one `Vec<Channel>`): router-to-router channels first (index =
//! `ChannelId`), then one injection channel per terminal (terminal -> router input port 0),
//! then one ejection channel per terminal (router output port 0 -> terminal). Injection and
//! ejection channels have the router's `terminal_latency`.

use crate::channel::Channel;
use crate::error::ConfigError;
use crate::rng::{self, ComponentKind};
use crate::terminal::{Terminal, TerminalConfig};
use crate::traffic::TrafficPattern;
use flitsim_netlist::{BufferDepth, InPort, Netlist, OutPort, RouterId, TerminalId, TERMINAL_PORT};
use flitsim_router::routing::{self, kind_name, RoutingFunction, RoutingMismatch};
use flitsim_router::{Credit, Flit, OutputPortSpec, Reset, Router};
use std::collections::BTreeMap;
use std::sync::Arc;

/// Marks a port without a channel.
pub(crate) const NO_CHANNEL: u32 = u32::MAX;

/// A router with its channel map and its per-cycle inbox and outbox.
pub(crate) struct RouterNode {
    pub router: Router,
    /// Channel feeding each input port (`NO_CHANNEL` if none).
    pub in_channels: Box<[u32]>,
    /// Channel driven by each output port (`NO_CHANNEL` if none).
    pub out_channels: Box<[u32]>,
    pub flits_in: Box<[Option<Flit>]>,
    pub credits_in: Box<[Option<Credit>]>,
    pub flits_out: Box<[Option<Flit>]>,
    pub credits_out: Box<[Option<Credit>]>,
    /// Timeout resets written this cycle, by input port.
    pub resets_out: Box<[Option<Reset>]>,
    /// VCs of each input port (conservation checks).
    pub in_vcs: Box<[u8]>,
    /// FIFO depth of each input port's VCs, `None` = unbounded (conservation checks).
    pub in_depth: Box<[Option<u32>]>,
    /// VCs of the ejection port.
    pub ejection_vcs: u8,
}

/// A terminal with its two channels and its outbox.
pub(crate) struct TerminalNode {
    pub terminal: Terminal,
    pub injection: u32,
    pub ejection: u32,
    pub flit_out: Option<Flit>,
    pub credit_out: Option<Credit>,
    /// Trace events of this cycle (`None`: tracing off).
    pub trace: Option<Vec<crate::trace::TerminalEvent>>,
}

/// Where a channel starts and ends (for conservation checks and reports).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct ChannelEnds {
    /// Upstream router and output port (`None`: a terminal injects).
    pub from: Option<(RouterId, OutPort)>,
    /// Downstream router and input port (`None`: a terminal consumes).
    pub to: Option<(RouterId, InPort)>,
}

/// Netlist names for messages: router names and input-port names.
#[derive(Clone, Debug, Default)]
pub(crate) struct Names {
    pub routers: Vec<String>,
    pub ports: Vec<Vec<String>>,
}

impl Names {
    /// `r3.east vc1`.
    pub fn vc(&self, r: RouterId, p: InPort, vc: flitsim_netlist::VcId) -> String {
        format!(
            "{}.{} vc{}",
            self.routers[r.index()],
            self.ports[r.index()][p.index()],
            vc.0
        )
    }
}

/// The assembled network.
pub(crate) struct Network {
    pub routers: Vec<RouterNode>,
    pub terminals: Vec<TerminalNode>,
    pub channels: Vec<Channel>,
    pub ends: Vec<ChannelEnds>,
    pub names: Names,
    /// The routing function of router 0 (zero-load latency).
    pub routing: Option<Arc<dyn RoutingFunction>>,
    /// Some router has a timeout: resets travel on channels' reverse sides.
    pub resets: bool,
}

/// Builds the routing functions the netlist's routers use (one per distinct kind).
pub(crate) fn routing_functions(
    netlist: &Netlist,
) -> Result<BTreeMap<u8, Arc<dyn RoutingFunction>>, ConfigError> {
    let mut by_kind: BTreeMap<u8, Arc<dyn RoutingFunction>> = BTreeMap::new();
    for r in netlist.routers() {
        let key = r.config.routing as u8;
        if by_kind.contains_key(&key) {
            continue;
        }
        let f = routing::build(r.config.routing, netlist)
            .map_err(|e| routing_error(netlist, r.config.routing, &e))?;
        by_kind.insert(key, f);
    }
    Ok(by_kind)
}

fn routing_error(
    netlist: &Netlist,
    kind: flitsim_netlist::RoutingKind,
    e: &RoutingMismatch,
) -> ConfigError {
    let help = match e {
        RoutingMismatch::DoesNotFit { help, .. } => help.clone(),
        RoutingMismatch::TooFewVcs { needed, .. } => {
            format!("set vcs >= {needed} (for example --set vcs={needed})")
        }
    };
    ConfigError::Routing {
        routing: kind_name(kind).to_string(),
        netlist: netlist.name.clone(),
        reason: e.to_string(),
        help,
    }
}

/// Assembles `netlist` with terminals configured by `tc` and destinations from `pattern`.
pub(crate) fn assemble(
    netlist: &Netlist,
    tc: &TerminalConfig,
    pattern: &Arc<dyn TrafficPattern>,
    seed: u64,
) -> Result<Network, ConfigError> {
    let routings = routing_functions(netlist)?;
    let n = netlist.num_routers();
    let c = netlist.num_channels();
    let mut channels = Vec::with_capacity(c + 2 * n);
    let mut ends = Vec::with_capacity(c + 2 * n);
    for ch in netlist.channels() {
        channels.push(Channel::new(ch.latency));
        ends.push(ChannelEnds {
            from: Some((ch.from, ch.from_port)),
            to: Some((ch.to, ch.to_port)),
        });
    }
    for r in netlist.routers() {
        channels.push(Channel::new(r.terminal_latency));
        ends.push(ChannelEnds {
            from: None,
            to: Some((r.id, InPort(TERMINAL_PORT))),
        });
    }
    for r in netlist.routers() {
        channels.push(Channel::new(r.terminal_latency));
        ends.push(ChannelEnds {
            from: Some((r.id, OutPort(TERMINAL_PORT))),
            to: None,
        });
    }
    let injection = |r: usize| (c + r) as u32;
    let ejection = |r: usize| (c + n + r) as u32;

    let mut routers = Vec::with_capacity(n);
    let mut terminals = Vec::with_capacity(n);
    let mut names = Names::default();
    for spec in netlist.routers() {
        let i = spec.id.index();
        let ports = spec.ports.len();
        let mut in_channels = vec![NO_CHANNEL; ports];
        let mut out_channels = vec![NO_CHANNEL; ports];
        in_channels[0] = injection(i);
        out_channels[0] = ejection(i);
        let mut outputs = Vec::with_capacity(ports);
        outputs.push(OutputPortSpec {
            downstream_vcs: spec.config.vcs,
            downstream_depth: BufferDepth::Unbounded,
        });
        for p in 1..ports {
            if let Some(ch) = netlist.in_channel(spec.id, InPort(p as u8)) {
                in_channels[p] = ch.0;
            }
            match netlist.out_channel(spec.id, OutPort(p as u8)) {
                Some(ch) => {
                    out_channels[p] = ch.0;
                    let ch = netlist.channel(ch);
                    let down = &netlist.router(ch.to).ports[ch.to_port.index()];
                    outputs.push(OutputPortSpec {
                        downstream_vcs: down.vcs,
                        downstream_depth: down.buffer_depth,
                    });
                }
                None => outputs.push(OutputPortSpec {
                    downstream_vcs: 0,
                    downstream_depth: BufferDepth::Flits(1),
                }),
            }
        }
        let routing = Arc::clone(&routings[&(spec.config.routing as u8)]);
        let router = Router::new(
            spec,
            outputs,
            routing,
            rng::stream_seed(seed, ComponentKind::Router, spec.id.0),
        );
        routers.push(RouterNode {
            router,
            in_channels: in_channels.into_boxed_slice(),
            out_channels: out_channels.into_boxed_slice(),
            flits_in: vec![None; ports].into_boxed_slice(),
            credits_in: vec![None; ports].into_boxed_slice(),
            flits_out: vec![None; ports].into_boxed_slice(),
            credits_out: vec![None; ports].into_boxed_slice(),
            resets_out: vec![None; ports].into_boxed_slice(),
            in_vcs: spec.ports.iter().map(|p| p.vcs).collect(),
            in_depth: spec.ports.iter().map(|p| p.buffer_depth.flits()).collect(),
            ejection_vcs: spec.config.vcs,
        });
        let local = &spec.ports[TERMINAL_PORT as usize];
        let t = TerminalId(spec.id.0);
        terminals.push(TerminalNode {
            terminal: Terminal::new(
                t,
                tc,
                Arc::clone(pattern),
                rng::stream(seed, ComponentKind::Terminal, t.0),
                local.vcs,
                local.buffer_depth,
            ),
            injection: injection(i),
            ejection: ejection(i),
            flit_out: None,
            credit_out: None,
            trace: None,
        });
        names.routers.push(spec.name.clone());
        names
            .ports
            .push(spec.ports.iter().map(|p| p.name.clone()).collect());
    }
    let routing = netlist
        .routers()
        .next()
        .map(|r| Arc::clone(&routings[&(r.config.routing as u8)]));
    let resets = netlist.routers().any(|r| r.config.timeout > 0);
    if resets {
        routers.iter_mut().for_each(|r| r.router.enable_resets());
        channels.iter_mut().for_each(Channel::enable_resets);
    }
    Ok(Network {
        resets,
        routers,
        terminals,
        channels,
        ends,
        names,
        routing,
    })
}
