//! The cost model on a simulated network: the netlist gives the [`Design`] (flit width,
//! buffer sizes, channel lengths), the run its [`Activity`], `flitsim-cost` the figures
//! (docs/power.md).
//!
//! Channels are costed in this order: the netlist's router-to-router channels by id, then
//! for each router in id order and each of its terminal ports, the injection channel and
//! the ejection channel.

use flitsim_cost::{Activity, CostReport, Design, Mode, Options, RouterActivity, Tech, Wires};
use flitsim_netlist::{InPort, Netlist, OutPort};
use serde_json::{json, Value};

/// Bits per flit when the netlist does not say (`flit_width`): BookSim's `channel_width`.
pub const DEFAULT_FLIT_BITS: u32 = 128;

/// A netlist's design with its channels' wires designed: everything the model needs
/// before the run's activity.
#[derive(Clone, Debug)]
pub struct Prepared {
    /// The netlist's design.
    pub design: Design,
    /// Its channels' wires at the clock of the options it was prepared with.
    pub wires: Wires,
}

/// The design of `netlist` with its wires designed for the technology and clock of
/// `options`, before a run (a channel no wire can cross in a cycle is refused then);
/// `None` when a port has unbounded buffers, which have no area: a run then reports no
/// cost.
///
/// # Errors
/// A clock or channel length the wire design cannot meet.
pub fn prepare(
    netlist: &Netlist,
    tech: &Tech,
    options: &Options,
) -> anyhow::Result<Option<Prepared>> {
    let Ok(design) = design(netlist, tech) else {
        return Ok(None);
    };
    let wires = Wires::design(&design, tech, options).map_err(|e| {
        anyhow::anyhow!("{e}\nhelp: lower --clock-ghz, or shorten the channels (channel_length_mm, channel_latency)")
    })?;
    Ok(Some(Prepared { design, wires }))
}

/// What the model needs of `netlist`.
///
/// # Errors
/// A port with unbounded buffers (no area to give it).
pub fn design(netlist: &Netlist, tech: &Tech) -> anyhow::Result<Design> {
    let per_cycle = tech.wire_mm_per_cycle;
    let mut routers = Vec::with_capacity(netlist.num_routers());
    for r in netlist.routers() {
        let mut input_words = Vec::with_capacity(r.ports.len());
        for p in &r.ports {
            let depth = p.buffer_depth.flits().ok_or_else(|| {
                anyhow::anyhow!(
                    "router {} port {} has unbounded buffers: the cost model needs a depth\nhelp: set buffer_depth to a number of flits",
                    r.name,
                    p.name
                )
            })?;
            input_words.push(u32::from(p.vcs) * depth);
        }
        routers.push(flitsim_cost::RouterShape {
            input_words,
            outputs: r.ports.len() as u32,
            terminal_ports: u32::from(r.terminals),
        });
    }
    let mut channels: Vec<flitsim_cost::ChannelShape> = netlist
        .channels()
        .map(|c| flitsim_cost::ChannelShape {
            length_mm: netlist
                .channel_length_mm
                .unwrap_or(f64::from(c.latency) * per_cycle),
        })
        .collect();
    for r in netlist.routers() {
        let length_mm = netlist
            .terminal_channel_length_mm
            .unwrap_or(f64::from(r.terminal_latency) * per_cycle);
        for _ in 0..2 * usize::from(r.terminals) {
            channels.push(flitsim_cost::ChannelShape { length_mm });
        }
    }
    Ok(Design {
        flit_bits: netlist.flit_width.unwrap_or(DEFAULT_FLIT_BITS),
        routers,
        channels,
    })
}

/// The activity of `routers` (by router id, as `Simulation::router_activity` gives it)
/// over `cycles`, with each channel's flits in [`design`]'s channel order.
pub fn activity(netlist: &Netlist, routers: Vec<RouterActivity>, cycles: u64) -> Activity {
    let mut channel_flits: Vec<u64> = netlist
        .channels()
        .map(|c| routers[c.from.index()].crossbar_out[c.from_port.index()])
        .collect();
    for r in netlist.routers() {
        let a = &routers[r.id.index()];
        for t in 0..usize::from(r.terminals) {
            channel_flits.push(a.buffer_writes[InPort(t as u8).index()]);
            channel_flits.push(a.crossbar_out[OutPort(t as u8).index()]);
        }
    }
    Activity {
        cycles,
        routers,
        channel_flits,
    }
}

/// Event totals of `activity` (`activity` in `--json`).
pub fn activity_totals(netlist: &Netlist, a: &Activity) -> Value {
    let sum = |f: &dyn Fn(&RouterActivity) -> u64| a.routers.iter().map(f).sum::<u64>();
    let terminal = |f: &dyn Fn(&RouterActivity, usize) -> u64| {
        netlist
            .routers()
            .map(|r| {
                (0..usize::from(r.terminals))
                    .map(|t| f(&a.routers[r.id.index()], t))
                    .sum::<u64>()
            })
            .sum::<u64>()
    };
    let network_flits: u64 = a.channel_flits[..netlist.num_channels()].iter().sum();
    json!({
        "cycles": a.cycles,
        "buffer_writes": sum(&|r| r.buffer_writes.iter().sum()),
        "buffer_reads": sum(&|r| r.buffer_reads.iter().sum()),
        "crossbar_traversals": sum(&|r| r.crossbar_out.iter().sum()),
        "credits": sum(&|r| r.buffer_reads.iter().sum()),
        "vc_requests": sum(&|r| r.vc_requests),
        "vc_grants": sum(&|r| r.vc_grants),
        "switch_requests": sum(&|r| r.switch_requests),
        "switch_grants": sum(&|r| r.switch_grants),
        "channel_flits": network_flits,
        "injected_flits": terminal(&|r, t| r.buffer_writes[t]),
        "ejected_flits": terminal(&|r, t| r.crossbar_out[t]),
    })
}

/// Flits ejected to terminals in `a` (the energy per delivered flit's denominator).
pub fn ejected_flits(netlist: &Netlist, a: &Activity) -> u64 {
    netlist
        .routers()
        .map(|r| {
            (0..usize::from(r.terminals))
                .map(|t| a.routers[r.id.index()].crossbar_out[t])
                .sum::<u64>()
        })
        .sum()
}

/// The `energy` and `area` objects of `--json`, and the activity totals.
pub fn json_fields(netlist: &Netlist, a: &Activity, r: &CostReport) -> (Value, Value, Value) {
    let e = &r.energy_pj;
    let delivered = ejected_flits(netlist, a);
    let mut energy = json!({
        "tech": r.tech,
        "model": r.mode,
        "clock_ghz": r.clock_ghz,
        "flit_bits": r.flit_bits,
        "cycles": r.cycles,
        "components_pj": e,
        "dynamic_pj": e.dynamic(),
        "clock_pj": e.clock(),
        "leakage_pj": e.leakage(),
        "total_pj": e.total(),
        "pj_per_delivered_flit": (delivered > 0).then(|| e.total() / delivered as f64),
        "power_mw": r.power_mw,
        "total_power_mw": r.power_mw.total(),
    });
    if let (Some(routers), Some(channels)) = (&r.routers, &r.channels) {
        energy["routers"] = json!(routers);
        energy["channels"] = json!(channels);
    }
    let ar = &r.area_mm2;
    let area = json!({
        "channel_mm2": ar.channel,
        "switch_mm2": ar.switch,
        "input_mm2": ar.input,
        "output_mm2": ar.output,
        "total_mm2": ar.total(),
    });
    (energy, area, activity_totals(netlist, a))
}

/// The cost of the run `sim` made on `netlist` (`prepared` by [`prepare`] with `tech` and
/// `options`).
///
/// # Errors
/// As [`flitsim_cost::cost_with`] (not for a design [`prepare`] gave).
pub fn of_run(
    netlist: &Netlist,
    prepared: &Prepared,
    sim: &flitsim_engine::Simulation,
    tech: &Tech,
    options: &Options,
) -> anyhow::Result<(Activity, CostReport)> {
    let a = activity(netlist, sim.router_activity(), sim.stats_cycles());
    let r = flitsim_cost::cost_with(&prepared.design, tech, options, &prepared.wires, &a)?;
    Ok((a, r))
}

/// What prices the points of a sweep: the design (checked), the technology, the options.
#[derive(Clone, Debug)]
pub struct Costing {
    /// The netlist's design and wires.
    pub prepared: Prepared,
    /// The technology.
    pub tech: Tech,
    /// Clock and reading.
    pub options: Options,
}

/// A sweep point's cost figures.
#[derive(Copy, Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PointCost {
    /// Average power, mW.
    pub power_mw: f64,
    /// Energy per flit delivered, pJ (`None`: none delivered).
    pub pj_per_flit: Option<f64>,
}

impl Costing {
    /// The costing of `netlist` in technology `tech` under `options` (`None`: unbounded
    /// buffers).
    ///
    /// # Errors
    /// As [`prepare`].
    pub fn new(netlist: &Netlist, tech: Tech, options: Options) -> anyhow::Result<Option<Costing>> {
        let options = Options {
            detail: false,
            ..options
        };
        Ok(prepare(netlist, &tech, &options)?.map(|prepared| Costing {
            prepared,
            tech,
            options,
        }))
    }

    /// The figures of the run `sim` made on `netlist`.
    pub fn point(&self, netlist: &Netlist, sim: &flitsim_engine::Simulation) -> Option<PointCost> {
        let (a, r) = of_run(netlist, &self.prepared, sim, &self.tech, &self.options).ok()?;
        let delivered = ejected_flits(netlist, &a);
        Some(PointCost {
            power_mw: r.power_mw.total(),
            pj_per_flit: (delivered > 0).then(|| r.energy_pj.total() / delivered as f64),
        })
    }
}

/// Input-buffer area (mm^2) and leakage power (mW) of `netlist` with every buffer
/// `depth` flits per VC (`flitsim buffers`).
///
/// # Errors
/// A depth the netlist refuses, or as the cost model.
pub fn buffers_at_depth(
    netlist: &Netlist,
    depth: u32,
    tech: &Tech,
    options: &Options,
) -> anyhow::Result<(f64, f64)> {
    let mut n = netlist.clone();
    n.set("buffer_depth", &depth.to_string())?;
    let d = design(&n, tech)?;
    let r = flitsim_cost::cost(
        &d,
        tech,
        &Options {
            detail: false,
            ..options.clone()
        },
        &Activity::idle(&d, 1),
    )?;
    Ok((r.area_mm2.input, r.power_mw.input_leakage))
}

/// The text summary's line.
pub fn summary_line(r: &CostReport) -> String {
    format!(
        "cost      {:.2} mW at {:.2} GHz (dynamic {:.2}, clock {:.2}, leakage {:.2}), area {:.4} mm^2, {} {}\n",
        r.power_mw.total(),
        r.clock_ghz,
        r.power_mw.dynamic(),
        r.power_mw.clock(),
        r.power_mw.leakage(),
        r.area_mm2.total(),
        r.tech,
        match r.mode {
            Mode::Corrected => "model",
            Mode::Booksim => "model (BookSim's reading)",
        }
    )
}
