//! File leases, the wait graph and per-session notices, in git's common
//! directory so that every worktree of the repository sees them.
//!
//! - A lease is one small file per leased path, named by the hash of the
//!   path's key (`leases/<fnv64>.json`): the PreToolUse hook finds the lease
//!   of the file being edited with one read, whatever the number of leases.
//!   Writers hold `locks/leases.lock`; readers take no lock (a lease file is
//!   replaced whole by a rename, never written in place).
//! - A wait is one file per waiter and path (`waits/<waiter>--<fnv64>.json`).
//! - A notice is a line for one session to read at its next hook
//!   (`notices/<session>.jsonl`); reading takes them (the file is renamed
//!   away first, so a notice is shown once even when two hooks race).
//!
//! These are runtime state, not history: they are replaced atomically
//! (temporary file, rename) but not flushed to disk, so a machine crash may
//! lose a lease, which then simply has to be taken again; it can never
//! leave half a lease.

use std::path::{Path, PathBuf};
use std::time::Duration;

use chrono::{DateTime, Utc};
use phasegate_core::coordination::{Lease, LeasePath, PathCase, Wait};
use phasegate_core::session::SessionId;
use serde::{Deserialize, Serialize};

use crate::coordination::Coordination;
use crate::coordination::sessions::BadRecord;
use crate::error::{IoContext, StoreError};
use crate::fs;
use crate::lock::FileLock;
use crate::project::Project;

/// What is on record for one path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LeaseRead {
    /// No lease.
    Free,
    Held(Lease),
    /// A file that is not a lease (a crash cannot leave one; a hand edit
    /// can). It holds nothing: the next writer replaces it.
    Unreadable(String),
}

/// A wait on record, with its file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredWait {
    pub file: PathBuf,
    pub wait: Wait,
}

/// A line for a session to read at its next hook.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Notice {
    pub at: DateTime<Utc>,
    /// Who or what it comes from (a session, `pm`, `monitor`).
    pub from: String,
    pub text: String,
}

impl Coordination<'_> {
    pub fn leases_dir(&self) -> PathBuf {
        self.project.runtime_dir().join("leases")
    }

    pub fn lease_file(&self, path: &LeasePath, case: PathCase) -> PathBuf {
        self.leases_dir().join(format!("{}.json", path.file_stem(case)))
    }

    /// The lock every lease writer holds.
    pub fn leases_lock(&self, timeout: Duration) -> Result<FileLock, StoreError> {
        FileLock::acquire(&self.project.lock_dir().join("leases.lock"), timeout)
    }

    /// The lease on `path`: one read, no lock.
    pub fn read_lease(&self, path: &LeasePath, case: PathCase) -> LeaseRead {
        let file = self.lease_file(path, case);
        match fs::read_optional(&file) {
            Ok(None) => LeaseRead::Free,
            Ok(Some(text)) => match serde_json::from_str::<Lease>(&text) {
                Ok(l) if l.path.same_file(path, case) => LeaseRead::Held(l),
                // Another path with the same hash: this one is not leased.
                Ok(_) => LeaseRead::Free,
                Err(e) => LeaseRead::Unreadable(format!("{}: {e}", file.display())),
            },
            Err(e) => LeaseRead::Unreadable(e.to_string()),
        }
    }

    /// Writes a lease (replacing whatever is on its path); the caller holds
    /// [`Self::leases_lock`]. The path is added to its holder's list first,
    /// so a list may name a lease that is gone but never misses one.
    pub fn write_lease(&self, lease: &Lease, case: PathCase) -> Result<(), StoreError> {
        let list = self.lease_list_file(&lease.holder);
        if let Some(dir) = list.parent() {
            std::fs::create_dir_all(dir).at("create", dir)?;
        }
        let mut f = std::fs::OpenOptions::new().create(true).append(true).open(&list).at("open", &list)?;
        std::io::Write::write_all(&mut f, format!("{}\n", lease.path).as_bytes()).at("append to", &list)?;
        let file = self.lease_file(&lease.path, case);
        fs::write_cache(&file, &serde_json::to_vec(lease).expect("a lease serialises"))
    }

    fn lease_list_file(&self, holder: &SessionId) -> PathBuf {
        self.project.runtime_dir().join("lease-lists").join(format!("{}.txt", holder.file_stem()))
    }

    /// The paths `holder` leased, from its list (an index: a path whose
    /// lease went to another holder or was released may still be named;
    /// check the lease before acting on it).
    pub fn listed_leases(&self, holder: &SessionId) -> Vec<LeasePath> {
        let Ok(Some(text)) = fs::read_optional(&self.lease_list_file(holder)) else { return Vec::new() };
        let mut paths: Vec<LeasePath> = text.lines().filter_map(|l| LeasePath::parse(l).ok()).collect();
        paths.sort();
        paths.dedup();
        paths
    }

    /// Every session with a lease list, and the paths on it.
    pub fn lease_lists(&self) -> Vec<(SessionId, Vec<LeasePath>)> {
        let dir = self.project.runtime_dir().join("lease-lists");
        let Ok(entries) = std::fs::read_dir(&dir) else { return Vec::new() };
        let mut out = Vec::new();
        for e in entries.flatten() {
            let name = e.file_name();
            let Some(id) = name.to_str().and_then(|n| n.strip_suffix(".txt")).and_then(SessionId::from_file_stem)
            else {
                continue;
            };
            let paths = self.listed_leases(&id);
            out.push((id, paths));
        }
        out
    }

    /// Rewrites `holder`'s list as `paths` (none: removed); the caller holds
    /// the lock.
    pub fn rewrite_lease_list(&self, holder: &SessionId, paths: &[LeasePath]) {
        let list = self.lease_list_file(holder);
        if paths.is_empty() {
            let _ = fs::remove_if_exists(&list);
            return;
        }
        let text: String = paths.iter().map(|p| format!("{p}\n")).collect();
        let _ = fs::write_cache(&list, text.as_bytes());
    }

    /// Removes the lease on `path` if `holder` holds it (any holder when
    /// None); the caller holds the lock. True when one was removed.
    pub fn remove_lease(&self, path: &LeasePath, holder: Option<&SessionId>, case: PathCase) -> bool {
        match self.read_lease(path, case) {
            LeaseRead::Held(l) if holder.is_none_or(|h| *h == l.holder) => {
                fs::remove_if_exists(&self.lease_file(path, case)).unwrap_or(false)
            }
            LeaseRead::Unreadable(_) if holder.is_none() => {
                fs::remove_if_exists(&self.lease_file(path, case)).unwrap_or(false)
            }
            LeaseRead::Free | LeaseRead::Held(_) | LeaseRead::Unreadable(_) => false,
        }
    }

    /// Every lease, and the files that are not leases.
    pub fn leases(&self) -> Result<(Vec<Lease>, Vec<BadRecord>), StoreError> {
        let mut leases = Vec::new();
        let mut bad = Vec::new();
        for path in json_files(&self.leases_dir())? {
            match fs::read_optional(&path) {
                Ok(Some(text)) => match serde_json::from_str::<Lease>(&text) {
                    Ok(l) => leases.push(l),
                    Err(e) => bad.push(BadRecord { path, error: e.to_string() }),
                },
                Ok(None) => {}
                Err(e) => bad.push(BadRecord { path, error: e.to_string() }),
            }
        }
        leases.sort_by(|a, b| a.path.cmp(&b.path));
        Ok((leases, bad))
    }

    /// Removes the files under `leases/` that are not leases; the caller
    /// holds the lock.
    pub fn remove_bad_leases(&self, bad: &[BadRecord]) {
        for b in bad {
            let _ = fs::remove_if_exists(&b.path);
        }
    }

    // The wait graph.

    pub fn waits_dir(&self) -> PathBuf {
        self.project.runtime_dir().join("waits")
    }

    fn wait_file(&self, waiter: &SessionId, path: &LeasePath, case: PathCase) -> PathBuf {
        self.waits_dir().join(format!("{}--{}.json", waiter.file_stem(), path.file_stem(case)))
    }

    /// Records that `wait.waiter` waits for `wait.holder`; false when that
    /// wait was on record already (its `since` is kept).
    pub fn record_wait(&self, wait: &Wait, case: PathCase) -> Result<bool, StoreError> {
        let file = self.wait_file(&wait.waiter, &wait.path, case);
        if let Ok(Some(text)) = fs::read_optional(&file)
            && serde_json::from_str::<Wait>(&text).is_ok_and(|w| w.holder == wait.holder)
        {
            return Ok(false);
        }
        fs::write_cache(&file, &serde_json::to_vec(wait).expect("a wait serialises"))?;
        Ok(true)
    }

    /// `waiter` no longer waits for `path`.
    pub fn remove_wait(&self, waiter: &SessionId, path: &LeasePath, case: PathCase) -> bool {
        fs::remove_if_exists(&self.wait_file(waiter, path, case)).unwrap_or(false)
    }

    /// Every wait on record, and the files that are not waits.
    pub fn waits(&self) -> Result<(Vec<StoredWait>, Vec<BadRecord>), StoreError> {
        let mut waits = Vec::new();
        let mut bad = Vec::new();
        for path in json_files(&self.waits_dir())? {
            match fs::read_optional(&path) {
                Ok(Some(text)) => match serde_json::from_str::<Wait>(&text) {
                    Ok(wait) => waits.push(StoredWait { file: path, wait }),
                    Err(e) => bad.push(BadRecord { path, error: e.to_string() }),
                },
                Ok(None) => {}
                Err(e) => bad.push(BadRecord { path, error: e.to_string() }),
            }
        }
        waits.sort_by(|a, b| (&a.wait.waiter, &a.wait.path).cmp(&(&b.wait.waiter, &b.wait.path)));
        Ok((waits, bad))
    }

    /// Removes every wait of `session` (it ended).
    pub fn remove_waits_of(&self, session: &SessionId) {
        let prefix = format!("{}--", session.file_stem());
        for path in json_files(&self.waits_dir()).unwrap_or_default() {
            if path.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with(&prefix)) {
                let _ = fs::remove_if_exists(&path);
            }
        }
    }

    /// Removes the waits `which` picks (a holder that ended, a lease that
    /// went back): a wait lives no longer than the lease it waits for.
    pub fn remove_waits_where(&self, which: impl Fn(&Wait) -> bool) -> usize {
        let Ok((waits, _)) = self.waits() else { return 0 };
        waits.iter().filter(|w| which(&w.wait)).filter(|w| fs::remove_if_exists(&w.file).unwrap_or(false)).count()
    }

    // Notices.

    fn notices_file(&self, session: &SessionId) -> PathBuf {
        self.project.runtime_dir().join("notices").join(format!("{}.jsonl", session.file_stem()))
    }

    /// Leaves a notice for `session`'s next hook.
    pub fn add_notice(&self, session: &SessionId, notice: &Notice, timeout: Duration) -> Result<(), StoreError> {
        let file = self.notices_file(session);
        let log = crate::logs::LogFile::new(file, self.project.lock_dir().join("notices.lock"));
        log.append(std::slice::from_ref(notice), timeout)
    }

    /// Whether notices wait for `session` (one `stat`).
    pub fn has_notices(&self, session: &SessionId) -> bool {
        fs::exists_entry(&self.notices_file(session))
    }

    /// Takes the notices waiting for `session`: they are shown once.
    pub fn take_notices(&self, session: &SessionId) -> Vec<Notice> {
        let file = self.notices_file(session);
        let taken = file.with_extension(format!("taken-{}", std::process::id()));
        if std::fs::rename(&file, &taken).is_err() {
            return Vec::new();
        }
        let log = crate::logs::LogFile::new(taken.clone(), self.project.lock_dir().join("notices.lock"));
        let read = log.read::<Notice>().map(|l| l.records).unwrap_or_default();
        let _ = std::fs::remove_file(&taken);
        read
    }

    /// Drops the notices of a session that ended.
    pub fn drop_notices(&self, session: &SessionId) {
        let _ = fs::remove_if_exists(&self.notices_file(session));
    }
}

/// The file a tool call names, as leases know it: `..` and `.` applied to
/// the text first (`phasegate_core::paths`), then symbolic links resolved
/// on disk, for the file when it exists, else for its nearest existing
/// folder (a Write makes new files). Every spelling of a file, and every
/// link to it, resolves to one path, so one file has one lease.
pub fn resolve_file(path: &Path) -> PathBuf {
    let lexical = phasegate_core::paths::lexical(path);
    if let Some(real) = fs::canonical(&lexical) {
        return real;
    }
    // A file still to be made: its nearest existing folder, resolved.
    let mut rest = Vec::new();
    let mut at = lexical.as_path();
    while let Some(parent) = at.parent() {
        rest.push(at.file_name().map(|n| n.to_os_string()).unwrap_or_default());
        if let Some(real) = fs::canonical(parent) {
            let mut out = real;
            out.extend(rest.iter().rev());
            return out;
        }
        at = parent;
    }
    lexical
}

/// Another name of the same file: when `file` has more than one hard link,
/// the path of a lease (of any holder) whose file under `root` is the same
/// file on disk. Only a file with several links pays for the scan.
#[cfg(unix)]
pub fn hard_linked_lease(project: &Project, file: &Path, root: &Path) -> Option<LeasePath> {
    use std::os::unix::fs::MetadataExt;
    let meta = std::fs::metadata(file).ok()?;
    if meta.nlink() < 2 {
        return None;
    }
    let (leases, _) = project.coordination().leases().ok()?;
    leases.into_iter().map(|l| l.path).find(|p| {
        std::fs::metadata(root.join(p.as_str())).is_ok_and(|m| m.dev() == meta.dev() && m.ino() == meta.ino())
    })
}

/// Hard links are rare on Windows disks; they are not looked for there.
#[cfg(not(unix))]
pub fn hard_linked_lease(_project: &Project, _file: &Path, _root: &Path) -> Option<LeasePath> {
    None
}

/// The `.json` files of a folder (none when it does not exist).
fn json_files(dir: &Path) -> Result<Vec<PathBuf>, StoreError> {
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e).at("list", dir),
    };
    let mut out = Vec::new();
    for entry in entries {
        let entry = entry.at("list", dir)?;
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        if name.ends_with(".json") && !name.starts_with('.') {
            out.push(entry.path());
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use phasegate_core::coordination::LeaseReason;

    fn project(dir: &Path) -> Project {
        std::fs::create_dir_all(dir.join(".git")).unwrap();
        Project::from_layout(crate::locate::locate(dir).unwrap())
    }

    fn lease(path: &str, by: &str) -> Lease {
        Lease {
            path: LeasePath::parse(path).unwrap(),
            holder: SessionId::parse(by).unwrap(),
            feature: None,
            task: None,
            acquired_at: phasegate_core::time::now(),
            reason: LeaseReason::FirstEdit,
        }
    }

    #[test]
    fn a_lease_is_read_back_by_its_path_and_removed_only_by_its_holder() {
        let tmp = tempfile::tempdir().unwrap();
        let p = project(tmp.path());
        let case = PathCase::Sensitive;
        let l = lease("src/a.rs", "s1");
        assert_eq!(p.coordination().read_lease(&l.path, case), LeaseRead::Free);
        p.coordination().write_lease(&l, case).unwrap();
        assert_eq!(p.coordination().read_lease(&l.path, case), LeaseRead::Held(l.clone()));
        assert!(!p.coordination().remove_lease(&l.path, Some(&SessionId::parse("s2").unwrap()), case));
        assert!(p.coordination().remove_lease(&l.path, Some(&l.holder), case));
        assert_eq!(p.coordination().read_lease(&l.path, case), LeaseRead::Free);
    }

    #[test]
    fn a_file_that_is_not_a_lease_holds_nothing_and_is_listed_as_bad() {
        let tmp = tempfile::tempdir().unwrap();
        let p = project(tmp.path());
        let path = LeasePath::parse("src/a.rs").unwrap();
        std::fs::create_dir_all(p.coordination().leases_dir()).unwrap();
        std::fs::write(p.coordination().lease_file(&path, PathCase::Sensitive), "{").unwrap();
        assert!(matches!(p.coordination().read_lease(&path, PathCase::Sensitive), LeaseRead::Unreadable(_)));
        let (good, bad) = p.coordination().leases().unwrap();
        assert_eq!((good.len(), bad.len()), (0, 1));
    }

    #[test]
    fn notices_are_taken_once() {
        let tmp = tempfile::tempdir().unwrap();
        let p = project(tmp.path());
        let s = SessionId::parse("s1").unwrap();
        assert!(!p.coordination().has_notices(&s));
        let n = Notice { at: phasegate_core::time::now(), from: "pm".into(), text: "pause".into() };
        p.coordination().add_notice(&s, &n, Duration::from_secs(1)).unwrap();
        assert!(p.coordination().has_notices(&s));
        assert_eq!(p.coordination().take_notices(&s), [n]);
        assert!(p.coordination().take_notices(&s).is_empty());
    }
}
