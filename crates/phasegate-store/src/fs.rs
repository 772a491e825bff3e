//! File primitives: reads that name the file, and atomic writes.

use std::fs;
use std::io::Write;
use std::path::Path;

use crate::error::{IoContext, StoreError};

/// Reads a UTF-8 file, naming it in any error.
pub fn read_to_string(path: &Path) -> Result<String, StoreError> {
    fs::read_to_string(path).at("read", path)
}

/// Reads a file that may not exist.
pub fn read_optional(path: &Path) -> Result<Option<String>, StoreError> {
    match fs::read_to_string(path) {
        Ok(text) => Ok(Some(text)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e).at("read", path),
    }
}

/// Replaces `path` with `contents` atomically: a temporary file in the same
/// directory is written, flushed to disk and renamed over the target, keeping
/// the target's permission bits. A crash leaves the old file or the new one,
/// never a mix.
pub fn write_atomic(path: &Path, contents: &[u8]) -> Result<(), StoreError> {
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let mut tmp = tempfile::Builder::new()
        .prefix(TMP_PREFIX)
        .suffix(TMP_SUFFIX)
        .tempfile_in(dir)
        .at("create a temporary file in", dir)?;
    tmp.write_all(contents).at("write", tmp.path().to_owned())?;
    if let Ok(meta) = fs::metadata(path) {
        fs::set_permissions(tmp.path(), meta.permissions()).at("set permissions of", tmp.path().to_owned())?;
    }
    tmp.as_file().sync_data().at("flush", tmp.path().to_owned())?;
    tmp.persist(path).map_err(|e| e.error).at("replace", path)?;
    sync_dir(dir);
    Ok(())
}

/// Flushes a directory entry change (the rename) to disk where the platform
/// allows it; best effort.
fn sync_dir(dir: &Path) {
    #[cfg(unix)]
    if let Ok(d) = fs::File::open(dir) {
        let _ = d.sync_all();
    }
    #[cfg(not(unix))]
    let _ = dir;
}

const TMP_PREFIX: &str = ".phasegate-";
const TMP_SUFFIX: &str = ".tmp";

/// Removes temporary files that `write_atomic` left in `dir` when its process
/// was killed. Only call this while holding the lock of every writer of `dir`.
pub fn remove_temporaries(dir: &Path) {
    let Ok(entries) = fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name.starts_with(TMP_PREFIX) && name.ends_with(TMP_SUFFIX) {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// Removes a file; a file that is already gone is fine.
pub fn remove_if_exists(path: &Path) -> Result<bool, StoreError> {
    match fs::remove_file(path) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(e).at("remove", path),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atomic_write_replaces_and_keeps_mode() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("f.json");
        write_atomic(&p, b"one").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            fs::set_permissions(&p, fs::Permissions::from_mode(0o640)).unwrap();
        }
        write_atomic(&p, b"two").unwrap();
        assert_eq!(fs::read_to_string(&p).unwrap(), "two");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            assert_eq!(fs::metadata(&p).unwrap().permissions().mode() & 0o777, 0o640);
        }
        // No temporary files are left behind.
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn errors_name_the_file() {
        let err = read_to_string(Path::new("/nonexistent/x.json")).unwrap_err().to_string();
        assert!(err.contains("/nonexistent/x.json"), "{err}");
    }
}
