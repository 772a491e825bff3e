//! The knowledge base on disk: one Markdown file per item in
//! `.phasegate/knowledge/` (tracked by git, so a team shares the lessons and
//! reviews them in a diff), written atomically under the project's
//! knowledge lock (through a journal when a change spans items), and a
//! derived index in git's runtime folder: a cache, rebuilt whenever it is
//! stale, never the truth.
//!
//! Each worktree has its own checkout of the items, so each has its own
//! index (named after its root); see [`index`] for its files and when it is
//! fresh.

pub mod given;
mod index;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use phasegate_core::knowledge::{KnowledgeItem, KnowledgeItemError, MAX_ITEM_BYTES, file_name, fingerprint};
use phasegate_core::words::Command;

pub use index::{IndexDir, IndexFault, Manifest, check_index, index_dir, mtime_ns};

use crate::error::{IoContext, StoreError};
use crate::fs;
use crate::journal::{self, FileWrite, JournalFile};
use crate::lock::FileLock;
use crate::project::Project;

/// The knowledge base: its items, their index and what was given to whom.
#[derive(Debug, Clone, Copy)]
pub struct Knowledge<'p> {
    pub(crate) project: &'p Project,
}

impl Project {
    /// The knowledge base.
    pub fn knowledge(&self) -> Knowledge<'_> {
        Knowledge { project: self }
    }
}

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
    /// The file's fingerprint (`phasegate_core::knowledge::fingerprint`).
    pub fingerprint: u64,
}

/// A file in the folder that cannot be used, and why (never dropped
/// silently: every command that reads the folder names it).
#[derive(Debug, Clone)]
pub struct BadItem {
    pub path: PathBuf,
    pub error: String,
}

/// The items folder of the working tree rooted at `root` (the main
/// checkout or a linked worktree).
pub fn dir_in(root: &Path) -> PathBuf {
    root.join(KNOWLEDGE_DIR)
}

/// The items folder of the working tree at `root` when it has one: a link
/// out of the tree is refused, naming it.
pub fn items_dir_of(root: &Path) -> Result<Option<PathBuf>, StoreError> {
    let items = dir_in(root);
    fs::confine(root, &items)?;
    Ok(fs::is_dir(&items).then_some(items))
}

/// Item `id`'s file in the items folder `items` and its text, read up to
/// an item's bound; None when it is not there or cannot be read (a query
/// that finds it missing builds the index again).
pub fn read_item(items: &Path, id: &str) -> Option<(PathBuf, String)> {
    let file = items.join(file_name(id));
    let text = fs::read_optional_up_to(&file, MAX_ITEM_BYTES as u64).ok()??;
    Some((file, text))
}

/// Whether the tree at `root` has a knowledge folder of its own: a folder,
/// and not through a link out of the tree (an index built before the link
/// was made must not answer for it). Two stats on the common path. A
/// knowledge folder that leads out of the repository, or an index folder
/// (`knowledge-index` in `runtime`) that is a link, is an error naming it.
pub fn own_folder(root: &Path, items: &Path, runtime: &Path) -> Result<bool, StoreError> {
    let dot = items.parent().unwrap_or(items);
    use fs::EntryKind;
    let own = match (fs::entry_kind(dot), fs::entry_kind(items)) {
        (Some(EntryKind::Dir), Some(EntryKind::Dir)) => true,
        (Some(d), Some(i)) if d == EntryKind::Link || i == EntryKind::Link => {
            fs::confine(root, items)?;
            fs::is_dir(items)
        }
        _ => false,
    };
    if own {
        fs::own_path(runtime, &runtime.join("knowledge-index"))?;
    }
    Ok(own)
}

impl Knowledge<'_> {
    /// Every item of the folder, by file name; what cannot be read apart.
    /// Only regular files named `<id>.md` count; a link or folder in their
    /// place is reported.
    pub fn items_in(&self, dir: &Path) -> Result<(Vec<StoredItem>, Vec<BadItem>), StoreError> {
        let (items, bad, _) = self.items_until(dir, None)?;
        Ok((items, bad))
    }

    /// [`Knowledge::items_in`] that stops reading at `deadline`
    /// (a hook's): the files it did not get to are reported as not read, and
    /// the third value says whether it read them all.
    pub fn items_until(
        &self,
        dir: &Path,
        deadline: Option<Instant>,
    ) -> Result<(Vec<StoredItem>, Vec<BadItem>, bool), StoreError> {
        // Confined to the working tree the folder belongs to (a linked
        // worktree's lies outside the main checkout): a link out of it is
        // refused.
        let tree = dir.parent().and_then(Path::parent).unwrap_or(self.project.root());
        fs::confine(tree, dir)?;
        let entries = match std::fs::read_dir(dir) {
            Ok(e) => e,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((Vec::new(), Vec::new(), true)),
            Err(e) => return Err(e).at("list", dir),
        };
        let mut good = Vec::new();
        let mut bad = Vec::new();
        let mut complete = true;
        for entry in entries {
            let entry = entry.at("list", dir)?;
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') || !name.ends_with(".md") {
                continue;
            }
            let path = entry.path();
            if deadline.is_some_and(|d| Instant::now() >= d) {
                complete = false;
                bad.push(BadItem {
                    error: format!(
                        "not read: a hook stops reading items when its time runs out; any `{}` command reads it",
                        Command::new("kb")
                    ),
                    path,
                });
                continue;
            }
            // Bounded before anything is read: a file of any size may arrive
            // by `git pull`.
            match fs::read_optional_up_to(&path, MAX_ITEM_BYTES as u64) {
                Ok(Some(text)) => match KnowledgeItem::parse(&text) {
                    Ok(item) if file_name(&item.id) == name => {
                        good.push(StoredItem { path, item, fingerprint: fingerprint(text.as_bytes()) })
                    }
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
        Ok((good, bad, complete))
    }

    /// The knowledge base's lock: every change of items holds it (read,
    /// decide, write), so two sessions recording at once lose nothing.
    /// A change a crash left half done is finished first (or undone), so
    /// what the holder reads is whole; an unreadable journal is an error,
    /// never written over.
    pub fn lock(&self, timeout: Duration) -> Result<FileLock, StoreError> {
        let lock = FileLock::acquire(&self.project.lock_dir().join("knowledge.lock"), timeout)?;
        journal::recover(&self.knowledge_journal(), self.project.root())?;
        Ok(lock)
    }

    fn knowledge_journal(&self) -> JournalFile {
        JournalFile::new(self.project.runtime_dir(), "knowledge")
    }

    /// Writes item changes as one (through the journal when several), under
    /// the knowledge lock the caller holds. A temporary file a killed writer
    /// left in the folder is removed first (the lock is held: no live writer
    /// owns one), and such files are kept out of `git status` (through
    /// `.git/info/exclude`, best effort) for a writer killed later.
    pub fn commit(&self, operation: &str, dir: &Path, items: &[KnowledgeItem]) -> Result<(), StoreError> {
        std::fs::create_dir_all(dir).at("create", dir)?;
        fs::remove_temporaries(dir);
        let _ = self.project.exclude_from_git(fs::TEMPORARY_PATTERN);
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
        journal::commit(&self.knowledge_journal(), self.project.root(), operation, changes)
    }
}
