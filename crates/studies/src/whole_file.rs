//! Output files written whole: the bytes go to a temporary file beside the target, which
//! is then renamed over it. A process killed at any moment leaves the old file or the new
//! one, never an empty or half-written one (at worst a stray `.NAME.PID.tmp` beside it).

use std::io::Write as _;
use std::path::{Path, PathBuf};

/// Writes `bytes` to `path` whole (see the module docs).
///
/// # Errors
/// The temporary file cannot be created or written, or cannot be renamed to `path`.
pub fn write_whole(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let tmp = temporary_name(path);
    let written = std::fs::File::create(&tmp)
        .and_then(|mut f| f.write_all(bytes))
        .and_then(|()| std::fs::rename(&tmp, path));
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

/// `.NAME.PID.tmp` in the target's folder (a rename within one folder stays on one file
/// system, so it is atomic).
fn temporary_name(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map_or_else(|| "output".into(), |n| n.to_string_lossy().into_owned());
    path.with_file_name(format!(".{name}.{}.tmp", std::process::id()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_file_is_replaced_whole_and_no_temporary_file_stays() {
        let dir = std::env::temp_dir().join(format!("whole-file-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("out.csv");
        write_whole(&path, b"old\n").unwrap();
        write_whole(&path, b"new\n").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"new\n");
        let names: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from("out.csv")]);
        // A folder that does not exist: an error, and nothing left behind.
        assert!(write_whole(&dir.join("missing").join("x.csv"), b"x").is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
