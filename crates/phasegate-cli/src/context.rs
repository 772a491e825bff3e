//! What every command gets: where it runs, the clock, the lock timeout and
//! the output sinks. Commands print through `Ctx`, never directly.

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use chrono::{DateTime, SubsecRound, Utc};
use phasegate_store::{Feature, Project, lock};
use serde::Serialize;

use crate::env;
use crate::error::{CliError, CliResult};

pub struct Ctx<'a> {
    pub cwd: PathBuf,
    pub now: DateTime<Utc>,
    pub lock_timeout: Duration,
    pub out: &'a mut dyn Write,
}

impl<'a> Ctx<'a> {
    pub fn from_env(out: &'a mut dyn Write) -> CliResult<Self> {
        let cwd =
            std::env::current_dir().map_err(|e| CliError::error(format!("cannot read the current directory: {e}")))?;
        let cwd = cwd.canonicalize().unwrap_or(cwd);
        let now = Utc::now().trunc_subsecs(3);
        Ok(Ctx { cwd, now, lock_timeout: lock_timeout(), out })
    }

    pub fn project(&self) -> CliResult<Project> {
        Ok(Project::discover(&self.cwd)?)
    }

    /// The project and the feature a command is about (`--feature` or the
    /// working directory).
    pub fn feature(&self, given: Option<&str>) -> CliResult<(Project, Feature)> {
        let project = self.project()?;
        let feature = project.resolve(given, &self.cwd)?;
        Ok((project, feature))
    }

    /// Writes one line.
    pub fn line(&mut self, text: impl AsRef<str>) -> CliResult<()> {
        writeln!(self.out, "{}", text.as_ref()).map_err(write_error)
    }

    /// Writes a value as one line of JSON.
    pub fn json(&mut self, value: &impl Serialize) -> CliResult<()> {
        let text = serde_json::to_string(value).map_err(|e| CliError::error(e.to_string()))?;
        self.line(text)
    }

    /// Writes a value as indented JSON.
    pub fn json_pretty(&mut self, value: &impl Serialize) -> CliResult<()> {
        let text = serde_json::to_string_pretty(value).map_err(|e| CliError::error(e.to_string()))?;
        self.line(text)
    }

    /// `path` relative to the working directory when it is below it.
    pub fn show_path(&self, path: &Path) -> String {
        path.strip_prefix(&self.cwd).map_or_else(|_| path.display().to_string(), |p| p.display().to_string())
    }
}

fn write_error(e: io::Error) -> CliError {
    match e.kind() {
        io::ErrorKind::BrokenPipe => CliError::broken_pipe(),
        _ => CliError::error(format!("cannot write output: {e}")),
    }
}

/// `PHASEGATE_LOCK_TIMEOUT_MS`, else the store's default.
pub fn lock_timeout() -> Duration {
    std::env::var(env::LOCK_TIMEOUT_MS)
        .ok()
        .and_then(|v| v.trim().parse::<u64>().ok())
        .map_or(lock::DEFAULT_TIMEOUT, Duration::from_millis)
}
