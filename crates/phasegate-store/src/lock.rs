//! Advisory file locks held by the kernel (flock on Unix, LockFileEx on
//! Windows): they die with the process, so a crash never leaves a stale lock.

use std::fs::{self, File, OpenOptions, TryLockError};
use std::path::Path;
use std::thread;
use std::time::{Duration, Instant};

use crate::error::{IoContext, StoreError};

/// How long a writer waits for another one by default.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);

/// An exclusive lock, released when dropped.
#[derive(Debug)]
pub struct FileLock {
    file: File,
}

impl FileLock {
    /// Takes the lock at `path` (creating the file and its directory), waiting
    /// at most `timeout` for another holder.
    pub fn acquire(path: &Path, timeout: Duration) -> Result<FileLock, StoreError> {
        if let Some(dir) = path.parent() {
            fs::create_dir_all(dir).at("create the lock directory", dir)?;
        }
        let file =
            OpenOptions::new().create(true).truncate(false).write(true).open(path).at("open the lock file", path)?;
        let start = Instant::now();
        let mut pause = Duration::from_millis(1);
        loop {
            match file.try_lock() {
                Ok(()) => return Ok(FileLock { file }),
                Err(TryLockError::WouldBlock) => {
                    if start.elapsed() >= timeout {
                        return Err(StoreError::LockTimeout { path: path.to_owned(), waited: start.elapsed() });
                    }
                    thread::sleep(pause);
                    pause = (pause * 2).min(Duration::from_millis(25));
                }
                Err(TryLockError::Error(e)) => return Err(e).at("lock", path),
            }
        }
    }

    /// Takes the lock at `path` if no one holds it; None when someone does.
    pub fn try_acquire(path: &Path) -> Result<Option<FileLock>, StoreError> {
        if let Some(dir) = path.parent() {
            fs::create_dir_all(dir).at("create the lock directory", dir)?;
        }
        let file =
            OpenOptions::new().create(true).truncate(false).write(true).open(path).at("open the lock file", path)?;
        match file.try_lock() {
            Ok(()) => Ok(Some(FileLock { file })),
            Err(TryLockError::WouldBlock) => Ok(None),
            Err(TryLockError::Error(e)) => Err(e).at("lock", path),
        }
    }
}

impl Drop for FileLock {
    fn drop(&mut self) {
        let _ = self.file.unlock();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn second_holder_times_out_then_succeeds_after_release() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("locks/x.lock");
        let first = FileLock::acquire(&p, DEFAULT_TIMEOUT).unwrap();
        let err = FileLock::acquire(&p, Duration::from_millis(30)).unwrap_err().to_string();
        assert!(err.contains("timed out") && err.contains("x.lock"), "{err}");
        drop(first);
        FileLock::acquire(&p, Duration::from_millis(30)).unwrap();
    }
}
