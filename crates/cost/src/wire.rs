//! Repeated, retimed channel wires (Balfour and Dally, ICS 2006, as in BookSim 2's power
//! model): a wire of `L` mm is cut by `M` flip-flop stages into `M` pipeline segments,
//! each driven through `N` repeaters of size `K` (in 1 um inverters). The design chosen
//! meets the clock with a margin and minimises `M^4` times the power at activity 0.2.

use crate::Tech;

/// A repeated wire design.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct WireDesign {
    /// Length, mm.
    pub length_mm: f64,
    /// Repeater size in 1 um inverters.
    pub k: f64,
    /// Flip-flop (retiming) stages.
    pub m: f64,
    /// Repeaters per stage.
    pub n: f64,
}

/// Activity the design search assumes.
const SEARCH_ACTIVITY: f64 = 0.2;
/// Bits the design search assumes (the choice does not depend on it: both terms of the
/// power are linear in the width).
const SEARCH_BITS: f64 = 64.0;
/// Fraction of the cycle one stage may take.
const TIMING_MARGIN: f64 = 0.8;

/// Energy (J) of one flit's bit crossing the wire: every repeater's and segment's
/// capacitance, charged with probability one half.
pub fn bit_energy_j(t: &Tech, w: &WireDesign) -> f64 {
    let segments = w.m * w.n;
    let c = w.k * (t.inverter_in_f() + t.inverter_out_f())
        + t.wire_f_per_mm() * (w.length_mm / segments);
    0.5 * c * t.vdd_v * t.vdd_v * segments
}

/// Leakage power (W) of one bit's repeaters.
pub fn bit_leakage_w(t: &Tech, w: &WireDesign) -> f64 {
    w.k * t.inverter_off_a() * t.vdd_v * w.m * w.n
}

/// The flip-flop's data and clock input capacitances (F): two gates of 0.8 of an
/// inverter's input and output, and two of 2/3 of 0.8 of its output (data) or gate (clock).
fn flip_flop_caps(t: &Tech) -> (f64, f64) {
    let (ci, co) = (t.inverter_in_f(), t.inverter_out_f());
    let data = 2.0 * 0.8 * (ci + co) + 2.0 * (2.0 / 3.0 * 0.8 * co);
    let clock = 2.0 * 0.8 * (ci + co) + 2.0 * (2.0 / 3.0 * 0.8 * t.gate_power_f_per_um);
    (data, clock)
}

/// Energy (J) of `bits` flip-flops taking one flit, per flip-flop stage: half the data
/// input and all of the internal clock load.
pub fn flip_flop_energy_j(t: &Tech, bits: f64) -> f64 {
    let (data, clock) = flip_flop_caps(t);
    (0.5 * data + clock) * bits * t.vdd_v * t.vdd_v
}

/// Energy (J) per cycle of the clock wire of one bank of `bits` flip-flops, with its
/// driver.
pub fn clock_energy_j(t: &Tech, bits: f64) -> f64 {
    let pitch = 2.0 * t.metal_pitch_mm;
    let columns = t.cells.flip_flop.height * t.metal_pitch_mm / pitch;
    let length = bits * pitch;
    let ratio = t.inverter_out_delay_f() / t.inverter_in_delay_f();
    let c = (1.0 + 5.0 / 16.0 * (1.0 + ratio))
        * (length * t.wire_f_per_mm() * columns + bits * t.inverter_in_delay_f());
    c * t.vdd_v * t.vdd_v
}

/// Area (mm^2) of `bits` wires' repeaters and flip-flops.
pub fn area_mm2(t: &Tech, w: &WireDesign, bits: f64) -> f64 {
    let c = &t.cells;
    let flip_flops = w.m * c.flip_flop.width * c.flip_flop.height;
    let inverters = w.m * w.n * (c.inverter.width + 3.0 * w.k) * c.inverter.height;
    bits * (flip_flops + inverters) * t.metal_pitch_mm * t.metal_pitch_mm
}

/// The design of a wire of `length_mm` at clock period `period_s`; `None` when no design
/// with up to 39 stages of up to 39 repeaters meets the clock. For a given K and N a
/// stage's delay falls and the metric rises with M, so only the fewest stages that meet
/// the clock are weighed: the same design as the full search, in its order.
pub fn design(t: &Tech, length_mm: f64, period_s: f64) -> Option<WireDesign> {
    let (ci, co) = (t.inverter_in_delay_f(), t.inverter_out_delay_f());
    let (r, rw, cw) = (t.inverter_ohm, t.wire_ohm_per_mm, t.wire_f_per_mm());
    let mut best: Option<(f64, WireDesign)> = None;
    // Repeater sizes 1.0, 1.1, ... below 10 (summed step by step, as the search is
    // published), repeaters and stages 1 to 39.
    let mut k = 1.0;
    while k < 10.0 {
        for n in 1..40 {
            for m in 1..40 {
                let (n, m) = (f64::from(n), f64::from(m));
                let l = length_mm / (n * m);
                let k0 = r * (co + ci);
                let k1 = r / k * cw + k * rw * ci;
                let k2 = 0.5 * rw * cw;
                let stage = k0 + k1 * l + k2 * l * l;
                if n * stage >= TIMING_MARGIN * period_s {
                    continue;
                }
                let w = WireDesign { length_mm, k, m, n };
                let power = SEARCH_ACTIVITY * SEARCH_BITS * bit_energy_j(t, &w)
                    + SEARCH_ACTIVITY * flip_flop_energy_j(t, SEARCH_BITS) * m;
                let metric = m * m * m * m * power;
                if best.is_none_or(|(b, _)| metric < b) {
                    best = Some((metric, w));
                }
                // At this K and N the metric grows with M: more stages never win.
                break;
            }
        }
        k += 0.1;
    }
    best.map(|(_, w)| w)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The search over every K, N and M, without stopping at the fewest stages.
    fn full_search(t: &Tech, length_mm: f64, period_s: f64) -> Option<WireDesign> {
        let mut best: Option<(f64, WireDesign)> = None;
        let mut k = 1.0;
        while k < 10.0 {
            for n in 1..40 {
                for m in 1..40 {
                    let (n, m) = (f64::from(n), f64::from(m));
                    let w = WireDesign { length_mm, k, m, n };
                    let l = length_mm / (n * m);
                    let (ci, co) = (t.inverter_in_delay_f(), t.inverter_out_delay_f());
                    let (r, rw, cw) = (t.inverter_ohm, t.wire_ohm_per_mm, t.wire_f_per_mm());
                    let stage =
                        r * (co + ci) + (r / k * cw + k * rw * ci) * l + 0.5 * rw * cw * l * l;
                    if n * stage >= TIMING_MARGIN * period_s {
                        continue;
                    }
                    let power =
                        0.2 * 64.0 * bit_energy_j(t, &w) + 0.2 * flip_flop_energy_j(t, 64.0) * m;
                    let metric = m.powi(4) * power;
                    if best.is_none_or(|(b, _)| metric < b) {
                        best = Some((metric, w));
                    }
                }
            }
            k += 0.1;
        }
        best.map(|(_, w)| w)
    }

    #[test]
    fn the_search_finds_the_full_searchs_design() {
        for name in Tech::builtin_names() {
            let t = Tech::builtin(name).unwrap();
            for (l, ghz) in [
                (2.0, t.default_clock_ghz()),
                (4.0, 2.0),
                (10.0, 1.0),
                (30.0, 3.0),
            ] {
                assert_eq!(
                    design(&t, l, 1e-9 / ghz),
                    full_search(&t, l, 1e-9 / ghz),
                    "{name} {l} mm {ghz} GHz"
                );
            }
        }
    }

    #[test]
    fn a_longer_wire_never_needs_fewer_stages_and_every_design_meets_the_clock() {
        let t = Tech::builtin(crate::DEFAULT_TECH).unwrap();
        let period = 1e-9 / t.default_clock_ghz();
        let mut last = 0.0;
        for l in [1.0, 2.0, 4.0, 8.0] {
            let w = design(&t, l, period).unwrap();
            assert!(w.m >= last, "{l} mm: {w:?}");
            last = w.m;
        }
        // A 45 nm global wire of 20 mm cannot be crossed in one 300 ps cycle without stages.
        let t45 = Tech::builtin("dsent-bulk45lvt").unwrap();
        let w = design(&t45, 20.0, 1e-9 / t45.default_clock_ghz()).unwrap();
        assert!(w.m > 1.0, "{w:?}");
    }
}
