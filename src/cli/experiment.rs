//! Experiment files on the command line: the `[experiment]` table (read by
//! [`flitsim_studies::experiment_file`]) becomes the long flags of the subcommand it drives.

use clap::ArgAction;
use std::ffi::OsString;

pub use flitsim_studies::experiment_file::{load_netlist, read, Experiment, Value, COMMANDS};

/// The flags experiment file `exp` stands for, for subcommand `cmd` (keys of other subcommands are
/// left out).
pub fn flags(exp: &Experiment, cmd: &clap::Command) -> Vec<OsString> {
    let mut out = Vec::new();
    for (key, value, _) in &exp.keys {
        let long = key.replace('_', "-");
        let Some(arg) = cmd.get_arguments().find(|a| a.get_long() == Some(&long)) else {
            continue;
        };
        let repeated = matches!(arg.get_action(), ArgAction::Append);
        match value {
            Value::Switch(true) => out.push(format!("--{long}").into()),
            Value::Switch(false) => {}
            Value::Text(t) => out.push(format!("--{long}={t}").into()),
            Value::List(xs) if repeated => {
                out.extend(xs.iter().map(|x| format!("--{long}={x}").into()));
            }
            Value::List(xs) => out.push(format!("--{long}={}", xs.join(",")).into()),
        }
    }
    out
}

/// Every long flag of the simulating subcommands of `root`, with `_` for `-`, sorted.
pub fn known_keys(root: &clap::Command) -> Vec<String> {
    let mut keys: Vec<String> = root
        .get_subcommands()
        .filter(|c| COMMANDS.contains(&c.get_name()))
        .flat_map(|c| c.get_arguments().filter_map(|a| a.get_long()))
        .filter(|l| *l != "help")
        .map(|l| l.replace('-', "_"))
        .collect();
    keys.sort();
    keys.dedup();
    keys
}
