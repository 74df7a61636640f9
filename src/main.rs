use clap::{Parser, Subcommand};

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

fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Model(args) => flitsim::cli::model::run(&args),
        Command::Run(args) => flitsim::cli::run::run(&args),
        Command::Netlist(args) => flitsim::cli::netlist::run(&args),
        Command::Trace(args) => flitsim::cli::trace::run(&args),
        Command::Check(args) => flitsim::cli::check::run(&args),
        Command::Reproduce(args) => flitsim::cli::reproduce::run(&args),
        Command::Sweep(args) => flitsim::cli::sweep::run(&args),
        Command::Buffers(args) => flitsim::cli::buffers::run(&args),
        Command::Import(args) => flitsim::cli::import::run(&args),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
}
