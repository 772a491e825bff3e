//! One feature folder: its `.meta.json`, its review history, its artifacts,
//! and the lock that serialises writers.

use std::path::{Path, PathBuf};
use std::time::Duration;

use phasegate_core::history::HISTORY_FILE;
use phasegate_core::meta::{META_FILE, Meta};
use phasegate_core::schema::Schema;
use phasegate_core::verdict::VERDICT_FILE;
use phasegate_core::{Artifact, ArtifactSet, Status};

use crate::error::StoreError;
use crate::fs;
use crate::lock::FileLock;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Feature {
    dir: PathBuf,
    name: String,
    lock: PathBuf,
}

impl Feature {
    pub(crate) fn new(dir: PathBuf, name: String, lock: PathBuf) -> Self {
        Feature { dir, name, lock }
    }

    /// The folder, `…/docs/features/NNN-slug`.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The folder name, `NNN-slug`.
    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn meta_path(&self) -> PathBuf {
        self.dir.join(META_FILE)
    }

    pub fn history_path(&self) -> PathBuf {
        self.dir.join(HISTORY_FILE)
    }

    pub fn artifact_path(&self, a: Artifact) -> PathBuf {
        self.dir.join(a.file_name())
    }

    /// Reads `.meta.json` without taking the lock (a reader sees the old or
    /// the new file, never half of one, because writers rename).
    pub fn load(&self) -> Result<Meta, StoreError> {
        let path = self.meta_path();
        parse_meta(&path, &fs::read_to_string(&path)?)
    }

    /// Reads `.meta.json` but builds the whole model only when the feature is
    /// active; an inactive one is recognised from its status alone.
    pub fn load_if_active(&self) -> Result<Option<Meta>, StoreError> {
        #[derive(serde::Deserialize)]
        struct Head {
            status: Status,
        }
        let path = self.meta_path();
        let text = fs::read_to_string(&path)?;
        match serde_json::from_str::<Head>(&text) {
            Ok(Head { status: Status::Completed | Status::Abandoned }) => Ok(None),
            // Active, or broken: the full parse says which, with details.
            Ok(Head { status: Status::Active }) | Err(_) => parse_meta(&path, &text).map(Some),
        }
    }

    /// The artifacts present in the folder (non-empty files only).
    pub fn artifacts(&self) -> ArtifactSet {
        Artifact::ALL
            .into_iter()
            .filter(|a| std::fs::metadata(self.artifact_path(*a)).is_ok_and(|m| m.is_file() && m.len() > 0))
            .collect()
    }

    /// Takes the feature's lock.
    pub fn lock(&self, timeout: Duration) -> Result<FeatureGuard<'_>, StoreError> {
        Ok(FeatureGuard { feature: self, _lock: FileLock::acquire(&self.lock, timeout)? })
    }

    /// Read-modify-write of `.meta.json` under the lock. Nothing is written
    /// when the file cannot be read or `change` fails.
    pub fn update<T, E>(&self, timeout: Duration, change: impl FnOnce(&mut Meta) -> Result<T, E>) -> Result<T, E>
    where
        E: From<StoreError>,
    {
        let guard = self.lock(timeout)?;
        let mut meta = guard.load()?;
        let out = change(&mut meta)?;
        guard.save(&meta)?;
        Ok(out)
    }

    /// Writes a new `.meta.json`; only for a folder no one else knows yet.
    pub(crate) fn write_meta_unlocked(&self, meta: &Meta) -> Result<(), StoreError> {
        fs::write_atomic(&self.meta_path(), &render_meta(meta))
    }
}

/// Proof that the feature's lock is held; writes go through it.
#[derive(Debug)]
pub struct FeatureGuard<'a> {
    feature: &'a Feature,
    _lock: FileLock,
}

impl FeatureGuard<'_> {
    pub fn feature(&self) -> &Feature {
        self.feature
    }

    pub fn load(&self) -> Result<Meta, StoreError> {
        self.feature.load()
    }

    pub fn save(&self, meta: &Meta) -> Result<(), StoreError> {
        fs::write_atomic(&self.feature.meta_path(), &render_meta(meta))?;
        // Temporary files of writers that were killed before their rename;
        // no other writer of this folder can be running while we hold the lock.
        fs::remove_temporaries(&self.feature.dir);
        Ok(())
    }

    /// The review history, empty when there is none yet.
    pub fn read_history(&self) -> Result<String, StoreError> {
        Ok(fs::read_optional(&self.feature.history_path())?.unwrap_or_default())
    }

    pub fn write_history(&self, text: &str) -> Result<(), StoreError> {
        fs::write_atomic(&self.feature.history_path(), text.as_bytes())
    }

    /// Deletes the review history and the last saved verdict; true when
    /// there was a history.
    pub fn remove_history(&self) -> Result<bool, StoreError> {
        fs::remove_if_exists(&self.feature.dir.join(VERDICT_FILE))?;
        fs::remove_if_exists(&self.feature.history_path())
    }
}

fn render_meta(meta: &Meta) -> Vec<u8> {
    let mut out = serde_json::to_vec_pretty(meta).expect("a Meta always serialises");
    out.push(b'\n');
    out
}

/// Parses `.meta.json`. On failure the message says where the problem is: the
/// JSON syntax position, or the schema's field-by-field report.
pub fn parse_meta(path: &Path, text: &str) -> Result<Meta, StoreError> {
    match serde_json::from_str::<Meta>(text) {
        Ok(meta) => Ok(meta),
        Err(err) => {
            let corrupt = |detail: String| StoreError::Corrupt { path: path.to_owned(), detail };
            let value: serde_json::Value = match serde_json::from_str(text) {
                Ok(v) => v,
                Err(syntax) => return Err(corrupt(format!("invalid JSON: {syntax}"))),
            };
            match Schema::Meta.check(&value) {
                Err(schema) => Err(corrupt(schema.to_string())),
                Ok(()) => Err(corrupt(err.to_string())),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corrupt_files_are_reported_with_path_and_position() {
        let p = Path::new("/r/docs/features/001-a/.meta.json");
        let err = parse_meta(p, "{\"id\": \"001\",").unwrap_err().to_string();
        assert!(err.contains("/r/docs/features/001-a/.meta.json") && err.contains("line 1"), "{err}");
        let err = parse_meta(p, r#"{"id": "001", "slug": "a", "status": "done", "created": "2026-01-01T00:00:00Z"}"#)
            .unwrap_err()
            .to_string();
        assert!(err.contains("at /status") && err.contains("\"active\""), "{err}");
    }
}
