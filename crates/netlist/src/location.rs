//! Where a diagnostic points: a line and column of a netlist file, the whole file, or a
//! setting that overrode the file's value.

use std::fmt;
use std::path::{Path, PathBuf};

/// A place in a netlist file: 1-based line and column (in characters), or the setting
/// that overrode the file's value there.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Location {
    /// The file, as given by the user.
    pub path: PathBuf,
    /// Line, starting at 1 (0 when the error concerns the whole file).
    pub line: u32,
    /// Column in characters, starting at 1 (0 when the error concerns the whole file).
    pub col: u32,
    /// `key = value` when the value in question was set after loading (`--set`,
    /// `--routing`, `--switching`, an experiment file), not read from the file.
    pub setting: Option<String>,
}

impl Location {
    /// The location of byte `offset` in `src` (clamped to the end of `src`).
    pub fn from_offset(path: &Path, src: &str, offset: usize) -> Location {
        let mut offset = offset.min(src.len());
        while !src.is_char_boundary(offset) {
            offset -= 1;
        }
        let before = &src[..offset];
        let line = before.matches('\n').count() as u32 + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let col = src[line_start..offset].chars().count() as u32 + 1;
        Location {
            path: path.to_path_buf(),
            line,
            col,
            setting: None,
        }
    }

    /// A location naming only the file (I/O errors).
    pub fn file(path: &Path) -> Location {
        Location {
            path: path.to_path_buf(),
            line: 0,
            col: 0,
            setting: None,
        }
    }

    /// The setting `key = value` applied over `path` after loading.
    pub fn setting(path: &Path, key: &str, value: &str) -> Location {
        Location {
            setting: Some(format!("{key} = {}", value.trim())),
            ..Location::file(path)
        }
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.setting, self.line) {
            (Some(s), _) => write!(f, "{} (overridden: {s})", self.path.display()),
            (None, 0) => write!(f, "{}", self.path.display()),
            (None, _) => write!(f, "{}:{}:{}", self.path.display(), self.line, self.col),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_become_one_based_line_and_column() {
        let src = "a = 1\nbé = 2\n";
        let p = Path::new("f.toml");
        assert_eq!(Location::from_offset(p, src, 0).line, 1);
        let l = Location::from_offset(p, src, src.find('=').unwrap());
        assert_eq!((l.line, l.col), (1, 3));
        // 'é' is two bytes but one column.
        let l = Location::from_offset(p, src, src.rfind('=').unwrap());
        assert_eq!((l.line, l.col), (2, 4));
        let l = Location::from_offset(p, src, 10_000);
        assert_eq!(l.line, 3);
    }

    #[test]
    fn a_setting_is_shown_in_place_of_a_line() {
        let p = Path::new("t.toml");
        assert_eq!(
            Location::setting(p, "buffer_depth", " 2").to_string(),
            "t.toml (overridden: buffer_depth = 2)"
        );
        assert_eq!(Location::file(p).to_string(), "t.toml");
        assert_eq!(
            Location::from_offset(p, "a\nb", 2).to_string(),
            "t.toml:2:1"
        );
    }
}
