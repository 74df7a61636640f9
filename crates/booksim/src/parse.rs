//! BookSim 2's config language: `key = value;` statements, `//` comments to the end of
//! the line, values that are numbers, bare words or `{a,b,...}` vectors; then command-line
//! `key=value` overrides, which win over the file.

use super::error::{ImportError, Origin};
use std::collections::BTreeMap;
use std::io::Read;
use std::path::Path;

/// The largest config file read (BookSim's own configs are a few kilobytes).
pub const MAX_CONFIG_BYTES: usize = 1 << 20;

/// One `key = value` as written, with where it came from.
#[derive(Clone, Debug, PartialEq)]
pub struct Setting {
    /// The value's text (a vector keeps its braces).
    pub value: String,
    /// Where it was set.
    pub origin: Origin,
}

/// The settings of a config file plus its overrides; a later setting of a key replaces
/// an earlier one, as in BookSim.
pub type Settings = BTreeMap<String, Setting>;

/// Reads `path` and applies `overrides` (`key=value`, in order).
///
/// # Errors
/// The file cannot be read or is too large, or a statement is malformed.
pub fn read(path: &Path, overrides: &[String]) -> Result<Settings, ImportError> {
    let read_error = |cause| ImportError::Read {
        path: path.to_path_buf(),
        cause,
    };
    // Only a regular file, and never more than the limit: `/dev/zero` has length 0.
    let (file, meta) = flitsim_netlist::read::open_regular(path)
        .map_err(|m| read_error(std::io::Error::other(m)))?;
    let too_large = |bytes| ImportError::TooLarge {
        path: path.to_path_buf(),
        bytes,
        max: MAX_CONFIG_BYTES,
    };
    if meta.len() > MAX_CONFIG_BYTES as u64 {
        return Err(too_large(meta.len()));
    }
    let mut text = String::new();
    file.take(MAX_CONFIG_BYTES as u64 + 1)
        .read_to_string(&mut text)
        .map_err(read_error)?;
    if text.len() > MAX_CONFIG_BYTES {
        return Err(too_large(text.len() as u64));
    }
    let mut settings = Settings::new();
    parse_file(&text, path, &mut settings)?;
    for (i, pair) in overrides.iter().enumerate() {
        parse_override(pair, i + 1, &mut settings)?;
    }
    Ok(settings)
}

/// Parses the statements of a file into `settings`.
fn parse_file(text: &str, path: &Path, settings: &mut Settings) -> Result<(), ImportError> {
    let mut statement = String::new();
    let mut start = 0;
    for (i, line) in text.lines().enumerate() {
        let code = line.split_once("//").map_or(line, |(code, _)| code);
        for part in code.split_inclusive(';') {
            if statement.trim().is_empty() {
                start = i + 1;
            }
            match part.strip_suffix(';') {
                Some(body) => {
                    statement.push_str(body);
                    let origin = Origin::File {
                        path: path.into(),
                        line: start,
                    };
                    assign(&statement, origin, settings)?;
                    statement.clear();
                }
                None => {
                    statement.push_str(part);
                    statement.push(' ');
                }
            }
        }
    }
    if statement.trim().is_empty() {
        return Ok(());
    }
    Err(ImportError::Syntax {
        origin: Origin::File {
            path: path.into(),
            line: start,
        },
        message: format!("`{}` is not ended by `;`", statement.trim()),
        help: "end every statement with `;`, as in `k = 8;`".into(),
    })
}

/// Parses one command-line override (`key=value`, the `;` optional).
fn parse_override(pair: &str, index: usize, settings: &mut Settings) -> Result<(), ImportError> {
    let body = pair.trim().strip_suffix(';').unwrap_or(pair);
    assign(body, Origin::Override { index }, settings)
}

/// Parses `key = value` into `settings`.
fn assign(statement: &str, origin: Origin, settings: &mut Settings) -> Result<(), ImportError> {
    let syntax = |message: String| ImportError::Syntax {
        origin: origin.clone(),
        message,
        help: "write `key = value;` with one key, one value (a number, a word or {a,b})".into(),
    };
    let (key, value) = statement
        .split_once('=')
        .ok_or_else(|| syntax(format!("`{}` has no `=`", statement.trim())))?;
    let (key, value) = (key.trim(), value.trim());
    if !is_word(key) {
        return Err(syntax(format!("`{key}` is not a key")));
    }
    if value.is_empty() || value.split_whitespace().count() > 1 || value.contains('=') {
        return Err(syntax(format!(
            "`{key}` needs exactly one value, got `{value}`"
        )));
    }
    if value.starts_with('{') != value.ends_with('}') {
        return Err(syntax(format!("the vector `{value}` is not closed")));
    }
    settings.insert(
        key.to_string(),
        Setting {
            value: value.to_string(),
            origin,
        },
    );
    Ok(())
}

/// A key: letters, digits and `_`, not starting with a digit.
fn is_word(s: &str) -> bool {
    s.chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The elements of a `{a,b,...}` vector, or the value itself.
#[must_use]
pub fn elements(value: &str) -> Vec<&str> {
    match value.strip_prefix('{').and_then(|v| v.strip_suffix('}')) {
        Some(inner) => inner.split(',').map(str::trim).collect(),
        None => vec![value],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Settings, ImportError> {
        let mut s = Settings::new();
        parse_file(text, Path::new("t.cfg"), &mut s).map(|()| s)
    }

    #[test]
    fn statements_comments_vectors_and_lines() {
        let s = parse("// a torus\ntopology = torus; k = 8;\n\nnum_vcs =\n 4; // four\ninjection_rate = {0.1,0.2};\n").unwrap();
        assert_eq!(s["topology"].value, "torus");
        assert_eq!(s["k"].value, "8");
        assert_eq!(s["num_vcs"].value, "4");
        assert_eq!(
            s["num_vcs"].origin,
            Origin::File {
                path: Path::new("t.cfg").into(),
                line: 4
            }
        );
        assert_eq!(elements(&s["injection_rate"].value), ["0.1", "0.2"]);
    }

    #[test]
    fn malformed_statements_name_their_line() {
        let e = parse("k = 8;\nn = 2\n").unwrap_err().to_string();
        assert!(e.starts_with("t.cfg:2: `n = 2` is not ended by `;`"), "{e}");
        let e = parse("k = 8;\nn 2;\n").unwrap_err().to_string();
        assert!(e.starts_with("t.cfg:2: `n 2` has no `=`"), "{e}");
        let e = parse("k = 8 9;").unwrap_err().to_string();
        assert!(e.contains("needs exactly one value"), "{e}");
        let e = parse("k = {8,9;").unwrap_err().to_string();
        assert!(e.contains("not closed"), "{e}");
    }

    #[test]
    fn overrides_win_over_the_file() {
        let mut s = parse("k = 8;").unwrap();
        parse_override("k=4", 1, &mut s).unwrap();
        assert_eq!(s["k"].value, "4");
        assert_eq!(s["k"].origin, Origin::Override { index: 1 });
        assert!(parse_override("k", 2, &mut s).is_err());
    }
}
