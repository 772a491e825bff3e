//! A redo journal, so that a change spanning several files is all-or-nothing.
//!
//! Recording a review writes `.meta.json` and `.review-history.md`; finishing
//! writes `.meta.json` and removes the history; completing a pipeline writes
//! its `state.json` and closes the feature's `.meta.json`. Each file is
//! replaced atomically, but a crash between two of them would leave the pair
//! disagreeing. So the whole change is first written (atomically) to a
//! journal, then applied file by file, then the journal is removed. Whoever
//! takes the feature's lock next finds a leftover journal and applies it
//! again: every entry is a whole file or a removal, so applying twice is the
//! same as once. A crash therefore leaves the old state (journal not yet
//! written) or the new one (journal written: replayed), never half.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::error::StoreError;
use crate::fs;

/// One file of a change: its new contents, or its removal.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileWrite {
    pub path: PathBuf,
    /// None removes the file.
    pub contents: Option<String>,
}

impl FileWrite {
    pub fn put(path: impl Into<PathBuf>, contents: impl Into<String>) -> Self {
        FileWrite { path: path.into(), contents: Some(contents.into()) }
    }

    pub fn remove(path: impl Into<PathBuf>) -> Self {
        FileWrite { path: path.into(), contents: None }
    }

    /// Whether the change can be applied: nothing but a regular file (or
    /// nothing) may be in its place. Checked for every file before any is
    /// touched, so a change that would fail half-way is refused whole.
    fn preflight(&self) -> Result<(), StoreError> {
        match std::fs::symlink_metadata(&self.path) {
            Err(_) => Ok(()),
            // A link is replaced or removed itself, never followed.
            Ok(m) if m.file_type().is_file() || m.file_type().is_symlink() => Ok(()),
            Ok(m) => Err(StoreError::NotRegular {
                path: self.path.clone(),
                what: if m.file_type().is_dir() { "a directory".into() } else { "not a regular file".into() },
            }),
        }
    }

    fn apply(&self) -> Result<(), StoreError> {
        match &self.contents {
            Some(text) => {
                if let Some(dir) = self.path.parent() {
                    fs::create_dir_all(dir)?;
                }
                fs::write_atomic(&self.path, text.as_bytes())
            }
            None => fs::remove_if_exists(&self.path).map(drop),
        }
    }
}

/// The most a journal may hold: a change writes at most this many state
/// files of the largest size a reader takes (escaping counted).
const MAX_JOURNAL_BYTES: u64 = 64 * fs::MAX_STATE_BYTES;

#[derive(Debug, Serialize, Deserialize)]
struct Journal {
    /// What the change was, for a human who finds the file.
    operation: String,
    changes: Vec<FileWrite>,
}

/// Applies `changes` as one: directly when there is a single file, else
/// through the journal at `journal`. Every path must be inside `root`.
pub fn commit(journal: &Path, root: &Path, operation: &str, changes: Vec<FileWrite>) -> Result<(), StoreError> {
    for c in &changes {
        fs::confine(root, &c.path)?;
        c.preflight()?;
        // A state file the readers would refuse is never written: checked
        // before anything is.
        if let Some(text) = &c.contents
            && text.len() as u64 > fs::MAX_STATE_BYTES
        {
            return Err(StoreError::WouldBeTooLarge {
                path: c.path.clone(),
                size: text.len() as u64,
                max: fs::MAX_STATE_BYTES,
            });
        }
    }
    match changes.as_slice() {
        [] => Ok(()),
        [one] => one.apply(),
        _ => {
            let record = Journal { operation: operation.to_owned(), changes };
            if let Some(dir) = journal.parent() {
                fs::create_dir_all(dir)?;
            }
            let text = serde_json::to_vec(&record).expect("a journal always serialises");
            if text.len() as u64 > MAX_JOURNAL_BYTES {
                return Err(StoreError::WouldBeTooLarge {
                    path: journal.to_owned(),
                    size: text.len() as u64,
                    max: MAX_JOURNAL_BYTES,
                });
            }
            fs::write_atomic(journal, &text)?;
            for c in &record.changes {
                c.apply()?;
            }
            fs::remove_if_exists(journal)?;
            Ok(())
        }
    }
}

/// Applies a journal a crashed writer left behind; true when there was one.
/// Call it holding the lock of every writer of the files it names. A journal
/// that cannot be read is reported and left alone.
pub fn recover(journal: &Path, root: &Path) -> Result<bool, StoreError> {
    let Some(text) = fs::read_optional_up_to(journal, MAX_JOURNAL_BYTES)? else { return Ok(false) };
    let record: Journal = serde_json::from_str(&text).map_err(|e| StoreError::Corrupt {
        path: journal.to_owned(),
        detail: format!("an interrupted change that cannot be read ({e}); remove it after checking the files it names"),
    })?;
    for c in &record.changes {
        fs::confine(root, &c.path)?;
    }
    for c in &record.changes {
        c.apply()?;
    }
    fs::remove_if_exists(journal)?;
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_replayed_journal_finishes_the_change() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let journal = root.join("j/f.json");
        let (a, b) = (root.join("a.json"), root.join("b.md"));
        std::fs::write(&b, "old").unwrap();
        // A writer that died after the journal and the first file.
        let record = Journal {
            operation: "review record".into(),
            changes: vec![FileWrite::put(&a, "new a"), FileWrite::remove(&b)],
        };
        std::fs::create_dir_all(journal.parent().unwrap()).unwrap();
        std::fs::write(&journal, serde_json::to_vec(&record).unwrap()).unwrap();
        std::fs::write(&a, "new a").unwrap();
        assert!(recover(&journal, &root).unwrap());
        assert_eq!(std::fs::read_to_string(&a).unwrap(), "new a");
        assert!(!b.exists() && !journal.exists());
        assert!(!recover(&journal, &root).unwrap());
        commit(&journal, &root, "x", vec![FileWrite::put(&a, "1"), FileWrite::put(&b, "2")]).unwrap();
        assert_eq!(
            (std::fs::read_to_string(&a).unwrap(), std::fs::read_to_string(&b).unwrap()),
            ("1".into(), "2".into())
        );
        assert!(!journal.exists());
    }

    #[test]
    fn an_unreadable_journal_is_reported_and_kept() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let journal = root.join("f.json");
        std::fs::write(&journal, "{").unwrap();
        let err = recover(&journal, &root).unwrap_err().to_string();
        assert!(err.contains("interrupted change"), "{err}");
        assert!(journal.exists());
        let outside = commit(&journal, &root, "x", vec![FileWrite::put("/tmp/elsewhere", "x")]).unwrap_err();
        assert!(outside.to_string().contains("outside the repository"), "{outside}");
    }
}
