//! Commits named paths with the user's own `git`, so their hooks, signing
//! and configuration apply as they would to a commit they typed. Only the
//! paths that exist or that git tracks (a deleted file) are taken; a path
//! that is neither is skipped, and nothing to commit is an answer, not an
//! error: a phase, a retrospective or a pipeline that changed nothing in
//! one of its places commits the others.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::error::StoreError;
use crate::process;

/// How long one git command may take (a pre-commit hook included).
pub const GIT_TIMEOUT: Duration = Duration::from_secs(120);

/// What a commit of some paths did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Committed {
    /// The paths held no change (or none of them exists).
    Nothing { skipped: Vec<String> },
    /// A commit was made.
    Commit { id: String, paths: Vec<String>, skipped: Vec<String> },
}

fn git(dir: &Path, args: &[&str]) -> Result<process::Finished, StoreError> {
    let program = process::find_program("git")
        .ok_or_else(|| StoreError::Git { path: dir.to_owned(), message: "git is not on PATH".into() })?;
    let args: Vec<String> = args.iter().map(|a| (*a).to_owned()).collect();
    process::run(&program.display().to_string(), &args, dir, None, GIT_TIMEOUT)
        .map_err(|e| StoreError::Git { path: dir.to_owned(), message: format!("cannot run git: {e}") })
}

fn failed(dir: &Path, what: &str, f: &process::Finished) -> StoreError {
    let said = format!("{}{}", f.stderr, f.stdout);
    let said = said.trim();
    let why = match (f.timed_out, said.is_empty()) {
        (true, _) => format!("timed out after {}s", GIT_TIMEOUT.as_secs()),
        (false, true) => format!("exit {}", f.exit.map_or("by a signal".into(), |c| c.to_string())),
        (false, false) => said.chars().take(2_000).collect(),
    };
    StoreError::Git { path: dir.to_owned(), message: format!("{what} failed: {why}") }
}

/// Stages `paths` (relative to `dir`, the working tree they are in) and
/// commits them with `message`, when they hold a change.
pub fn commit_paths(dir: &Path, paths: &[String], message: &str) -> Result<Committed, StoreError> {
    let mut kept = Vec::new();
    let mut skipped = Vec::new();
    for p in paths {
        let on_disk = std::fs::symlink_metadata(dir.join(p)).is_ok();
        let tracked =
            || git(dir, &["ls-files", "--", p]).is_ok_and(|f| f.exit == Some(0) && !f.stdout.trim().is_empty());
        match on_disk || tracked() {
            true => kept.push(p.clone()),
            false => skipped.push(p.clone()),
        }
    }
    if kept.is_empty() {
        return Ok(Committed::Nothing { skipped });
    }
    let with_paths = |head: &[&str]| -> Vec<String> {
        head.iter()
            .map(|s| (*s).to_owned())
            .chain(std::iter::once("--".to_owned()))
            .chain(kept.iter().cloned())
            .collect()
    };
    let run = |args: Vec<String>| {
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        git(dir, &refs)
    };
    let add = run(with_paths(&["add", "-A"]))?;
    if add.exit != Some(0) {
        return Err(failed(dir, "git add", &add));
    }
    let staged = run(with_paths(&["diff", "--cached", "--quiet"]))?;
    match staged.exit {
        Some(0) => return Ok(Committed::Nothing { skipped }),
        Some(1) => {}
        _ => return Err(failed(dir, "git diff --cached", &staged)),
    }
    let commit = run(with_paths(&["commit", "-q", "-m", message]))?;
    if commit.exit != Some(0) {
        return Err(failed(dir, "git commit", &commit));
    }
    let head = git(dir, &["rev-parse", "HEAD"])?;
    Ok(Committed::Commit { id: head.stdout.trim().to_owned(), paths: kept, skipped })
}

/// The paths of `paths` below `root`, relative to it (others are left out).
pub fn relative_to(root: &Path, paths: &[PathBuf]) -> Vec<String> {
    paths.iter().filter_map(|p| p.strip_prefix(root).ok()).map(|p| p.display().to_string()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn repo() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        let run = |args: &[&str]| {
            let out = std::process::Command::new("git").args(args).current_dir(dir.path()).output().unwrap();
            assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        };
        run(&["init", "-q"]);
        run(&["config", "user.email", "t@example.com"]);
        run(&["config", "user.name", "t"]);
        std::fs::write(dir.path().join("README.md"), "x\n").unwrap();
        run(&["add", "README.md"]);
        run(&["commit", "-q", "-m", "init"]);
        dir
    }

    // Regression: retro's commit line failed when no lesson was recorded
    // (`git add -A .phasegate/knowledge`: pathspec did not match).
    #[test]
    fn a_missing_path_is_skipped_and_nothing_to_commit_is_no_error() {
        let dir = repo();
        let out = commit_paths(dir.path(), &[".phasegate/knowledge".into()], "lessons").unwrap();
        assert_eq!(out, Committed::Nothing { skipped: vec![".phasegate/knowledge".into()] });
        let out = commit_paths(dir.path(), &["README.md".into()], "nothing changed").unwrap();
        assert!(matches!(out, Committed::Nothing { .. }), "{out:?}");
        std::fs::create_dir_all(dir.path().join("docs")).unwrap();
        std::fs::write(dir.path().join("docs/a.md"), "a\n").unwrap();
        std::fs::remove_file(dir.path().join("README.md")).unwrap();
        let out =
            commit_paths(dir.path(), &["docs".into(), "README.md".into(), "gone.txt".into()], "f: pipeline").unwrap();
        let Committed::Commit { paths, skipped, id } = out else { panic!("{out:?}") };
        assert_eq!((paths, skipped), (vec!["docs".to_owned(), "README.md".to_owned()], vec!["gone.txt".to_owned()]));
        assert_eq!(id.len(), 40);
    }
}
