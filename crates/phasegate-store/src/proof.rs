//! The evidence ledger on disk (`docs/features/<feature>/evidence.json`),
//! the proof settings, the lock one `verify run` of a feature holds, the
//! JUnit reports checks write, and the identity of the tree a proof is
//! about.

use std::path::{Path, PathBuf};

use phasegate_core::proof::{self, EVIDENCE_FILE, Ledger, VERIFY_CONFIG_PATH, VerifyConfig};
use phasegate_core::words::Command;

use crate::error::{IoContext, StoreError};
use std::time::Duration;

use crate::feature::Feature;
use crate::git::{self, TreeIdentity};
use crate::lock::FileLock;
use crate::{Project, fs};

/// What the gates rest on: the ledger's lock and tree, verify's
/// configuration.
#[derive(Debug, Clone, Copy)]
pub struct Proof<'p> {
    pub(crate) project: &'p Project,
}

impl Project {
    /// What the gates rest on.
    pub fn proof(&self) -> Proof<'_> {
        Proof { project: self }
    }
}

/// The most of a ledger read (200 requirements with long outputs are far
/// below it).
const MAX_LEDGER_BYTES: u64 = 32 * 1024 * 1024;
/// The most of a JUnit report read.
const MAX_REPORT_BYTES: u64 = 16 * 1024 * 1024;

impl Feature {
    pub fn evidence_path(&self) -> PathBuf {
        self.dir().join(EVIDENCE_FILE)
    }

    /// The ledger; None before the first `verify run`. A ledger that
    /// cannot be read is an error naming it, never taken for none.
    pub fn ledger(&self) -> Result<Option<Ledger>, StoreError> {
        let path = self.evidence_path();
        let Some(text) = fs::read_optional_up_to(&path, MAX_LEDGER_BYTES)? else { return Ok(None) };
        Ledger::parse(&text).map(Some).map_err(|e| StoreError::Corrupt {
            path,
            detail: format!(
                "{e}; only `{verify_run}` and `verify waive` write it: restore it from git, or remove it and run `verify run` again (a waiver in it is then asked again)", verify_run = Command::new("verify run")),
        })
    }
}

/// The lock every writer of a feature's ledger holds: one `verify run` at
/// a time (for its whole run), and a waiver waits for it. Not the
/// feature's lock: a run takes minutes, and the pipeline's test step runs
/// one while it holds the feature's.
#[derive(Debug)]
pub struct LedgerLock<'a> {
    feature: &'a Feature,
    _lock: FileLock,
}

impl LedgerLock<'_> {
    /// Replaces the ledger, atomically, with its witness (one journal: the
    /// two agree after a crash).
    pub fn write(&self, ledger: &Ledger) -> Result<(), StoreError> {
        self.feature.confine()?;
        let mut text = serde_json::to_string_pretty(ledger).expect("a ledger serialises");
        text.push('\n');
        let mut changes = vec![crate::FileWrite::put(self.feature.evidence_path(), text)];
        let witnessed = self.feature.witness("verify run", &changes, chrono::Utc::now());
        changes.extend(witnessed);
        crate::journal::commit(&ledger_journal(self.feature), self.feature.root(), "write the evidence ledger", changes)
    }
}

/// The journal of a ledger's writes (under the ledger's lock, not the
/// feature's).
fn ledger_journal(feature: &Feature) -> crate::journal::JournalFile {
    crate::journal::JournalFile::new(feature.runtime(), &format!("{}.ledger", feature.name()))
}

/// Replays a ledger write a crash interrupted (holding the ledger's lock).
fn recover_ledger(feature: &Feature) -> Result<(), StoreError> {
    crate::journal::recover(&ledger_journal(feature), feature.root()).map(drop)
}

impl Proof<'_> {
    /// The proof settings (defaults when there is no file).
    pub fn verify_config(&self) -> Result<VerifyConfig, StoreError> {
        let path = self.project.root().join(VERIFY_CONFIG_PATH);
        fs::confine(self.project.root(), &path)?;
        match fs::read_optional(&path)? {
            None => Ok(VerifyConfig::default()),
            Some(text) => VerifyConfig::parse(&text)
                .map_err(|e| StoreError::Corrupt { path: path.clone(), detail: e.to_string() }),
        }
    }

    fn ledger_lock_path(&self, feature: &Feature) -> PathBuf {
        self.project.lock_dir().join(format!("verify-{}.lock", feature.name()))
    }

    /// The ledger's lock for a `verify run`; None when another run holds it.
    pub fn try_ledger_lock<'a>(&self, feature: &'a Feature) -> Result<Option<LedgerLock<'a>>, StoreError> {
        let Some(lock) = FileLock::try_acquire(&self.ledger_lock_path(feature))? else { return Ok(None) };
        recover_ledger(feature)?;
        Ok(Some(LedgerLock { feature, _lock: lock }))
    }

    /// The ledger's lock, waiting at most `timeout` for a run to end.
    pub fn ledger_lock<'a>(&self, feature: &'a Feature, timeout: Duration) -> Result<LedgerLock<'a>, StoreError> {
        let lock = FileLock::acquire(&self.ledger_lock_path(feature), timeout)?;
        recover_ledger(feature)?;
        Ok(LedgerLock { feature, _lock: lock })
    }

    /// The identity of the working tree `code_dir` (the feature's worktree,
    /// or the main checkout), as `feature`'s proof sees it: what
    /// [`proof::counts`] leaves in. When the feature's folder is not in that
    /// tree (a worktree's feature keeps its documents in the main
    /// checkout), its documents are added, so a changed spec still counts.
    pub fn tree(&self, code_dir: &Path, feature: &Feature) -> Result<TreeIdentity, StoreError> {
        let features =
            fs::relative(&self.project.features_dir(), self.project.root()).to_string_lossy().replace('\\', "/");
        let name = feature.name().to_owned();
        let tree = git::tree_identity(code_dir, &|p: &str| !proof::counts(p, &features, &name))?;
        let mut files = tree.files;
        // A pipeline's requirements and plan count even where git ignores
        // its `.task/` folder: they say what must be proven and how.
        for source in proof::PIPELINE_SOURCES {
            let path = feature.dir().join(source);
            let rel = format!("{features}/{name}/{source}");
            if let Ok(meta) = std::fs::symlink_metadata(&path)
                && meta.is_file()
                && !files.contains_key(&rel)
            {
                files.insert(rel, git::blob_entry(&path, &meta)?);
            }
        }
        if feature.dir().starts_with(code_dir) {
            return Ok(TreeIdentity::of(files));
        }
        for (file, path) in fs::regular_files(feature.dir())? {
            let rel = format!("{features}/{name}/{file}");
            if proof::counts(&rel, &features, &name) {
                let meta = std::fs::symlink_metadata(&path).at("read", &path)?;
                files.insert(format!("(main checkout) {rel}"), git::blob_entry(&path, &meta)?);
            }
        }
        Ok(TreeIdentity::of(files))
    }
}

/// A JUnit report a check wrote, `rel` from `dir` (the check's folder):
/// confined to `dir`'s tree, a regular file, bounded.
pub fn read_report(dir: &Path, rel: &str) -> Result<Option<String>, StoreError> {
    let path = dir.join(rel);
    fs::confine(dir, &path)?;
    fs::read_optional_up_to(&path, MAX_REPORT_BYTES)
}
