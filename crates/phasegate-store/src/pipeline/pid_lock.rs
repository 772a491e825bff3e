//! The seed's PID lock for destructive operations (`pipeline reset`).

use std::path::{Path, PathBuf};
use std::time::Duration;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::error::{IoContext, StoreError};
use crate::fs;

/// The seed's PID lock for destructive operations (`.task/.orchestrator.lock`):
/// a file naming its holder, removed when dropped. A lock whose process is
/// gone, or that is older than [`PidLock::STALE_AFTER`], is cleaned up.
#[derive(Debug)]
pub struct PidLock {
    path: PathBuf,
}

#[derive(Debug, Serialize, Deserialize)]
struct Holder {
    pid: u32,
    host: String,
    at: DateTime<Utc>,
    operation: String,
}

/// A stale lock [`PidLock::acquire`] removed before taking its own: its
/// holder as the file named it, or none when the file could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StaleRemoved {
    Held { pid: u32, operation: String, at: DateTime<Utc> },
    Unreadable { path: PathBuf },
}

impl std::fmt::Display for StaleRemoved {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StaleRemoved::Held { pid, operation, at } => {
                write!(f, "removed a stale lock of process {pid} ({operation} since {})", at.to_rfc3339())
            }
            StaleRemoved::Unreadable { path } => write!(f, "removed an unreadable lock file {}", path.display()),
        }
    }
}

impl PidLock {
    pub const STALE_AFTER: Duration = Duration::from_secs(600);

    /// Takes the lock, cleaning up a stale one (the note says so).
    pub fn acquire(
        path: &Path,
        operation: &str,
        now: DateTime<Utc>,
    ) -> Result<(PidLock, Option<StaleRemoved>), StoreError> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).at("create", dir)?;
        }
        let mut note = None;
        for _ in 0..2 {
            let holder = Holder { pid: std::process::id(), host: host(), at: now, operation: operation.to_owned() };
            match std::fs::OpenOptions::new().write(true).create_new(true).open(path) {
                Ok(mut f) => {
                    use std::io::Write;
                    f.write_all(&serde_json::to_vec(&holder).expect("serialisable")).at("write", path)?;
                    return Ok((PidLock { path: path.to_owned() }, note));
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                    let text = fs::read_optional(path).ok().flatten().unwrap_or_default();
                    match serde_json::from_str::<Holder>(&text).ok() {
                        Some(h) if !is_stale(&h, now) => {
                            return Err(StoreError::Invalid(format!(
                                "{} is held by process {} on {} ({} since {}); wait for it to finish, or delete {} if that process is gone",
                                path.display(),
                                h.pid,
                                h.host,
                                h.operation,
                                h.at.to_rfc3339(),
                                path.display()
                            )));
                        }
                        stale => {
                            note = Some(match stale {
                                Some(h) => StaleRemoved::Held { pid: h.pid, operation: h.operation, at: h.at },
                                None => StaleRemoved::Unreadable { path: path.to_owned() },
                            });
                            fs::remove_if_exists(path)?;
                        }
                    }
                }
                Err(e) => return Err(e).at("create", path),
            }
        }
        Err(StoreError::Invalid(format!("could not take the lock {}", path.display())))
    }
}

impl Drop for PidLock {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

fn is_stale(h: &Holder, now: DateTime<Utc>) -> bool {
    let old = (now - h.at).to_std().is_ok_and(|age| age > PidLock::STALE_AFTER);
    old || (h.host == host() && !pid_alive(h.pid))
}

fn host() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .or_else(|_| std::fs::read_to_string("/etc/hostname"))
        .map(|h| h.trim().to_owned())
        .ok()
        .filter(|h| !h.is_empty())
        .or_else(|| std::env::var("HOSTNAME").ok())
        .or_else(|| std::env::var("COMPUTERNAME").ok())
        .unwrap_or_else(|| "unknown".into())
}

fn pid_alive(pid: u32) -> bool {
    #[cfg(unix)]
    {
        use nix::errno::Errno;
        use nix::sys::signal::kill;
        use nix::unistd::Pid;
        let Ok(raw) = i32::try_from(pid) else { return false };
        // Signal 0 checks that the process exists; EPERM means it does.
        !matches!(kill(Pid::from_raw(raw), None), Err(Errno::ESRCH))
    }
    #[cfg(not(unix))]
    {
        // Windows is asked; where it cannot tell, only age makes the lock
        // stale.
        crate::process::is_gone(pid) != Some(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pid_lock_excludes_and_cleans_up_stale_holders() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(".task/.orchestrator.lock");
        let now = Utc::now();
        let (lock, note) = PidLock::acquire(&path, "reset", now).unwrap();
        assert!(note.is_none());
        let err = PidLock::acquire(&path, "reset", now).unwrap_err().to_string();
        assert!(err.contains("held by process") && err.contains("reset"), "{err}");
        drop(lock);
        assert!(!path.exists());
        // A holder whose process is gone.
        let dead = Holder { pid: u32::MAX - 1, host: host(), at: now, operation: "reset".into() };
        std::fs::write(&path, serde_json::to_vec(&dead).unwrap()).unwrap();
        let (_lock, note) = PidLock::acquire(&path, "reset", now).unwrap();
        assert!(matches!(note, Some(StaleRemoved::Held { .. })) && note.unwrap().to_string().contains("stale lock"));
    }

    #[test]
    fn old_locks_are_stale_even_on_other_hosts() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("l.lock");
        let old = Holder {
            pid: 1,
            host: "elsewhere".into(),
            at: Utc::now() - chrono::Duration::hours(1),
            operation: "reset".into(),
        };
        std::fs::write(&path, serde_json::to_vec(&old).unwrap()).unwrap();
        assert!(PidLock::acquire(&path, "reset", Utc::now()).unwrap().1.is_some());
    }
}
