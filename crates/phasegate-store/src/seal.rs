//! The user's sealing key (`phasegate_core::seal`): 32 random bytes in a
//! file only its owner reads, in the user's state folder, outside every
//! repository, so a ledger or an answer copied from another clone or
//! written by hand does not verify. Made on first use, under a lock so two
//! processes never make two keys.

use std::path::{Path, PathBuf};
use std::time::Duration;

use phasegate_core::seal::{KEY_BYTES, SealKey};

use crate::error::{IoContext, StoreError};
use crate::fs;
use crate::lock::FileLock;

/// The key's file name in its folder.
pub const KEY_FILE: &str = "key";

/// The key file in `dir`.
pub fn key_path(dir: &Path) -> PathBuf {
    dir.join(KEY_FILE)
}

/// The key in `dir`, made there on first use. A key file that is not one
/// (a link, the wrong size) is an error naming it, never replaced: seals
/// made with it would stop verifying.
pub fn key(dir: &Path) -> Result<SealKey, StoreError> {
    let path = key_path(dir);
    if let Some(key) = read(&path)? {
        return Ok(key);
    }
    fs::create_dir_all(dir)?;
    let _lock = FileLock::acquire(&dir.join("key.lock"), Duration::from_secs(10))?;
    if let Some(key) = read(&path)? {
        return Ok(key);
    }
    let mut bytes = [0u8; KEY_BYTES];
    getrandom::fill(&mut bytes).map_err(|e| StoreError::Io {
        op: "draw random bytes for",
        path: path.clone(),
        source: std::io::Error::other(e.to_string()),
    })?;
    fs::write_atomic_private(&path, &bytes)?;
    Ok(SealKey::from_bytes(&bytes).expect("KEY_BYTES bytes"))
}

fn read(path: &Path) -> Result<Option<SealKey>, StoreError> {
    let meta = match std::fs::symlink_metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e).at("inspect", path),
    };
    let bad = |detail: String| StoreError::Corrupt { path: path.to_owned(), detail };
    if !meta.file_type().is_file() {
        return Err(bad("phasegate's sealing key is not a regular file; remove it (a new key is made, and checks run again prove again)".into()));
    }
    let bytes = std::fs::read(path).at("read", path)?;
    SealKey::from_bytes(&bytes).map(Some).ok_or_else(|| {
        bad(format!(
            "phasegate's sealing key has {} bytes, not {KEY_BYTES}; remove it (a new key is made, and checks run again prove again)",
            bytes.len()
        ))
    })
}

/// The key a project's writers seal with, loaded when first needed (a
/// command that writes no state file never reads it). Cloned with the
/// project and its features; without a folder (no HOME), nothing is sealed.
#[derive(Clone, Default)]
pub struct Sealer(Option<std::sync::Arc<SealerInner>>);

struct SealerInner {
    dir: PathBuf,
    key: std::sync::OnceLock<Option<SealKey>>,
}

impl Sealer {
    /// The sealer of the key in `dir`; none without one.
    pub fn new(dir: Option<PathBuf>) -> Sealer {
        Sealer(dir.map(|dir| std::sync::Arc::new(SealerInner { dir, key: std::sync::OnceLock::new() })))
    }

    /// The key, made on first use; None without a folder or when it cannot
    /// be read (what needs it then says so).
    pub fn key(&self) -> Option<&SealKey> {
        let inner = self.0.as_ref()?;
        inner.key.get_or_init(|| key(&inner.dir).ok()).as_ref()
    }
}

impl std::fmt::Debug for Sealer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_some() { "Sealer(..)" } else { "Sealer(none)" })
    }
}

/// A project's sealer is not part of what it is: two handles on one
/// folder are the same project.
impl PartialEq for Sealer {
    fn eq(&self, _: &Sealer) -> bool {
        true
    }
}

impl Eq for Sealer {}

#[cfg(test)]
mod tests {
    use super::*;
    use phasegate_core::seal::SealKind;

    #[test]
    fn the_key_is_made_once_private_and_kept() {
        let dir = tempfile::tempdir().unwrap();
        let state = dir.path().join("state/phasegate");
        let first = key(&state).unwrap();
        let again = key(&state).unwrap();
        assert_eq!(first, again, "the same key every time");
        let seal = first.seal(SealKind::Check, b"x");
        assert!(again.verify(SealKind::Check, b"x", &seal));
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(key_path(&state)).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, 0o600, "only its owner reads it");
        }
        std::fs::write(key_path(&state), b"short").unwrap();
        let e = key(&state).unwrap_err().to_string();
        assert!(e.contains("has 5 bytes") && e.contains("remove it"), "{e}");
        assert_eq!(std::fs::read(key_path(&state)).unwrap(), b"short", "a bad key is never replaced");
    }
}
