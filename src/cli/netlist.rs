//! `flitsim netlist (check|expand|dot) FILE`: validate a netlist and summarise it, print
//! its explicit form, or draw it.
//!
//! Errors go to stderr as rendered diagnostics (`file:line:col: error[code]: ...` and a
//! `help:` line each) and the exit status is 1; output goes to stdout.

use clap::{Args, Subcommand};
use flitsim_netlist::{Diagnostics, Netlist};
use flitsim_routing::RoutingRegistry;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

/// `flitsim netlist ...`
#[derive(Args, Debug)]
pub struct NetlistArgs {
    /// What to do with the netlist.
    #[command(subcommand)]
    pub command: NetlistCommand,
}

/// The netlist tools.
#[derive(Subcommand, Debug)]
pub enum NetlistCommand {
    /// Validate a netlist (structure and routing fit) and print a summary: routers,
    /// terminals, channels (router-to-router, unidirectional), diameter, average distance.
    Check {
        /// The netlist file (TOML).
        file: PathBuf,
        /// Print the summary as one JSON object.
        #[arg(long)]
        json: bool,
        /// Check this routing function instead of the netlist's (`dor`, ...).
        #[arg(long)]
        routing: Option<String>,
        /// Override a router or channel parameter before checking (repeatable).
        #[arg(long = "set", value_name = "KEY=VALUE")]
        set: Vec<String>,
    },
    /// Print the netlist in the explicit TOML form (every router and channel, with the
    /// parameters in force); loading the output gives the same netlist.
    Expand {
        /// The netlist file (TOML).
        file: PathBuf,
        /// Override a router or channel parameter first (repeatable).
        #[arg(long = "set", value_name = "KEY=VALUE")]
        set: Vec<String>,
    },
    /// Print the netlist as a Graphviz digraph (`flitsim netlist dot f.toml | neato -n -Tsvg`).
    Dot {
        /// The netlist file (TOML).
        file: PathBuf,
    },
}

/// Loads `file` and applies `--routing` and `--set` overrides.
fn load(
    file: &std::path::Path,
    routing: Option<&str>,
    set: &[String],
) -> Result<Netlist, Diagnostics> {
    let mut n = flitsim_netlist::load(file)?;
    let mut pairs: Vec<(&str, &str)> = routing.map(|r| ("routing", r)).into_iter().collect();
    for pair in set {
        pairs.push(flitsim_netlist::split_setting(pair)?);
    }
    n.set_all(pairs)?;
    Ok(n)
}

/// The summary `check` prints.
#[derive(serde::Serialize)]
struct Summary {
    name: String,
    path: String,
    topology: String,
    routers: usize,
    terminals: usize,
    channels: usize,
    diameter: u32,
    average_distance: f64,
    deadlock_check: String,
}

/// Runs a `flitsim netlist` subcommand.
pub fn run(args: &NetlistArgs) -> anyhow::Result<ExitCode> {
    let result = match &args.command {
        NetlistCommand::Check {
            file,
            json,
            routing,
            set,
        } => load(file, routing.as_deref(), set).and_then(|n| {
            flitsim_netlist::validate::check_routing(&n, &RoutingRegistry)?;
            if let Some(w) = flitsim_routing::deadlock_warning(&n) {
                eprintln!("warning: {w}");
            }
            let deadlock_check = flitsim_routing::deadlock_check_method(&n);
            if deadlock_check.starts_with("not run") {
                eprintln!("warning: the static deadlock check was {deadlock_check}");
            }
            let (diameter, average_distance, exact) = n.distance_summary();
            if !exact {
                eprintln!(
                    "warning: diameter and average_distance are estimated from shortest paths out of {} of the {} routers (an explicit netlist above {} routers)",
                    flitsim_netlist::metrics::SAMPLED_SOURCES,
                    n.num_routers(),
                    flitsim_netlist::metrics::EXACT_ROUTERS
                );
            }
            let s = Summary {
                name: n.name.clone(),
                path: file.display().to_string(),
                topology: n.topology.to_string(),
                routers: n.num_routers(),
                terminals: n.num_terminals(),
                channels: n.num_channels(),
                diameter,
                average_distance,
                deadlock_check,
            };
            let mut text = String::new();
            if *json {
                text = format!("{}\n", serde_json::to_string(&s).expect("summary serialises"));
            } else {
                let _ = writeln!(text, "{}: ok", s.path);
                let _ = writeln!(text, "  name              {}", s.name);
                let _ = writeln!(text, "  topology          {}", s.topology);
                let _ = writeln!(text, "  routers           {}", s.routers);
                let _ = writeln!(text, "  terminals         {}", s.terminals);
                let _ = writeln!(text, "  channels          {} (router-to-router, unidirectional)", s.channels);
                let _ = writeln!(text, "  diameter          {} hops", s.diameter);
                let _ = writeln!(text, "  average_distance  {:.4} hops", s.average_distance);
                let _ = writeln!(text, "  deadlock_check    {}", s.deadlock_check);
            }
            Ok(text)
        }),
        NetlistCommand::Expand { file, set } => load(file, None, set).map(|n| flitsim_netlist::expand(&n)),
        NetlistCommand::Dot { file } => load(file, None, &[]).map(|n| flitsim_netlist::dot(&n)),
    };
    match result {
        Ok(text) => {
            crate::cli::out!("{text}")?;
            Ok(ExitCode::SUCCESS)
        }
        Err(d) => {
            eprintln!("{d}");
            let n = d.len();
            eprintln!("{n} error{}", if n == 1 { "" } else { "s" });
            Ok(ExitCode::FAILURE)
        }
    }
}
