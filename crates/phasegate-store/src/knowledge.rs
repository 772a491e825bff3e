//! The knowledge base on disk: one Markdown file per item in
//! `.phasegate/knowledge/` (tracked by git, so a team shares the lessons and
//! reviews them in a diff), written atomically under the project's
//! knowledge lock (through a journal when a change spans items), and a
//! derived index in git's runtime folder: a cache, rebuilt whenever it is
//! stale, never the truth.
//!
//! Each worktree has its own checkout of the items, so each has its own
//! index (named after its root). The index is fresh while its manifest
//! records the folder's modification time and item count as they are: every
//! write through phasegate renames a file into the folder (which changes its
//! time), and so does git's checkout. A hand edit in place is noticed by the
//! commands, which compare every item's time with the manifest (the hooks
//! look at the folder only, to stay fast).

use std::path::{Path, PathBuf};
use std::time::{Duration, UNIX_EPOCH};

use phasegate_core::knowledge::{KnowledgeIndex, KnowledgeItem, KnowledgeItemError, MAX_ITEM_BYTES, Shard, file_name};
use serde::{Deserialize, Serialize};

use crate::error::{IoContext, StoreError};
use crate::fs;
use crate::journal::{self, FileWrite, JournalFile};
use crate::lock::FileLock;
use crate::project::Project;

/// Where the items live, relative to the root of a working tree. The index
/// lives apart, in the runtime folder (`<git common dir>/phasegate/
/// knowledge-index/<hash of the tree's root>/`), so writing it never touches
/// the items folder's time.
pub const KNOWLEDGE_DIR: &str = ".phasegate/knowledge";

/// An item read from its file.
#[derive(Debug, Clone)]
pub struct StoredItem {
    pub path: PathBuf,
    pub item: KnowledgeItem,
}

/// A file in the folder that cannot be used, and why (never dropped
/// silently: every command that reads the folder names it).
#[derive(Debug, Clone)]
pub struct BadItem {
    pub path: PathBuf,
    pub error: String,
}

/// What an index was built from: the folder as a listing and a few stats
/// see it, so that freshness is checked without reading an item.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifest {
    pub version: u32,
    /// The items folder's modification time (nanoseconds since the epoch).
    pub dir_mtime_ns: u128,
    /// How many `.md` files it holds.
    pub files: usize,
    /// The newest `.md` file's modification time.
    pub newest_ns: u128,
}

impl Manifest {
    /// The folder as it is now (a listing and one stat per file).
    pub fn scan(items_dir: &Path) -> Manifest {
        let mut files = 0;
        let mut newest_ns = 0;
        if let Ok(entries) = std::fs::read_dir(items_dir) {
            for e in entries.flatten() {
                let name = e.file_name();
                let name = name.to_string_lossy();
                if name.starts_with('.') || !name.ends_with(".md") {
                    continue;
                }
                files += 1;
                newest_ns = newest_ns.max(mtime_ns(&e.path()).unwrap_or(0));
            }
        }
        Manifest {
            version: phasegate_core::knowledge::INDEX_VERSION,
            dir_mtime_ns: mtime_ns(items_dir).unwrap_or(0),
            files,
            newest_ns,
        }
    }
}

impl Project {
    /// The items folder of the working tree rooted at `root` (the main
    /// checkout or a linked worktree).
    pub fn knowledge_dir_in(root: &Path) -> PathBuf {
        root.join(KNOWLEDGE_DIR)
    }

    /// Every item of the folder, by file name; what cannot be read apart.
    /// Only regular files named `<id>.md` count; a link or folder in their
    /// place is reported.
    pub fn knowledge_items_in(&self, dir: &Path) -> Result<(Vec<StoredItem>, Vec<BadItem>), StoreError> {
        // Confined to the working tree the folder belongs to (a linked
        // worktree's lies outside the main checkout): a link out of it is
        // refused.
        let tree = dir.parent().and_then(Path::parent).unwrap_or(self.root());
        fs::confine(tree, dir)?;
        let entries = match std::fs::read_dir(dir) {
            Ok(e) => e,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((Vec::new(), Vec::new())),
            Err(e) => return Err(e).at("list", dir),
        };
        let mut good = Vec::new();
        let mut bad = Vec::new();
        for entry in entries {
            let entry = entry.at("list", dir)?;
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') || !name.ends_with(".md") {
                continue;
            }
            let path = entry.path();
            // Bounded before anything is read: a file of any size may arrive
            // by `git pull`.
            match fs::read_optional_up_to(&path, MAX_ITEM_BYTES as u64) {
                Ok(Some(text)) => match KnowledgeItem::parse(&text) {
                    Ok(item) if file_name(&item.id) == name => good.push(StoredItem { path, item }),
                    Ok(item) => bad.push(BadItem {
                        error: format!(
                            "its id is `{}` but the file is named {name}; an item's file is named after its id",
                            item.id
                        ),
                        path,
                    }),
                    Err(e) => bad.push(BadItem { error: e.to_string(), path }),
                },
                Ok(None) => {}
                Err(StoreError::TooLarge { size, .. }) => bad.push(BadItem {
                    error: KnowledgeItemError::TooLarge { size: size as usize, max: MAX_ITEM_BYTES }.to_string(),
                    path,
                }),
                Err(e) => bad.push(BadItem { error: e.to_string(), path }),
            }
        }
        good.sort_by(|a, b| a.item.id.cmp(&b.item.id));
        bad.sort_by(|a, b| a.path.cmp(&b.path));
        Ok((good, bad))
    }

    /// The knowledge base's lock: every change of items holds it (read,
    /// decide, write), so two sessions recording at once lose nothing.
    /// A change a crash left half done is finished first (or undone), so
    /// what the holder reads is whole; an unreadable journal is an error,
    /// never written over.
    pub fn knowledge_lock(&self, timeout: Duration) -> Result<FileLock, StoreError> {
        let lock = FileLock::acquire(&self.lock_dir().join("knowledge.lock"), timeout)?;
        journal::recover(&self.knowledge_journal(), self.root())?;
        Ok(lock)
    }

    fn knowledge_journal(&self) -> JournalFile {
        JournalFile::new(self.runtime_dir(), "knowledge")
    }

    /// Writes item changes as one (through the journal when several), under
    /// the knowledge lock the caller holds.
    pub fn commit_knowledge(&self, operation: &str, dir: &Path, items: &[KnowledgeItem]) -> Result<(), StoreError> {
        std::fs::create_dir_all(dir).at("create", dir)?;
        let changes: Vec<FileWrite> =
            items.iter().map(|i| FileWrite::put(dir.join(file_name(&i.id)), i.render())).collect();
        // Never an item its readers would refuse.
        for c in &changes {
            if let Some(text) = c.contents.as_ref().filter(|t| t.len() > MAX_ITEM_BYTES) {
                return Err(StoreError::WouldBeTooLarge {
                    path: c.path.clone(),
                    size: text.len() as u64,
                    max: MAX_ITEM_BYTES as u64,
                });
            }
        }
        journal::commit(&self.knowledge_journal(), self.root(), operation, changes)
    }

    /// Where the index of the working tree rooted at `root` lives.
    pub fn knowledge_index_dir(&self, root: &Path) -> PathBuf {
        index_dir(&self.runtime_dir(), root)
    }

    /// Writes a freshly built index, with the files it could not read. The
    /// shards are written to a folder of their own, not flushed, and
    /// swapped in with two renames, so a reader sees the old index or the
    /// new one whole. Callers may ignore the error (the cache can always be
    /// built again), but nothing is written through a link: the runtime and
    /// index folders are phasegate's own.
    pub fn write_knowledge_index(
        &self,
        root: &Path,
        index: &KnowledgeIndex,
        manifest: &Manifest,
        unreadable: &[String],
    ) -> Result<(), StoreError> {
        let runtime = self.runtime_dir();
        let dir = index_dir(&runtime, root);
        fs::own_path(runtime.parent().unwrap_or(&runtime), &dir)?;
        let Some(parent) = dir.parent() else { return Ok(()) };
        let name = dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        fs::create_dir_all(parent)?;
        sweep_leftovers(parent, &name, std::time::SystemTime::now());
        let building = parent.join(format!(".{name}.building-{}", std::process::id()));
        if fs::exists_entry(&building) {
            let _ = std::fs::remove_dir_all(&building);
        }
        // A new folder, never one (or a link) that was there.
        std::fs::create_dir(&building).at("create", &building)?;
        let written = (|| -> Result<(), StoreError> {
            for (file, shard) in index.gotchas.iter().chain(index.topics.iter()) {
                let path = building.join(file);
                std::fs::write(&path, serde_json::to_vec(shard).expect("serialises")).at("write", path)?;
            }
            let path = building.join(UNREADABLE);
            std::fs::write(&path, serde_json::to_vec(unreadable).expect("serialises")).at("write", path)?;
            let path = building.join(MANIFEST);
            std::fs::write(&path, serde_json::to_vec(manifest).expect("serialises")).at("write", path)
        })();
        if let Err(e) = written {
            let _ = std::fs::remove_dir_all(&building);
            return Err(e);
        }
        let old = parent.join(format!(".{name}.old-{}", std::process::id()));
        // A link in the index's place is moved away as a link, never
        // followed.
        let had = std::fs::rename(&dir, &old).is_ok();
        let swapped = std::fs::rename(&building, &dir).at("replace", &dir);
        if swapped.is_err() {
            let _ = std::fs::remove_dir_all(&building);
        }
        if had {
            let _ = std::fs::remove_dir_all(&old);
        }
        swapped
    }
}

/// How long a rebuild's own folders may stand untouched before another
/// rebuild takes them for a killed one's: a rebuild of 10,000 items takes
/// well under a second.
const LEFTOVER_AGE: Duration = Duration::from_secs(600);

/// Removes the folders a killed rebuild of the index `name` left beside it
/// (`.<name>.building-<pid>`, `.<name>.old-<pid>`) once they are
/// [`LEFTOVER_AGE`] old; a running rebuild's are younger. Best effort: the
/// index is a cache.
fn sweep_leftovers(parent: &Path, name: &str, now: std::time::SystemTime) {
    let Ok(entries) = std::fs::read_dir(parent) else { return };
    let (building, old) = (format!(".{name}.building-"), format!(".{name}.old-"));
    for entry in entries.flatten() {
        let file_name = entry.file_name();
        let file_name = file_name.to_string_lossy();
        if !(file_name.starts_with(&building) || file_name.starts_with(&old)) {
            continue;
        }
        // Only a real folder (never a link's target) of the right age.
        let stale = entry
            .metadata()
            .ok()
            .filter(|m| m.is_dir())
            .and_then(|m| m.modified().ok())
            .is_some_and(|at| now.duration_since(at).is_ok_and(|age| age >= LEFTOVER_AGE));
        if stale {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

const MANIFEST: &str = "manifest";
const UNREADABLE: &str = "unreadable";

/// The files the index at `index_dir` could not read when it was built.
pub fn read_unreadable(index_dir: &Path) -> Vec<String> {
    fs::read_optional(&index_dir.join(UNREADABLE))
        .ok()
        .flatten()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_default()
}

/// The index folder for the working tree at `root`, under `runtime`.
pub fn index_dir(runtime: &Path, root: &Path) -> PathBuf {
    // One name however the root is spelled (git's work directory ends with a
    // slash; a hook's path may run through a link).
    let root = root.canonicalize().unwrap_or_else(|_| root.to_owned());
    let key = root.to_string_lossy();
    runtime.join("knowledge-index").join(format!("{:016x}", phasegate_core::hash::fnv1a64(key.as_bytes())))
}

/// A file's or folder's modification time in nanoseconds.
pub fn mtime_ns(path: &Path) -> Option<u128> {
    std::fs::metadata(path).and_then(|m| m.modified()).ok()?.duration_since(UNIX_EPOCH).ok().map(|d| d.as_nanos())
}

/// The manifest of the index at `index_dir`, if it can be read.
pub fn read_manifest(index_dir: &Path) -> Option<Manifest> {
    let text = fs::read_optional(&index_dir.join(MANIFEST)).ok()??;
    serde_json::from_str(&text).ok()
}

/// The hooks' freshness check: the folder's time as the manifest says (one
/// stat and one small read).
pub fn fresh_by_folder(index_dir: &Path, items_dir: &Path) -> Option<Manifest> {
    let manifest = read_manifest(index_dir)?;
    (manifest.version == phasegate_core::knowledge::INDEX_VERSION
        && mtime_ns(items_dir).unwrap_or(0) == manifest.dir_mtime_ns)
        .then_some(manifest)
}

/// One shard of the index at `index_dir` by its file name (None: no such
/// shard; the index holds no item for it).
pub fn read_shard(index_dir: &Path, name: &str) -> Option<Shard> {
    let text = fs::read_optional(&index_dir.join(name)).ok()??;
    serde_json::from_str(&text).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_killed_rebuilds_folders_were_left_beside_the_index_forever() {
        let parent = tempfile::tempdir().unwrap();
        let p = parent.path();
        for leftover in [".abc.building-4242", ".abc.old-4242", ".abc.building-7", ".other.building-4242", "abc"] {
            std::fs::create_dir_all(p.join(leftover)).unwrap();
        }
        let now = std::time::SystemTime::now();
        // A rebuild under way (younger than the limit) is left alone.
        sweep_leftovers(p, "abc", now);
        assert!(p.join(".abc.building-4242").exists());
        // Ten minutes on, its folders are a killed rebuild's: removed; the
        // index itself and another index's folders stay.
        sweep_leftovers(p, "abc", now + LEFTOVER_AGE);
        let mut left: Vec<String> =
            std::fs::read_dir(p).unwrap().flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect();
        left.sort();
        assert_eq!(left, vec![".other.building-4242", "abc"]);
    }

    // A `knowledge-index` folder that is a link out of the repository was
    // written through.
    #[cfg(unix)]
    #[test]
    fn a_linked_index_folder_was_written_through() {
        let dir = tempfile::tempdir().unwrap();
        let outer = dir.path().canonicalize().unwrap();
        let root = outer.join("repo");
        let elsewhere = outer.join("elsewhere");
        std::fs::create_dir_all(root.join(".phasegate")).unwrap();
        std::fs::create_dir_all(&elsewhere).unwrap();
        // Outside git the runtime folder is the tree's `.phasegate`.
        std::os::unix::fs::symlink(&elsewhere, root.join(".phasegate/knowledge-index")).unwrap();
        let project = Project::discover(&root).unwrap();
        let manifest = Manifest::scan(&Project::knowledge_dir_in(&root));
        let err =
            project.write_knowledge_index(&root, &KnowledgeIndex::default(), &manifest, &[]).unwrap_err().to_string();
        assert!(err.contains("knowledge-index is a symbolic link"), "{err}");
        assert_eq!(std::fs::read_dir(&elsewhere).unwrap().count(), 0, "nothing written there");
    }
}
