//! Pipeline files on disk: `.task/` of a pipeline feature, the
//! configuration, and the seed's PID lock for destructive operations
//! (`pid_lock`). (Which session owns a pipeline's loop: `coordination`.)

mod pid_lock;

use std::path::{Path, PathBuf};

use phasegate_core::pipeline::files::{self, FileError, FileKind, TASK_DIR};
use phasegate_core::pipeline::{CONFIG_PATH, Config};
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::error::StoreError;
use crate::feature::{Feature, FeatureGuard};
use crate::fs;
use crate::journal::FileWrite;
use crate::project::Project;

pub use pid_lock::{PidLock, StaleRemoved};

/// The pipeline's configuration.
#[derive(Debug, Clone, Copy)]
pub struct Pipeline<'p> {
    pub(crate) project: &'p Project,
}

impl Project {
    /// The pipeline's configuration.
    pub fn pipeline(&self) -> Pipeline<'_> {
        Pipeline { project: self }
    }
}

impl Feature {
    /// `…/NNN-slug/.task`.
    pub fn task_dir(&self) -> PathBuf {
        self.dir().join(TASK_DIR)
    }

    /// Whether the task folder is there, a folder.
    pub fn has_task_dir(&self) -> bool {
        fs::is_dir(&self.task_dir())
    }

    pub fn task_path(&self, file: &str) -> PathBuf {
        self.task_dir().join(file)
    }

    /// Reads a `.task/` file of `kind`, checked against its schema; None when
    /// it does not exist. Readers need no lock: writers rename.
    pub fn read_task<T: DeserializeOwned>(&self, kind: FileKind, file: &str) -> Result<Option<T>, StoreError> {
        let path = self.task_path(file);
        fs::confine(self.root(), &path)?;
        match fs::read_optional(&path)? {
            None => Ok(None),
            Some(text) => parse_file(kind, &path, &text).map(Some),
        }
    }

    /// Reads a `.task/` file phasegate writes itself (state.json,
    /// loop-state.json): the fast typed reading, the schema only to explain
    /// a failure.
    /// The pipeline's run (`.task/state.json`); a pipeline feature without
    /// one is an error that says how to start it again.
    pub fn pipeline_run(&self) -> Result<phasegate_core::pipeline::PipelineRun, StoreError> {
        self.read_owned_task::<phasegate_core::pipeline::PipelineRun>()?.ok_or_else(|| StoreError::NoPipelineRun {
            path: self.task_path(phasegate_core::pipeline::files::STATE_FILE),
            feature: self.name().to_owned(),
        })
    }

    pub fn read_owned_task<T: files::Owned>(&self) -> Result<Option<T>, StoreError> {
        let file = T::KIND.task_file().expect("owned files live in .task/");
        let path = self.task_path(file);
        fs::confine(self.root(), &path)?;
        match fs::read_optional(&path)? {
            None => Ok(None),
            Some(text) => files::read_owned::<T>(&text)
                .map(Some)
                .map_err(|e| StoreError::Corrupt { path: path.clone(), detail: describe(e) }),
        }
    }

    /// Reads a `.task/` file as text (a worker's output, for a prompt).
    /// Whether the `.task/` file `file` exists (whatever its kind of entry).
    pub fn has_task_file(&self, file: &str) -> bool {
        fs::exists_entry(&self.task_path(file))
    }

    /// Writes `text` to the `.task/` file `file` whole, without the lock: a
    /// marker or a copy kept for inspection, which no reader parses.
    pub fn write_task_text(&self, file: &str, text: &str) -> Result<PathBuf, StoreError> {
        let path = self.task_path(file);
        fs::confine(self.root(), &path)?;
        fs::write_atomic(&path, text.as_bytes())?;
        Ok(path)
    }

    /// Takes the seed's PID lock `file` of the task folder for `operation`
    /// (a stale one is removed first, and said).
    pub fn pid_lock(
        &self,
        file: &str,
        operation: &str,
        now: chrono::DateTime<chrono::Utc>,
    ) -> Result<(PidLock, Option<StaleRemoved>), StoreError> {
        let path = self.task_path(file);
        fs::confine(self.root(), &path)?;
        PidLock::acquire(&path, operation, now)
    }

    pub fn read_task_text(&self, file: &str) -> Result<Option<String>, StoreError> {
        let path = self.task_path(file);
        fs::confine(self.root(), &path)?;
        fs::read_optional(&path)
    }
}

/// Parses a pipeline file; errors name the file and each bad field.
pub fn parse_file<T: DeserializeOwned>(kind: FileKind, path: &Path, text: &str) -> Result<T, StoreError> {
    files::parse(kind, text).map_err(|e| StoreError::Corrupt { path: path.to_owned(), detail: describe(e) })
}

/// What is wrong with a pipeline file, in the words of [`StoreError::Corrupt`].
pub fn describe(e: FileError) -> String {
    match e {
        FileError::Syntax(s) => format!("invalid JSON: {s}"),
        FileError::Schema(s) => s.to_string(),
        FileError::Rule(r) => r,
    }
}

impl FeatureGuard<'_> {
    /// The change that writes a `.task/` file (to commit with others).
    pub fn task_change<T: Serialize>(&self, file: &str, value: &T) -> FileWrite {
        let mut text = serde_json::to_string_pretty(value).expect("pipeline files always serialise");
        text.push('\n');
        FileWrite::put(self.feature().task_path(file), text)
    }

    /// Writes a `.task/` file atomically.
    pub fn write_task<T: Serialize>(&self, file: &str, value: &T) -> Result<(), StoreError> {
        self.commit("write .task file", vec![self.task_change(file, value)])?;
        fs::remove_temporaries(&self.feature().task_dir());
        Ok(())
    }

    /// Removes a `.task/` file (witnessed, as its writes are); true when
    /// there was one.
    pub fn remove_task(&self, file: &str) -> Result<bool, StoreError> {
        let path = self.feature().task_path(file);
        fs::confine(self.feature().root(), &path)?;
        if !fs::exists_entry(&path) {
            return Ok(false);
        }
        self.commit("remove .task file", vec![FileWrite::remove(&path)])?;
        Ok(true)
    }
}

impl Pipeline<'_> {
    /// `.phasegate/pipeline.config.json`, or the defaults when it does not
    /// exist; checked exactly as `pipeline check config` checks it.
    pub fn config(&self) -> Result<Config, StoreError> {
        let path = self.project.root().join(CONFIG_PATH);
        match fs::read_optional(&path)? {
            None => Ok(Config::default()),
            Some(text) => parse_file(FileKind::Config, &path, &text),
        }
    }

    pub fn config_path(&self) -> PathBuf {
        self.project.root().join(CONFIG_PATH)
    }

    /// The configuration file's text as it is, to check; None when there
    /// is none.
    pub fn config_text(&self) -> Result<Option<String>, StoreError> {
        let path = self.config_path();
        fs::confine(self.project.root(), &path)?;
        fs::read_optional(&path)
    }

    /// Whether the configuration file is there (whatever its kind of entry).
    pub fn has_config(&self) -> bool {
        fs::exists_entry(&self.config_path())
    }
}
