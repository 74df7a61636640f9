//! The crossbar, its control and the output registers (Balfour and Dally, ICS 2006, as in
//! BookSim 2): a matrix crossbar of `inputs x outputs` ports, `bits` wires each, at two
//! metal pitches per wire.

use crate::{wire, Mode, Tech};

/// Geometry shared by the crossbar's formulas.
struct Geometry {
    /// Input wires' capacitance (they run across the outputs), F.
    c_in: f64,
    /// Output wires' capacitance, F.
    c_out: f64,
    /// Width and height of the matrix, mm.
    width: f64,
    height: f64,
    /// Drain over gate capacitance of an inverter (delay values).
    ratio: f64,
}

fn geometry(t: &Tech, bits: f64, inputs: f64, outputs: f64) -> Geometry {
    let pitch = 2.0 * t.metal_pitch_mm;
    let (width, height) = (bits * outputs * pitch, bits * inputs * pitch);
    Geometry {
        c_in: width * t.wire_f_per_mm(),
        c_out: height * t.wire_f_per_mm(),
        width,
        height,
        ratio: t.inverter_out_delay_f() / t.inverter_in_delay_f(),
    }
}

/// Energy (J) of one bit crossing from input `from` to output `to`: half the switched
/// capacitance of the input wire (charged to the far end for outputs in the upper half of
/// the numbering, to the middle for the lower half), of the output wire (likewise by
/// input) and of their drivers and cross-points.
pub fn bit_energy_j(t: &Tech, ports: (f64, f64), bits: f64, (from, to): (f64, f64)) -> f64 {
    input_wire_bit_energy_j(t, ports, bits, to) + output_wire_bit_energy_j(t, ports, bits, from)
}

/// The input wire's part of [`bit_energy_j`] for a bit going to output `to`.
pub fn input_wire_bit_energy_j(t: &Tech, (inputs, outputs): (f64, f64), bits: f64, to: f64) -> f64 {
    let g = geometry(t, bits, inputs, outputs);
    let cross_in = g.c_out / 16.0;
    let tri_in = g.c_in / 16.0;
    let driver = 5.0 / 16.0 * (1.0 + g.ratio) * (0.5 * t.wire_f_per_mm() * g.width + tri_in);
    let mut c = driver + g.c_in + tri_in + outputs * cross_in;
    if to < outputs / 2.0 {
        c -= 0.5 * g.c_in + outputs / 2.0 * cross_in;
    }
    0.5 * c * t.vdd_v * t.vdd_v
}

/// The output wire's part of [`bit_energy_j`] for a bit coming from input `from`.
pub fn output_wire_bit_energy_j(
    t: &Tech,
    (inputs, outputs): (f64, f64),
    bits: f64,
    from: f64,
) -> f64 {
    let g = geometry(t, bits, inputs, outputs);
    let cross_out = 4.0 * (g.c_out / 16.0) * g.ratio;
    let tri_out = 4.0 * (g.c_in / 16.0) * g.ratio;
    let mut c = g.c_out + tri_out + inputs * cross_out;
    if from < inputs / 2.0 {
        c -= 0.5 * g.c_out + inputs / 2.0 * cross_out;
    }
    0.5 * c * t.vdd_v * t.vdd_v
}

/// Energy (J) of the crossbar's control wires per traversal.
pub fn control_energy_j(t: &Tech, (inputs, outputs): (f64, f64), bits: f64) -> f64 {
    let g = geometry(t, bits, inputs, outputs);
    let tri = 5.0 / 16.0 * g.c_in;
    let control = bits * tri + (g.width + g.height) * t.wire_f_per_mm();
    let drive = 5.0 / 16.0 * (1.0 + g.ratio) * control;
    (drive + control) * t.vdd_v * t.vdd_v
}

/// Leakage power (W) of the cross-points and tri-state drivers, their width estimated as
/// their capacitance over a 1 um inverter's input. BookSim omits the supply voltage
/// (its figure is a current).
pub fn leakage_w(t: &Tech, mode: Mode, (inputs, outputs): (f64, f64), bits: f64) -> f64 {
    let g = geometry(t, bits, inputs, outputs);
    let cross = g.c_out / 16.0;
    let tri = g.c_in / 16.0;
    let current =
        2.0 * t.inverter_off_a() * bits * (inputs * outputs * cross + inputs * tri + outputs * tri)
            / t.inverter_in_f();
    // `inverter_off_a` is the mean of the two states, BookSim's `0.5 (IoffN + 2 IoffP)`;
    // the factor 2 above and 0.5 here keep its form.
    let current = 0.5 * current;
    match mode {
        Mode::Booksim => current,
        Mode::Corrected => current * t.vdd_v,
    }
}

/// Area (mm^2) of the matrix.
pub fn area_mm2(t: &Tech, (inputs, outputs): (f64, f64), bits: f64) -> f64 {
    let pitch = 2.0 * t.metal_pitch_mm;
    (inputs * bits * pitch) * (outputs * bits * pitch)
}

/// Energy (J) of one flit written into an output port's register (a flip-flop stage).
pub fn output_register_energy_j(t: &Tech, bits: f64) -> f64 {
    wire::flip_flop_energy_j(t, bits)
}

/// Energy (J) of the output register's enable per flit.
pub fn output_control_energy_j(t: &Tech, bits: f64) -> f64 {
    let (ci, co) = (t.inverter_in_f(), t.inverter_out_f());
    let width = bits * 2.0 * t.metal_pitch_mm;
    let c = (1.0 + 5.0 / 16.0) * (1.0 + co / ci) * (width * t.wire_f_per_mm() + bits * ci);
    c * t.vdd_v * t.vdd_v
}

/// Area (mm^2) of one output port's register.
pub fn output_area_mm2(t: &Tech, bits: f64) -> f64 {
    let f = &t.cells.flip_flop;
    bits * f.width * f.height * t.metal_pitch_mm * t.metal_pitch_mm
}
