use clap::{Parser, Subcommand};

/// flitsim: cycle-accurate, flit-level simulator of interconnection-network routers.
#[derive(Parser)]
#[command(name = "flitsim", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {}

fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    match cli.command {}
}
