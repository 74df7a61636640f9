//! The cost flags of `run`, `sweep` and `buffers` (docs/power.md), parsed into the
//! technology and options `flitsim-cost` takes.

use crate::cost_model::{Mode, Options, Tech};

/// Cost options of `run`, `sweep` and `buffers`.
#[derive(clap::Args, Clone, Debug)]
pub struct CostArgs {
    /// Technology for the area, energy and power figures: a built-in name
    /// (itrs-2007-32nm, dsent-bulk45lvt) or a technology file (docs/power.md).
    #[arg(long, value_name = "T", default_value = crate::cost_model::DEFAULT_TECH)]
    pub tech: String,
    /// Clock for power and for the channels' wire design, GHz (default: the technology's
    /// 20 FO4 clock, 9.71 GHz at 32 nm).
    #[arg(long, value_name = "GHZ")]
    pub clock_ghz: Option<f64>,
    /// `booksim` evaluates the model exactly as BookSim 2 does, unit slips included
    /// (docs/power.md); `corrected` (default) fixes them.
    #[arg(long, value_name = "M", default_value = "corrected", value_parser = ["corrected", "booksim"])]
    pub cost_model: String,
    /// Adds each router's and each channel's energy and area to `--json`'s `energy`.
    #[arg(long)]
    pub cost_detail: bool,
}

impl CostArgs {
    /// The technology and the options these arguments name.
    ///
    /// # Errors
    /// An unknown technology or a bad technology file.
    pub fn resolve(&self) -> anyhow::Result<(Tech, Options)> {
        let tech = Tech::load(&self.tech)?;
        let mode = if self.cost_model == "booksim" {
            Mode::Booksim
        } else {
            Mode::Corrected
        };
        let options = Options {
            clock_ghz: self.clock_ghz,
            mode,
            detail: self.cost_detail,
        };
        Ok((tech, options))
    }
}
