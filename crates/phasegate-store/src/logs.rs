//! Append-only logs of one JSON record per line, in git's common directory:
//! the event log, the monitor's alerts and the PM's decisions. Safe under
//! concurrent writers (each append holds the log's kernel lock and writes
//! its lines with one `write` to a file opened for appending) and under
//! crashes (a writer that dies mid-line leaves a last line without its
//! newline; readers report it as incomplete, and the next writer ends it
//! with a newline first, so the torn bytes stay in the file as a corrupt
//! line that every reader reports, never silently dropped). A corrupt line
//! is reported with its number and skipped, never fatal.

use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use phasegate_core::coordination::{JsonLines, parse_json_lines};
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::error::{IoContext, StoreError};
use crate::lock::FileLock;

/// The most a log is read at once (64 MiB): far beyond what phasegate
/// writes in a year of use.
pub const MAX_LOG_BYTES: u64 = 64 * 1024 * 1024;

/// One append-only JSON-lines file and the lock its writers take.
#[derive(Debug, Clone)]
pub struct LogFile {
    pub path: PathBuf,
    pub lock: PathBuf,
}

/// What a read from an offset saw.
#[derive(Debug)]
pub struct Tail<T> {
    pub lines: JsonLines<T>,
    /// Where the read started: the offset asked for, or 0 when the file is
    /// shorter than it (it was replaced or cut).
    pub from: u64,
}

impl LogFile {
    pub fn new(path: PathBuf, lock: PathBuf) -> LogFile {
        LogFile { path, lock }
    }

    /// Appends `records` under the log's lock.
    pub fn append<T: Serialize>(&self, records: &[T], timeout: Duration) -> Result<(), StoreError> {
        let _lock = FileLock::acquire(&self.lock, timeout)?;
        self.append_held(records)
    }

    /// Appends `records`; the caller holds the log's lock.
    pub fn append_held<T: Serialize>(&self, records: &[T]) -> Result<(), StoreError> {
        if records.is_empty() {
            return Ok(());
        }
        if let Some(dir) = self.path.parent() {
            std::fs::create_dir_all(dir).at("create", dir)?;
        }
        let mut file =
            std::fs::OpenOptions::new().create(true).append(true).read(true).open(&self.path).at("open", &self.path)?;
        let mut text = String::new();
        // A line torn by a crash is ended, so it stays a line of its own.
        if ends_without_newline(&mut file).at("read", &self.path)? {
            text.push('\n');
        }
        for r in records {
            text.push_str(&serde_json::to_string(r).expect("log records serialise"));
            text.push('\n');
        }
        file.write_all(text.as_bytes()).at("append to", &self.path)?;
        file.sync_data().at("flush", &self.path)?;
        Ok(())
    }

    /// The whole log; a missing file is an empty log.
    pub fn read<T: DeserializeOwned>(&self) -> Result<JsonLines<T>, StoreError> {
        Ok(self.read_from(0)?.lines)
    }

    /// The log from byte `offset` on (0 when the file is shorter).
    pub fn read_from<T: DeserializeOwned>(&self, offset: u64) -> Result<Tail<T>, StoreError> {
        let empty = |from| Tail { lines: parse_json_lines(""), from };
        let mut file = match open_regular(&self.path)? {
            Some(f) => f,
            None => return Ok(empty(0)),
        };
        let len = file.metadata().at("inspect", &self.path)?.len();
        let from = if offset <= len { offset } else { 0 };
        if len - from > MAX_LOG_BYTES {
            return Err(StoreError::TooLarge { path: self.path.clone(), size: len - from, max: MAX_LOG_BYTES });
        }
        file.seek(SeekFrom::Start(from)).at("read", &self.path)?;
        let mut bytes = Vec::new();
        file.take(MAX_LOG_BYTES).read_to_end(&mut bytes).at("read", &self.path)?;
        let text = String::from_utf8_lossy(&bytes);
        Ok(Tail { lines: parse_json_lines(&text), from })
    }

    /// The log's size in bytes (0 when missing).
    pub fn len(&self) -> u64 {
        std::fs::metadata(&self.path).map(|m| m.len()).unwrap_or(0)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

fn ends_without_newline(file: &mut std::fs::File) -> std::io::Result<bool> {
    let len = file.metadata()?.len();
    if len == 0 {
        return Ok(false);
    }
    file.seek(SeekFrom::Start(len - 1))?;
    let mut last = [0u8; 1];
    file.read_exact(&mut last)?;
    Ok(last[0] != b'\n')
}

/// Opens a regular file for reading; None when nothing is there.
fn open_regular(path: &Path) -> Result<Option<std::fs::File>, StoreError> {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_file() => Ok(Some(std::fs::File::open(path).at("open", path)?)),
        Ok(_) => Err(StoreError::NotRegular { path: path.to_owned(), what: "not a regular file".into() }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e).at("inspect", path),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn log(dir: &Path) -> LogFile {
        LogFile::new(dir.join("x/log.jsonl"), dir.join("locks/log.lock"))
    }

    #[test]
    fn a_torn_line_is_ended_and_reported_not_lost_and_later_records_read() {
        let tmp = tempfile::tempdir().unwrap();
        let l = log(tmp.path());
        l.append(&[serde_json::json!({"n": 1})], Duration::from_secs(1)).unwrap();
        // A writer died mid-line.
        std::fs::OpenOptions::new().append(true).open(&l.path).unwrap().write_all(b"{\"n\": 2, \"tru").unwrap();
        let r: JsonLines<serde_json::Value> = l.read().unwrap();
        assert_eq!((r.records.len(), r.incomplete.as_ref().map(|b| b.line)), (1, Some(2)));
        l.append(&[serde_json::json!({"n": 3})], Duration::from_secs(1)).unwrap();
        let r: JsonLines<serde_json::Value> = l.read().unwrap();
        assert_eq!(r.records.len(), 2);
        assert_eq!(r.corrupt.iter().map(|b| b.line).collect::<Vec<_>>(), [2], "the torn line is reported");
        assert!(r.incomplete.is_none());
    }

    #[test]
    fn a_read_from_an_offset_beyond_the_end_starts_over() {
        let tmp = tempfile::tempdir().unwrap();
        let l = log(tmp.path());
        l.append(&[1, 2, 3], Duration::from_secs(1)).unwrap();
        let t: Tail<u32> = l.read_from(2).unwrap();
        assert_eq!((t.from, t.lines.records.as_slice()), (2, [2, 3].as_slice()));
        let t: Tail<u32> = l.read_from(1000).unwrap();
        assert_eq!((t.from, t.lines.records.len()), (0, 3));
        let missing = LogFile::new(tmp.path().join("none.jsonl"), tmp.path().join("n.lock"));
        assert_eq!(missing.read::<u32>().unwrap().records.len(), 0);
    }
}
