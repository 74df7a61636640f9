//! Reading input files within bounds: only regular files, and at most a given number of
//! bytes, so that a device (`/dev/zero`), a pipe or a huge file is refused with a message
//! instead of read until memory runs out.

use std::io::Read;
use std::path::Path;

/// The largest netlist file read: 64 MiB (the explicit form of a 256x256 torus is about
/// 20 MiB).
pub const MAX_NETLIST_BYTES: u64 = 64 << 20;

/// Reads `path` whole if it is a regular file of at most `limit` bytes.
///
/// # Errors
/// The file cannot be opened or read, is not a regular file, or is larger than `limit`;
/// the message says which (without the path).
pub fn read_bounded(path: &Path, limit: u64) -> Result<Vec<u8>, String> {
    let (file, meta) = open_regular(path)?;
    if meta.len() > limit {
        return Err(too_large(meta.len(), limit));
    }
    // The file may grow while it is read: never read more than the limit.
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| e.to_string())?;
    if bytes.len() as u64 > limit {
        return Err(too_large(bytes.len() as u64, limit));
    }
    Ok(bytes)
}

/// Opens `path` if it is a regular file, with its metadata.
///
/// The path is looked at before it is opened: opening a named pipe blocks until a writer
/// comes, so a pipe is refused without being opened. The opened file is looked at again,
/// in case the path changed in between.
///
/// # Errors
/// The path cannot be looked at or opened, or is not a regular file; the message says
/// which (without the path).
pub fn open_regular(path: &Path) -> Result<(std::fs::File, std::fs::Metadata), String> {
    check_regular(&std::fs::metadata(path).map_err(|e| e.to_string())?)?;
    let file = std::fs::File::open(path).map_err(|e| e.to_string())?;
    let meta = file.metadata().map_err(|e| e.to_string())?;
    check_regular(&meta)?;
    Ok((file, meta))
}

fn check_regular(meta: &std::fs::Metadata) -> Result<(), String> {
    if meta.is_file() {
        Ok(())
    } else if meta.is_dir() {
        Err("is a directory, not a file".into())
    } else {
        Err("is not a regular file (a device, pipe or socket); give a file".into())
    }
}

fn too_large(len: u64, limit: u64) -> String {
    format!(
        "is {len} bytes, more than the {} MiB an input file may have",
        limit >> 20
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn devices_directories_and_large_files_are_refused() {
        if Path::new("/dev/zero").exists() {
            let e = read_bounded(Path::new("/dev/zero"), 1 << 20).unwrap_err();
            assert!(e.contains("not a regular file"), "{e}");
        }
        let dir = std::env::temp_dir();
        assert!(read_bounded(&dir, 1 << 20)
            .unwrap_err()
            .contains("directory"));
        let f = dir.join(format!("flitsim-read-{}.txt", std::process::id()));
        std::fs::write(&f, vec![b'x'; 2000]).unwrap();
        assert_eq!(read_bounded(&f, 2000).unwrap().len(), 2000);
        let e = read_bounded(&f, 1999).unwrap_err();
        assert!(e.contains("2000 bytes"), "{e}");
        std::fs::remove_file(&f).unwrap();
    }

    #[test]
    fn a_named_pipe_is_refused_without_being_opened() {
        let fifo = std::env::temp_dir().join(format!("flitsim-fifo-{}", std::process::id()));
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if !made.is_ok_and(|s| s.success()) {
            return; // no mkfifo here: nothing to check
        }
        // With no writer, opening the pipe would block this test forever.
        let e = read_bounded(&fifo, 1 << 20).unwrap_err();
        std::fs::remove_file(&fifo).unwrap();
        assert!(e.contains("not a regular file"), "{e}");
    }
}
