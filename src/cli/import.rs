//! `flitsim import booksim FILE.cfg [KEY=VALUE]... [--out NETLIST.toml] [--run [-- FLAGS]]`:
//! translate a BookSim 2 config into a flitsim netlist and `flitsim run` command line, print
//! the mapping, and optionally run it.

use super::args::RunArgs;
use crate::booksim;
use anyhow::{anyhow, Context};
use clap::{Args, Parser, Subcommand};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// `flitsim import ...`
#[derive(Args, Debug)]
pub struct ImportArgs {
    /// Which simulator's config to import.
    #[command(subcommand)]
    pub command: ImportCommand,
}

/// The importers.
#[derive(Subcommand, Debug)]
pub enum ImportCommand {
    /// A BookSim 2 config file (`key = value;`), with BookSim's command-line overrides.
    Booksim(BooksimArgs),
}

/// `flitsim import booksim` flags.
#[derive(Args, Debug)]
pub struct BooksimArgs {
    /// The BookSim config file.
    pub config: PathBuf,
    /// BookSim overrides `key=value`, applied after the file (as on BookSim's command line).
    #[arg(value_name = "KEY=VALUE")]
    pub overrides: Vec<String>,
    /// Where to write the flitsim netlist (default: the config's name with `.toml`).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Run the imported experiment after writing it (the mapping then goes to stderr).
    #[arg(long)]
    pub run: bool,
    /// More `flitsim run` flags for `--run` (after `--`, e.g. `-- --json --channel-stats`).
    #[arg(last = true, value_name = "RUN FLAGS")]
    pub run_flags: Vec<String>,
}

/// `flitsim run`'s flags, parsed from the imported command line.
#[derive(Parser)]
#[command(name = "flitsim run")]
struct RunLine {
    #[command(flatten)]
    run: RunArgs,
}

/// Runs `flitsim import`.
///
/// # Errors
/// The config cannot be imported, or the netlist cannot be written or loaded.
pub fn run(args: &ImportArgs) -> anyhow::Result<ExitCode> {
    let ImportCommand::Booksim(args) = &args.command;
    let import = booksim::import_file(&args.config, &args.overrides)?;
    let out = netlist_path(args)?;
    flitsim_netlist::parse_str(&import.netlist, &out).map_err(|d| anyhow!("{d}"))?;
    crate::studies::whole_file::write_whole(&out, import.netlist.as_bytes()).with_context(
        || {
            format!(
            "--out {}: cannot write the netlist\nhelp: give a file in a directory you can write",
            out.display()
        )
        },
    )?;
    let mut words = vec![
        "flitsim".to_string(),
        "run".to_string(),
        out.display().to_string(),
    ];
    words.extend(
        import
            .run_flags
            .iter()
            .flat_map(|f| f.split(' ').map(String::from)),
    );
    let report = format!(
        "{}netlist written to {}\nequivalent run:\n  {}\n",
        booksim::render(&import.lines),
        out.display(),
        words.join(" ")
    );
    if !args.run {
        print!("{report}");
        return Ok(ExitCode::SUCCESS);
    }
    eprint!("{report}");
    words.extend(args.run_flags.iter().cloned());
    let line = RunLine::try_parse_from(&words[1..]).map_err(|e| anyhow!("{e}"))?;
    super::run::run(&line.run)
}

/// `--out`, or the config's path with the extension `.toml` (never the config itself).
fn netlist_path(args: &BooksimArgs) -> anyhow::Result<PathBuf> {
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| args.config.with_extension("toml"));
    if same_file(&out, &args.config) {
        anyhow::bail!(
            "--out {}: this is the BookSim config itself\nhelp: give another file name with --out",
            out.display()
        );
    }
    Ok(out)
}

fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}
