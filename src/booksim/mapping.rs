//! BookSim settings -> a flitsim netlist (TOML) and `flitsim run` flags, with one printed
//! line per BookSim key that was set or that changes the result.

use super::error::{ImportError, Origin};
use super::keys::{self, Use};
use super::parse::{elements, Settings};
use super::timing::Timing;
use super::topology::Shape;
use std::fmt::Write as _;

/// One line of the printed mapping.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    /// The BookSim key.
    pub key: String,
    /// Its value in force.
    pub value: String,
    /// Where the value came from.
    pub origin: Origin,
    /// The flitsim setting it became (empty: none).
    pub flitsim: String,
    /// What differs from BookSim, if anything.
    pub note: Option<String>,
}

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

/// The settings of a config, read with BookSim's defaults.
pub struct Config<'a> {
    settings: &'a Settings,
}

impl<'a> Config<'a> {
    /// Wraps parsed settings.
    #[must_use]
    pub fn new(settings: &'a Settings) -> Self {
        Config { settings }
    }

    /// The value in force for `key` (a known key) and where it came from.
    #[must_use]
    pub fn get(&self, key: &str) -> (String, Origin) {
        match self.settings.get(key) {
            Some(s) => (s.value.clone(), s.origin.clone()),
            None => (
                keys::find(key).map_or("", |k| k.default).to_string(),
                Origin::Default,
            ),
        }
    }

    /// Was `key` written in the file or an override?
    #[must_use]
    pub fn is_set(&self, key: &str) -> bool {
        self.settings.contains_key(key)
    }

    /// `key` as an integer in `min..=max`.
    ///
    /// # Errors
    /// Not an integer, or out of range.
    pub fn int(&self, key: &str, min: i64, max: i64) -> Result<i64, ImportError> {
        let (value, origin) = self.get(key);
        match value.parse::<i64>() {
            Ok(v) if (min..=max).contains(&v) => Ok(v),
            _ => Err(ImportError::BadValue {
                origin,
                key: key.into(),
                message: format!("expected an integer from {min} to {max}"),
                help: format!("write for example `{key} = {min};`").into(),
                value,
            }),
        }
    }

    /// `key` as a finite number in `[min, max]`.
    ///
    /// # Errors
    /// Not a number, or out of range.
    pub fn float(&self, key: &str, min: f64, max: f64) -> Result<f64, ImportError> {
        let (value, origin) = self.get(key);
        float_value(key, &value, &origin, min, max)
    }

    /// An error for the value of `key` that flitsim cannot honour.
    #[must_use]
    pub fn unsupported(&self, key: &str, reason: &str, help: &str) -> ImportError {
        let (value, origin) = self.get(key);
        ImportError::Unsupported {
            origin,
            key: key.into(),
            value,
            reason: reason.into(),
            help: help.into(),
        }
    }

    /// An error for a value of `key` that BookSim itself would not accept.
    #[must_use]
    pub fn bad(&self, key: &str, message: &str, help: &str) -> ImportError {
        let (value, origin) = self.get(key);
        ImportError::BadValue {
            origin,
            key: key.into(),
            value,
            message: message.into(),
            help: help.into(),
        }
    }

    /// The mapping line of `key`, with the value in force.
    #[must_use]
    pub fn line(&self, key: &str, flitsim: impl Into<String>, note: Option<String>) -> Line {
        let (value, origin) = self.get(key);
        Line {
            key: key.into(),
            value,
            origin,
            flitsim: flitsim.into(),
            note,
        }
    }
}

/// `value` of `key` as a finite number in `[min, max]`.
pub fn float_value(
    key: &str,
    value: &str,
    origin: &Origin,
    min: f64,
    max: f64,
) -> Result<f64, ImportError> {
    match value.parse::<f64>() {
        Ok(v) if v.is_finite() && (min..=max).contains(&v) => Ok(v),
        _ => Err(ImportError::BadValue {
            origin: origin.clone(),
            key: key.into(),
            value: value.into(),
            message: format!("expected a number from {min} to {max}"),
            help: format!("write for example `{key} = {max};`").into(),
        }),
    }
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
    let run_flags = super::traffic::run_flags(&config, &mut lines)?;
    let mut netlist = String::new();
    let _ = writeln!(
        netlist,
        "# Imported from a BookSim 2 config by `flitsim import booksim`."
    );
    let _ = writeln!(netlist, "name = \"booksim-{}\"", shape.name());
    timing.write_top(&mut netlist);
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

/// Elements of a vector value of `key`; a vector with more than one element is refused
/// unless `allow_many` (flitsim simulates one traffic class).
///
/// # Errors
/// More elements than allowed.
pub fn single(config: &Config, key: &str) -> Result<String, ImportError> {
    let (value, _) = config.get(key);
    let parts = elements(&value);
    if parts.len() > 1 {
        return Err(config.unsupported(
            key,
            "a vector gives one value per traffic class and flitsim simulates one class",
            &format!("give one value, e.g. `{key} = {};`", parts[0]),
        ));
    }
    Ok(parts[0].to_string())
}
