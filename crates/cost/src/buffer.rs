//! Input buffers: one two-port SRAM per input port, `words` flits of `bits` bits (the
//! port's VCs times their depth), after Balfour and Dally (ICS 2006) as in BookSim 2.

use crate::{Mode, Tech};

/// Energy (J) of the wordline and the array's row and column circuits, per access.
fn access_energy_j(t: &Tech, mode: Mode, bits: f64, words: f64) -> f64 {
    let (ci, co, cw, mp) = (
        t.inverter_in_f(),
        t.inverter_out_f(),
        t.wire_f_per_mm(),
        t.metal_pitch_mm,
    );
    // The wordline: two access gates and six pitches of wire per bit.
    let cell = 2.0 * (4.0 * t.lambda_um) * t.gate_power_f_per_um + 6.0 * mp * cw;
    let wordline = bits * cell;
    let x = 1.0 + 5.0 / 16.0 * (1.0 + co / ci);
    let predecode = match mode {
        // BookSim multiplies the wire's capacitance by the gate's and adds the word count
        // to a length: a product of capacitances, negligible.
        Mode::Booksim => x * (cw * (8.0 * mp + words) * ci),
        // The predecode wire spans eight pitches per word and drives one inverter.
        Mode::Corrected => x * (cw * 8.0 * mp * words + ci),
    };
    let decode = x * wordline;
    // Bitline precharge and write enable across the array's height.
    let height = 6.0 * bits * mp;
    let y = 1.25 * (1.0 + co / ci);
    let precharge = y * (cw * height + 3.0 * bits * ci);
    let write_enable = y * (cw * height + 2.0 * bits * ci);
    (precharge + write_enable + 2.0 * predecode + decode) * t.vdd_v * t.vdd_v
}

/// Capacitance (F) of one bitline over `words` cells.
fn bitline_f(t: &Tech, words: f64) -> f64 {
    words
        * (4.0 * t.lambda_um * t.drain_power_f_per_um + 8.0 * t.metal_pitch_mm * t.wire_f_per_mm())
}

/// Energy (J) of reading one flit.
pub fn read_energy_j(t: &Tech, mode: Mode, bits: f64, words: f64) -> f64 {
    access_energy_j(t, mode, bits, words) + bits * bitline_f(t, words) * t.vdd_v * t.vdd_v
}

/// Energy (J) of writing one flit: the access, the bitlines, and each cell's flip.
/// `clock_hz` serves the BookSim mode only, which adds the cell's energy to a power.
pub fn write_energy_j(t: &Tech, mode: Mode, bits: f64, words: f64, clock_hz: f64) -> f64 {
    let cell_flip = 0.5 * 2.0 * (t.inverter_out_f() + t.inverter_in_f()) * t.vdd_v * t.vdd_v;
    let cell_flip = match mode {
        Mode::Booksim => cell_flip / clock_hz,
        Mode::Corrected => cell_flip,
    };
    access_energy_j(t, mode, bits, words)
        + bits * (cell_flip + bitline_f(t, words) * t.vdd_v * t.vdd_v)
}

/// Leakage power (W) of the buffer's cells.
pub fn leakage_w(t: &Tech, bits: f64, words: f64) -> f64 {
    bits * words * t.sram_cell_off_a * t.vdd_v
}

/// Area (mm^2) of the SRAM array.
pub fn area_mm2(t: &Tech, bits: f64, words: f64) -> f64 {
    let s = &t.cells.sram;
    bits * s.height * words * s.width * t.metal_pitch_mm * t.metal_pitch_mm
}
