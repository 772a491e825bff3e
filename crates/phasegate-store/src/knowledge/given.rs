//! What briefs need from disk: `.phasegate/context.config.json`, and the
//! log of the knowledge items each session was given (by a brief it asked
//! for or just in time before an edit), so the hook gives each item once
//! per session and a compacted session gets its gotchas back. The log is
//! runtime state in git's common directory, one small file per session.

use super::Knowledge;
use std::path::{Path, PathBuf};
use std::time::Duration;

use chrono::{DateTime, Utc};
use phasegate_core::brief::{CONTEXT_CONFIG_PATH, ContextConfig};
use phasegate_core::session::SessionId;
use serde::{Deserialize, Serialize};

use crate::error::StoreError;
use crate::fs;
use crate::lock::FileLock;

/// One item a session was given.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GivenItem {
    pub id: String,
    /// The task whose brief carried it, or the file it was given for.
    #[serde(rename = "for")]
    pub for_: String,
    pub at: DateTime<Utc>,
}

/// The items one session was given, oldest first.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GivenLog {
    #[serde(default)]
    pub items: Vec<GivenItem>,
    /// Problems the session was told of, each once (`knowledge-unreadable`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub told: Vec<String>,
}

impl GivenLog {
    pub fn has(&self, id: &str) -> bool {
        self.items.iter().any(|i| i.id == id)
    }
}

/// The most entries a session's log keeps (the oldest go first).
const MAX_GIVEN: usize = 500;

impl Knowledge<'_> {
    /// The context configuration (defaults without a file); an invalid file
    /// is an error naming it.
    pub fn context_config(&self) -> Result<ContextConfig, StoreError> {
        let path = self.project.root().join(CONTEXT_CONFIG_PATH);
        fs::confine(self.project.root(), &path)?;
        match fs::read_optional(&path)? {
            None => Ok(ContextConfig::default()),
            Some(text) => ContextConfig::parse(&text)
                .map_err(|e| StoreError::Corrupt { path: path.clone(), detail: e.to_string() }),
        }
    }

    /// Where the session's given-log lives.
    pub fn given_path(&self, session: &SessionId) -> PathBuf {
        given_path(&self.project.runtime_dir(), session)
    }
}

/// The given-log of `session` under the runtime folder `runtime`.
pub fn given_path(runtime: &Path, session: &SessionId) -> PathBuf {
    runtime.join("knowledge-given").join(format!("{}.json", session.file_stem()))
}

/// The log at `path` (empty when missing or unreadable: it only saves
/// giving an item twice).
pub fn read_given(path: &Path) -> GivenLog {
    fs::read_optional(path).ok().flatten().and_then(|t| serde_json::from_str(&t).ok()).unwrap_or_default()
}

/// Adds items to the log at `path` under its own lock (a short wait: a hook
/// that cannot get it gives up and the item may be given once more).
pub fn add_given(path: &Path, items: &[GivenItem]) -> Result<(), StoreError> {
    if items.is_empty() {
        return Ok(());
    }
    if let Some(dir) = path.parent() {
        fs::create_dir_all(dir)?;
    }
    let _lock = FileLock::acquire(&path.with_extension("lock"), Duration::from_millis(200))?;
    let mut log = read_given(path);
    for i in items {
        if !log.has(&i.id) {
            log.items.push(i.clone());
        }
    }
    if log.items.len() > MAX_GIVEN {
        let extra = log.items.len() - MAX_GIVEN;
        log.items.drain(..extra);
    }
    fs::write_cache(path, &serde_json::to_vec(&log).expect("serialises"))
}

/// Notes in the log at `path` that the session was told of `what`: true
/// the first time, false when it was told before (under the log's lock,
/// so two hooks at once tell it once).
pub fn add_told(path: &Path, what: &str) -> Result<bool, StoreError> {
    if let Some(dir) = path.parent() {
        fs::create_dir_all(dir)?;
    }
    let _lock = FileLock::acquire(&path.with_extension("lock"), Duration::from_millis(200))?;
    let mut log = read_given(path);
    if log.told.iter().any(|t| t == what) {
        return Ok(false);
    }
    log.told.push(what.to_owned());
    fs::write_cache(path, &serde_json::to_vec(&log).expect("serialises"))?;
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_log_keeps_each_item_once_and_the_newest_500() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.json");
        let at = Utc::now();
        let item = |i: usize| GivenItem { id: format!("g-{i}"), for_: "T1".into(), at };
        add_given(&path, &[item(1), item(1), item(2)]).unwrap();
        add_given(&path, &[item(2)]).unwrap();
        assert_eq!(read_given(&path).items.len(), 2);
        let many: Vec<GivenItem> = (0..600).map(item).collect();
        add_given(&path, &many).unwrap();
        let log = read_given(&path);
        assert_eq!(log.items.len(), 500);
        assert_eq!(log.items.last().unwrap().id, "g-599");
    }

    #[test]
    fn a_session_id_with_a_slash_put_its_given_log_outside_its_folder() {
        let runtime = Path::new("/repo/.git/phasegate");
        for id in ["../../../etc/x", "a/b", "..", "sess-A"] {
            let path = given_path(runtime, &SessionId::parse(id).unwrap());
            assert_eq!(path.parent(), Some(runtime.join("knowledge-given").as_path()), "{id}");
            assert!(path.components().all(|c| c != std::path::Component::ParentDir), "{id}: {}", path.display());
        }
    }
}
