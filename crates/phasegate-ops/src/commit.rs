//! `workflow-state commit`: commits the paths a step names, with the user's
//! own git. A path that does not exist (and is not tracked) is skipped, and
//! nothing to commit is a success, so the commit lines the Markdown and the
//! binaries print run as printed whatever a step changed.

use std::path::Path;

use phasegate_core::words::{Command, CommitDone};
use phasegate_store::commit::{Committed, commit_paths};
use serde::Serialize;

use crate::env::Env;
use crate::error::{Invalid, OpResult};

/// What a commit did.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CommitOutcome {
    /// The new commit, when one was made.
    pub commit: Option<String>,
    pub paths: Vec<String>,
    /// Paths that neither exist nor are tracked.
    pub skipped: Vec<String>,
    #[serde(serialize_with = "phasegate_core::words::as_words")]
    pub message: CommitDone,
}

/// Commits `paths` (relative to `dir`, else to the current directory).
pub fn commit(env: &Env, dir: Option<&Path>, message: &str, paths: &[String]) -> OpResult<CommitOutcome> {
    if message.trim().is_empty() {
        return Err(Invalid::EmptyCommitMessage.into());
    }
    if paths.is_empty() {
        return Err(Invalid::NoPathsToCommit.into());
    }
    let dir = dir.map_or_else(|| env.cwd.clone(), |d| env.cwd.join(d));
    Ok(match commit_paths(&dir, paths, message)? {
        Committed::Nothing { skipped } => CommitOutcome {
            commit: None,
            paths: Vec::new(),
            message: CommitDone::Nothing { paths: paths.to_vec() },
            skipped,
        },
        Committed::Commit { id, paths, skipped } => CommitOutcome {
            message: CommitDone::Committed { id: id.clone(), paths: paths.clone() },
            commit: Some(id),
            paths,
            skipped,
        },
    })
}

/// The `workflow-state commit` line that commits `paths` of the working
/// tree `dir` with `message`, every word quoted for a POSIX shell.
pub fn line(dir: &Path, message: &str, paths: &[String]) -> String {
    use phasegate_core::paths::shell_word;
    let paths: Vec<String> = paths.iter().map(|p| shell_word(p)).collect();
    Command::new("commit")
        .word("-C")
        .arg(&shell_word(&dir.display().to_string()))
        .word("-m")
        .arg(&shell_word(message))
        .word("--")
        .arg(&paths.join(" "))
        .to_string()
}
