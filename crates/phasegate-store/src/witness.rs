//! What the binaries saw between two commands of a gate, per feature in
//! `.git/phasegate/witness/<feature>/` (runtime state of this clone, never
//! committed): the briefs a reviewer must be spawned with (sealed; `review
//! brief` notes them, the record reads them) and the sub-agent runs already
//! counted. What the binaries wrote of each state file is the feature's
//! (`feature::witnessed`).

use std::path::PathBuf;
use std::time::Duration;

use phasegate_core::witness::BriefNote;
use serde::{Deserialize, Serialize};

use crate::Project;
use crate::error::StoreError;
use crate::fs;
use crate::lock::FileLock;

/// The most briefs kept per feature (the newest).
const KEEP_BRIEFS: usize = 64;
/// The most counted runs kept per feature (the newest).
const KEEP_COUNTED: usize = 512;

#[derive(Debug, Default, Serialize, Deserialize)]
struct Briefs {
    notes: Vec<BriefNote>,
}

#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Counted {
    agent_ids: Vec<String>,
}

/// What the binaries saw of the reviewers' runs: the briefs they issued
/// and the runs already counted.
#[derive(Debug, Clone, Copy)]
pub struct Witness<'p> {
    pub(crate) project: &'p Project,
}

impl Project {
    /// What the binaries saw of the reviewers' runs.
    pub fn witness(&self) -> Witness<'_> {
        Witness { project: self }
    }
}

impl Witness<'_> {
    fn witness_dir(&self, feature: &str) -> PathBuf {
        self.project.runtime_dir().join("witness").join(feature)
    }

    fn witness_lock(&self, feature: &str, wait: Duration) -> Result<FileLock, StoreError> {
        FileLock::acquire(&self.project.lock_dir().join(format!("witness-{feature}.lock")), wait)
    }

    fn read_json<T: Default + for<'de> Deserialize<'de>>(&self, path: &std::path::Path) -> Result<T, StoreError> {
        match fs::read_optional(path)? {
            None => Ok(T::default()),
            Some(text) => serde_json::from_str(&text).map_err(|e| StoreError::Corrupt {
                path: path.to_owned(),
                detail: format!("{e}; phasegate writes it: remove it (the reviewer is then briefed and spawned again)"),
            }),
        }
    }

    /// The briefs noted for `feature`, oldest first.
    pub fn brief_notes(&self, feature: &str) -> Result<Vec<BriefNote>, StoreError> {
        Ok(self.read_json::<Briefs>(&self.witness_dir(feature).join("briefs.json"))?.notes)
    }

    /// Notes a brief (keeping the newest [`KEEP_BRIEFS`]).
    pub fn note_brief(&self, note: BriefNote, wait: Duration) -> Result<(), StoreError> {
        let path = self.witness_dir(&note.feature).join("briefs.json");
        let _lock = self.witness_lock(&note.feature, wait)?;
        let mut briefs: Briefs = self.read_json(&path)?;
        briefs.notes.retain(|n| n != &note);
        briefs.notes.push(note);
        let over = briefs.notes.len().saturating_sub(KEEP_BRIEFS);
        briefs.notes.drain(..over);
        fs::create_dir_all(path.parent().expect("a folder"))?;
        fs::write_atomic(&path, &serde_json::to_vec_pretty(&briefs).expect("briefs serialise"))
    }

    /// The sub-agent runs of `feature` whose verdicts were counted (or
    /// refused as no verdict), so none counts twice.
    pub fn counted_runs(&self, feature: &str) -> Result<Vec<String>, StoreError> {
        Ok(self.read_json::<Counted>(&self.witness_dir(feature).join("counted.json"))?.agent_ids)
    }

    /// Notes that run `agent_id`'s verdict was taken.
    pub fn count_run(&self, feature: &str, agent_id: &str, wait: Duration) -> Result<(), StoreError> {
        let path = self.witness_dir(feature).join("counted.json");
        let _lock = self.witness_lock(feature, wait)?;
        let mut counted: Counted = self.read_json(&path)?;
        if counted.agent_ids.iter().any(|a| a == agent_id) {
            return Ok(());
        }
        counted.agent_ids.push(agent_id.to_owned());
        let over = counted.agent_ids.len().saturating_sub(KEEP_COUNTED);
        counted.agent_ids.drain(..over);
        fs::create_dir_all(path.parent().expect("a folder"))?;
        fs::write_atomic(&path, &serde_json::to_vec_pretty(&counted).expect("ids serialise"))
    }
}
