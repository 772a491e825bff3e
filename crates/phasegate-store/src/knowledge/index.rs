//! The knowledge index on disk: a cache of the items, one folder per
//! working tree in git's runtime folder (`<git common dir>/phasegate/
//! knowledge-index/<hash of the tree's root>/`), never the truth.
//!
//! Its files: `manifest` (what the index was built from: the items folder
//! as a listing and a few stats see it, and the build's id), `listing`
//! (every shard's name and checksum), `unreadable` (the files the build
//! could not read) and the shards. Each file starts with a line holding the
//! checksum (FNV-1a, 64 bits) of the JSON after it, and each shard names
//! its build, so a torn, truncated or edited file is caught when it is
//! read: a shard that fails is reported as an [`IndexFault`] and the
//! caller rebuilds the index from the items. A shard the listing names
//! that is missing is a fault too; one it does not name holds no items.
//!
//! Fresh means the manifest records the items folder as it is: for the
//! commands, its time, its number of items and its newest item's time (a
//! listing and a stat per item); for the hooks, the folder's time alone
//! (one stat), as every write through phasegate and git's checkout renames
//! a file into the folder. A hand edit in place is noticed by the commands
//! and, in a hook, by the item's fingerprint when its lesson is read.

use super::Knowledge;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, UNIX_EPOCH};

use phasegate_core::hash::fnv1a64;
use phasegate_core::knowledge::{INDEX_VERSION, KnowledgeIndex, Shard};
use serde::{Deserialize, Serialize};

use crate::error::{IoContext, StoreError};
use crate::fs;

/// What an index was built from: the folder as a listing and a few stats
/// see it, so that freshness is checked without reading an item, and the
/// id of the build (see `phasegate_core::knowledge::build_id`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifest {
    pub version: u32,
    /// The items folder's modification time (nanoseconds since the epoch).
    pub dir_mtime_ns: u128,
    /// How many `.md` files it holds.
    pub files: usize,
    /// The newest `.md` file's modification time.
    pub newest_ns: u128,
    /// The build the shards belong to (empty in a scan).
    #[serde(default)]
    pub build: String,
    /// Built by a hook that ran out of time before reading every item: the
    /// hooks use it, the commands build it again whole.
    #[serde(default)]
    pub partial: bool,
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
            version: INDEX_VERSION,
            dir_mtime_ns: mtime_ns(items_dir).unwrap_or(0),
            files,
            newest_ns,
            build: String::new(),
            partial: false,
        }
    }

    /// Whether this manifest (an index's) describes the folder as `scan`
    /// saw it.
    pub fn matches(&self, scan: &Manifest) -> bool {
        self.version == scan.version
            && self.dir_mtime_ns == scan.dir_mtime_ns
            && self.files == scan.files
            && self.newest_ns == scan.newest_ns
    }
}

/// Why an index cannot be used as it is (it is rebuilt from the items).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}: {what}", file.display())]
pub struct IndexFault {
    pub file: PathBuf,
    pub what: String,
}

const MANIFEST: &str = "manifest";
const LISTING: &str = "listing";
const UNREADABLE: &str = "unreadable";

/// A file of the index: its JSON after a line with the JSON's checksum.
fn seal(json: &[u8]) -> Vec<u8> {
    let mut out = format!("{:016x}\n", fnv1a64(json)).into_bytes();
    out.extend_from_slice(json);
    out
}

/// The JSON of a sealed file, when its checksum holds.
fn unseal(text: &str) -> Result<&str, String> {
    let (sum, json) = text.split_once('\n').ok_or("it has no checksum line")?;
    if sum.len() != 16 || u64::from_str_radix(sum, 16).ok() != Some(fnv1a64(json.as_bytes())) {
        return Err("its checksum does not match its contents".into());
    }
    Ok(json)
}

/// Reads a sealed file of the index: None when it does not exist.
fn read_sealed<T: serde::de::DeserializeOwned>(path: &Path) -> Result<Option<(T, String)>, IndexFault> {
    let fault = |what: String| IndexFault { file: path.to_owned(), what };
    let Some(text) = fs::read_optional(path).map_err(|e| fault(e.to_string()))? else { return Ok(None) };
    let json = unseal(&text).map_err(fault)?;
    let value = serde_json::from_str(json).map_err(|e| fault(format!("it is not what the index writes ({e})")))?;
    Ok(Some((value, format!("{:016x}", fnv1a64(json.as_bytes())))))
}

/// An index found fresh: its folder, manifest and (for the commands) the
/// listing of its shards.
#[derive(Debug, Clone)]
pub struct IndexDir {
    dir: PathBuf,
    manifest: Manifest,
    listing: Option<BTreeMap<String, String>>,
}

impl IndexDir {
    /// The hooks' check: the index at `index_dir` when its manifest reads
    /// and records the items folder's time as it is (one stat and one small
    /// read). A folder that is a link is no index.
    pub fn by_folder(index_dir: &Path, items_dir: &Path) -> Option<IndexDir> {
        if !std::fs::symlink_metadata(index_dir).is_ok_and(|m| m.is_dir()) {
            return None;
        }
        let (manifest, _) = read_sealed::<Manifest>(&index_dir.join(MANIFEST)).ok()??;
        let fresh = manifest.version == INDEX_VERSION && mtime_ns(items_dir).unwrap_or(0) == manifest.dir_mtime_ns;
        fresh.then(|| IndexDir { dir: index_dir.to_owned(), manifest, listing: None })
    }

    /// The commands' check: the index at `index_dir` when its manifest
    /// matches `scan`, it holds every item, and its listing reads.
    pub fn matching(index_dir: &Path, scan: &Manifest) -> Option<IndexDir> {
        if !std::fs::symlink_metadata(index_dir).is_ok_and(|m| m.is_dir()) {
            return None;
        }
        let (manifest, _) = read_sealed::<Manifest>(&index_dir.join(MANIFEST)).ok()??;
        if !manifest.matches(scan) || manifest.partial {
            return None;
        }
        let (listing, _) = read_sealed::<BTreeMap<String, String>>(&index_dir.join(LISTING)).ok()??;
        Some(IndexDir { dir: index_dir.to_owned(), manifest, listing: Some(listing) })
    }

    /// The index at `index_dir` as it is, fresh or not (one just written):
    /// its manifest and listing read.
    pub fn open(index_dir: &Path) -> Option<IndexDir> {
        if !std::fs::symlink_metadata(index_dir).is_ok_and(|m| m.is_dir()) {
            return None;
        }
        let (manifest, _) = read_sealed::<Manifest>(&index_dir.join(MANIFEST)).ok()??;
        let (listing, _) = read_sealed::<BTreeMap<String, String>>(&index_dir.join(LISTING)).ok()??;
        Some(IndexDir { dir: index_dir.to_owned(), manifest, listing: Some(listing) })
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The id of the build this index holds.
    pub fn build(&self) -> &str {
        &self.manifest.build
    }

    /// One shard by its file name, verified: its checksum, its version,
    /// its build, and the listing's checksum when there is a listing.
    /// None: no such shard (the index holds no item for it).
    pub fn shard(&self, name: &str) -> Result<Option<Shard>, IndexFault> {
        let path = self.dir.join(name);
        let fault = |what: &str| IndexFault { file: path.clone(), what: what.to_owned() };
        let listed = self.listing.as_ref().map(|l| l.get(name));
        let Some((shard, sum)) = read_sealed::<Shard>(&path)? else {
            return match listed {
                Some(Some(_)) => Err(fault("the index lists it, and it is missing")),
                Some(None) | None => Ok(None),
            };
        };
        if shard.version != INDEX_VERSION || shard.build != self.manifest.build {
            return Err(fault("it belongs to another build of the index"));
        }
        match listed {
            Some(Some(listed)) if *listed != sum => Err(fault("it is not the shard the index lists")),
            Some(None) => Err(fault("the index does not list it")),
            Some(Some(_)) | None => Ok(Some(shard)),
        }
    }

    /// The files the build could not read.
    pub fn unreadable(&self) -> Vec<String> {
        read_sealed(&self.dir.join(UNREADABLE)).ok().flatten().map(|(v, _)| v).unwrap_or_default()
    }
}

/// Compares the index at `index_dir` with the one the items make now
/// (`kb lint`): nothing to say while it is stale or absent (the next
/// query rebuilds it); for an index that claims to be of these items, every
/// file that is corrupt, missing, extra or different.
pub fn check_index(index_dir: &Path, expected: &KnowledgeIndex, unreadable: &[String]) -> Vec<IndexFault> {
    let fault = |file: &Path, what: &str| IndexFault { file: file.to_owned(), what: what.to_owned() };
    let manifest_path = index_dir.join(MANIFEST);
    let manifest = match read_sealed::<Manifest>(&manifest_path) {
        Ok(None) => return Vec::new(),
        Ok(Some((m, _))) => m,
        Err(e) => return vec![e],
    };
    if manifest.version != INDEX_VERSION || manifest.build != expected.build {
        return Vec::new();
    }
    let mut faults = Vec::new();
    let listing = match read_sealed::<BTreeMap<String, String>>(&index_dir.join(LISTING)) {
        Ok(Some((l, _))) => l,
        Ok(None) => {
            faults.push(fault(&index_dir.join(LISTING), "it is missing"));
            BTreeMap::new()
        }
        Err(e) => {
            faults.push(e);
            BTreeMap::new()
        }
    };
    let shards: BTreeMap<&String, &Shard> = expected.gotchas.iter().chain(expected.topics.iter()).collect();
    for (name, want) in &shards {
        let path = index_dir.join(name);
        match read_sealed::<Shard>(&path) {
            Ok(Some((got, _))) if got == **want => {}
            Ok(Some(_)) => faults.push(fault(&path, "it says something the items do not")),
            Ok(None) => faults.push(fault(&path, "it is missing")),
            Err(e) => faults.push(e),
        }
    }
    if let Ok(entries) = std::fs::read_dir(index_dir) {
        let mut extra: Vec<String> = entries
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| ![MANIFEST, LISTING, UNREADABLE].contains(&n.as_str()) && !shards.contains_key(n))
            .collect();
        extra.sort();
        faults.extend(extra.iter().map(|n| fault(&index_dir.join(n), "no item makes this shard")));
    }
    if listing.keys().collect::<Vec<_>>() != shards.keys().copied().collect::<Vec<_>>() && faults.is_empty() {
        faults.push(fault(&index_dir.join(LISTING), "it does not list the shards the items make"));
    }
    match read_sealed::<Vec<String>>(&index_dir.join(UNREADABLE)) {
        Ok(Some((got, _))) if got == unreadable => {}
        Ok(_) => faults.push(fault(&index_dir.join(UNREADABLE), "it does not name the files that cannot be read")),
        Err(e) => faults.push(e),
    }
    faults
}

impl Knowledge<'_> {
    /// Where the index of the working tree rooted at `root` lives.
    pub fn index_dir(&self, root: &Path) -> PathBuf {
        index_dir(&self.project.runtime_dir(), root)
    }

    /// Writes a freshly built index, with the files it could not read. The
    /// files are written to a folder of their own, not flushed, and swapped
    /// in with two renames, so a reader sees the old index or the new one
    /// whole. Callers may ignore the error (the cache can always be built
    /// again), but nothing is written through a link: the runtime and index
    /// folders are phasegate's own.
    pub fn write_index(
        &self,
        root: &Path,
        index: &KnowledgeIndex,
        scan: &Manifest,
        unreadable: &[String],
    ) -> Result<(), StoreError> {
        self.write_index_of(root, index, scan, unreadable, true)
    }

    /// [`Knowledge::write_index`], saying whether every item was
    /// read (a hook's rebuild may stop early: see [`Manifest::partial`]).
    pub fn write_index_of(
        &self,
        root: &Path,
        index: &KnowledgeIndex,
        scan: &Manifest,
        unreadable: &[String],
        complete: bool,
    ) -> Result<(), StoreError> {
        let runtime = self.project.runtime_dir();
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
            let write = |file: &str, json: Vec<u8>| {
                let path = building.join(file);
                std::fs::write(&path, seal(&json)).at("write", path)
            };
            let mut listing = BTreeMap::new();
            for (file, shard) in index.gotchas.iter().chain(index.topics.iter()) {
                let json = serde_json::to_vec(shard).expect("serialises");
                listing.insert(file.clone(), format!("{:016x}", fnv1a64(&json)));
                write(file, json)?;
            }
            write(UNREADABLE, serde_json::to_vec(unreadable).expect("serialises"))?;
            write(LISTING, serde_json::to_vec(&listing).expect("serialises"))?;
            let manifest = Manifest { build: index.build.clone(), partial: !complete, ..scan.clone() };
            write(MANIFEST, serde_json::to_vec(&manifest).expect("serialises"))
        })();
        if let Err(e) = written {
            let _ = std::fs::remove_dir_all(&building);
            return Err(e);
        }
        crate::failpoint::hit("kb-index:built");
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
/// (`.<name>.building-<pid>`, `.<name>.old-<pid>`): at once when the
/// process `<pid>` has ended (a `kill -9` during `kb record`), else once
/// they are [`LEFTOVER_AGE`] old (where the system cannot tell; a running
/// rebuild's are younger). Best effort: the index is a cache.
fn sweep_leftovers(parent: &Path, name: &str, now: std::time::SystemTime) {
    let Ok(entries) = std::fs::read_dir(parent) else { return };
    let (building, old) = (format!(".{name}.building-"), format!(".{name}.old-"));
    for entry in entries.flatten() {
        let file_name = entry.file_name();
        let file_name = file_name.to_string_lossy();
        let Some(pid) = file_name.strip_prefix(&building).or_else(|| file_name.strip_prefix(&old)) else {
            continue;
        };
        let ended =
            pid.parse::<u32>().is_ok_and(|pid| pid != std::process::id() && crate::process::is_gone(pid) == Some(true));
        // Only a real folder (never a link's target), its writer gone or
        // of the right age.
        let stale = entry.metadata().ok().filter(|m| m.is_dir()).is_some_and(|m| {
            ended || m.modified().is_ok_and(|at| now.duration_since(at).is_ok_and(|age| age >= LEFTOVER_AGE))
        });
        if stale {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// The index folder for the working tree at `root`, under `runtime`.
pub fn index_dir(runtime: &Path, root: &Path) -> PathBuf {
    // One name however the root is spelled (git's work directory ends with a
    // slash; a hook's path may run through a link).
    let root = crate::fs::canonical_or_same(root);
    let key = root.to_string_lossy();
    runtime.join("knowledge-index").join(format!("{:016x}", fnv1a64(key.as_bytes())))
}

/// A file's or folder's modification time in nanoseconds.
pub fn mtime_ns(path: &Path) -> Option<u128> {
    std::fs::metadata(path).and_then(|m| m.modified()).ok()?.duration_since(UNIX_EPOCH).ok().map(|d| d.as_nanos())
}

#[cfg(test)]
mod tests {
    use phasegate_core::knowledge::{Indexed, KnowledgeItem, build_index, gotcha_shard_name};

    use super::*;
    use crate::Project;

    #[test]
    fn a_killed_rebuilds_folders_were_left_beside_the_index_forever() {
        let parent = tempfile::tempdir().unwrap();
        let p = parent.path();
        // Process 1 runs (a rebuild under way); no process has the other
        // id (above every system's largest): a rebuild that was killed.
        let ended = 0x7FFF_FFF0;
        let names = [".abc.building-1", ".abc.old-1", ".abc.building-x", ".other.building-1", "abc"];
        for leftover in names.iter().map(|n| n.to_string()).chain([format!(".abc.building-{ended}")]) {
            std::fs::create_dir_all(p.join(leftover)).unwrap();
        }
        let left = || {
            let mut left: Vec<String> =
                std::fs::read_dir(p).unwrap().flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect();
            left.sort();
            left
        };
        let now = std::time::SystemTime::now();
        // A rebuild under way (younger than the limit) is left alone; one
        // whose process ended (killed) is removed at once.
        sweep_leftovers(p, "abc", now);
        let all_but_the_ended = [".abc.building-1", ".abc.building-x", ".abc.old-1", ".other.building-1", "abc"];
        assert_eq!(left(), all_but_the_ended, "process {ended} ended");
        // Ten minutes on, its folders are a killed rebuild's: removed; the
        // index itself and another index's folders stay.
        sweep_leftovers(p, "abc", now + LEFTOVER_AGE);
        assert_eq!(left(), vec![".other.building-1", "abc"]);
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
        let manifest = Manifest::scan(&crate::knowledge::dir_in(&root));
        let err =
            project.knowledge().write_index(&root, &KnowledgeIndex::default(), &manifest, &[]).unwrap_err().to_string();
        assert!(err.contains("knowledge-index is a symbolic link"), "{err}");
        assert_eq!(std::fs::read_dir(&elsewhere).unwrap().count(), 0, "nothing written there");
    }

    // A corrupt shard made queries answer nothing while the items were
    // fine, and nothing noticed: every file of the index is checked when
    // read, and `kb lint`'s check names what differs from the items.
    #[test]
    fn a_corrupt_or_edited_shard_was_trusted_over_the_items() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let project = Project::discover(&root).unwrap();
        let items_dir = crate::knowledge::dir_in(&root);
        std::fs::create_dir_all(&items_dir).unwrap();
        let text = "---\nid: gotcha-a-00000000\ntype: gotcha\nfile_pattern: '*.sql'\nconfidence: 0.7\noccurrences: 1\ndiscovered_by: t\ncreated_at: 2026-11-02T10:00:00Z\nupdated_at: 2026-11-02T10:00:00Z\nevidence:\n- task: T1\n  feature: f\n  at: 2026-11-02T10:00:00Z\n  excerpt: x\n---\n\nWrap every migration in a transaction or a failure leaves half a schema.\n";
        std::fs::write(items_dir.join("gotcha-a-00000000.md"), text).unwrap();
        let item = KnowledgeItem::parse(text).unwrap();
        let indexed = [Indexed { item: &item, fingerprint: 1 }];
        let index = build_index(&indexed, &[]);
        let scan = Manifest::scan(&items_dir);
        project.knowledge().write_index(&root, &index, &scan, &[]).unwrap();
        let at = project.knowledge().index_dir(&root);
        let name = gotcha_shard_name(Some("*.sql"));
        let open = || IndexDir::matching(&at, &scan).unwrap();
        assert_eq!(open().shard(&name).unwrap().unwrap().entries.len(), 1);
        assert!(check_index(&at, &index, &[]).is_empty());

        let shard = at.join(&name);
        let good = std::fs::read_to_string(&shard).unwrap();
        // Torn, edited (even with its checksum made again), from another
        // build, missing, or extra: each is named.
        let edited_json = good.split_once('\n').unwrap().1.replace("Wrap every", "Skip every");
        for (bad, says) in [
            (good[..good.len() / 2].to_owned(), "checksum"),
            (good.replace("Wrap every", "Skip every"), "checksum"),
            (String::from_utf8(seal(edited_json.as_bytes())).unwrap(), "not the shard the index lists"),
        ] {
            std::fs::write(&shard, &bad).unwrap();
            let fault = open().shard(&name).unwrap_err().to_string();
            assert!(fault.contains(&name) && fault.contains(says), "{fault}");
            assert!(!check_index(&at, &index, &[]).is_empty());
            // The hooks read without the listing: the checksum still holds.
            let by_folder = IndexDir::by_folder(&at, &items_dir).unwrap();
            if says == "checksum" {
                assert!(by_folder.shard(&name).is_err());
            }
        }
        std::fs::remove_file(&shard).unwrap();
        assert!(open().shard(&name).unwrap_err().to_string().contains("missing"));
        let lint = check_index(&at, &index, &[]);
        assert!(lint.iter().any(|f| f.file == shard && f.what.contains("missing")), "{lint:?}");
        std::fs::write(&shard, &good).unwrap();
        std::fs::write(at.join("g-0000000000000000.json"), &good).unwrap();
        assert!(open().shard("g-0000000000000000.json").is_err(), "not listed");
        assert!(check_index(&at, &index, &[]).iter().any(|f| f.what.contains("no item makes")));
    }
}
