//! The model over a whole design: per-event energies times counts, clock energies times
//! cycles, leakage powers times time, areas summed.

use crate::report::{Areas, ChannelCost, CostReport, Parts, RouterCost};
use crate::wire::{self, WireDesign};
use crate::{buffer, crossbar, Activity, Design, Mode, Options, RouterActivity, RouterShape, Tech};
use std::collections::BTreeMap;

/// Why a design could not be costed.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum CostError {
    /// No repeated, retimed wire of this length meets the clock.
    #[error("no repeated wire of {length_mm} mm meets a {clock_ghz} GHz clock with up to 39 retiming stages")]
    WireTiming {
        /// The channel's length.
        length_mm: f64,
        /// The clock.
        clock_ghz: f64,
    },
    /// The clock is not a positive finite number.
    #[error("clock of {0} GHz: give a positive clock (--clock-ghz)")]
    Clock(f64),
    /// The activity does not match the design (a bug of the caller).
    #[error("the activity has {activity} {what}, the design {design}")]
    Mismatch {
        /// Routers, channels or ports.
        what: &'static str,
        /// In the activity.
        activity: usize,
        /// In the design.
        design: usize,
    },
}

/// Joules to picojoules.
const PJ: f64 = 1e12;

/// The clock (GHz) `options` asks for, checked.
fn clock_of(tech: &Tech, options: &Options) -> Result<f64, CostError> {
    let clock_ghz = options
        .clock_ghz
        .unwrap_or_else(|| tech.default_clock_ghz());
    if clock_ghz.is_finite() && clock_ghz > 0.0 {
        Ok(clock_ghz)
    } else {
        Err(CostError::Clock(clock_ghz))
    }
}

/// The repeated-wire design of every channel of a design at one clock: the search that
/// dominates the model's cost, done once per design and reused for every costing of it.
#[derive(Clone, Debug, PartialEq)]
pub struct Wires {
    /// The clock the wires were designed for, GHz.
    clock_ghz: f64,
    /// Each channel's wire, in [`Design::channels`] order.
    by_channel: Vec<WireDesign>,
}

impl Wires {
    /// The wires of `design`'s channels in technology `tech` at the clock of `options`.
    ///
    /// # Errors
    /// A bad clock, or a channel no wire design can cross in a cycle.
    pub fn design(design: &Design, tech: &Tech, options: &Options) -> Result<Wires, CostError> {
        let clock_ghz = clock_of(tech, options)?;
        let mut seen: BTreeMap<u64, WireDesign> = BTreeMap::new();
        let mut by_channel = Vec::with_capacity(design.channels.len());
        for shape in &design.channels {
            let w = match seen.get(&shape.length_mm.to_bits()) {
                Some(w) => *w,
                None => {
                    let w = wire::design(tech, shape.length_mm, 1.0 / (clock_ghz * 1e9)).ok_or(
                        CostError::WireTiming {
                            length_mm: shape.length_mm,
                            clock_ghz,
                        },
                    )?;
                    seen.insert(shape.length_mm.to_bits(), w);
                    w
                }
            };
            by_channel.push(w);
        }
        Ok(Wires {
            clock_ghz,
            by_channel,
        })
    }
}

/// The costs of `design` in technology `tech` under `activity`.
///
/// # Errors
/// A bad clock, a channel no wire design can cross in a cycle, or an activity shaped
/// unlike the design.
pub fn cost(
    design: &Design,
    tech: &Tech,
    options: &Options,
    activity: &Activity,
) -> Result<CostReport, CostError> {
    let wires = Wires::design(design, tech, options)?;
    cost_with(design, tech, options, &wires, activity)
}

/// [`cost`] with the channels' wires already designed (by [`Wires::design`] for the same
/// design, technology and options).
///
/// # Errors
/// Wires or an activity shaped unlike the design.
pub fn cost_with(
    design: &Design,
    tech: &Tech,
    options: &Options,
    wires: &Wires,
    activity: &Activity,
) -> Result<CostReport, CostError> {
    let clock_ghz = wires.clock_ghz;
    check(design.channels.len(), wires.by_channel.len(), "wires")?;
    check(design.routers.len(), activity.routers.len(), "routers")?;
    check(
        design.channels.len(),
        activity.channel_flits.len(),
        "channels",
    )?;
    let ctx = Context {
        tech,
        mode: options.mode,
        bits: f64::from(design.flit_bits),
        clock_hz: clock_ghz * 1e9,
        cycles: activity.cycles as f64,
    };
    let (mut energy, mut area) = (Parts::default(), Areas::default());
    let mut routers = Vec::new();
    for (index, (shape, act)) in design.routers.iter().zip(&activity.routers).enumerate() {
        check(
            shape.input_words.len(),
            act.buffer_writes.len(),
            "input ports",
        )?;
        check(
            shape.input_words.len(),
            act.buffer_reads.len(),
            "input ports",
        )?;
        check(
            shape.outputs as usize,
            act.crossbar_out.len(),
            "output ports",
        )?;
        let (e, a) = ctx.router(shape, act);
        energy.add(&e);
        area.add(&a);
        if options.detail {
            routers.push(RouterCost {
                index,
                energy_pj: e,
                area_mm2: a,
            });
        }
    }
    let mut channels = Vec::new();
    for (index, ((shape, w), &flits)) in design
        .channels
        .iter()
        .zip(&wires.by_channel)
        .zip(&activity.channel_flits)
        .enumerate()
    {
        debug_assert_eq!(shape.length_mm.to_bits(), w.length_mm.to_bits());
        let (e, a) = ctx.channel(w, flits);
        energy.add(&e);
        area.channel += a;
        if options.detail {
            channels.push(ChannelCost {
                index,
                stages: w.m,
                repeaters: w.n,
                repeater_size: w.k,
                energy_pj: e,
                area_mm2: a,
            });
        }
    }
    let seconds = ctx.cycles / ctx.clock_hz;
    // pJ over s -> mW: 1e-12 J / s = 1e-9 mW.
    let power_mw = if seconds > 0.0 {
        energy.scaled(1e-9 / seconds)
    } else {
        Parts::default()
    };
    Ok(CostReport {
        tech: tech.name.clone(),
        mode: options.mode,
        clock_ghz,
        flit_bits: design.flit_bits,
        cycles: activity.cycles,
        energy_pj: energy,
        power_mw,
        area_mm2: area,
        routers: options.detail.then_some(routers),
        channels: options.detail.then_some(channels),
    })
}

fn check(design: usize, activity: usize, what: &'static str) -> Result<(), CostError> {
    if design == activity {
        Ok(())
    } else {
        Err(CostError::Mismatch {
            what,
            activity,
            design,
        })
    }
}

/// What every component's formula shares.
struct Context<'a> {
    tech: &'a Tech,
    mode: Mode,
    bits: f64,
    clock_hz: f64,
    cycles: f64,
}

impl Context<'_> {
    /// The position of port `p` of `ports` in the crossbar (BookSim: terminal ports last).
    fn position(&self, p: usize, ports: usize, terminals: usize) -> f64 {
        match self.mode {
            Mode::Corrected => p as f64,
            Mode::Booksim => ((p + ports - terminals.min(ports)) % ports) as f64,
        }
    }

    /// One router's energy (pJ) and area.
    fn router(&self, shape: &RouterShape, act: &RouterActivity) -> (Parts, Areas) {
        let (t, bits, mode) = (self.tech, self.bits, self.mode);
        let seconds = self.cycles / self.clock_hz;
        let (ins, outs) = (shape.input_words.len(), shape.outputs as usize);
        let ports = (ins as f64, outs as f64);
        let terminals = shape.terminal_ports as usize;
        let mut e = Parts::default();
        let mut a = Areas::default();
        for (p, &words) in shape.input_words.iter().enumerate() {
            let words = f64::from(words);
            let (reads, writes) = (act.buffer_reads[p] as f64, act.buffer_writes[p] as f64);
            e.input_read += reads * buffer::read_energy_j(t, mode, bits, words);
            e.input_write += writes * buffer::write_energy_j(t, mode, bits, words, self.clock_hz);
            e.input_leakage += buffer::leakage_w(t, bits, words) * seconds;
            a.input += buffer::area_mm2(t, bits, words);
            let from = self.position(p, ins, terminals);
            e.switch += reads * bits * crossbar::output_wire_bit_energy_j(t, ports, bits, from);
        }
        let per_flit_out = crossbar::control_energy_j(t, ports, bits);
        for (o, &flits) in act.crossbar_out.iter().enumerate() {
            let flits = flits as f64;
            let to = self.position(o, outs, terminals);
            e.switch += flits * bits * crossbar::input_wire_bit_energy_j(t, ports, bits, to);
            e.switch_control += flits * per_flit_out;
            e.output_register += flits * crossbar::output_register_energy_j(t, bits);
            e.output_control += flits * crossbar::output_control_energy_j(t, bits);
        }
        e.output_clock = outs as f64 * wire::clock_energy_j(t, bits) * self.cycles;
        e.switch_leakage = crossbar::leakage_w(t, mode, ports, bits) * seconds;
        a.switch = crossbar::area_mm2(t, ports, bits);
        a.output = outs as f64 * crossbar::output_area_mm2(t, bits);
        (e.scaled(PJ), a)
    }

    /// One channel's energy (pJ) and area (mm^2).
    fn channel(&self, w: &WireDesign, flits: u64) -> (Parts, f64) {
        let (t, bits) = (self.tech, self.bits);
        let flits = flits as f64;
        let e = Parts {
            channel_wire: flits * bits * wire::bit_energy_j(t, w),
            channel_retiming: flits * w.m * wire::flip_flop_energy_j(t, bits),
            channel_clock: w.m * wire::clock_energy_j(t, bits) * self.cycles,
            channel_leakage: bits * wire::bit_leakage_w(t, w) * self.cycles / self.clock_hz,
            ..Parts::default()
        };
        (e.scaled(PJ), wire::area_mm2(t, w, bits))
    }
}
