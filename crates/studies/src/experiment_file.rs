//! Experiment files: one TOML file holds a whole experiment as an `[experiment]` table
//! whose keys are the long flags of the simulating subcommands (`rate = 0.005` is
//! `--rate 0.005`). The netlist is either a file (`netlist = "PATH"`, relative to the
//! experiment file) or the rest of the experiment file itself (an inline netlist).
//!
//! A file is an experiment when its TOML has a top-level `experiment` table, whatever its
//! name. The CLI turns the table into flags placed before the command line's own, so the
//! command line overrides the file.

use flitsim_netlist::{Diagnostics, Location, Netlist};
use std::path::{Component, Path, PathBuf};
use toml::de::{DeTable, DeValue};

/// Experiment files larger than this are refused (they are a page of keys).
pub const MAX_BYTES: u64 = 1 << 20;

/// The subcommands an experiment file can drive; its keys are their long flags.
pub const COMMANDS: [&str; 5] = ["run", "sweep", "trace", "buffers", "check"];

/// An experiment file, read.
#[derive(Clone, Debug, PartialEq)]
pub struct Experiment {
    /// The experiment file.
    pub path: PathBuf,
    /// The netlist file (the experiment file itself when the netlist is inline).
    pub netlist: PathBuf,
    /// `(key, value, line)` in file order; arrays are one entry per element.
    pub keys: Vec<(String, Value, Location)>,
    /// The `[[design]]` entries, in file order (`sweep` only).
    pub designs: Vec<Design>,
}

/// One `[[design]]` entry of an experiment file: a labelled design of a `sweep`.
#[derive(Clone, Debug, PartialEq)]
pub struct Design {
    /// Its `label`: the curve's label.
    pub label: String,
    /// Its other keys in file order, each what `--vary KEY=VALUE` would set.
    pub settings: Vec<(String, String)>,
    /// Where its `label` is written.
    pub at: Location,
}

/// One value of a key.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// `true`: the flag is given; `false`: it is not.
    Switch(bool),
    /// A flag value, as text.
    Text(String),
    /// An array: a repeated flag, or one comma-separated value.
    List(Vec<String>),
}

/// The top-level tables of an experiment file that are not netlist: `[experiment]`,
/// `[vary]` and `[[design]]`.
const SECTIONS: [&str; 3] = ["experiment", "vary", "design"];

pub(crate) fn error(at: &Location, code: &str, message: &str, help: &str) -> anyhow::Error {
    anyhow::anyhow!("{at}: error[{code}]: {message}\nhelp: {help}")
}

/// Reads `path` if it is an experiment file: `Ok(None)` for any other file (a netlist),
/// or one that cannot be read (the netlist loader reports that).
///
/// # Errors
/// A malformed `[experiment]` table: unknown key, bad value, missing netlist; each with the
/// file, line and fix.
pub fn read(path: &Path, known: &[String]) -> anyhow::Result<Option<Experiment>> {
    let too_big = std::fs::metadata(path).map_or(true, |m| !m.is_file() || m.len() > MAX_BYTES);
    if too_big {
        return Ok(None);
    }
    let Ok(src) = std::fs::read_to_string(path) else {
        return Ok(None);
    };
    let Ok(doc) = DeTable::parse(&src) else {
        return Ok(None);
    };
    let doc = doc.into_inner();
    let Some((key, table)) = doc.iter().find(|(k, _)| k.get_ref() == "experiment") else {
        return Ok(None);
    };
    let at = |offset: usize| Location::from_offset(path, &src, offset);
    let DeValue::Table(table) = table.get_ref() else {
        return Err(error(
            &at(key.span().start),
            "bad-value",
            "`experiment` must be a table",
            "write the keys under an [experiment] header",
        ));
    };
    let mut netlist = None;
    let mut keys = Vec::new();
    for (k, v) in table {
        let loc = at(k.span().start);
        let name = k.get_ref().as_ref();
        if name == "netlist" {
            let DeValue::String(p) = v.get_ref() else {
                return Err(error(
                    &loc,
                    "bad-value",
                    "`netlist` must be a path",
                    "write netlist = \"../netlists/torus-8x8.toml\" (relative to this file)",
                ));
            };
            netlist = Some(resolve(path, Path::new(p.as_ref())));
            continue;
        }
        if !known.iter().any(|f| f == name) {
            return Err(error(
                &loc,
                "unknown-key",
                &format!("unknown key `{name}` in [experiment]"),
                &format!(
                    "expected `netlist` or a long flag of {}, with `_` for `-`: {}",
                    COMMANDS.join(", "),
                    known.join(", ")
                ),
            ));
        }
        keys.push((name.to_string(), value(v.get_ref(), &loc, name)?, loc));
    }
    if let Some((k, v)) = doc.iter().find(|(k, _)| k.get_ref() == "vary") {
        vary_table(v.get_ref(), &at(k.span().start), &at, &mut keys)?;
    }
    let designs = match doc.iter().find(|(k, _)| k.get_ref() == "design") {
        Some((k, v)) => design_entries(v.get_ref(), &at(k.span().start), &at)?,
        None => Vec::new(),
    };
    let inline = doc
        .keys()
        .any(|k| !SECTIONS.contains(&k.get_ref().as_ref()));
    let netlist = match (netlist, inline) {
        (Some(_), true) => {
            return Err(error(
                &at(key.span().start),
                "bad-form",
                "the file gives both `netlist = PATH` and an inline netlist",
                "keep one: remove the `netlist` key or the netlist tables",
            ))
        }
        (Some(n), false) => n,
        (None, true) => path.to_path_buf(),
        (None, false) => return Err(error(
            &at(key.span().start),
            "missing-key",
            "the experiment names no netlist",
            "add netlist = \"PATH\" under [experiment], or write the netlist's tables in this file",
        )),
    };
    Ok(Some(Experiment {
        path: path.to_path_buf(),
        netlist,
        keys,
        designs,
    }))
}

/// The `[vary]` table: `KEY = [V1, V2, ...]` per line, each the flag
/// `--vary KEY=V1,V2,...` (values joined by `;` when one holds a comma).
fn vary_table(
    v: &DeValue<'_>,
    header: &Location,
    at: &dyn Fn(usize) -> Location,
    keys: &mut Vec<(String, Value, Location)>,
) -> anyhow::Result<()> {
    let DeValue::Table(table) = v else {
        return Err(error(
            header,
            "bad-value",
            "`vary` must be a table",
            "write [vary] and under it one line per key, e.g. vcs = [2, 4, 8]",
        ));
    };
    // In file order: the order of the keys is the order of the designs.
    let mut entries: Vec<_> = table.iter().collect();
    entries.sort_by_key(|(k, _)| k.span().start);
    for (k, v) in entries {
        let loc = at(k.span().start);
        let name = k.get_ref().as_ref();
        let Value::List(values) = value(v.get_ref(), &loc, name)? else {
            return Err(error(
                &loc,
                "bad-value",
                &format!("`{name}` in [vary] must be an array of values"),
                &format!("write {name} = [V1, V2, ...]"),
            ));
        };
        let sep = if values.iter().any(|x| x.contains(',')) {
            ";"
        } else {
            ","
        };
        let flag = format!("{name}={}", values.join(sep));
        keys.push(("vary".into(), Value::List(vec![flag]), loc));
    }
    Ok(())
}

pub(crate) fn value(v: &DeValue<'_>, at: &Location, key: &str) -> anyhow::Result<Value> {
    let scalar = |v: &DeValue<'_>| match v {
        DeValue::String(s) => Some(s.to_string()),
        DeValue::Integer(i) => Some(i.to_string()),
        DeValue::Float(f) => Some(f.to_string()),
        _ => None,
    };
    let bad = || {
        error(
            at,
            "bad-value",
            &format!("`{key}` must be a string, a number, a boolean or an array of them"),
            &format!("write it as on the command line, e.g. {key} = \"...\""),
        )
    };
    match v {
        DeValue::Boolean(b) => Ok(Value::Switch(*b)),
        DeValue::Array(a) => a
            .iter()
            .map(|x| scalar(x.get_ref()).ok_or_else(bad))
            .collect::<anyhow::Result<Vec<_>>>()
            .map(Value::List),
        other => scalar(other).map(Value::Text).ok_or_else(bad),
    }
}

/// `rel` relative to the directory of `file`, without `dir/..` steps.
fn resolve(file: &Path, rel: &Path) -> PathBuf {
    let joined = file.parent().unwrap_or(Path::new("")).join(rel);
    let mut out = PathBuf::new();
    for c in joined.components() {
        match c {
            Component::ParentDir
                if matches!(out.components().next_back(), Some(Component::Normal(_))) =>
            {
                out.pop();
            }
            Component::CurDir => {}
            c => out.push(c),
        }
    }
    out
}

impl Experiment {
    /// Refuses `[[design]]` entries for a `command` other than `sweep`.
    ///
    /// # Errors
    /// The first entry's location, with the fix.
    pub fn designs_refused(&self, command: &str) -> anyhow::Result<()> {
        match self.designs.first() {
            Some(d) if command != "sweep" => Err(error(
                &d.at,
                "bad-form",
                &format!("[[design]] entries are designs of a `sweep`, not of `{command}`"),
                &format!(
                    "run `flitsim sweep {}`, or remove them",
                    self.path.display()
                ),
            )),
            _ => Ok(()),
        }
    }

    /// Where key `long` (a flag without `--`) was written.
    pub fn key_location(&self, long: &str) -> Option<&Location> {
        let key = long.replace('-', "_");
        self.keys
            .iter()
            .find(|(k, _, _)| *k == key)
            .map(|(_, _, l)| l)
    }
}

/// At most this many `[[design]]` entries (the sweep refuses more curves anyway).
pub const MAX_ENTRIES: usize = crate::experiments::vary::MAX_DESIGNS;

/// The entries of the `design` array of tables (its first header at `header`).
///
/// # Errors
/// Not an array of tables, an entry without a `label` or with nothing else, a value that
/// is not one string, number or boolean, too many entries, or a label given twice: each
/// located with its fix.
fn design_entries(
    v: &DeValue<'_>,
    header: &Location,
    at: &dyn Fn(usize) -> Location,
) -> anyhow::Result<Vec<Design>> {
    let form =
        "write each design as [[design]] with label = \"...\" and one line per key, e.g. vcs = 2";
    let DeValue::Array(entries) = v else {
        return Err(error(
            header,
            "bad-value",
            "`design` must be an array of tables",
            form,
        ));
    };
    if entries.len() > MAX_ENTRIES {
        return Err(error(
            header,
            "too-many",
            &format!(
                "{} [[design]] entries, more than {MAX_ENTRIES}",
                entries.len()
            ),
            "split the study into several sweeps",
        ));
    }
    let mut out: Vec<Design> = Vec::new();
    for entry in entries {
        let entry_at = at(entry.span().start);
        let DeValue::Table(table) = entry.get_ref() else {
            return Err(error(
                &entry_at,
                "bad-value",
                "a `design` entry must be a table",
                form,
            ));
        };
        let mut rows: Vec<_> = table.iter().collect();
        rows.sort_by_key(|(k, _)| k.span().start);
        let (mut label, mut settings) = (None, Vec::new());
        for (k, v) in rows {
            let loc = at(k.span().start);
            let name = k.get_ref().as_ref();
            let text = match value(v.get_ref(), &loc, name)? {
                Value::Text(t) => t,
                Value::Switch(b) => b.to_string(),
                Value::List(_) => {
                    return Err(error(
                        &loc,
                        "bad-value",
                        &format!("`{name}` in [[design]] must be one value"),
                        "give one value per design; for a list of designs use [vary]",
                    ))
                }
            };
            if name == "label" {
                label = Some((text, loc));
            } else {
                settings.push((name.to_string(), text));
            }
        }
        let Some((label, label_at)) = label else {
            return Err(error(
                &entry_at,
                "missing-key",
                "a [[design]] entry has no `label`",
                form,
            ));
        };
        if settings.is_empty() {
            return Err(error(
                &label_at,
                "missing-key",
                &format!("design `{label}` sets no key"),
                form,
            ));
        }
        if let Some(first) = out.iter().find(|d| d.label == label) {
            return Err(error(
                &label_at,
                "duplicate-label",
                &format!(
                    "two [[design]] entries are labelled `{label}` (the first on line {})",
                    first.at.line
                ),
                "give each design its own label",
            ));
        }
        out.push(Design {
            label,
            settings,
            at: label_at,
        });
    }
    Ok(out)
}

/// Loads the netlist of a file that may also hold an `[experiment]` table: the table's
/// lines are blanked first, so the netlist's errors keep their line numbers.
///
/// # Errors
/// The netlist's diagnostics.
pub fn load_netlist(path: &Path) -> Result<Netlist, Diagnostics> {
    let small = std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.len() <= MAX_BYTES);
    let src = match small.then(|| std::fs::read_to_string(path)) {
        Some(Ok(src)) => src,
        _ => return flitsim_netlist::load(path),
    };
    if !src.lines().any(is_experiment_header) {
        return flitsim_netlist::load(path);
    }
    flitsim_netlist::parse_str(&blank_experiment(&src), path)
}

fn is_experiment_header(line: &str) -> bool {
    let l = line.trim();
    let table = |t: &str| l.starts_with(&format!("[{t}]")) || l.starts_with(&format!("[ {t} ]"));
    table("experiment") || table("vary") || table("[design]") || table("[ design ]")
}

/// `src` with the `[experiment]`, `[vary]` and `[[design]]` sections (each from its
/// header up to the next table header) turned into empty lines.
fn blank_experiment(src: &str) -> String {
    let mut inside = false;
    let mut out = String::with_capacity(src.len());
    for line in src.split_inclusive('\n') {
        if line.trim_start().starts_with('[') {
            inside = is_experiment_header(line)
                || line.trim_start().starts_with("[experiment.")
                || line.trim_start().starts_with("[vary.");
        }
        if inside {
            out.push_str(if line.ends_with('\n') { "\n" } else { "" });
        } else {
            out.push_str(line);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolve_drops_parent_steps() {
        assert_eq!(
            resolve(
                Path::new("experiments/t.toml"),
                Path::new("../netlists/a.toml")
            ),
            PathBuf::from("netlists/a.toml")
        );
        assert_eq!(
            resolve(Path::new("t.toml"), Path::new("n.toml")),
            PathBuf::from("n.toml")
        );
    }

    #[test]
    fn blanking_keeps_line_numbers() {
        let src = "name = \"x\"\n[experiment]\nrate = 0.1\nset = [\n  \"vcs=2\",\n]\n[topology]\nkind = \"ring\"\n";
        let b = blank_experiment(src);
        assert_eq!(b.lines().count(), src.lines().count());
        assert!(!b.contains("rate"));
        assert!(b.contains("[topology]\nkind = \"ring\""));
    }
}
