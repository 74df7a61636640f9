use clap::error::{ContextKind, ContextValue};
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use flitsim::cli::args::RunArgs;
use flitsim::cli::experiment;
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
}

fn main() -> ExitCode {
    let argv: Vec<OsString> = std::env::args_os().collect();
    let mut cli = Cli::parse_from(&argv);
    match with_experiment(&argv, &mut cli) {
        Ok(Some(c)) => cli = c,
        Ok(None) => {}
        Err(code) => return code,
    }
    let result = match cli.command {
        Command::Model(args) => flitsim::cli::model::run(&args),
        Command::Run(args) => flitsim::cli::run::run(&args),
        Command::Netlist(args) => flitsim::cli::netlist::run(&args),
        Command::Trace(args) => flitsim::cli::trace::run(&args),
        Command::Check(args) => flitsim::cli::check::run(&args),
        Command::Reproduce(args) => flitsim::cli::reproduce::run(&args),
        Command::Sweep(args) => flitsim::cli::sweep::run(&args),
        Command::Buffers(args) => flitsim::cli::buffers::run(&args),
    };
    match result {
        Ok(code) => code,
        // The reader of stdout has gone (`| head`): it has what it wanted.
        Err(e) if flitsim::cli::is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

/// The subcommand's name and run flags, for the subcommands an experiment file can drive.
fn run_args(cli: &mut Cli) -> Option<(&'static str, &mut RunArgs)> {
    match &mut cli.command {
        Command::Run(a) => Some(("run", a)),
        Command::Sweep(a) => Some(("sweep", &mut a.run)),
        Command::Trace(a) => Some(("trace", &mut a.run)),
        Command::Buffers(a) => Some(("buffers", &mut a.run)),
        Command::Check(a) => Some(("check", &mut a.run)),
        _ => None,
    }
}

/// When the netlist argument is an experiment file, parses the command line again with the
/// file's flags in front of the command line's own (which override them); `Err` is the
/// exit status after the error was printed.
fn with_experiment(argv: &[OsString], cli: &mut Cli) -> Result<Option<Cli>, ExitCode> {
    let Some((name, args)) = run_args(cli) else {
        return Ok(None);
    };
    let path = args.netlist.clone();
    let root = Cli::command();
    let exp = match experiment::read(&path, &experiment::known_keys(&root)) {
        Ok(Some(exp)) => exp,
        Ok(None) => return Ok(None),
        Err(e) => {
            eprintln!("{e:#}");
            return Err(ExitCode::FAILURE);
        }
    };
    let root = root.mut_subcommand(name, |c| c.args_override_self(true));
    let sub = root
        .find_subcommand(name)
        .expect("the subcommand was just parsed");
    let mut args: Vec<OsString> = vec![argv[0].clone(), name.into(), exp.netlist.clone().into()];
    args.extend(exp.flags(sub));
    let own = argv.iter().skip(2);
    let at = own.clone().position(|a| PathBuf::from(a) == path);
    args.extend(
        own.enumerate()
            .filter(|(i, _)| Some(*i) != at)
            .map(|(_, a)| a.clone()),
    );
    let mut parsed = root
        .try_get_matches_from(args)
        .and_then(|m| Cli::from_arg_matches(&m))
        .map_err(|e| refused(&exp, &e))?;
    if let Some((_, a)) = run_args(&mut parsed) {
        a.experiment = Some(path);
    }
    Ok(Some(parsed))
}

/// Prints clap's refusal of a flag, preceded by the experiment key it came from.
fn refused(exp: &experiment::Experiment, e: &clap::Error) -> ExitCode {
    if let Some(ContextValue::String(arg)) = e.get(ContextKind::InvalidArg) {
        let long = arg.trim_start_matches('-');
        let long = long.split([' ', '=']).next().unwrap_or(long);
        if let Some(at) = exp.key_location(long) {
            eprintln!(
                "{at}: error[bad-value]: `{}` in [experiment] is refused:",
                long.replace('-', "_")
            );
        }
    }
    let _ = e.print();
    ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2))
}
