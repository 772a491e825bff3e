//! What the cost reads and keeps: each session's log (its transcripts,
//! its turns between features, the phase commands typed in it, the
//! sub-agents it spawned for a task) in git's runtime folder, and Claude
//! Code's transcripts, read incrementally through a cache of the usage
//! already read (`transcripts`: a transcript is read, never copied).

mod transcripts;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

use phasegate_core::cost::{self, SessionLog};
use phasegate_core::session::SessionId;

pub use self::transcripts::{MessageRef, Transcript};
pub use crate::claude::{AgentTranscript, Unread, agent_transcripts, claude_dir, find_transcript};
use crate::error::StoreError;
use crate::lock::FileLock;
use crate::{Project, fs};

/// The cost: its configuration, the per-session attribution and the
/// transcripts' usage.
#[derive(Debug, Clone, Copy)]
pub struct Cost<'p> {
    pub(crate) project: &'p Project,
}

impl Project {
    /// The cost.
    pub fn cost(&self) -> Cost<'_> {
        Cost { project: self }
    }
}

impl Cost<'_> {
    fn cost_dir(&self) -> PathBuf {
        self.project.runtime_dir().join("cost")
    }

    fn cost_session_path(&self, session: &SessionId) -> PathBuf {
        self.cost_dir().join("sessions").join(format!("{}.json", session.file_stem()))
    }

    /// A session's log; None before the binaries saw it at work. An
    /// unreadable log is an error naming it.
    pub fn session(&self, session: &SessionId) -> Result<Option<SessionLog>, StoreError> {
        let path = self.cost_session_path(session);
        let Some(text) = fs::read_optional(&path)? else { return Ok(None) };
        serde_json::from_str(&text).map(Some).map_err(|e| StoreError::Corrupt {
            path,
            detail: format!("{e}; phasegate's hooks and commands write it: remove it (the session's cost is then counted from its next turn)"),
        })
    }

    /// Changes a session's log under its lock (waiting at most `wait`);
    /// `change` says whether anything changed (nothing is written if not).
    pub fn update_session(
        &self,
        session: &SessionId,
        wait: Duration,
        change: impl FnOnce(&mut SessionLog) -> bool,
    ) -> Result<(), StoreError> {
        let path = self.cost_session_path(session);
        let _lock =
            FileLock::acquire(&self.project.lock_dir().join(format!("cost-{}.lock", session.file_stem())), wait)?;
        let mut log = self.session(session)?.unwrap_or_default();
        if change(&mut log) {
            fs::write_cache(&path, &serde_json::to_vec(&log).expect("a log serialises"))?;
        }
        Ok(())
    }

    /// Every session's log, by session id; the unreadable ones named apart.
    pub fn sessions(&self) -> Result<(BTreeMap<String, SessionLog>, Vec<String>), StoreError> {
        let mut good = BTreeMap::new();
        let mut bad = Vec::new();
        for (name, path) in fs::regular_files(&self.cost_dir().join("sessions"))? {
            let Some(stem) = name.strip_suffix(".json") else { continue };
            let Some(id) = SessionId::from_file_stem(stem) else { continue };
            match fs::read_optional(&path).map(|t| t.map(|t| serde_json::from_str::<SessionLog>(&t))) {
                Ok(Some(Ok(log))) => {
                    good.insert(id.as_str().to_owned(), log);
                }
                Ok(None) => {}
                Ok(Some(Err(e))) => bad.push(format!("{}: {e}", path.display())),
                Err(e) => bad.push(e.to_string()),
            }
        }
        Ok((good, bad))
    }

    /// The cost settings (defaults when there is no file).
    pub fn config(&self) -> Result<cost::CostConfig, StoreError> {
        let path = self.project.root().join(cost::COST_CONFIG_PATH);
        fs::confine(self.project.root(), &path)?;
        match fs::read_optional(&path)? {
            None => Ok(cost::CostConfig::default()),
            Some(text) => cost::CostConfig::parse(&text)
                .map_err(|e| StoreError::Corrupt { path: path.clone(), detail: e.to_string() }),
        }
    }

    /// Whether a cost configuration exists (one `stat`: what a hook asks
    /// before it reads anything about cost).
    pub fn has_config(&self) -> bool {
        fs::exists_entry(&self.project.root().join(cost::COST_CONFIG_PATH))
    }
}
