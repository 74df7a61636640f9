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
/// are refused (each one into `errors`); keys that only change BookSim's printing are
/// listed with a note.
pub fn check_keys(
    config: &Config,
    settings: &Settings,
    errors: &mut Vec<ImportError>,
) -> Vec<Line> {
    let mut lines = Vec::new();
    for (name, setting) in settings {
        let Some(key) = keys::find(name) else {
            let help = match keys::nearest(name) {
                Some(near) => format!("did you mean `{near}`? (BookSim refuses unknown keys too)"),
                None => "BookSim's keys are those of its src/booksim_config.cpp".into(),
            };
            errors.push(ImportError::UnknownKey {
                origin: setting.origin.clone(),
                key: name.clone(),
                help,
            });
            continue;
        };
        match key.used {
            Use::Mapped => {}
            Use::Output => lines.push(config.line(
                name,
                "",
                Some("ignored: it changes BookSim's output or run loop, not the network".into()),
            )),
            Use::DefaultOnly if same_value(&setting.value, key.default) => {
                lines.push(config.line(name, "", Some("BookSim's default: nothing to map".into())));
            }
            Use::DefaultOnly => errors.push(config.unsupported(
                name,
                "flitsim has no equivalent of this feature",
                &format!(
                    "remove the key or set it to BookSim's default `{}`",
                    key.default
                ),
            )),
        }
    }
    lines
}

/// The value of `result`, or `None` with its error kept in `errors`.
fn keep<T>(result: Result<T, ImportError>, errors: &mut Vec<ImportError>) -> Option<T> {
    result.map_err(|e| errors.push(e)).ok()
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
/// Every unknown key, malformed value and setting flitsim cannot honour, in one error
/// (at most one per group of keys past the first refusal in that group).
pub fn import(settings: &Settings) -> Result<Import, ImportError> {
    let config = Config::new(settings);
    let mut errors = Vec::new();
    let mut lines = check_keys(&config, settings, &mut errors);
    let shape = keep(Shape::from_config(&config, &mut lines), &mut errors);
    let router = shape.as_ref().and_then(|shape| {
        keep(
            super::router::RouterKeys::from_config(&config, shape, &mut lines),
            &mut errors,
        )
    });
    let timing = shape
        .as_ref()
        .and_then(|shape| keep(Timing::from_config(&config, shape, &mut lines), &mut errors));
    let run_flags = keep(super::traffic::run_flags(&config, &mut lines), &mut errors);
    let power = keep(
        super::power::PowerKeys::from_config(&config, &mut lines),
        &mut errors,
    );
    // A group without a value left its error, so `errors` is empty only when all are there.
    let (true, Some(shape), Some(router), Some(timing), Some(mut run_flags), Some(power)) =
        (errors.is_empty(), shape, router, timing, run_flags, power)
    else {
        return Err(ImportError::from_all(errors).unwrap_or(ImportError::Several(Vec::new())));
    };
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
    shape.write_routers(&mut netlist);
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
