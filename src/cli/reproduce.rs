//! `flitsim reproduce 000|001|002|003|004 [--quick] [--out DIR] [--threads T]`: re-runs a
//! paper's validation experiment with flitsim's simulator and model side by side (see
//! `crate::reproduce`), prints the tables, and writes `table.txt`, `results.json` and the
//! SVG charts to `--out` (default `out/reproduce-<paper>/`).

use crate::reproduce::{compute, paper_id, Budget};
use crate::studies::whole_file::write_whole;
use anyhow::{anyhow, Context};
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// `flitsim reproduce` flags.
#[derive(Args, Debug, Clone)]
pub struct ReproduceArgs {
    /// Paper number: 000, 001, 002, 003 or 004 (see docs/validation.md).
    pub paper: String,

    /// Few cycles per point (seconds; for tests): the numbers are noisy.
    #[arg(long)]
    pub quick: bool,

    /// Output directory (default `out/reproduce-<paper>/`, created if missing).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,

    /// Simulations run at the same time (default: the available cores).
    #[arg(long, value_name = "T", value_parser = clap::value_parser!(u32).range(1..))]
    pub threads: Option<u32>,

    /// Run seed.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,

    /// Print `results.json` on stdout instead of the tables.
    #[arg(long)]
    pub json: bool,

    /// No progress display on stderr (there is none when stderr is not a terminal).
    #[arg(long, short)]
    pub quiet: bool,
}

/// Runs `flitsim reproduce`.
///
/// # Errors
/// An unknown paper or an unwritable output directory (both found before anything is
/// simulated).
pub fn run(args: &ReproduceArgs) -> anyhow::Result<ExitCode> {
    let threads = args.threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get),
        |n| n as usize,
    );
    let budget = Budget {
        quick: args.quick,
        threads,
        seed: args.seed,
    };
    let id = paper_id(&args.paper)?;
    let dir = args
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("out/reproduce-{id}")));
    // Only rank 0 of an MPI job writes files (every rank computes the same ones).
    let writes = crate::cluster::is_root();
    if writes {
        std::fs::create_dir_all(&dir).map_err(|e| {
        anyhow!(
            "--out {}: cannot create the output directory: {e}\nhelp: give --out a directory you can write (it is created if missing)",
            dir.display()
        )
    })?;
    }
    let start = Instant::now();
    let bar = super::progress::spinner(args.quiet, &format!("reproducing paper {id}"));
    let (paper, out) = compute(&args.paper, &budget)?;
    bar.finish_and_clear();
    let mut text = format!(
        "flitsim reproduce {paper}{}\n\n",
        if args.quick { " --quick" } else { "" }
    );
    for t in &out.tables {
        text.push_str(&t.render());
        text.push('\n');
    }
    for n in &out.notes {
        text.push_str(&format!("note: {n}\n"));
    }
    if writes {
        write_whole(&dir.join("table.txt"), text.as_bytes())
            .with_context(|| format!("writing {}", dir.join("table.txt").display()))?;
        let json = serde_json::to_string_pretty(&out.json)?;
        write_whole(&dir.join("results.json"), json.as_bytes())
            .with_context(|| format!("writing {}", dir.join("results.json").display()))?;
        for (name, chart) in &out.charts {
            crate::plot::write_svg(chart, &dir.join(name))?;
        }
    }
    if args.json {
        crate::cli::outln!("{}", serde_json::to_string_pretty(&out.json)?)?;
    } else {
        crate::cli::out!("{text}")?;
        crate::cli::outln!(
            "wrote {} ({} charts) in {:.1} s",
            dir.display(),
            out.charts.len(),
            start.elapsed().as_secs_f64()
        )?;
    }
    Ok(ExitCode::SUCCESS)
}
