//! What the model reports: energy and power by component, area by component, per router
//! and per channel on request.

use crate::Mode;
use serde::Serialize;

/// One figure per component (energy in pJ or power in mW), BookSim's thirteen.
#[derive(Copy, Clone, Debug, Default, PartialEq, Serialize)]
pub struct Parts {
    /// Channel wires and repeaters, per flit.
    pub channel_wire: f64,
    /// Channel clock (per cycle).
    pub channel_clock: f64,
    /// Channel retiming flip-flops, per flit.
    pub channel_retiming: f64,
    /// Channel repeater leakage.
    pub channel_leakage: f64,
    /// Input buffer reads.
    pub input_read: f64,
    /// Input buffer writes.
    pub input_write: f64,
    /// Input buffer leakage.
    pub input_leakage: f64,
    /// Crossbar traversals.
    pub switch: f64,
    /// Crossbar control, per traversal.
    pub switch_control: f64,
    /// Crossbar leakage.
    pub switch_leakage: f64,
    /// Output registers, per flit.
    pub output_register: f64,
    /// Output register clock (per cycle).
    pub output_clock: f64,
    /// Output register enable, per flit.
    pub output_control: f64,
}

impl Parts {
    /// Event-driven components (reads, writes, traversals, flits on wires).
    pub fn dynamic(&self) -> f64 {
        self.channel_wire
            + self.channel_retiming
            + self.input_read
            + self.input_write
            + self.switch
            + self.switch_control
            + self.output_register
            + self.output_control
    }

    /// Clock components (every cycle, whatever the load).
    pub fn clock(&self) -> f64 {
        self.channel_clock + self.output_clock
    }

    /// Leakage components.
    pub fn leakage(&self) -> f64 {
        self.channel_leakage + self.input_leakage + self.switch_leakage
    }

    /// Everything.
    pub fn total(&self) -> f64 {
        self.dynamic() + self.clock() + self.leakage()
    }

    /// Every component times `k`.
    pub fn scaled(&self, k: f64) -> Parts {
        let mut p = *self;
        for v in p.fields_mut() {
            *v *= k;
        }
        p
    }

    /// Adds `o` component by component.
    pub fn add(&mut self, o: &Parts) {
        let mut o = *o;
        for (a, b) in self.fields_mut().into_iter().zip(o.fields_mut()) {
            *a += *b;
        }
    }

    fn fields_mut(&mut self) -> [&mut f64; 13] {
        [
            &mut self.channel_wire,
            &mut self.channel_clock,
            &mut self.channel_retiming,
            &mut self.channel_leakage,
            &mut self.input_read,
            &mut self.input_write,
            &mut self.input_leakage,
            &mut self.switch,
            &mut self.switch_control,
            &mut self.switch_leakage,
            &mut self.output_register,
            &mut self.output_clock,
            &mut self.output_control,
        ]
    }
}

/// Area by component, mm^2.
#[derive(Copy, Clone, Debug, Default, PartialEq, Serialize)]
pub struct Areas {
    /// Channel repeaters and retiming flip-flops.
    pub channel: f64,
    /// Crossbars.
    pub switch: f64,
    /// Input buffers.
    pub input: f64,
    /// Output registers.
    pub output: f64,
}

impl Areas {
    /// The sum.
    pub fn total(&self) -> f64 {
        self.channel + self.switch + self.input + self.output
    }

    pub(crate) fn add(&mut self, o: &Areas) {
        self.channel += o.channel;
        self.switch += o.switch;
        self.input += o.input;
        self.output += o.output;
    }
}

/// One router's figures (its channels are apart).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RouterCost {
    /// Index in [`crate::Design::routers`].
    pub index: usize,
    /// Energy, pJ.
    pub energy_pj: Parts,
    /// Area, mm^2.
    pub area_mm2: Areas,
}

/// One channel's figures.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ChannelCost {
    /// Index in [`crate::Design::channels`].
    pub index: usize,
    /// Retiming stages of its wire.
    pub stages: f64,
    /// Repeaters per stage.
    pub repeaters: f64,
    /// Repeater size, in 1 um inverters.
    pub repeater_size: f64,
    /// Energy, pJ.
    pub energy_pj: Parts,
    /// Area, mm^2.
    pub area_mm2: f64,
}

/// The costs of a design under an activity.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CostReport {
    /// The technology's name.
    pub tech: String,
    /// The model's reading.
    pub mode: Mode,
    /// Clock, GHz.
    pub clock_ghz: f64,
    /// Bits per flit.
    pub flit_bits: u32,
    /// Cycles the activity covers.
    pub cycles: u64,
    /// Energy by component over those cycles, pJ.
    pub energy_pj: Parts,
    /// Average power by component at the clock, mW.
    pub power_mw: Parts,
    /// Area by component, mm^2.
    pub area_mm2: Areas,
    /// Per router (with [`crate::Options::detail`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub routers: Option<Vec<RouterCost>>,
    /// Per channel (with [`crate::Options::detail`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub channels: Option<Vec<ChannelCost>>,
}
