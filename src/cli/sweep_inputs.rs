//! The inputs of `flitsim sweep` when some of its NETLIST arguments are experiment files:
//! each argument is parsed on its own, the file's flags then the command line's (which
//! override them), so an experiment file's settings apply to its own curves only.
//!
//! The sweep's outputs and search settings (`--csv`, `--plot`, `--json`, `--probes`,
//! `--probe-cycles`, `--threads`, the plot's axes) come from the first experiment file
//! among the arguments, overridden by the command line.

use super::experiment::{self, Experiment};
use super::sweep::SweepArgs;
use clap::error::{ContextKind, ContextValue};
use clap::{ArgMatches, FromArgMatches};
use std::ffi::OsString;
use std::path::PathBuf;
use std::process::ExitCode;

/// The indices in `argv` (from 2: after the program and the subcommand) of the
/// positional arguments of subcommand `sub`: the arguments that are neither a flag nor
/// the value of the flag before them.
pub fn positionals(sub: &clap::Command, argv: &[OsString]) -> Vec<usize> {
    let mut out = Vec::new();
    let mut value_next = false;
    for (i, a) in argv.iter().enumerate().skip(2) {
        let s = a.to_string_lossy();
        if value_next {
            value_next = false;
            continue;
        }
        if s == "--" {
            out.extend(2.max(i + 1)..argv.len());
            break;
        }
        if let Some(long) = s.strip_prefix("--") {
            value_next = !long.contains('=')
                && sub
                    .get_arguments()
                    .find(|x| x.get_long() == Some(long))
                    .is_some_and(|x| x.get_action().takes_values());
        } else if let Some(short) = s.strip_prefix('-').filter(|r| !r.is_empty()) {
            value_next = short.chars().count() == 1
                && sub
                    .get_arguments()
                    .find(|x| x.get_short() == short.chars().next())
                    .is_some_and(|x| x.get_action().takes_values());
        } else {
            out.push(i);
        }
    }
    out
}

/// Parses a `sweep` command line one NETLIST argument at a time when at least one is an
/// experiment file: `Ok(None)` when none is (the command line is parsed as usual), else
/// the matches of the whole command (the first experiment file's flags, then the command
/// line) and one [`SweepArgs`] per argument. `Err` is the exit status after the error
/// was printed.
pub fn parse(root: clap::Command, argv: &[OsString]) -> Result<Option<ParsedSweep>, ExitCode> {
    let known = experiment::known_keys(&root);
    let root = root.mut_subcommand("sweep", |c| c.args_override_self(true));
    let sub = root
        .find_subcommand("sweep")
        .expect("sweep is a subcommand")
        .clone();
    let at = positionals(&sub, argv);
    let mut files = Vec::new();
    for &i in &at {
        match experiment::read(&PathBuf::from(&argv[i]), &known) {
            Ok(e) => files.push(e),
            Err(e) => {
                eprintln!("{e:#}");
                return Err(ExitCode::FAILURE);
            }
        }
    }
    let Some(first) = files.iter().position(Option::is_some) else {
        return Ok(None);
    };
    let rest: Vec<OsString> = argv
        .iter()
        .enumerate()
        .skip(2)
        .filter(|(i, _)| !at.contains(i))
        .map(|(_, a)| a.clone())
        .collect();
    let one = |i: usize| -> Result<ArgMatches, ExitCode> {
        let mut args: Vec<OsString> = vec![argv[0].clone(), "sweep".into()];
        match &files[i] {
            Some(exp) => {
                args.push(exp.netlist.clone().into());
                args.extend(super::experiment::flags(exp, &sub));
            }
            None => args.push(argv[at[i]].clone()),
        }
        args.extend(rest.iter().cloned());
        root.clone()
            .try_get_matches_from(args)
            .map_err(|e| refused(files[i].as_ref(), &e))
    };
    let mut inputs = Vec::new();
    let mut whole = None;
    for i in 0..at.len() {
        let m = one(i)?;
        let (_, sm) = m.subcommand().expect("the sweep subcommand matched");
        let mut a = SweepArgs::from_arg_matches(sm).map_err(|e| {
            let _ = e.print();
            ExitCode::from(2)
        })?;
        a.run.experiment = files[i].as_ref().map(|e| e.path.clone());
        a.designs = files[i].as_ref().map_or(Vec::new(), |e| e.designs.clone());
        a.source = Some(match &files[i] {
            Some(e) => e.path.clone(),
            None => PathBuf::from(&argv[at[i]]),
        });
        inputs.push(a);
        if i == first {
            whole = Some(m);
        }
    }
    Ok(Some(ParsedSweep {
        matches: whole.expect("the first experiment file was parsed"),
        inputs,
    }))
}

/// A `sweep` command line parsed one NETLIST argument at a time.
pub struct ParsedSweep {
    /// The whole command: the first experiment file's flags, then the command line.
    pub matches: ArgMatches,
    /// One per NETLIST argument, in order.
    pub inputs: Vec<SweepArgs>,
}

/// Prints clap's refusal of a flag, preceded by the experiment key it came from; returns
/// the exit status.
pub fn refused(exp: Option<&Experiment>, e: &clap::Error) -> ExitCode {
    if let (Some(exp), Some(ContextValue::String(arg))) = (exp, e.get(ContextKind::InvalidArg)) {
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
