//! The index of active features (`<runtime>/index.json`), so that the
//! SessionStart hook reads one small file and the few active features, not
//! every `.meta.json` of the project.
//!
//! It is a cache, never the truth: a listed feature's `.meta.json` is read
//! anyway, so a feature that stopped being active drops out on reading. What
//! the index must not miss is a feature that became active. Features become
//! active only when they are created (a new folder: the features folder's
//! modification time changes) or when git brings other files (a checkout or
//! a branch switch: HEAD changes). The index records both, and any difference
//! makes it stale: it is then rebuilt from a full scan. Writers that change a
//! feature's status note it here under the index lock. A hand edit that makes
//! a completed feature active again is seen at the next rebuild
//! (`workflow-state status` refreshes the index).

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::error::StoreError;
use crate::fs;
use crate::lock::FileLock;

const VERSION: u32 = 1;
/// Writers of the index wait this long at most; the index is a cache, so a
/// busy lock only means someone else is writing it.
const LOCK_WAIT: Duration = Duration::from_millis(500);

/// What the index was built against.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Stamp {
    /// Modification time of the features folder, in nanoseconds (None: no folder).
    pub features_mtime_ns: Option<u128>,
    /// The main checkout's `HEAD` file (which branch or commit is checked out).
    pub head: Option<String>,
}

impl Stamp {
    /// The stamp of a project now.
    pub fn now(features_dir: &Path, head_file: Option<&Path>) -> Stamp {
        let features_mtime_ns = std::fs::metadata(features_dir)
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map(|d| d.as_nanos());
        let head = head_file.and_then(|p| fs::read_optional(p).ok().flatten());
        Stamp { features_mtime_ns, head }
    }
}

/// The index file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Index {
    pub version: u32,
    pub stamp: Stamp,
    /// Folder names of the active features, in feature order.
    pub active: Vec<String>,
    /// Folder names whose `.meta.json` could not be read at the last scan.
    #[serde(default)]
    pub unreadable: Vec<String>,
}

pub fn path(runtime: &Path) -> PathBuf {
    runtime.join("index.json")
}

fn lock_path(runtime: &Path) -> PathBuf {
    runtime.join("locks").join("index.lock")
}

/// The index, when it exists, can be read, and matches `stamp`.
pub fn read_fresh(runtime: &Path, stamp: &Stamp) -> Option<Index> {
    let text = fs::read_optional(&path(runtime)).ok()??;
    let index: Index = serde_json::from_str(&text).ok()?;
    (index.version == VERSION && index.stamp == *stamp).then_some(index)
}

/// Writes a freshly scanned index (best effort: a busy lock or a write error
/// leaves the old one, which the next reader finds stale again).
pub fn write(runtime: &Path, stamp: Stamp, active: Vec<String>, unreadable: Vec<String>) {
    let Ok(_lock) = FileLock::acquire(&lock_path(runtime), LOCK_WAIT) else { return };
    let index = Index { version: VERSION, stamp, active, unreadable };
    let _ = fs::write_atomic(&path(runtime), &serde_json::to_vec(&index).expect("an index always serialises"));
}

/// Records that `name` is (or is no longer) active, in an existing index. A
/// missing or unreadable index is left for the next rebuild.
pub fn note(runtime: &Path, name: &str, active: bool) -> Result<(), StoreError> {
    change(runtime, |index| {
        let listed = index.active.iter().any(|n| n == name);
        index.unreadable.retain(|n| n != name);
        match (listed, active) {
            (false, true) => {
                index.active.push(name.to_owned());
                index.active.sort_by_key(|n| phasegate_core::slug::feature_order(n));
            }
            (true, false) => index.active.retain(|n| n != name),
            (true, true) | (false, false) => {}
        }
    })
}

/// Records a new active feature whose folder was just created: the index
/// stays fresh only if it was fresh before the folder appeared.
pub fn note_created(runtime: &Path, name: &str, before: &Stamp, after: Stamp) -> Result<(), StoreError> {
    change(runtime, |index| {
        if index.stamp == *before {
            index.stamp = after.clone();
            if !index.active.iter().any(|n| n == name) {
                index.active.push(name.to_owned());
                index.active.sort_by_key(|n| phasegate_core::slug::feature_order(n));
            }
        }
    })
}

fn change(runtime: &Path, edit: impl FnOnce(&mut Index)) -> Result<(), StoreError> {
    let file = path(runtime);
    if !fs::exists_entry(&file) {
        return Ok(());
    }
    let _lock = FileLock::acquire(&lock_path(runtime), LOCK_WAIT)?;
    let Ok(Some(text)) = fs::read_optional(&file) else { return Ok(()) };
    let Ok(mut index) = serde_json::from_str::<Index>(&text) else { return Ok(()) };
    let before = index.clone();
    edit(&mut index);
    if index != before {
        fs::write_atomic(&file, &serde_json::to_vec(&index).expect("an index always serialises"))?;
    }
    Ok(())
}
