//! BookSim's power module keys: `sim_power`, `tech_file`, `channel_width` (mapped),
//! `channel_sweep` (refused unless 0). flitsim always reports energy and area
//! (docs/power.md); BookSim's `tech_file` format is read as it is (`--tech`).

use super::config::Config;
use super::error::ImportError;
use super::line::Line;
use std::fmt::Write as _;

/// The netlist lines and run flags of the power keys.
pub struct PowerKeys {
    /// `flit_width` when `channel_width` is set.
    flit_width: Option<i64>,
    /// Wire per cycle of BookSim channel latency, mm (the technology's `wire_length`).
    wire_mm: f64,
    /// `--tech` and `--cost-model`.
    pub run_flags: Vec<String>,
}

impl PowerKeys {
    /// Reads the power keys of `config`, one mapping line each.
    ///
    /// # Errors
    /// A bad `channel_width`, an unreadable or invalid `tech_file`, a `channel_sweep`.
    pub fn from_config(config: &Config, lines: &mut Vec<Line>) -> Result<PowerKeys, ImportError> {
        let power = config.int("sim_power", 0, 1)?;
        if config.is_set("sim_power") && power == 0 {
            lines.push(config.line(
                "sim_power",
                "",
                Some("flitsim reports energy, power and area with every run (`energy`, `area` in --json)".into()),
            ));
        }
        if config.int("channel_sweep", 0, 0).is_err() {
            return Err(config.unsupported(
                "channel_sweep",
                "flitsim costs one flit width per run",
                "remove the key and run once per width (`--set flit_width=N`)",
            ));
        }
        let flit_width = if config.is_set("channel_width") {
            let max = i64::from(flitsim_netlist::format::MAX_FLIT_WIDTH);
            let w = config.int("channel_width", 1, max)?;
            lines.push(config.line("channel_width", format!("flit_width = {w}"), None));
            Some(w)
        } else {
            None
        };
        let mut run_flags = Vec::new();
        let (tech, _) = config.get("tech_file");
        let mut wire_mm = flitsim_cost::Tech::builtin(flitsim_cost::DEFAULT_TECH)
            .map_or(2.0, |t| t.wire_mm_per_cycle);
        if config.is_set("tech_file") && !tech.is_empty() {
            match flitsim_cost::Tech::load(&tech) {
                Ok(t) => wire_mm = t.wire_mm_per_cycle,
                Err(e) => {
                    let help = "give a readable BookSim or flitsim technology file";
                    return Err(config.bad("tech_file", &e.to_string(), help));
                }
            }
            run_flags.extend(["--tech".to_string(), tech.clone()]);
            lines.push(config.line("tech_file", format!("--tech {tech}"), None));
        }
        if power == 1 {
            run_flags.extend(["--cost-model".to_string(), "booksim".to_string()]);
            lines.push(config.line(
                "sim_power",
                "--cost-model booksim",
                Some("BookSim's reading of the model; drop the flag for the corrected one".into()),
            ));
        }
        Ok(PowerKeys {
            flit_width,
            wire_mm,
            run_flags,
        })
    }

    /// The top-level netlist lines: the flit width, and the channels' wire lengths as
    /// BookSim derives them from its own latencies (`latency` cycles per network channel,
    /// one per terminal channel), which the import's timing lengthens by an input stage.
    pub fn write_top(&self, out: &mut String, latency: u32) {
        if let Some(w) = self.flit_width {
            let _ = writeln!(out, "flit_width = {w}");
        }
        let _ = writeln!(
            out,
            "channel_length_mm = {:?}",
            f64::from(latency) * self.wire_mm
        );
        let _ = writeln!(out, "terminal_channel_length_mm = {:?}", self.wire_mm);
    }
}
