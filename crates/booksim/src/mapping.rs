//! BookSim settings -> a flitsim netlist (TOML) and `flitsim run` flags, with one printed
//! line per BookSim key that was set or that changes the result.

use super::config::Config;
use super::error::ImportError;
use super::keys::{self, Use};
use super::line::Line;
use super::parse::Settings;
use super::timing::Timing;
use super::topology::Shape;
use std::fmt::Write as _;

/// A translated config.
#[derive(Clone, Debug, PartialEq)]
pub struct Import {
    /// The flitsim netlist, TOML generator form.
    pub netlist: String,
    /// The `flitsim run NETLIST` flags that carry the traffic and measurement.
    pub run_flags: Vec<String>,
    /// The mapping, key by key.
    pub lines: Vec<Line>,
}

/// Checks every set key: unknown keys and non-default values of features flitsim lacks
/// are refused; keys that only change BookSim's printing are listed with a note.
///
/// # Errors
/// The first unknown or unsupported key.
pub fn check_keys(config: &Config, settings: &Settings) -> Result<Vec<Line>, ImportError> {
    let mut lines = Vec::new();
    for (name, setting) in settings {
        let Some(key) = keys::find(name) else {
            let help = match keys::nearest(name) {
                Some(near) => format!("did you mean `{near}`? (BookSim refuses unknown keys too)"),
                None => "BookSim's keys are those of its src/booksim_config.cpp".into(),
            };
            return Err(ImportError::UnknownKey {
                origin: setting.origin.clone(),
                key: name.clone(),
                help,
            });
        };
        match key.used {
            Use::Mapped => {}
            Use::Output => lines.push(config.line(
                name,
                "",
                Some("ignored: it changes BookSim's output or run loop, not the network".into()),
            )),
            Use::DefaultOnly => {
                if !same_value(&setting.value, key.default) {
                    return Err(config.unsupported(
                        name,
                        "flitsim has no equivalent of this feature",
                        &format!(
                            "remove the key or set it to BookSim's default `{}`",
                            key.default
                        ),
                    ));
                }
                lines.push(config.line(name, "", Some("BookSim's default: nothing to map".into())));
            }
        }
    }
    Ok(lines)
}

/// Equal as numbers when both are numbers, else as text.
fn same_value(a: &str, b: &str) -> bool {
    match (a.parse::<f64>(), b.parse::<f64>()) {
        (Ok(x), Ok(y)) => x == y,
        _ => a == b,
    }
}

/// Translates `settings` (file plus overrides).
///
/// # Errors
/// An unknown key, a malformed value, or a setting flitsim cannot honour.
pub fn import(settings: &Settings) -> Result<Import, ImportError> {
    let config = Config::new(settings);
    let mut lines = check_keys(&config, settings)?;
    let shape = Shape::from_config(&config, &mut lines)?;
    let router = super::router::RouterKeys::from_config(&config, &shape, &mut lines)?;
    let timing = Timing::from_config(&config, &shape, &mut lines)?;
    let mut run_flags = super::traffic::run_flags(&config, &mut lines)?;
    let power = super::power::PowerKeys::from_config(&config, &mut lines)?;
    run_flags.extend(power.run_flags.iter().cloned());
    let mut netlist = String::new();
    let _ = writeln!(
        netlist,
        "# Imported from a BookSim 2 config by `flitsim import booksim`."
    );
    let _ = writeln!(netlist, "name = \"booksim-{}\"", shape.name());
    timing.write_top(&mut netlist);
    power.write_top(&mut netlist, timing.channel_latency - 1);
    shape.write_topology(&mut netlist);
    let _ = writeln!(netlist, "\n[defaults]");
    router.write_defaults(&mut netlist);
    timing.write_defaults(&mut netlist);
    lines.sort_by_key(|l| order(&l.key));
    Ok(Import {
        netlist,
        run_flags,
        lines,
    })
}

/// Lines in the order of BookSim's key table.
fn order(key: &str) -> usize {
    keys::KEYS
        .iter()
        .position(|k| k.name == key)
        .unwrap_or(usize::MAX)
}

/// The mapping as printed: one line per key, `key = value (origin) -> flitsim  [note]`.
#[must_use]
pub fn render(lines: &[Line]) -> String {
    let mut out = String::from("BookSim key = value (where) -> flitsim setting\n");
    for l in lines {
        let target = if l.flitsim.is_empty() {
            "-"
        } else {
            &l.flitsim
        };
        let _ = write!(out, "  {} = {} ({}) -> {target}", l.key, l.value, l.origin);
        if let Some(note) = &l.note {
            let _ = write!(out, "\n      note: {note}");
        }
        out.push('\n');
    }
    out
}
