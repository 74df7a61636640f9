//! The builder: turns a [`Netlist`] into partitions of flat per-id vectors the cycle loop
//! indexes directly.

use super::assembled::{ChannelEnds, Names, Network};
use super::in_ports::InPortLists;
use super::partition::{bounds, Members, Outbound, Partition};
use super::ports::{PortChannels, PortSide, PortTable};
use super::routing::RoutingFunctions;
use super::thin_slots::ThinSlots;
use super::wired::{WiredRouter, WiredTerminal};
use crate::channel::{
    arrival_bit, Channel, ChannelSide, WakeRef, Wakes, WriteSide, MASK_PORTS, TERMINAL_CREDIT,
    TERMINAL_FLIT,
};
use crate::rng::{self, ComponentKind};
use crate::setup_progress::SetupProgress;
use crate::terminal::{ReplyConfig, Terminal, TerminalConfig};
use crate::traffic::TrafficPattern;
use flitsim_netlist::{
    BufferDepth, InPort, Netlist, OutPort, RouterId, RouterSpec, TerminalId, TerminalMap,
};
use flitsim_router::pipeline::Layouts;
use flitsim_router::{OutputPortSpec, Router};
use std::sync::{Arc, Mutex, RwLock};

/// How [`assemble`] builds: the run's seed, the partitions and where progress goes.
pub(crate) struct Assembly<'a> {
    pub seed: u64,
    /// Partitions of contiguous ids.
    pub parts: usize,
    /// Told of each router built.
    pub progress: &'a dyn SetupProgress,
}

/// Assembles `netlist` with its routing functions `routings` (built from it), terminals
/// configured by `tc` and destinations from `pattern`, as `how` says.
pub(crate) fn assemble(
    netlist: &Netlist,
    routings: &RoutingFunctions,
    tc: &TerminalConfig,
    pattern: &Arc<dyn TrafficPattern>,
    how: &Assembly<'_>,
) -> Network {
    let seed = how.seed;
    // One copy of the terminal configuration for all terminals.
    let tc = &Arc::new(tc.clone());
    let layout = Layout::new(netlist, how.parts);
    let resets = netlist.routers().any(|r| r.config.timeout > 0);
    let wiring = wiring(netlist);
    let mut outbound = layout.outbound(&wiring, resets);
    let channels: Vec<Channel> = wiring
        .iter()
        .map(|w| layout.wire(&mut outbound, w, resets))
        .collect();
    let ends = wiring.into_iter().map(|w| w.ends).collect();
    let mut members: Vec<Members> = (0..layout.parts())
        .map(|p| {
            let first = layout.terminals.first(layout.bounds[p]) as usize;
            Members::empty(
                p,
                (layout.bounds[p], layout.size(p)),
                (first, layout.terminals_in(p)),
                layout.latency,
            )
        })
        .collect();
    let builder = Builder {
        netlist,
        layout: &layout,
        channels: &channels,
        // Every writer's wake-ups for reader partition `p` are laid out alike.
        readers: &outbound[0].wakes,
    };
    let mut names = Names::default();
    let mut in_ports = InPortLists::default();
    let mut layouts = Layouts::default();
    for spec in netlist.routers() {
        let part = &mut members[layout.part_of(spec.id.index())];
        part.wide |= spec.ports.len() > MASK_PORTS;
        part.routers
            .push(builder.wired_router(spec, routings, seed, resets, &mut layouts));
        for i in 0..spec.terminals {
            part.terminals
                .push(builder.wired_terminal(spec, i, tc, pattern, seed));
        }
        names.push(
            &spec.name,
            spec.ports.iter().map(|p| p.name.clone()).collect(),
        );
        in_ports.push(spec);
        how.progress.advance(1);
    }
    names.finish();
    in_ports.finish();
    let parts = members
        .into_iter()
        .zip(outbound)
        .map(|(members, lines)| Partition {
            members: Mutex::new(members),
            lines: RwLock::new(lines),
        })
        .collect();
    Network {
        parts,
        terminals: layout.terminals,
        bounds: layout.bounds,
        channels,
        ends,
        names,
        in_ports,
        resets,
    }
}

/// The partitions' bounds and the channels' latencies.
struct Layout {
    /// Partition `p` holds routers `bounds[p]..bounds[p + 1]` and their terminals.
    bounds: Vec<usize>,
    /// Where each terminal hangs.
    terminals: TerminalMap,
    /// The longest latency of any channel, injection and ejection channels included.
    max_latency: u32,
    /// The latency of every channel when all have the same.
    latency: Option<u32>,
}

impl Layout {
    fn new(netlist: &Netlist, parts: usize) -> Layout {
        let latencies = || {
            netlist
                .channels()
                .map(|ch| ch.latency)
                .chain(netlist.routers().map(|r| r.terminal_latency))
        };
        let max_latency = latencies().max().unwrap_or(1);
        Layout {
            bounds: bounds(netlist.num_routers(), parts),
            terminals: netlist.terminal_map().clone(),
            max_latency,
            latency: (latencies().min() == Some(max_latency)).then_some(max_latency),
        }
    }

    fn parts(&self) -> usize {
        self.bounds.len() - 1
    }

    /// Components in partition `p`.
    fn size(&self, p: usize) -> usize {
        self.bounds[p + 1] - self.bounds[p]
    }

    /// Wake-up slots partition `p` needs: its routers or its terminals, the more.
    fn components(&self, p: usize) -> usize {
        self.size(p).max(self.terminals_in(p))
    }

    /// Terminals in partition `p`.
    fn terminals_in(&self, p: usize) -> usize {
        (self.terminals.first(self.bounds[p + 1]) - self.terminals.first(self.bounds[p])) as usize
    }

    /// The partition of id `i`.
    fn part_of(&self, i: usize) -> usize {
        self.bounds.partition_point(|&b| b <= i) - 1
    }

    /// Every partition's empty arenas, reserved at the exact size of the channel sides of
    /// `wiring` it writes, and its wake-ups for every reader partition.
    fn outbound(&self, wiring: &[Wiring], resets: bool) -> Vec<Outbound> {
        let parts = self.parts();
        let mut outbound: Vec<Outbound> = (0..parts)
            .map(|_| Outbound {
                wakes: (0..parts)
                    .map(|q| Wakes::new(self.max_latency, self.components(q)))
                    .collect(),
                ..Outbound::default()
            })
            .collect();
        for (p, out) in outbound.iter_mut().enumerate() {
            let of = |pick: fn(&Wiring) -> usize| {
                wiring
                    .iter()
                    .filter(move |w| self.part_of(pick(w)) == p)
                    .map(|w| w.latency)
            };
            out.flits.reserve_exact(of(|w| w.up));
            out.credits.reserve_exact(of(|w| w.down));
            if resets {
                out.resets.reserve_exact(of(|w| w.down));
            }
        }
        outbound
    }

    /// Adds the two sides of channel `w`: the forward side to its upstream component's
    /// partition, the reverse side to its downstream component's.
    fn wire(&self, outbound: &mut [Outbound], w: &Wiring, resets: bool) -> Channel {
        let (up, down) = (self.part_of(w.up), self.part_of(w.down));
        let forward = outbound[up].flits.push(w.latency);
        let reverse = outbound[down].credits.push(w.latency);
        if resets {
            let same = outbound[down].resets.push(w.latency);
            debug_assert_eq!(same, reverse, "resets and credits laid out alike");
        }
        Channel {
            forward: ChannelSide {
                part: up as u32,
                line: forward,
            },
            reverse: ChannelSide {
                part: down as u32,
                line: reverse,
            },
        }
    }
}

/// One channel to wire: the ids of its upstream and downstream components, its latency
/// and its ends.
struct Wiring {
    up: usize,
    down: usize,
    latency: u32,
    ends: ChannelEnds,
}

/// Every channel in the global order (see the module docs): router-to-router channels,
/// then injection channels, then ejection channels.
fn wiring(netlist: &Netlist) -> Vec<Wiring> {
    let between = netlist.channels().map(|ch| Wiring {
        up: ch.from.index(),
        down: ch.to.index(),
        latency: ch.latency,
        ends: ChannelEnds::new(Some((ch.from, ch.from_port)), Some((ch.to, ch.to_port))),
    });
    let terminal = |r: &RouterSpec, ends: ChannelEnds| Wiring {
        up: r.id.index(),
        down: r.id.index(),
        latency: r.terminal_latency,
        ends,
    };
    let injection = netlist.routers().flat_map(terminal_ports).map(|(r, i)| {
        let ends = ChannelEnds::new(None, Some((r.id, InPort(i))));
        terminal(r, ends)
    });
    let ejection = netlist.routers().flat_map(terminal_ports).map(|(r, i)| {
        let ends = ChannelEnds::new(Some((r.id, OutPort(i))), None);
        terminal(r, ends)
    });
    between.chain(injection).chain(ejection).collect()
}

/// Router `r` with each of its terminal ports.
fn terminal_ports(r: &RouterSpec) -> impl Iterator<Item = (&RouterSpec, u8)> + '_ {
    (0..r.terminals).map(move |i| (r, i))
}

/// Whom an item for a router's place wakes: the router, for an arrival bit, or its
/// terminal on a port, for an arrival mask.
enum Reader {
    Router(u32),
    Terminal(u8, u64),
}

/// What wiring a router or a terminal needs: the netlist, the partitions, the
/// wired channels and the readers' wake-up layout.
struct Builder<'a> {
    netlist: &'a Netlist,
    layout: &'a Layout,
    channels: &'a [Channel],
    readers: &'a [Wakes],
}

impl Builder<'_> {
    /// The injection and ejection channels of terminal `t`.
    fn terminal_channels(&self, t: TerminalId) -> (Channel, Channel) {
        let (c, n) = (self.netlist.num_channels(), self.netlist.num_terminals());
        (
            self.channels[c + t.index()],
            self.channels[c + n + t.index()],
        )
    }

    /// Where `what` for router `r`'s place wakes its reader.
    fn wake(&self, r: RouterId, what: Reader) -> WakeRef {
        let p = self.layout.part_of(r.index());
        let local = (r.index() - self.layout.bounds[p]) as u32;
        let w = &self.readers[p];
        WakeRef {
            part: p as u32,
            spot: match what {
                Reader::Router(bit) => w.spot(local, 1 << bit),
                Reader::Terminal(i, mask) => {
                    let m = &self.layout.terminals;
                    let t = m.first(r.index()) - m.first(self.layout.bounds[p]) + u32::from(i);
                    w.spot(w.terminal_base() + t, mask)
                }
            },
        }
    }

    /// Router `spec` wired, for a run with `seed` and timeout resets or not; its layout
    /// is shared with the routers built before with the same `layouts`.
    fn wired_router(
        &self,
        spec: &RouterSpec,
        routings: &RoutingFunctions,
        seed: u64,
        resets: bool,
        layouts: &mut Layouts,
    ) -> WiredRouter {
        let ports = spec.ports.len();
        // Only a router wider than the arrival masks reads through an inbox.
        let inbox = if ports > MASK_PORTS { ports } else { 0 };
        let mut router = Router::with_layouts(
            spec,
            self.output_specs(spec),
            Arc::clone(routings.of(spec.config.routing)),
            rng::stream_seed(seed, ComponentKind::Router, spec.id.0),
            layouts,
        );
        if resets {
            router.enable_resets();
        }
        let channels: Vec<PortChannels> = (0..ports)
            .map(|p| PortChannels {
                input: self.input_side(spec, p),
                output: self.output_side(spec, p),
            })
            .collect();
        WiredRouter {
            router,
            ports: PortTable::new(&channels),
            flits_in: ThinSlots::filled(None, inbox),
            credits_in: ThinSlots::filled(None, inbox),
            resets_out: ThinSlots::filled(None, if resets { ports } else { 0 }),
        }
    }

    /// What router `spec` knows of the input port each output port feeds.
    fn output_specs(&self, spec: &RouterSpec) -> Vec<OutputPortSpec> {
        // With request/reply traffic the terminal's ejection buffer is bounded (it may
        // refuse a request): as deep as the router's buffers.
        let ejection_depth = match ReplyConfig::of(&spec.config) {
            Some(_) => spec.config.buffer_depth,
            None => BufferDepth::Unbounded,
        };
        let ejection = OutputPortSpec {
            downstream_vcs: spec.config.vcs,
            downstream_depth: ejection_depth,
        };
        let outputs = (usize::from(spec.terminals)..spec.ports.len()).map(|p| {
            match self.netlist.out_channel(spec.id, OutPort(p as u8)) {
                Some(ch) => {
                    let ch = self.netlist.channel(ch);
                    let down = &self.netlist.router(ch.to).ports[ch.to_port.index()];
                    OutputPortSpec {
                        downstream_vcs: down.vcs,
                        downstream_depth: down.buffer_depth,
                    }
                }
                None => OutputPortSpec {
                    downstream_vcs: 0,
                    downstream_depth: BufferDepth::Flits(1),
                },
            }
        });
        std::iter::repeat_n(ejection, usize::from(spec.terminals))
            .chain(outputs)
            .collect()
    }

    /// Input port `p` of router `spec`: flits read from the forward side of the channel
    /// feeding it, credits and resets written on its reverse side (waking the upstream
    /// router, or the terminal for the injection port).
    fn input_side(&self, spec: &RouterSpec, p: usize) -> PortSide {
        if spec.is_terminal_port(p as u8) {
            let (injection, _) = self.terminal_channels(self.netlist.terminal_of(spec.id, p as u8));
            let wake = self.wake(spec.id, Reader::Terminal(p as u8, TERMINAL_CREDIT));
            return port_side(injection.forward, injection.reverse, wake);
        }
        let Some(id) = self.netlist.in_channel(spec.id, InPort(p as u8)) else {
            return PortSide::new(ChannelSide::NONE, WriteSide::NONE);
        };
        let (wired, ch) = (self.channels[id.index()], self.netlist.channel(id));
        let bit = arrival_bit(ch.from_port.index(), true);
        port_side(
            wired.forward,
            wired.reverse,
            self.wake(ch.from, Reader::Router(bit)),
        )
    }

    /// Output port `p` of router `spec`: credits and resets read from the reverse side of
    /// its channel, flits written on the forward side (waking the downstream router, or
    /// the terminal for the ejection port).
    fn output_side(&self, spec: &RouterSpec, p: usize) -> PortSide {
        if spec.is_terminal_port(p as u8) {
            let (_, ejection) = self.terminal_channels(self.netlist.terminal_of(spec.id, p as u8));
            let wake = self.wake(spec.id, Reader::Terminal(p as u8, TERMINAL_FLIT));
            return port_side(ejection.reverse, ejection.forward, wake);
        }
        let Some(id) = self.netlist.out_channel(spec.id, OutPort(p as u8)) else {
            return PortSide::new(ChannelSide::NONE, WriteSide::NONE);
        };
        let (wired, ch) = (self.channels[id.index()], self.netlist.channel(id));
        let bit = arrival_bit(ch.to_port.index(), false);
        port_side(
            wired.reverse,
            wired.forward,
            self.wake(ch.to, Reader::Router(bit)),
        )
    }

    /// Router `spec`'s terminal on port `i` wired: it writes the injection
    /// channel's forward side and the ejection channel's reverse side, and reads the
    /// other two.
    fn wired_terminal(
        &self,
        spec: &RouterSpec,
        i: u8,
        tc: &Arc<TerminalConfig>,
        pattern: &Arc<dyn TrafficPattern>,
        seed: u64,
    ) -> WiredTerminal {
        let t = self.netlist.terminal_of(spec.id, i);
        let (injection, ejection) = self.terminal_channels(t);
        let local = &spec.ports[usize::from(i)];
        let port = usize::from(i);
        let mut terminal = Terminal::new(
            t,
            tc,
            Arc::clone(pattern),
            rng::stream(seed, ComponentKind::Terminal, t.0),
            local.vcs,
            local.buffer_depth,
        )
        .with_classes(spec.config.message_classes);
        if let Some(replies) = ReplyConfig::of(&spec.config) {
            terminal = terminal.with_replies(replies, spec.config.vcs);
        }
        WiredTerminal {
            terminal,
            read_flits: ejection.forward,
            read_credits: injection.reverse,
            write_flits: WriteSide {
                line: injection.forward.line,
                wake: self.wake(spec.id, Reader::Router(arrival_bit(port, false))),
            },
            write_credits: WriteSide {
                line: ejection.reverse.line,
                wake: self.wake(spec.id, Reader::Router(arrival_bit(port, true))),
            },
            flit_out: None,
            credit_out: None,
            trace: None,
        }
    }
}

/// The port side that reads `read` and writes `write`, waking `wake`.
fn port_side(read: ChannelSide, write: ChannelSide, wake: WakeRef) -> PortSide {
    PortSide::new(
        read,
        WriteSide {
            line: write.line,
            wake,
        },
    )
}
