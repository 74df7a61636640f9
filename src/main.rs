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
}

fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Model(args) => flitsim::cli::model::run(&args),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
}
