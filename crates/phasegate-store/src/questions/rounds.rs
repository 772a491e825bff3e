//! The implementer round loops of a feature (`.rounds.json`).

use std::path::PathBuf;

use phasegate_core::questions::{ROUNDS_FILE, RoundsFile};
use phasegate_core::words::Command;

use super::render;
use crate::error::StoreError;
use crate::feature::{Feature, FeatureGuard};
use crate::fs;
use crate::journal::FileWrite;

impl Feature {
    /// `.rounds.json`.
    pub fn rounds_path(&self) -> PathBuf {
        self.dir().join(ROUNDS_FILE)
    }

    pub fn read_rounds(&self) -> Result<RoundsFile, StoreError> {
        let path = self.rounds_path();
        fs::confine(self.root(), &path)?;
        match fs::read_optional(&path)? {
            None => Ok(RoundsFile::default()),
            Some(text) => serde_json::from_str(&text).map_err(|e| StoreError::Corrupt {
                path: path.clone(),
                detail: format!("{e}; it is written by `{rounds}` only", rounds = Command::new("rounds")),
            }),
        }
    }
}

impl FeatureGuard<'_> {
    pub fn rounds_change(&self, rounds: &RoundsFile) -> FileWrite {
        FileWrite::put(self.feature().rounds_path(), render(rounds))
    }
}
