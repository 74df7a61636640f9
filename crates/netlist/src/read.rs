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
    let file = std::fs::File::open(path).map_err(|e| e.to_string())?;
    let meta = file.metadata().map_err(|e| e.to_string())?;
    if !meta.is_file() {
        return Err(if meta.is_dir() {
            "is a directory, not a file".into()
        } else {
            "is not a regular file (a device, pipe or socket); give a file".into()
        });
    }
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
}
