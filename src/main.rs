use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use flitsim::cli::args::RunArgs;
use flitsim::cli::{experiment, sweep_inputs};
use std::ffi::OsString;
use std::path::PathBuf;
use std::process::ExitCode;

/// flitsim: cycle-accurate, flit-level simulator of interconnection-network routers.
#[derive(Parser)]
#[command(name = "flitsim", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Print the predictions of an analytical model (`flitsim model markov --lambda 0.02 --service 40 --vcs 3`).
    Model(flitsim::cli::model::ModelArgs),
    /// Simulate a netlist under traffic and report latency, throughput and Little's law
    /// (`flitsim run netlists/torus-8x8.toml --rate 0.005 --length 12 --json`).
    Run(flitsim::cli::args::RunArgs),
    /// Check, expand or draw a netlist (`flitsim netlist check netlists/torus-8x8.toml --json`).
    Netlist(flitsim::cli::netlist::NetlistArgs),
    /// Print what every router and terminal did, cycle by cycle; optionally a VCD for GTKWave
    /// (`flitsim trace netlists/ring-8.toml --rate 0 --inject 0:0:2:4`).
    Trace(flitsim::cli::trace::TraceArgs),
    /// Simulate, then compare each channel's VC occupancy with Dally's Markov chain and the
    /// latency with the matching paper model (`flitsim check netlists/torus-8x8.toml --rate 0.005 --length 12`).
    Check(flitsim::cli::check::CheckArgs),
    /// Re-run a paper's validation experiment: simulation, model and the paper's numbers
    /// side by side (`flitsim reproduce 000 --quick`).
    Reproduce(flitsim::cli::reproduce::ReproduceArgs),
    /// Latency-throughput curves over offered loads, with confidence intervals and plots
    /// (`flitsim sweep netlists/torus-8x8.toml --length 12 --rates auto --plot curve.svg`).
    Sweep(flitsim::cli::sweep::SweepArgs),
    /// Buffer occupancy per router and port, and the smallest depth per VC that keeps
    /// 99% of the unbounded-buffer throughput (`flitsim buffers netlists/torus-8x8.toml --rate 0.014 --length 12`).
    Buffers(flitsim::cli::buffers::BuffersArgs),
    /// Translate another simulator's config into a flitsim netlist and run command, printing
    /// the mapping (`flitsim import booksim torus88.cfg injection_rate=0.2 --run`).
    Import(flitsim::cli::import::ImportArgs),
}

fn main() -> ExitCode {
    // Under `mpirun`, every rank runs the same command; only rank 0 prints.
    #[cfg(feature = "mpi")]
    let _membership = flitsim::studies::cluster::start();
    let argv: Vec<OsString> = std::env::args_os().collect();
    let cli = match with_experiment(&argv) {
        Ok(Some(cli)) => cli,
        Ok(None) => {
            let m = Cli::command().get_matches_from(&argv);
            let mut cli = Cli::from_arg_matches(&m).unwrap_or_else(|e| e.exit());
            mark_rate(&mut cli, &m);
            cli
        }
        Err(code) => return code,
    };
    let result = match cli.command {
        Command::Model(args) => flitsim::cli::model::run(&args),
        Command::Run(args) => flitsim::cli::run::run(&args),
        Command::Netlist(args) => flitsim::cli::netlist::run(&args),
        Command::Trace(args) => flitsim::cli::trace::run(&args),
        Command::Check(args) => flitsim::cli::check::run(&args),
        Command::Reproduce(args) => flitsim::cli::reproduce::run(&args),
        Command::Sweep(args) => flitsim::cli::sweep::run(&args),
        Command::Buffers(args) if args.rate_given => flitsim::cli::buffers::run(&args),
        Command::Buffers(args) => flitsim::cli::buffers_sizing::run(&args),
        Command::Import(args) => flitsim::cli::import::run(&args),
    };
    match result {
        Ok(code) => code,
        // The reader of stdout has gone (`| head`): it has what it wanted.
        Err(e) if flitsim::cli::is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{}", flitsim::cli::failure::render(&e));
            ExitCode::FAILURE
        }
    }
}

/// The run flags of the subcommands an experiment file can drive.
fn run_args(cli: &mut Cli) -> Option<&mut RunArgs> {
    match &mut cli.command {
        Command::Run(a) => Some(a),
        Command::Sweep(a) => Some(&mut a.run),
        Command::Trace(a) => Some(&mut a.run),
        Command::Buffers(a) => Some(&mut a.run),
        Command::Check(a) => Some(&mut a.run),
        _ => None,
    }
}

/// When the first file argument of a simulating subcommand is an experiment file, parses
/// the command line with the file's flags in front of the command line's own (which
/// override them); `Err` is the exit status after the error was printed.
fn with_experiment(argv: &[OsString]) -> Result<Option<Cli>, ExitCode> {
    let Some(name) = argv.get(1).and_then(|a| a.to_str()) else {
        return Ok(None);
    };
    if !experiment::COMMANDS.contains(&name) {
        return Ok(None);
    }
    let root = Cli::command();
    if name == "sweep" {
        return sweep_with_experiments(root, argv);
    }
    let known = experiment::known_keys(&root);
    let mut found = None;
    for (i, a) in argv.iter().enumerate().skip(2) {
        if a.to_str().is_some_and(|s| s.starts_with('-')) {
            continue;
        }
        match experiment::read(&PathBuf::from(a), &known) {
            Ok(Some(exp)) => {
                found = Some((i, exp));
                break;
            }
            Ok(None) => {}
            Err(e) => {
                eprintln!("{e:#}");
                return Err(ExitCode::FAILURE);
            }
        }
    }
    let Some((at, exp)) = found else {
        return Ok(None);
    };
    if let Err(e) = exp.designs_refused(name) {
        eprintln!("{e:#}");
        return Err(ExitCode::FAILURE);
    }
    let root = root.mut_subcommand(name, |c| c.args_override_self(true));
    let sub = root
        .find_subcommand(name)
        .expect("the subcommand is one of the CLI's");
    let mut args: Vec<OsString> = vec![argv[0].clone(), name.into(), exp.netlist.clone().into()];
    args.extend(experiment::flags(&exp, sub));
    args.extend(
        argv.iter()
            .enumerate()
            .skip(2)
            .filter(|(i, _)| *i != at)
            .map(|(_, a)| a.clone()),
    );
    let m = root
        .try_get_matches_from(args)
        .map_err(|e| sweep_inputs::refused(Some(&exp), &e))?;
    let mut cli = Cli::from_arg_matches(&m).map_err(|e| sweep_inputs::refused(Some(&exp), &e))?;
    mark_rate(&mut cli, &m);
    if let Some(a) = run_args(&mut cli) {
        a.experiment = Some(exp.path.clone());
    }
    Ok(Some(cli))
}

/// Tells `buffers` whether `--rate` was given (on the command line or in an experiment
/// file): it sizes for that load, else over a load range.
fn mark_rate(cli: &mut Cli, m: &clap::ArgMatches) {
    if let (Command::Buffers(a), Some(("buffers", sub))) = (&mut cli.command, m.subcommand()) {
        a.rate_given = sub.value_source("rate") == Some(clap::parser::ValueSource::CommandLine);
    }
}

/// `sweep` with experiment files among its NETLIST arguments: each keeps its own flags
/// (see `flitsim::cli::sweep_inputs`).
fn sweep_with_experiments(root: clap::Command, argv: &[OsString]) -> Result<Option<Cli>, ExitCode> {
    let Some(parsed) = sweep_inputs::parse(root, argv)? else {
        return Ok(None);
    };
    let mut cli = Cli::from_arg_matches(&parsed.matches).map_err(|e| {
        let _ = e.print();
        ExitCode::from(2)
    })?;
    if let Command::Sweep(a) = &mut cli.command {
        a.run.experiment = parsed.inputs.iter().find_map(|i| i.run.experiment.clone());
        a.inputs = parsed.inputs;
    }
    Ok(Some(cli))
}
