//! Technology parameters: devices, wires, standard cells and the clock, read from a TOML
//! file (`crates/cost/tech/*.toml` are built in; docs/power.md lists the keys).

use serde::Deserialize;
use std::path::Path;

/// A built-in technology: its name and its file's text.
const BUILTIN: [(&str, &str); 2] = [
    (
        "itrs-2007-32nm",
        include_str!("../tech/itrs-2007-32nm.toml"),
    ),
    (
        "dsent-bulk45lvt",
        include_str!("../tech/dsent-bulk45lvt.toml"),
    ),
];

/// The technology used when none is named.
pub const DEFAULT_TECH: &str = "itrs-2007-32nm";

/// One standard cell's size in metal pitches.
#[derive(Copy, Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Cell {
    /// Height in metal pitches.
    pub height: f64,
    /// Width in metal pitches.
    pub width: f64,
}

/// The standard cells the model places.
#[derive(Copy, Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Cells {
    /// Inverter (repeaters): BookSim's `INVD2`.
    pub inverter: Cell,
    /// Flip-flop (retiming and output registers): `DFQD1`.
    pub flip_flop: Cell,
    /// Two-input NAND: `ND2D1`.
    pub nand2: Cell,
    /// Two-port SRAM cell (input buffers).
    pub sram: Cell,
}

/// Technology parameters (units in the field names: V, ohm, F, A, um, mm).
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tech {
    /// Short name (`itrs-2007-32nm`).
    pub name: String,
    /// Where the values come from.
    pub source: String,
    /// Supply voltage.
    pub vdd_v: f64,
    /// Effective resistance of a 1 um inverter (`R`).
    pub inverter_ohm: f64,
    /// Gate capacitance per um, for delay (`Cg`).
    pub gate_f_per_um: f64,
    /// Drain capacitance per um, for delay (`Cd`).
    pub drain_f_per_um: f64,
    /// Gate-drain (Miller) capacitance per um, for delay (`Cgdl`).
    pub gate_drain_f_per_um: f64,
    /// Gate capacitance per um, for power (`Cg_pwr`).
    pub gate_power_f_per_um: f64,
    /// Drain capacitance per um, for power (`Cd_pwr`).
    pub drain_power_f_per_um: f64,
    /// NMOS off current per um (`IoffN`).
    pub nmos_off_a_per_um: f64,
    /// PMOS off current per um (`IoffP`).
    pub pmos_off_a_per_um: f64,
    /// Bitline leakage of one two-port SRAM cell (`IoffSRAM`).
    pub sram_cell_off_a: f64,
    /// Half the feature size (`LAMBDA`).
    pub lambda_um: f64,
    /// Metal pitch (`MetalPitch`).
    pub metal_pitch_mm: f64,
    /// Wire resistance per mm (`Rw`).
    pub wire_ohm_per_mm: f64,
    /// Wire capacitance to one ground plane per mm (`Cw_gnd`).
    pub wire_ground_f_per_mm: f64,
    /// Wire coupling capacitance to one neighbour per mm (`Cw_cpl`).
    pub wire_coupling_f_per_mm: f64,
    /// Channel wire per cycle of channel latency (`wire_length`).
    pub wire_mm_per_cycle: f64,
    /// The default clock period in FO4 delays (BookSim: 20).
    pub clock_fo4: f64,
    /// Standard cell sizes.
    pub cells: Cells,
}

/// Why a technology file was refused.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{file}:{line}:{column}: error: {message}\nhelp: {help}")]
pub struct TechError {
    /// The file (or `builtin:NAME`).
    pub file: String,
    /// 1-based line (1 when the error has no position).
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// What is wrong.
    pub message: String,
    /// How to fix it.
    pub help: String,
}

/// Largest technology file read (a parameter set is under 4 KiB).
const MAX_FILE_BYTES: u64 = 1 << 20;

impl Tech {
    /// A built-in technology by name.
    ///
    /// # Errors
    /// An unknown name (the error lists the built-in ones).
    pub fn builtin(name: &str) -> Result<Tech, TechError> {
        match BUILTIN.iter().find(|(n, _)| *n == name) {
            Some((n, text)) => Tech::parse(&format!("builtin:{n}"), text),
            None => Err(TechError {
                file: name.to_string(),
                line: 1,
                column: 1,
                message: format!("no built-in technology `{name}`"),
                help: format!(
                    "use one of {} or the path of a technology file (docs/power.md)",
                    Tech::builtin_names().join(", ")
                ),
            }),
        }
    }

    /// The names of the built-in technologies.
    pub fn builtin_names() -> Vec<&'static str> {
        BUILTIN.iter().map(|(n, _)| *n).collect()
    }

    /// A built-in technology by name, or else the file at `name`: TOML, or BookSim 2's
    /// `tech_file` format (`KEY = value;` lines).
    ///
    /// # Errors
    /// The file cannot be read, is too large, is not valid TOML, lacks a key, has an
    /// unknown key, or a value is not a positive finite number.
    pub fn load(name: &str) -> Result<Tech, TechError> {
        if BUILTIN.iter().any(|(n, _)| *n == name) {
            return Tech::builtin(name);
        }
        let path = Path::new(name);
        let fail = |message: String, help: &str| TechError {
            file: name.to_string(),
            line: 1,
            column: 1,
            message,
            help: help.to_string(),
        };
        let help = "pass a built-in technology name or a readable technology file";
        let len = std::fs::metadata(path)
            .map_err(|e| fail(format!("cannot read the technology file: {e}"), help))?
            .len();
        if len > MAX_FILE_BYTES {
            return Err(fail(
                format!("the technology file has {len} bytes, above {MAX_FILE_BYTES}"),
                "a technology file is a short list of parameters (docs/power.md)",
            ));
        }
        let text = std::fs::read_to_string(path)
            .map_err(|e| fail(format!("cannot read the technology file: {e}"), help))?;
        if crate::booksim_tech::is_booksim(&text) {
            return crate::booksim_tech::parse(name, &text);
        }
        Tech::parse(name, &text)
    }

    /// Parses and checks a technology file's TOML text; `file` names it in errors.
    ///
    /// # Errors
    /// As [`Tech::load`].
    pub fn parse(file: &str, text: &str) -> Result<Tech, TechError> {
        let at = |offset: usize| {
            let before = &text[..offset.min(text.len())];
            let line = before.matches('\n').count() + 1;
            let column = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
            (line, column)
        };
        let tech: Tech = toml::from_str(text).map_err(|e| {
            let (line, column) = e.span().map_or((1, 1), |s| at(s.start));
            TechError {
                file: file.to_string(),
                line,
                column,
                message: e.message().to_string(),
                help: "every key of docs/power.md's technology table, each once, no other"
                    .to_string(),
            }
        })?;
        if let Some((key, value)) = tech
            .values()
            .into_iter()
            .find(|(_, v)| !(v.is_finite() && *v > 0.0))
        {
            let offset = text
                .lines()
                .scan(0, |o, l| {
                    let start = *o;
                    *o += l.len() + 1;
                    Some((start, l))
                })
                .find(|(_, l)| l.trim_start().starts_with(key))
                .map_or(0, |(o, _)| o);
            let (line, column) = at(offset);
            return Err(TechError {
                file: file.to_string(),
                line,
                column,
                message: format!("`{key}` is {value}"),
                help: format!("set `{key}` to a positive number (units in its name)"),
            });
        }
        Ok(tech)
    }

    /// Every number of the file, by key (cells as `inverter`, ...: height and width).
    fn values(&self) -> Vec<(&'static str, f64)> {
        let c = &self.cells;
        vec![
            ("vdd_v", self.vdd_v),
            ("inverter_ohm", self.inverter_ohm),
            ("gate_f_per_um", self.gate_f_per_um),
            ("drain_f_per_um", self.drain_f_per_um),
            ("gate_drain_f_per_um", self.gate_drain_f_per_um),
            ("gate_power_f_per_um", self.gate_power_f_per_um),
            ("drain_power_f_per_um", self.drain_power_f_per_um),
            ("nmos_off_a_per_um", self.nmos_off_a_per_um),
            ("pmos_off_a_per_um", self.pmos_off_a_per_um),
            ("sram_cell_off_a", self.sram_cell_off_a),
            ("lambda_um", self.lambda_um),
            ("metal_pitch_mm", self.metal_pitch_mm),
            ("wire_ohm_per_mm", self.wire_ohm_per_mm),
            ("wire_ground_f_per_mm", self.wire_ground_f_per_mm),
            ("wire_coupling_f_per_mm", self.wire_coupling_f_per_mm),
            ("wire_mm_per_cycle", self.wire_mm_per_cycle),
            ("clock_fo4", self.clock_fo4),
            ("inverter", c.inverter.height.min(c.inverter.width)),
            ("flip_flop", c.flip_flop.height.min(c.flip_flop.width)),
            ("nand2", c.nand2.height.min(c.nand2.width)),
            ("sram", c.sram.height.min(c.sram.width)),
        ]
    }

    /// Wire capacitance per mm: two ground planes and two neighbours (`Cw`).
    pub fn wire_f_per_mm(&self) -> f64 {
        2.0 * self.wire_coupling_f_per_mm + 2.0 * self.wire_ground_f_per_mm
    }

    /// Input capacitance of a 1 um inverter (1 um NMOS, 2 um PMOS), for delay.
    pub fn inverter_in_delay_f(&self) -> f64 {
        3.0 * (self.gate_f_per_um + self.gate_drain_f_per_um)
    }

    /// Output capacitance of a 1 um inverter, for delay.
    pub fn inverter_out_delay_f(&self) -> f64 {
        3.0 * self.drain_f_per_um
    }

    /// Input capacitance of a 1 um inverter, for power (`Ci`).
    pub fn inverter_in_f(&self) -> f64 {
        3.0 * self.gate_power_f_per_um
    }

    /// Output capacitance of a 1 um inverter, for power (`Co`).
    pub fn inverter_out_f(&self) -> f64 {
        3.0 * self.drain_power_f_per_um
    }

    /// The fan-out-of-4 inverter delay, seconds.
    pub fn fo4_s(&self) -> f64 {
        self.inverter_ohm
            * (3.0 * self.drain_f_per_um
                + 12.0 * self.gate_f_per_um
                + 12.0 * self.gate_drain_f_per_um)
    }

    /// The default clock, GHz: `clock_fo4` FO4 delays per cycle.
    pub fn default_clock_ghz(&self) -> f64 {
        1e-9 / (self.clock_fo4 * self.fo4_s())
    }

    /// Leakage current of a 1 um inverter, averaged over its two input states.
    pub fn inverter_off_a(&self) -> f64 {
        0.5 * (self.nmos_off_a_per_um + 2.0 * self.pmos_off_a_per_um)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtins_parse_and_the_32nm_clock_is_20_fo4() {
        for n in Tech::builtin_names() {
            Tech::builtin(n).unwrap();
        }
        let t = Tech::builtin(DEFAULT_TECH).unwrap();
        // FO4 = R (3 Cd + 12 Cg + 12 Cgdl) = 606.321 x 8.4906e-15 s.
        let fo4 = 606.321 * (3.0 * 0.267e-15 + 12.0 * 0.534e-15 + 12.0 * 0.1068e-15);
        assert!((t.fo4_s() - fo4).abs() < 1e-20);
        assert!((t.default_clock_ghz() - 1e-9 / (20.0 * fo4)).abs() < 1e-9);
    }

    #[test]
    fn a_bad_value_names_its_line() {
        let text = Tech::builtin_text(DEFAULT_TECH).replace("vdd_v = 0.9", "vdd_v = -0.9");
        let e = Tech::parse("t.toml", &text).unwrap_err();
        assert_eq!(e.message, "`vdd_v` is -0.9");
        let line = text.lines().position(|l| l.starts_with("vdd_v")).unwrap() + 1;
        assert_eq!(e.line, line);
    }

    #[test]
    fn an_unknown_key_is_refused_with_its_position() {
        let text = format!("{}\nvdd = 1.0\n", Tech::builtin_text(DEFAULT_TECH));
        let e = Tech::parse("t.toml", &text).unwrap_err();
        assert!(e.message.contains("unknown field `vdd`"), "{}", e.message);
        assert!(e.line > 1);
        assert!(Tech::builtin("nope").is_err());
    }

    impl Tech {
        fn builtin_text(name: &str) -> String {
            BUILTIN
                .iter()
                .find(|(n, _)| *n == name)
                .unwrap()
                .1
                .to_string()
        }
    }
}
