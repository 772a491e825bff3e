//! Question dialogs waiting to be read: the PostToolUse hook of Claude
//! Code's question dialog (AskUserQuestion) notes which tool call asked a
//! question only a person may answer; the person's choice is then read
//! from Claude Code's own transcript of that call (written after the
//! hook), never from the hook's input. One small file per dialog in
//! `.git/phasegate/questions/dialogs/`.

use super::Questions;
use std::path::PathBuf;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::error::StoreError;
use crate::fs;

/// A dialog that asked questions only a person may answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DialogNote {
    /// The AskUserQuestion tool call.
    pub tool_use_id: String,
    /// The session that asked it.
    pub session: String,
    /// The questions it asked.
    pub questions: Vec<String>,
    pub at: DateTime<Utc>,
}

impl Questions<'_> {
    fn dialogs_dir(&self) -> PathBuf {
        self.project.runtime_dir().join("questions").join("dialogs")
    }

    /// Whether any dialog waits to be read (one look at a folder: what a
    /// hook asks first).
    pub fn has_dialog_notes(&self) -> bool {
        fs::exists_entry(&self.dialogs_dir())
    }

    /// Notes a dialog; its id becomes a file name, so it must be one.
    pub fn note_dialog(&self, note: &DialogNote) -> Result<(), StoreError> {
        let ok = !note.tool_use_id.is_empty()
            && note.tool_use_id.len() <= 128
            && note.tool_use_id.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
        if !ok {
            return Err(StoreError::Corrupt {
                path: self.dialogs_dir(),
                detail: format!("`{}` is not a tool call id", note.tool_use_id.chars().take(40).collect::<String>()),
            });
        }
        fs::write_cache(
            &self.dialogs_dir().join(format!("{}.json", note.tool_use_id)),
            &serde_json::to_vec(note).expect("a note serialises"),
        )
    }

    /// The dialogs waiting to be read; a file that is not a note is skipped.
    pub fn dialog_notes(&self) -> Vec<DialogNote> {
        let Ok(files) = fs::regular_files(&self.dialogs_dir()) else { return Vec::new() };
        files
            .into_iter()
            .filter(|(name, _)| name.ends_with(".json"))
            .filter_map(|(_, path)| fs::read_optional_up_to(&path, 64 * 1024).ok().flatten())
            .filter_map(|text| serde_json::from_str(&text).ok())
            .collect()
    }

    /// Drops a dialog's note once read (or too old to be read); the folder
    /// goes with the last one, so a hook's look finds nothing.
    pub fn drop_dialog_note(&self, tool_use_id: &str) {
        let dir = self.dialogs_dir();
        let _ = fs::remove_if_exists(&dir.join(format!("{tool_use_id}.json")));
        let _ = std::fs::remove_dir(&dir);
    }
}
