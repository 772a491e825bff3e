//! What the binaries wrote last of each state file of a feature they vouch
//! for (the state table's `witnessed` files): a keyed digest written in the
//! same journal as the file, so the two agree after a crash; and the marks
//! of changes made to those files by another route (a Bash write, a hand
//! edit), found by every writer before it replaces a file and by the hook
//! after a Bash command, kept until a person clears them. A change git
//! brought (the file is what HEAD holds) is not one. In
//! `.git/phasegate/witness/<feature>/`, this clone's runtime state.

use std::path::PathBuf;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::error::StoreError;
use crate::fs;
use crate::lock::FileLock;

/// What the binaries wrote last of one state file: a keyed digest of its
/// content (or that they removed it), and, once a reader found it still
/// so, the size and time it had then (so the next look need not read it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Written {
    /// `mac` of the path and content; None when the binaries removed it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mac: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seen: Option<Seen>,
}

/// A file's size and modification time when it was last found as written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seen {
    pub size: u64,
    pub mtime_ns: i128,
}

/// How a state file changed by another route than phasegate's commands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Tampering {
    /// Its content is not what phasegate wrote last (nor what git has).
    Edited,
    /// It is gone, and phasegate did not remove it.
    Removed,
}

impl std::fmt::Display for Tampering {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Tampering::Edited => "changed",
            Tampering::Removed => "removed",
        })
    }
}

/// One change to a state file made by another route than phasegate's
/// commands, as it was found: kept until a person clears it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TamperMark {
    /// The file, from the project's root.
    pub file: String,
    pub how: Tampering,
    pub at: chrono::DateTime<chrono::Utc>,
    /// Where it was found (`before review record`, `after a Bash command
    /// of session …`).
    pub seen: String,
    /// The SHA-256 of the content found (none when removed): the same
    /// change is marked once.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content: Option<String>,
}

/// A person's clearing of a feature's marks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Cleared {
    pub marks: Vec<TamperMark>,
    pub at: chrono::DateTime<chrono::Utc>,
    /// Who, and where they answered.
    pub by: String,
}

#[derive(Debug, Default, Serialize, Deserialize)]
struct Marks {
    #[serde(default)]
    marks: Vec<TamperMark>,
    #[serde(default)]
    cleared: Vec<Cleared>,
}

/// The state file `path` names when the binaries vouch for it (the state
/// table's `witnessed` files), from `root`, and the feature it belongs to.
fn witnessed_file(root: &std::path::Path, features_dir: &str, path: &std::path::Path) -> Option<(String, String)> {
    let rel = fs::below(root, path)?;
    let rel = rel.to_string_lossy().replace('\\', "/");
    let file = phasegate_core::state::protected(std::path::Path::new(&rel))?;
    if !file.witnessed {
        return None;
    }
    let feature = match rel.strip_prefix(features_dir).and_then(|r| r.strip_prefix('/')) {
        Some(inside) => inside.split('/').next()?.to_owned(),
        // A marker (`<feature>.json`) or a question (`<feature>.<n>.json`).
        None => {
            let name = rel.rsplit('/').next()?.strip_suffix(".json")?;
            let feature = match rel.starts_with(phasegate_core::questions::QUESTIONS_DIR) {
                true => name.rsplit_once('.')?.0,
                false => name,
            };
            phasegate_core::slug::split_feature_name(feature)?;
            feature.to_owned()
        }
    };
    Some((feature, rel))
}

fn slot(rel: &str) -> String {
    format!("{}.json", rel.replace('/', "%"))
}

fn mac(key: &phasegate_core::seal::SealKey, rel: &str, content: &[u8]) -> String {
    let mut bytes = rel.as_bytes().to_vec();
    bytes.push(0);
    bytes.extend_from_slice(content);
    key.seal(phasegate_core::seal::SealKind::Written, &bytes)
}

fn seen_of(meta: &std::fs::Metadata) -> Seen {
    let mtime_ns = meta
        .modified()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos() as i128);
    Seen { size: meta.len(), mtime_ns }
}

/// The largest state file read to check it (a ledger may be megabytes).
const MAX_WITNESSED: u64 = 64 * 1024 * 1024;

/// A witnessed state file's bytes when it is a regular file (a FIFO or a
/// device put in its place is never opened).
fn read(path: &std::path::Path) -> Option<Vec<u8>> {
    fs::read_regular_bytes(path, MAX_WITNESSED).ok()?
}

impl super::Feature {
    fn written_dir(&self) -> PathBuf {
        self.runtime().join("witness").join(self.name()).join("written")
    }

    fn marks_path(&self) -> PathBuf {
        self.runtime().join("witness").join(self.name()).join("tampered.json")
    }

    /// The changes that witness `changes` (what a writer is about to
    /// write of this feature's state files): one entry per file, written
    /// with them in one journal, so a state file and its witness agree.
    /// Before any is replaced, a file changed by another route since the
    /// last witnessed write is marked (nothing phasegate writes launders
    /// it). Nothing when there is no key.
    pub(crate) fn witness(
        &self,
        operation: &str,
        changes: &[crate::FileWrite],
        now: chrono::DateTime<chrono::Utc>,
    ) -> Vec<crate::FileWrite> {
        let Some(key) = self.sealer().key() else { return Vec::new() };
        let features =
            fs::relative(self.dir().parent().unwrap_or(self.dir()), self.root()).to_string_lossy().replace('\\', "/");
        let mut out = Vec::new();
        let mut found = Vec::new();
        for c in changes {
            let Some((feature, rel)) = witnessed_file(self.root(), &features, &c.path) else { continue };
            if feature != self.name() {
                continue;
            }
            if let Some(how) = self.tampered_file(key, &rel) {
                found.push(self.mark(&rel, how, now, &format!("before `{operation}` replaced it")));
            }
            let entry = Written { mac: c.contents.as_ref().map(|t| mac(key, &rel, t.as_bytes())), seen: None };
            out.push(crate::FileWrite::put(
                self.written_dir().join(slot(&rel)),
                serde_json::to_string(&entry).expect("an entry serialises"),
            ));
        }
        if !found.is_empty() {
            let _ = self.add_marks(found);
        }
        out
    }

    /// How the state file `rel` (from the root) differs from what phasegate
    /// wrote last; None when it does not (or phasegate never wrote it here,
    /// or git brought it: what HEAD holds).
    fn tampered_file(&self, key: &phasegate_core::seal::SealKey, rel: &str) -> Option<Tampering> {
        let entry_path = self.written_dir().join(slot(rel));
        let entry: Written = serde_json::from_str(&fs::read_optional_up_to(&entry_path, 64 * 1024).ok()??).ok()?;
        let path = self.root().join(rel);
        let meta = std::fs::symlink_metadata(&path).ok();
        match (&entry.mac, meta) {
            (None, None) => None,
            (None, Some(_)) => None,
            (Some(_), None) => {
                // Gone: a checkout to a commit without it is git's doing.
                let local = rel.starts_with(".claude/") || rel.contains("/.task/");
                (local || crate::git::committed_blob(self.root(), rel).is_some()).then_some(Tampering::Removed)
            }
            (Some(want), Some(meta)) => {
                if !meta.file_type().is_file() {
                    return Some(Tampering::Edited);
                }
                if entry.seen == Some(seen_of(&meta)) {
                    return None;
                }
                let content = fs::read_regular_bytes(&path, MAX_WITNESSED).ok()??;
                if mac(key, rel, &content) == *want {
                    let seen = Written { mac: entry.mac.clone(), seen: Some(seen_of(&meta)) };
                    let _ = fs::write_cache(
                        &entry_path,
                        serde_json::to_string(&seen).expect("an entry serialises").as_bytes(),
                    );
                    return None;
                }
                match crate::git::committed_blob(self.root(), rel) {
                    Some(blob) if blob == content => None,
                    _ => Some(Tampering::Edited),
                }
            }
        }
    }

    fn mark(&self, rel: &str, how: Tampering, at: chrono::DateTime<chrono::Utc>, seen: &str) -> TamperMark {
        let content = match how {
            Tampering::Edited => read(&self.root().join(rel)).map(|c| phasegate_core::seal::sha256_hex(&c)),
            Tampering::Removed => None,
        };
        TamperMark { file: rel.to_owned(), how, at, seen: seen.to_owned(), content }
    }

    /// The feature's state files changed by another route since phasegate
    /// wrote them last, as found now (`seen` says where), each once.
    pub fn unwitnessed(&self, at: chrono::DateTime<chrono::Utc>, seen: &str) -> Vec<TamperMark> {
        let Some(key) = self.sealer().key() else { return Vec::new() };
        let Ok(entries) = fs::regular_files(&self.written_dir()) else { return Vec::new() };
        entries
            .into_iter()
            .filter_map(|(name, _)| Some(name.strip_suffix(".json")?.replace('%', "/")))
            .filter_map(|rel| self.tampered_file(key, &rel).map(|how| self.mark(&rel, how, at, seen)))
            .collect()
    }

    /// The marks of changes made by another route, kept until a person
    /// clears them; an unreadable file of marks is an error naming it.
    pub fn tamper_marks(&self) -> Result<Vec<TamperMark>, StoreError> {
        Ok(self.read_marks()?.marks)
    }

    fn read_marks(&self) -> Result<Marks, StoreError> {
        let path = self.marks_path();
        match fs::read_optional(&path)? {
            None => Ok(Marks::default()),
            Some(text) => serde_json::from_str(&text).map_err(|e| StoreError::Corrupt {
                path: path.clone(),
                detail: format!(
                    "{e}; phasegate writes it: restore it, or remove it (its marks of tampering are then lost)"
                ),
            }),
        }
    }

    /// The marks a person cleared, with who and when.
    pub fn cleared_marks(&self) -> Result<Vec<Cleared>, StoreError> {
        Ok(self.read_marks()?.cleared)
    }

    /// Keeps `found`, but each change once (a file marked again with the
    /// same content is the same change).
    pub fn add_marks(&self, found: Vec<TamperMark>) -> Result<Vec<TamperMark>, StoreError> {
        let lock = self.runtime().join("locks").join(format!("witness-{}.lock", self.name()));
        let _lock = FileLock::acquire(&lock, Duration::from_secs(2))?;
        let mut marks = self.read_marks()?;
        let mut added = Vec::new();
        for m in found {
            if !marks.marks.iter().any(|k| k.file == m.file && k.how == m.how && k.content == m.content) {
                marks.marks.push(m.clone());
                added.push(m);
            }
        }
        if !added.is_empty() {
            fs::create_dir_all(self.marks_path().parent().expect("a folder"))?;
            fs::write_atomic(&self.marks_path(), &serde_json::to_vec_pretty(&marks).expect("marks serialise"))?;
        }
        Ok(added)
    }

    /// A person cleared the marks: they are kept as cleared, with who, and
    /// the state files as they are now are taken for written (the person
    /// vouches for them).
    pub fn clear_marks(&self, at: chrono::DateTime<chrono::Utc>, by: &str) -> Result<Vec<TamperMark>, StoreError> {
        let lock = self.runtime().join("locks").join(format!("witness-{}.lock", self.name()));
        let _lock = FileLock::acquire(&lock, Duration::from_secs(10))?;
        let mut marks = self.read_marks()?;
        let cleared = std::mem::take(&mut marks.marks);
        if let Some(key) = self.sealer().key() {
            for m in &cleared {
                let entry =
                    Written { mac: read(&self.root().join(&m.file)).map(|c| mac(key, &m.file, &c)), seen: None };
                fs::create_dir_all(&self.written_dir())?;
                fs::write_atomic(
                    &self.written_dir().join(slot(&m.file)),
                    serde_json::to_string(&entry).expect("an entry serialises").as_bytes(),
                )?;
            }
        }
        if !cleared.is_empty() {
            marks.cleared.push(Cleared { marks: cleared.clone(), at, by: by.to_owned() });
            fs::create_dir_all(self.marks_path().parent().expect("a folder"))?;
            fs::write_atomic(&self.marks_path(), &serde_json::to_vec_pretty(&marks).expect("marks serialise"))?;
        }
        Ok(cleared)
    }
}

impl crate::Project {
    /// The state file phasegate witnessed that `file` is another name of (a
    /// hard link to it): only a file with several links pays for the look.
    #[cfg(unix)]
    pub fn linked_state_file(&self, file: &std::path::Path) -> Option<PathBuf> {
        use std::os::unix::fs::MetadataExt;
        let meta = std::fs::symlink_metadata(file).ok().filter(|m| m.is_file() && m.nlink() > 1)?;
        for feature in self.witnessed_features() {
            let Ok(entries) = fs::regular_files(&feature.written_dir()) else { continue };
            for (name, _) in entries {
                let Some(rel) = name.strip_suffix(".json").map(|r| r.replace('%', "/")) else { continue };
                let path = self.root().join(&rel);
                if std::fs::symlink_metadata(&path).is_ok_and(|m| m.dev() == meta.dev() && m.ino() == meta.ino()) {
                    return Some(path);
                }
            }
        }
        None
    }

    /// Hard links are not looked at where the system cannot tell them.
    #[cfg(not(unix))]
    pub fn linked_state_file(&self, _file: &std::path::Path) -> Option<PathBuf> {
        None
    }
}
