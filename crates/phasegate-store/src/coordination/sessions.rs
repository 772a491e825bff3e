//! The registry of Claude Code sessions working on the repository: one small
//! file per session in git's common directory (so every worktree of the
//! repository sees every session), named injectively after its id. A record
//! says what the session works on, its lifecycle state and, through the
//! file's modification time, its last sign of life: a heartbeat is one
//! `utimensat`, not a rewrite, so every hook can give one for almost nothing.
//!
//! The pipeline's ownership of a loop lives here too (`owns_loop`): one
//! record per session, never a project-wide loop file another session could
//! trip on.

use std::path::PathBuf;

use chrono::{DateTime, Utc};
use phasegate_core::coordination::SessionRecord;
use phasegate_core::feature::command::PromptWords;
use phasegate_core::session::SessionId;
use serde::Deserialize;

use crate::coordination::Coordination;
use crate::error::{IoContext, StoreError};
use crate::feature::Feature;
use crate::fs;

/// A session record that cannot be read, and why.
#[derive(Debug, Clone)]
pub struct BadRecord {
    pub path: PathBuf,
    pub error: String,
}

/// The record an earlier version wrote for a pipeline's owner.
#[derive(Deserialize)]
struct LoopOwner {
    feature: String,
    dir: PathBuf,
    at: DateTime<Utc>,
}

impl Coordination<'_> {
    /// Where session records live: git's common directory (all worktrees).
    pub fn sessions_dir(&self) -> PathBuf {
        self.project.runtime_dir().join("sessions")
    }

    /// The record file of a session, named injectively after its id.
    pub fn session_file(&self, session: &SessionId) -> PathBuf {
        self.sessions_dir().join(format!("{}.json", session.file_stem()))
    }

    /// The record of `session`, with its heartbeat from the file's time:
    /// every sign of life sets it, so it is the last one given, even when
    /// the clock was set back meanwhile and the time written in the record
    /// lies ahead of it (the record's own time only when the file's cannot
    /// be read). Whether the session's process has ended is looked up
    /// (`process_ended`), and until when an interruption pauses it
    /// (`paused_until`). None when there is none. A record in the older
    /// pipeline-owner shape is read as a session owning that loop.
    pub fn session(&self, session: &SessionId) -> Result<Option<SessionRecord>, StoreError> {
        let path = self.session_file(session);
        let Some(text) = fs::read_optional(&path)? else { return Ok(None) };
        let mut record = match serde_json::from_str::<SessionRecord>(&text) {
            Ok(r) => r,
            Err(e) => match serde_json::from_str::<LoopOwner>(&text) {
                Ok(old) => {
                    let mut r = SessionRecord::new(session.clone(), &old.dir.display().to_string(), "", old.at);
                    r.feature = Some(old.feature.clone());
                    r.owns_loop = Some(old.feature);
                    r
                }
                Err(_) => {
                    return Err(StoreError::Corrupt {
                        path,
                        detail: format!("{e}; it is written by phasegate's hooks and commands only: remove it"),
                    });
                }
            },
        };
        if let Some(touched) = modified(&path) {
            record.heartbeat_at = touched;
        }
        record.process_ended = record.pid.is_some_and(|pid| crate::process::is_gone(pid) == Some(true));
        // An interruption that cannot be read pauses nothing.
        record.paused_until = self.project.interruptions().get(session).ok().flatten().and_then(|i| i.pauses_until());
        Ok(Some(record))
    }

    /// Writes a session's record (atomically).
    pub fn save_session(&self, record: &SessionRecord) -> Result<(), StoreError> {
        let path = self.session_file(&record.id);
        let dir = self.sessions_dir();
        std::fs::create_dir_all(&dir).at("create", &dir)?;
        fs::write_atomic(&path, &serde_json::to_vec(record).expect("a record serialises"))?;
        // The file's time is the heartbeat (see `touch_session`): the
        // record's own, not the moment it was written.
        self.touch_session(&record.id, record.heartbeat_at);
        Ok(())
    }

    /// A sign of life of `session` at `now`: the record file's time is set,
    /// nothing is rewritten. False when the session has no record.
    pub fn touch_session(&self, session: &SessionId, now: DateTime<Utc>) -> bool {
        let path = self.session_file(session);
        std::fs::File::options()
            .write(true)
            .open(&path)
            .and_then(|f| f.set_modified(std::time::SystemTime::from(now)))
            .is_ok()
    }

    /// Removes a session's record and what else it left (its end).
    pub fn remove_session(&self, session: &SessionId) -> Result<(), StoreError> {
        let _ = fs::remove_if_exists(&self.prompt_words_file(session));
        fs::remove_if_exists(&self.session_file(session)).map(|_| ())
    }

    /// Where the words typed with a session's last phase command wait for
    /// the command's brief (a folder of its own: `sessions/` holds records
    /// only).
    pub fn prompt_words_file(&self, session: &SessionId) -> PathBuf {
        self.project.runtime_dir().join("prompts").join(format!("{}.json", session.file_stem()))
    }

    /// Keeps the words a session typed with a phase command (a runtime
    /// file: the next command's words replace them).
    pub fn save_prompt_words(&self, session: &SessionId, words: &PromptWords) -> Result<(), StoreError> {
        fs::write_cache(&self.prompt_words_file(session), &serde_json::to_vec(words).expect("words serialise"))
    }

    /// The words a session typed with its last phase command, if kept.
    pub fn prompt_words(&self, session: &SessionId) -> Result<Option<PromptWords>, StoreError> {
        let path = self.prompt_words_file(session);
        let Some(text) = fs::read_optional_up_to(&path, 64 * 1024)? else { return Ok(None) };
        serde_json::from_str(&text).map(Some).map_err(|e| StoreError::Corrupt {
            path,
            detail: format!("{e}; the UserPromptSubmit hook writes it: remove it"),
        })
    }

    /// Every session record; the ones that cannot be read apart, by path.
    pub fn sessions(&self) -> Result<(Vec<SessionRecord>, Vec<BadRecord>), StoreError> {
        let dir = self.sessions_dir();
        let entries = match std::fs::read_dir(&dir) {
            Ok(e) => e,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((Vec::new(), Vec::new())),
            Err(e) => return Err(e).at("list", &dir),
        };
        let mut good = Vec::new();
        let mut bad = Vec::new();
        for entry in entries {
            let entry = entry.at("list", &dir)?;
            let name = entry.file_name();
            let Some(stem) = name.to_str().and_then(|n| n.strip_suffix(".json")) else { continue };
            if stem.starts_with('.') {
                continue;
            }
            let Some(id) = SessionId::from_file_stem(stem) else {
                bad.push(BadRecord { path: entry.path(), error: "not named after a session id".to_owned() });
                continue;
            };
            match self.session(&id) {
                Ok(Some(r)) => good.push(r),
                Ok(None) => {}
                Err(e) => bad.push(BadRecord { path: entry.path(), error: e.to_string() }),
            }
        }
        good.sort_by(|a, b| a.id.cmp(&b.id));
        Ok((good, bad))
    }

    /// Marks `feature` as the loop `session` owns (its pipeline).
    pub fn register_session(
        &self,
        session: &SessionId,
        feature: &Feature,
        now: DateTime<Utc>,
    ) -> Result<(), StoreError> {
        let mut record = self.session(session).ok().flatten().unwrap_or_else(|| {
            SessionRecord::new(session.clone(), &self.project.root().display().to_string(), "", now)
        });
        record.feature = Some(feature.name().to_owned());
        record.owns_loop = Some(feature.name().to_owned());
        record.heartbeat(now);
        self.save_session(&record)
    }

    /// `session` owns no loop any more (its record stays for the rest).
    pub fn unregister_session(&self, session: &SessionId) -> Result<(), StoreError> {
        match self.session(session) {
            Ok(Some(mut r)) if r.owns_loop.is_some() => {
                r.owns_loop = None;
                self.save_session(&r)
            }
            Ok(_) => Ok(()),
            // An unreadable record owns nothing: removed.
            Err(_) => self.remove_session(session),
        }
    }

    /// The loop (pipeline feature) `session` owns, if any. A record that
    /// names a folder that no longer exists is let go.
    pub fn session_feature(&self, session: &SessionId) -> Result<Option<Feature>, StoreError> {
        let Some(record) = self.session(session)? else { return Ok(None) };
        let Some(name) = record.owns_loop.as_deref() else { return Ok(None) };
        let dir = self.project.features_dir().join(name);
        if phasegate_core::slug::split_feature_name(name).is_none()
            || !fs::exists_entry(&dir.join(phasegate_core::feature::META_FILE))
        {
            let _ = self.unregister_session(session);
            return Ok(None);
        }
        Ok(Some(self.project.feature_for_dir(dir)))
    }
}

/// A file's modification time.
fn modified(path: &std::path::Path) -> Option<DateTime<Utc>> {
    std::fs::metadata(path).and_then(|m| m.modified()).ok().map(DateTime::<Utc>::from)
}
