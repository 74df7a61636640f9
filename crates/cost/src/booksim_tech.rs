//! BookSim 2's technology file format (`KEY = value; // comment` lines, the keys of its
//! `tech_file`), read into a [`Tech`] so that a BookSim user's file serves as it is.

use crate::tech::{Cell, Cells, Tech, TechError};
use std::collections::BTreeMap;

/// The keys a BookSim technology file must give.
const KEYS: [&str; 24] = [
    "H_INVD2",
    "W_INVD2",
    "H_DFQD1",
    "W_DFQD1",
    "H_ND2D1",
    "W_ND2D1",
    "H_SRAM",
    "W_SRAM",
    "Vdd",
    "R",
    "IoffSRAM",
    "IoffP",
    "IoffN",
    "Cg_pwr",
    "Cd_pwr",
    "Cgdl",
    "Cg",
    "Cd",
    "LAMBDA",
    "MetalPitch",
    "Rw",
    "Cw_gnd",
    "Cw_cpl",
    "wire_length",
];

/// Whether `text` looks like a BookSim technology file rather than TOML.
pub(crate) fn is_booksim(text: &str) -> bool {
    text.lines().any(|l| {
        let l = l.trim_start();
        l.starts_with("H_INVD2") || l.starts_with("MetalPitch")
    })
}

/// Reads a BookSim technology file (clock: BookSim's 20 FO4).
pub(crate) fn parse(file: &str, text: &str) -> Result<Tech, TechError> {
    let fail = |line: usize, message: String, help: &str| TechError {
        file: file.to_string(),
        line,
        column: 1,
        message,
        help: help.to_string(),
    };
    let mut values: BTreeMap<&str, f64> = BTreeMap::new();
    for (i, raw) in text.lines().enumerate() {
        let code = raw.split("//").next().unwrap_or("");
        for stmt in code.split(';').map(str::trim).filter(|s| !s.is_empty()) {
            let Some((key, value)) = stmt.split_once('=') else {
                return Err(fail(
                    i + 1,
                    format!("`{stmt}` is not `KEY = value`"),
                    "BookSim's format: `KEY = value;` per line",
                ));
            };
            let key = key.trim();
            let Some(k) = KEYS.iter().find(|k| **k == key) else {
                return Err(fail(
                    i + 1,
                    format!("unknown key `{key}`"),
                    "BookSim's technology keys are those of its src/power/techfile.txt",
                ));
            };
            match value.trim().parse::<f64>() {
                Ok(v) if v.is_finite() && v > 0.0 => {
                    values.insert(k, v);
                }
                _ => {
                    return Err(fail(
                        i + 1,
                        format!("`{key}` is `{}`", value.trim()),
                        "give a positive number",
                    ))
                }
            }
        }
    }
    if let Some(missing) = KEYS.iter().find(|k| !values.contains_key(*k)) {
        return Err(fail(
            1,
            format!("`{missing}` is missing"),
            "a BookSim technology file gives every key of its src/power/techfile.txt",
        ));
    }
    let v = |k: &str| values[k];
    let cell = |h: &str, w: &str| Cell {
        height: v(h),
        width: v(w),
    };
    let name = std::path::Path::new(file)
        .file_stem()
        .map_or_else(|| file.to_string(), |s| s.to_string_lossy().into_owned());
    Ok(Tech {
        name,
        source: format!("BookSim technology file {file}"),
        vdd_v: v("Vdd"),
        inverter_ohm: v("R"),
        gate_f_per_um: v("Cg"),
        drain_f_per_um: v("Cd"),
        gate_drain_f_per_um: v("Cgdl"),
        gate_power_f_per_um: v("Cg_pwr"),
        drain_power_f_per_um: v("Cd_pwr"),
        nmos_off_a_per_um: v("IoffN"),
        pmos_off_a_per_um: v("IoffP"),
        sram_cell_off_a: v("IoffSRAM"),
        lambda_um: v("LAMBDA"),
        metal_pitch_mm: v("MetalPitch"),
        wire_ohm_per_mm: v("Rw"),
        wire_ground_f_per_mm: v("Cw_gnd"),
        wire_coupling_f_per_mm: v("Cw_cpl"),
        wire_mm_per_cycle: v("wire_length"),
        clock_fo4: 20.0,
        cells: Cells {
            inverter: cell("H_INVD2", "W_INVD2"),
            flip_flop: cell("H_DFQD1", "W_DFQD1"),
            nand2: cell("H_ND2D1", "W_ND2D1"),
            sram: cell("H_SRAM", "W_SRAM"),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The 32 nm values in BookSim's format (the facts of its file, written here).
    const ITRS32: &str = "H_INVD2 = 8;\nW_INVD2 = 3;\nH_DFQD1 = 8;\nW_DFQD1 = 16;\nH_ND2D1 = 8;\nW_ND2D1 = 3;\nH_SRAM = 8;\nW_SRAM = 6;\nVdd = 0.9;\nR = 606.321;\nIoffSRAM = 0.00000032;\nIoffP = 0.00000102;\nIoffN = 0.00000102;\nCg_pwr = 0.000000000000000534;\nCd_pwr = 0.000000000000000267;\nCgdl = 0.0000000000000001068;\nCg = 0.000000000000000534;\nCd = 0.000000000000000267;\nLAMBDA = 0.016;\nMetalPitch = 0.000080;\nRw = 0.720044;\nCw_gnd = 0.000000000000267339;\nCw_cpl = 0.000000000000267339;\nwire_length = 2.0;//float";

    #[test]
    fn the_booksim_form_reads_as_the_built_in_32nm_set() {
        assert!(is_booksim(ITRS32));
        let mut t = parse("x/itrs.txt", ITRS32).unwrap();
        let b = Tech::builtin(crate::DEFAULT_TECH).unwrap();
        (t.name, t.source) = (b.name.clone(), b.source.clone());
        assert_eq!(t, b);
        let e = parse("x.txt", &ITRS32.replace("Vdd = 0.9;", "Vdd = x;")).unwrap_err();
        assert_eq!((e.line, e.message.as_str()), (9, "`Vdd` is `x`"));
        let e = parse("x.txt", &ITRS32.replace("Rw = 0.720044;", "")).unwrap_err();
        assert_eq!(e.message, "`Rw` is missing");
    }
}
