//! Where the coordination's logs live, all in git's common directory:
//!
//! - `events/log.jsonl`: the event log (append-only, one event per line);
//! - `events/acks.jsonl`: who acknowledged which event, and when;
//! - `events/delivery.json`: the delivery state, a cache the next writer
//!   rebuilds from the two logs when it is missing or unreadable (events are
//!   then offered again, never lost): the next event number, how far the log
//!   has been read, and each pending event with the session it was offered
//!   to;
//! - `monitor/alerts.jsonl`, `monitor/decisions.jsonl`: the monitor's
//!   alerts and the PM's decisions, with their reasons;
//! - `monitor/state.json`: when the monitor last ran;
//! - `hooks/problems.jsonl`: what a hook could not do and could not say
//!   (SessionEnd has no output; a hook that panicked), one line each, that
//!   `workflow-state status` mentions.
//!
//! Writers of the event files hold `locks/events.lock`.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

use chrono::{DateTime, Utc};
use phasegate_core::coordination::Event;
use phasegate_core::session::SessionId;
use serde::{Deserialize, Serialize};

use crate::coordination::Coordination;
use crate::error::StoreError;
use crate::fs;
use crate::lock::FileLock;
use crate::logs::LogFile;

/// One event waiting for its acknowledgement.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Pending {
    pub event: Event,
    /// The session it was offered to, once offered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offered_to: Option<SessionId>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offered_at: Option<DateTime<Utc>>,
}

/// An acknowledgement, as logged.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ack {
    pub id: String,
    /// The session that acknowledged it, or `user` from a shell.
    pub by: String,
    pub at: DateTime<Utc>,
}

/// `events/delivery.json`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Delivery {
    /// The number of the next event (`e<next>`).
    #[serde(default)]
    pub next: u64,
    /// Bytes of the log already taken into `pending`.
    #[serde(default)]
    pub through: u64,
    /// Bytes of the acknowledgements already applied.
    #[serde(default)]
    pub acks_through: u64,
    #[serde(default)]
    pub pending: BTreeMap<String, Pending>,
}

/// A problem a hook met where it could not tell the session.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HookProblem {
    pub at: DateTime<Utc>,
    /// The hook event (`session-end`, `pre-tool-use`, ...).
    pub hook: String,
    pub problem: String,
}

/// When the monitor last checked.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct MonitorState {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_check: Option<DateTime<Utc>>,
}

impl Coordination<'_> {
    pub fn event_log(&self) -> LogFile {
        LogFile::new(self.project.runtime_dir().join("events/log.jsonl"), self.project.lock_dir().join("events.lock"))
    }

    /// The hooks' problems that reached nobody (see [`HookProblem`]).
    pub fn hook_problems(&self) -> LogFile {
        LogFile::new(
            self.project.runtime_dir().join("hooks/problems.jsonl"),
            self.project.lock_dir().join("hooks.lock"),
        )
    }

    /// Keeps a problem nobody was told (a hook's, a verb's effect's, a
    /// dialog's), said by `source`, in [`Self::hook_problems`], which
    /// `workflow-state status` reports; its lock waited for a second at most.
    pub fn note_problem(&self, at: DateTime<Utc>, source: &str, problem: &str) -> Result<(), StoreError> {
        let line = HookProblem { at, hook: source.to_owned(), problem: problem.to_owned() };
        self.hook_problems().append(&[line], Duration::from_secs(1))
    }

    pub fn event_acks(&self) -> LogFile {
        LogFile::new(self.project.runtime_dir().join("events/acks.jsonl"), self.project.lock_dir().join("events.lock"))
    }

    pub fn events_lock(&self, timeout: Duration) -> Result<FileLock, StoreError> {
        FileLock::acquire(&self.project.lock_dir().join("events.lock"), timeout)
    }

    fn delivery_file(&self) -> PathBuf {
        self.project.runtime_dir().join("events/delivery.json")
    }

    /// The delivery state; `Err` with the reason when the file cannot be
    /// read (the caller rebuilds it from the logs).
    pub fn delivery(&self) -> Result<Delivery, String> {
        match fs::read_optional(&self.delivery_file()) {
            Ok(None) => Ok(Delivery::default()),
            Ok(Some(text)) => {
                serde_json::from_str(&text).map_err(|e| format!("{}: {e}", self.delivery_file().display()))
            }
            Err(e) => Err(e.to_string()),
        }
    }

    /// Writes the delivery state; the caller holds the events lock.
    pub fn save_delivery(&self, d: &Delivery) -> Result<(), StoreError> {
        crate::fs::write_cache(&self.delivery_file(), &serde_json::to_vec(d).expect("delivery serialises"))
    }

    pub fn alert_log(&self) -> LogFile {
        LogFile::new(
            self.project.runtime_dir().join("monitor/alerts.jsonl"),
            self.project.lock_dir().join("alerts.lock"),
        )
    }

    pub fn decision_log(&self) -> LogFile {
        LogFile::new(
            self.project.runtime_dir().join("monitor/decisions.jsonl"),
            self.project.lock_dir().join("decisions.lock"),
        )
    }

    /// One monitor check at a time.
    pub fn monitor_lock(&self, timeout: Duration) -> Result<FileLock, StoreError> {
        FileLock::acquire(&self.project.lock_dir().join("monitor.lock"), timeout)
    }

    fn monitor_state_file(&self) -> PathBuf {
        self.project.runtime_dir().join("monitor/state.json")
    }

    /// The monitor's state (an unreadable file reads as a monitor that
    /// never ran: it runs now).
    pub fn monitor_state(&self) -> MonitorState {
        fs::read_optional(&self.monitor_state_file())
            .ok()
            .flatten()
            .and_then(|t| serde_json::from_str(&t).ok())
            .unwrap_or_default()
    }

    pub fn save_monitor_state(&self, s: &MonitorState) -> Result<(), StoreError> {
        crate::fs::write_cache(&self.monitor_state_file(), &serde_json::to_vec(s).expect("state serialises"))
    }
}
