//! Store errors. Every variant names the file it is about and, where there is
//! one, what the user can do.

use std::io;
use std::path::PathBuf;
use std::time::Duration;

use phasegate_core::words::Command;

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("cannot {op} {}: {source}", path.display())]
    Io {
        op: &'static str,
        path: PathBuf,
        #[source]
        source: io::Error,
    },
    #[error("{} is not valid: {detail}\nFix the file by hand (git diff/git checkout may help); phasegate does not overwrite a file it cannot read.", path.display())]
    Corrupt { path: PathBuf, detail: String },
    #[error("{} is {what}, not a regular file; phasegate reads only regular files. Replace it with the real file (git checkout may help).", path.display())]
    NotRegular { path: PathBuf, what: String },
    #[error("{} is {size} bytes, more than the {max} phasegate reads; it is not a file phasegate wrote. Replace it with the real file.", path.display())]
    TooLarge { path: PathBuf, size: u64, max: u64 },
    #[error("{} would be {size} bytes, more than the {max} phasegate reads back; nothing was written. Shorten what you gave (a brief, a question, a reply) and run the command again.", path.display())]
    WouldBeTooLarge { path: PathBuf, size: u64, max: u64 },
    #[error("{}", outside_message(path, root, link))]
    Outside { path: PathBuf, root: PathBuf, link: Option<(PathBuf, PathBuf)> },
    #[error("{} is a symbolic link (to {}): phasegate's own folders in git's directory are never links, and it writes nothing through one. Remove the link; phasegate makes the folder again.", link.display(), target.display())]
    LinkedRuntime { link: PathBuf, target: PathBuf },
    #[error("timed out after {}s waiting for the lock {}; another {} process is updating this feature. Retry, or raise PHASEGATE_LOCK_TIMEOUT_MS.", waited.as_secs_f32(), path.display(), phasegate_core::words::BINARY)]
    LockTimeout { path: PathBuf, waited: Duration },
    #[error("git: {message} ({})", path.display())]
    Git { path: PathBuf, message: String },
    #[error("{shown} does not exist: write it in the tasks phase (/phasegate:create-tasks)")]
    NoTaskList { shown: String },
    #[error("{shown} cannot be read as a task list: {source}")]
    BadTaskList {
        shown: String,
        #[source]
        source: phasegate_core::tasks::TasksError,
    },
    #[error(
        "{} is missing; this pipeline was never started or its .task folder was removed. Run `{pipeline_reset}` to start it again", path.display(), pipeline_reset = Command::new("pipeline reset").feature(.feature))]
    NoPipelineRun { path: PathBuf, feature: String },
    #[error(transparent)]
    BadSlug(#[from] phasegate_core::slug::InvalidSlug),
    /// A commit or tree phasegate recorded (a run's base, a task's
    /// checkpoint) that the repository does not have.
    #[error("the {what} {rev} is not in {}: {}", repo.display(), .source.message())]
    MissingObject {
        what: &'static str,
        rev: String,
        repo: PathBuf,
        #[source]
        source: git2::Error,
    },
    /// A rollback that failed after it had changed files: what it saved first.
    #[error(
        "the rollback stopped half-way: {source}. The files it had overwritten or removed were saved first in {saved_in}; put back what you need from there"
    )]
    RollbackStopped {
        saved_in: String,
        #[source]
        source: Box<StoreError>,
    },
    #[error("{0}")]
    Invalid(String),
}

fn outside_message(path: &std::path::Path, root: &std::path::Path, link: &Option<(PathBuf, PathBuf)>) -> String {
    match link {
        Some((link, target)) => format!(
            "{} is a symbolic link to {}, outside the repository {}; phasegate does not read or write its state through it. Replace the link with a folder.",
            link.display(),
            target.display(),
            root.display()
        ),
        None => format!(
            "{} is outside the repository {}; phasegate reads and writes only below it, never through `..`",
            path.display(),
            root.display()
        ),
    }
}

/// Adds the path to an `io::Result`, the way jj's `IoResultExt::context` does.
pub trait IoContext<T> {
    fn at(self, op: &'static str, path: impl Into<PathBuf>) -> Result<T, StoreError>;
}

impl<T> IoContext<T> for io::Result<T> {
    fn at(self, op: &'static str, path: impl Into<PathBuf>) -> Result<T, StoreError> {
        self.map_err(|source| StoreError::Io { op, path: path.into(), source })
    }
}

impl StoreError {
    pub(crate) fn git(path: impl Into<PathBuf>, err: git2::Error) -> Self {
        StoreError::Git { path: path.into(), message: err.message().to_owned() }
    }

    /// A file that does not exist (as opposed to one that cannot be read).
    pub fn is_not_found(&self) -> bool {
        matches!(self, StoreError::Io { source, .. } if source.kind() == io::ErrorKind::NotFound)
    }
}
