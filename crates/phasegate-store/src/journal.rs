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
//!
//! A journal is read back as data, not trusted: before anything is applied
//! every path it names is checked to lie below the repository, compared
//! component by component (`<repo>/../victim` is refused as written), and a
//! journal that names one outside is reported and left alone, never
//! applied. The journal's own folders are phasegate's and never links.

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

/// Where the journal of one writer lives: `<runtime>/journal/<name>.json`
/// in phasegate's runtime folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JournalFile {
    runtime: PathBuf,
    name: String,
}

impl JournalFile {
    pub fn new(runtime: impl Into<PathBuf>, name: &str) -> Self {
        JournalFile { runtime: runtime.into(), name: name.to_owned() }
    }

    pub fn path(&self) -> PathBuf {
        self.runtime.join("journal").join(format!("{}.json", self.name))
    }

    /// The runtime folder and the journal folder are real folders (a link
    /// would send the journal, and what it names, elsewhere).
    fn check_folders(&self) -> Result<(), StoreError> {
        let base = self.runtime.parent().unwrap_or(&self.runtime);
        fs::own_path(base, &self.path())
    }
}

/// Applies `changes` as one: directly when there is a single file, else
/// through the journal. Every path must be inside `root`.
pub fn commit(journal: &JournalFile, root: &Path, operation: &str, changes: Vec<FileWrite>) -> Result<(), StoreError> {
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
            journal.check_folders()?;
            let record = Journal { operation: operation.to_owned(), changes };
            let journal = journal.path();
            let journal = journal.as_path();
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
/// that cannot be read, or that names a file outside the repository (or a
/// directory in a file's place), is reported and left alone: nothing of it
/// is applied.
pub fn recover(journal: &JournalFile, root: &Path) -> Result<bool, StoreError> {
    journal.check_folders()?;
    let path = journal.path();
    let Some(text) = fs::read_optional_up_to(&path, MAX_JOURNAL_BYTES)? else { return Ok(false) };
    let record: Journal = serde_json::from_str(&text).map_err(|e| StoreError::Corrupt {
        path: path.clone(),
        detail: format!("an interrupted change that cannot be read ({e}); remove it after checking the files it names"),
    })?;
    for c in &record.changes {
        fs::confine(root, &c.path).and_then(|()| c.preflight()).map_err(|e| StoreError::Corrupt {
            path: path.clone(),
            detail: format!(
                "an interrupted change ({}) that cannot be applied: {e}. Nothing of it was applied; remove it after checking the files it names",
                record.operation
            ),
        })?;
    }
    for c in &record.changes {
        c.apply()?;
    }
    fs::remove_if_exists(&path)?;
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_replayed_journal_finishes_the_change() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let file = JournalFile::new(root.join("rt"), "f");
        let journal = file.path();
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
        assert!(recover(&file, &root).unwrap());
        assert_eq!(std::fs::read_to_string(&a).unwrap(), "new a");
        assert!(!b.exists() && !journal.exists());
        assert!(!recover(&file, &root).unwrap());
        commit(&file, &root, "x", vec![FileWrite::put(&a, "1"), FileWrite::put(&b, "2")]).unwrap();
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
        let file = JournalFile::new(root.join("rt"), "f");
        let journal = file.path();
        std::fs::create_dir_all(journal.parent().unwrap()).unwrap();
        std::fs::write(&journal, "{").unwrap();
        let err = recover(&file, &root).unwrap_err().to_string();
        assert!(err.contains("interrupted change"), "{err}");
        assert!(journal.exists());
        let outside = commit(&file, &root, "x", vec![FileWrite::put("/tmp/elsewhere", "x")]).unwrap_err();
        assert!(outside.to_string().contains("outside the repository"), "{outside}");
    }

    // A journal entry naming `<repo>/../victim.txt` passed the string-prefix
    // check and the next writer overwrote (or deleted) the file outside.
    #[test]
    fn a_journal_entry_naming_dot_dot_wrote_outside_the_repository() {
        let dir = tempfile::tempdir().unwrap();
        let outer = dir.path().canonicalize().unwrap();
        let root = outer.join("repo");
        std::fs::create_dir_all(&root).unwrap();
        let victim = outer.join("victim.txt");
        std::fs::write(&victim, "keep me").unwrap();
        let file = JournalFile::new(root.join(".git/phasegate"), "knowledge");
        let journal = file.path();
        std::fs::create_dir_all(journal.parent().unwrap()).unwrap();
        let inside = root.join("a.md");
        for escaping in
            [FileWrite::put(root.join("../victim.txt"), "owned"), FileWrite::remove(root.join("../victim.txt"))]
        {
            let record = Journal {
                operation: "kb record".into(),
                changes: vec![FileWrite::put(&inside, "x"), escaping.clone()],
            };
            let text = serde_json::to_vec(&record).unwrap();
            std::fs::write(&journal, &text).unwrap();
            let err = recover(&file, &root).unwrap_err().to_string();
            assert!(
                err.contains("knowledge.json")
                    && err.contains("outside the repository")
                    && err.contains("Nothing of it was applied"),
                "{err}"
            );
            assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep me");
            assert!(!inside.exists(), "no entry of a refused journal is applied");
            assert_eq!(std::fs::read(&journal).unwrap(), text, "the journal is kept for a person to look at");
            let err = commit(&file, &root, "x", vec![FileWrite::put(&inside, "x"), escaping]).unwrap_err().to_string();
            assert!(err.contains("outside the repository"), "{err}");
        }
    }

    // A journal folder that is a link out of the repository was written
    // through.
    #[cfg(unix)]
    #[test]
    fn a_linked_journal_folder_was_written_through() {
        let dir = tempfile::tempdir().unwrap();
        let outer = dir.path().canonicalize().unwrap();
        let root = outer.join("repo");
        let elsewhere = outer.join("elsewhere");
        std::fs::create_dir_all(root.join(".git/phasegate")).unwrap();
        std::fs::create_dir_all(&elsewhere).unwrap();
        std::os::unix::fs::symlink(&elsewhere, root.join(".git/phasegate/journal")).unwrap();
        let file = JournalFile::new(root.join(".git/phasegate"), "knowledge");
        let changes = vec![FileWrite::put(root.join("a.md"), "a"), FileWrite::put(root.join("b.md"), "b")];
        let err = commit(&file, &root, "kb record", changes).unwrap_err().to_string();
        assert!(err.contains("journal is a symbolic link"), "{err}");
        assert!(recover(&file, &root).is_err());
        assert_eq!(std::fs::read_dir(&elsewhere).unwrap().count(), 0, "nothing written there");
        assert!(!root.join("a.md").exists());
    }
}
