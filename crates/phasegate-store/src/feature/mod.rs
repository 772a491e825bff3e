//! One feature folder: its `.meta.json`, its review history, its artifacts,
//! and the lock that serialises its writers. Writes that span several files
//! go through the feature's journal (see [`crate::journal`]).

pub mod index;
mod witnessed;

pub use witnessed::{Cleared, Seen, TamperMark, Tampering, Written};

use std::path::{Path, PathBuf};
use std::time::Duration;

use phasegate_core::feature::HISTORY_FILE;
use phasegate_core::feature::VERDICT_FILE;
use phasegate_core::feature::{self, META_FILE, Meta, MetaParseError};
use phasegate_core::{Artifact, ArtifactSet, Status};

use crate::error::StoreError;
use crate::fs;
use crate::journal::{self, FileWrite, JournalFile};
use crate::lock::FileLock;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Feature {
    dir: PathBuf,
    name: String,
    /// The project root: nothing of the feature's is touched outside it.
    root: PathBuf,
    /// The project's runtime folder (locks, journals, the index).
    runtime: PathBuf,
    /// The key its state files are witnessed with.
    sealer: crate::seal::Sealer,
}

impl Feature {
    pub(crate) fn new(
        dir: PathBuf,
        name: String,
        root: PathBuf,
        runtime: PathBuf,
        sealer: crate::seal::Sealer,
    ) -> Self {
        Feature { dir, name, root, runtime, sealer }
    }

    /// The key its state files are witnessed with.
    pub fn sealer(&self) -> &crate::seal::Sealer {
        &self.sealer
    }

    /// phasegate's runtime folder of its project.
    pub(crate) fn runtime(&self) -> &Path {
        &self.runtime
    }

    /// The folder, `…/docs/features/NNN-slug`.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The folder name, `NNN-slug`.
    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    pub fn meta_path(&self) -> PathBuf {
        self.dir.join(META_FILE)
    }

    pub fn history_path(&self) -> PathBuf {
        self.dir.join(HISTORY_FILE)
    }

    /// Where the phase loop saves a reviewer's reply (kept out of git).
    pub fn verdict_path(&self) -> PathBuf {
        self.dir.join(VERDICT_FILE)
    }

    pub fn artifact_path(&self, a: Artifact) -> PathBuf {
        self.dir.join(a.file_name())
    }

    /// The feature's tasks.md, parsed, and its path relative to the
    /// project (for messages). Read by the tasks, the knowledge base, the
    /// retrospective, the monitor and the views alike.
    pub fn task_list(&self) -> Result<(phasegate_core::tasks::TaskList, String), StoreError> {
        let path = self.artifact_path(Artifact::Tasks);
        fs::confine(self.root(), &path)?;
        let shown = fs::relative(&path, self.root()).display().to_string();
        let Some(text) = fs::read_optional(&path)? else { return Err(StoreError::NoTaskList { shown }) };
        let list = phasegate_core::tasks::TaskList::parse(&text)
            .map_err(|source| StoreError::BadTaskList { shown: shown.clone(), source })?;
        Ok((list, shown))
    }

    fn lock_path(&self) -> PathBuf {
        self.runtime.join("locks").join(format!("{}.lock", self.name))
    }

    fn journal(&self) -> JournalFile {
        JournalFile::new(&self.runtime, &self.name)
    }

    /// Where review briefs keep files for reviewers (whole diffs), outside
    /// the user's tree.
    pub fn scratch_dir(&self) -> PathBuf {
        self.runtime.join("review").join(&self.name)
    }

    /// Whether the feature has a review history (`.review-history.md`).
    pub fn has_history(&self) -> bool {
        fs::exists_entry(&self.history_path())
    }

    /// Whether a reviewer's reply waits in the feature's folder.
    pub fn has_verdict(&self) -> bool {
        fs::exists_entry(&self.verdict_path())
    }

    /// Whether `verify run` has written the feature's ledger.
    pub fn has_evidence(&self) -> bool {
        fs::exists_entry(&self.evidence_path())
    }

    /// Whether the feature's retrospective is recorded.
    pub fn has_retro(&self) -> bool {
        fs::exists_entry(&self.dir.join(phasegate_core::knowledge::RETRO_FILE))
    }

    /// Whether the feature has the artifact `a` (whatever its kind of entry).
    pub fn has_artifact(&self, a: Artifact) -> bool {
        fs::exists_entry(&self.artifact_path(a))
    }

    /// Writes `text` to `name` in the feature's scratch folder (a whole
    /// diff for a reviewer); returns its path.
    pub fn write_scratch(&self, name: &str, text: &str) -> Result<PathBuf, StoreError> {
        let dir = self.scratch_dir();
        fs::create_dir_all(&dir)?;
        let path = dir.join(name);
        fs::write_atomic(&path, text.as_bytes())?;
        Ok(path)
    }

    /// A file of the feature's folder by name (an artifact, `retro.md`,
    /// `ideation.json`), through no link out of the repository; None when
    /// it does not exist.
    pub fn read_file(&self, name: &str) -> Result<Option<String>, StoreError> {
        let path = self.dir.join(name);
        fs::confine(&self.root, &path)?;
        fs::read_optional(&path)
    }

    /// Whether the feature's folder holds `name` as a regular file (a
    /// task's review reply, the retrospective's record).
    pub fn has_file(&self, name: &str) -> bool {
        fs::is_regular_file(&self.dir.join(name))
    }

    /// The scratch file `name` (a phase's diff) when it is there, a regular
    /// file.
    pub fn scratch_file(&self, name: &str) -> Option<PathBuf> {
        let path = self.scratch_dir().join(name);
        fs::is_regular_file(&path).then_some(path)
    }

    /// The feature's artifact `a` (`spec.md`, `tasks.md`, ...); None when
    /// it does not exist.
    pub fn read_artifact(&self, a: Artifact) -> Result<Option<String>, StoreError> {
        self.read_file(a.file_name())
    }

    /// The phase loop's scratch files in the feature's folder: a reviewer's
    /// reply (`.verdict.json`), briefs (`.*-brief.md`), round-loop and
    /// review replies (`.*.reply.md`, `.*.review.md`). Regular files only.
    pub fn scratch_files(&self) -> Result<Vec<PathBuf>, StoreError> {
        let scratch = |name: &str| {
            name == VERDICT_FILE
                || (name.starts_with('.')
                    && (name.ends_with("-brief.md") || name.ends_with(".reply.md") || name.ends_with(".review.md")))
        };
        let files = fs::regular_files(&self.dir)?;
        Ok(files.into_iter().filter(|(name, _)| scratch(name)).map(|(_, path)| path).collect())
    }

    /// The feature's folder relative to the project's root, for messages.
    pub fn shown_dir(&self) -> PathBuf {
        fs::relative(&self.dir, &self.root)
    }

    /// Checks that the folder does not lead out of the repository.
    pub fn confine(&self) -> Result<(), StoreError> {
        fs::confine(&self.root, &self.meta_path())
    }

    /// Whether an interrupted multi-file change of this feature waits to be
    /// replayed (the next writer replays it).
    pub fn has_pending_change(&self) -> bool {
        fs::exists_entry(&self.journal().path())
    }

    /// Reads `.meta.json` without taking the lock (a reader sees the old or
    /// the new file, never half of one, because writers rename). A change
    /// interrupted by a crash is replayed first, under the lock.
    pub fn load(&self) -> Result<Meta, StoreError> {
        if self.has_pending_change() {
            drop(self.lock(crate::lock::DEFAULT_TIMEOUT)?);
        }
        self.read_meta()
    }

    fn read_meta(&self) -> Result<Meta, StoreError> {
        self.confine()?;
        let path = self.meta_path();
        parse_meta(&path, &self.name, &fs::read_to_string(&path)?)
    }

    /// Reads `.meta.json` but builds the whole model only when the feature is
    /// active; an inactive one is recognised from its status alone.
    pub fn load_if_active(&self) -> Result<Option<Meta>, StoreError> {
        #[derive(serde::Deserialize)]
        struct Head {
            status: Status,
        }
        self.confine()?;
        let path = self.meta_path();
        let text = fs::read_to_string(&path)?;
        match serde_json::from_str::<Head>(&text) {
            Ok(Head { status: Status::Completed | Status::Abandoned }) if !self.has_pending_change() => Ok(None),
            // Active, broken, or with a change to replay: the full read says which.
            Ok(Head { .. }) | Err(_) => self.load().map(|m| (m.status == Status::Active).then_some(m)),
        }
    }

    /// The artifacts present in the folder (non-empty regular files only).
    pub fn artifacts(&self) -> ArtifactSet {
        Artifact::ALL
            .into_iter()
            .filter(|a| {
                std::fs::symlink_metadata(self.artifact_path(*a)).is_ok_and(|m| m.file_type().is_file() && m.len() > 0)
            })
            .collect()
    }

    /// Takes the feature's lock, replaying a change a crashed writer left.
    pub fn lock(&self, timeout: Duration) -> Result<FeatureGuard<'_>, StoreError> {
        self.confine()?;
        let lock = FileLock::acquire(&self.lock_path(), timeout)?;
        journal::recover(&self.journal(), &self.root)?;
        Ok(FeatureGuard { feature: self, _lock: lock })
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
        self.feature.read_meta()
    }

    /// The change that writes `meta` (to combine with others in [`Self::commit`]).
    pub fn meta_change(&self, meta: &Meta) -> FileWrite {
        FileWrite::put(self.feature.meta_path(), render_meta(meta))
    }

    pub fn save(&self, meta: &Meta) -> Result<(), StoreError> {
        self.commit_with_meta("save .meta.json", meta, Vec::new())
    }

    /// Writes `meta` together with `others`, all or nothing, and keeps the
    /// index of active features in step with the status.
    pub fn commit_with_meta(&self, operation: &str, meta: &Meta, others: Vec<FileWrite>) -> Result<(), StoreError> {
        let mut changes = vec![self.meta_change(meta)];
        changes.extend(others);
        self.commit(operation, changes)?;
        index::note(&self.feature.runtime, &self.feature.name, meta.status == Status::Active)
    }

    /// Applies `changes` as one (through the journal when there are several),
    /// with the witness of each state file it writes (see
    /// [`crate::witness`]).
    pub fn commit(&self, operation: &str, changes: Vec<FileWrite>) -> Result<(), StoreError> {
        let mut changes = changes;
        let witnessed = self.feature.witness(operation, &changes, chrono::Utc::now());
        changes.extend(witnessed);
        journal::commit(&self.feature.journal(), &self.feature.root, operation, changes)?;
        // Temporary files of writers that were killed before their rename;
        // no other writer of this folder can be running while we hold the lock.
        fs::remove_temporaries(&self.feature.dir);
        Ok(())
    }

    /// The review history, empty when there is none yet.
    pub fn read_history(&self) -> Result<String, StoreError> {
        Ok(fs::read_optional(&self.feature.history_path())?.unwrap_or_default())
    }
}

pub(crate) fn render_meta(meta: &Meta) -> String {
    let mut out = serde_json::to_string_pretty(meta).expect("a Meta always serialises");
    out.push('\n');
    out
}

/// Parses `.meta.json` of the folder `folder`. On failure the message says
/// where the problem is: the JSON position, each field against the schema,
/// or the rule broken.
pub fn parse_meta(path: &Path, folder: &str, text: &str) -> Result<Meta, StoreError> {
    feature::parse_meta(text, folder).map_err(|e| StoreError::Corrupt {
        path: path.to_owned(),
        detail: match e {
            MetaParseError::Syntax(s) => format!("invalid JSON: {s}"),
            MetaParseError::Schema(s) => s.to_string(),
            MetaParseError::Rule(r) => r,
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corrupt_files_are_reported_with_path_and_position() {
        let p = Path::new("/r/docs/features/001-a/.meta.json");
        let err = parse_meta(p, "001-a", "{\"id\": \"001\",").unwrap_err().to_string();
        assert!(err.contains("/r/docs/features/001-a/.meta.json") && err.contains("line 1"), "{err}");
        let err = parse_meta(p, "001-a", r#"{"id": "001", "slug": "a", "status": "done"}"#).unwrap_err().to_string();
        assert!(err.contains("at /status") && err.contains("\"active\""), "{err}");
    }
}
