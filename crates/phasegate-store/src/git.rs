//! Git through libgit2: where the repository's main working tree is, and
//! feature worktrees.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use git2::{ErrorCode, Repository, WorktreeAddOptions};

use crate::error::{IoContext, StoreError};

/// How the repository around a directory is laid out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RepoLayout {
    /// The main working tree, where `docs/features/` lives.
    pub main_root: PathBuf,
    /// The working tree that contains the directory (a linked worktree or the main one).
    pub current_root: PathBuf,
    /// The git directory shared by all worktrees.
    pub common_dir: PathBuf,
    /// In a linked worktree: its name (`.git/worktrees/<name>`).
    pub worktree_name: Option<String>,
}

impl RepoLayout {
    pub fn in_linked_worktree(&self) -> bool {
        self.main_root != self.current_root
    }
}

/// The repository containing `dir`, or None outside git (and for bare
/// repositories, which have no working tree).
pub fn layout(dir: &Path) -> Result<Option<RepoLayout>, StoreError> {
    let repo = match Repository::discover(dir) {
        Ok(r) => r,
        Err(e) if e.code() == ErrorCode::NotFound => return Ok(None),
        Err(e) => return Err(StoreError::git(dir, e)),
    };
    let Some(workdir) = repo.workdir() else { return Ok(None) };
    let current_root = normalize(workdir);
    let common_dir = normalize(repo.commondir());
    let main_root = if repo.is_worktree() {
        match common_dir.file_name() {
            Some(n) if n == ".git" => common_dir.parent().map_or(current_root.clone(), Path::to_path_buf),
            _ => current_root.clone(),
        }
    } else {
        current_root.clone()
    };
    let worktree_name =
        repo.is_worktree().then(|| repo.path().file_name().map(|n| n.to_string_lossy().into_owned())).flatten();
    Ok(Some(RepoLayout { main_root, current_root, common_dir, worktree_name }))
}

fn normalize(p: &Path) -> PathBuf {
    let trimmed = p.to_string_lossy();
    let trimmed = trimmed.trim_end_matches('/');
    let p = if trimmed.is_empty() { Path::new("/") } else { Path::new(trimmed) };
    p.canonicalize().unwrap_or_else(|_| p.to_path_buf())
}

/// Creates branch `branch` at HEAD and a worktree for it at `path`, and keeps
/// the worktrees folder out of `git status` through `.git/info/exclude`.
pub fn add_worktree(layout: &RepoLayout, name: &str, path: &Path, branch: &str) -> Result<(), StoreError> {
    let repo = Repository::open(&layout.main_root).map_err(|e| StoreError::git(&layout.main_root, e))?;
    let head = repo.head().and_then(|h| h.peel_to_commit()).map_err(|_| {
        StoreError::Invalid(format!(
            "--worktree needs a commit to branch from, and {} has none yet; make an initial commit first",
            layout.main_root.display()
        ))
    })?;
    if repo.find_branch(branch, git2::BranchType::Local).is_ok() {
        return Err(StoreError::Invalid(format!(
            "branch {branch} already exists; delete it (git branch -D {branch}) or choose another slug"
        )));
    }
    if path.exists() {
        return Err(StoreError::Invalid(format!(
            "{} already exists; remove it or choose another slug",
            path.display()
        )));
    }
    let created = repo.branch(branch, &head, false).map_err(|e| StoreError::git(&layout.main_root, e))?;
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent).at("create", parent)?;
    }
    let mut opts = WorktreeAddOptions::new();
    opts.reference(Some(created.get()));
    if let Err(e) = repo.worktree(name, path, Some(&opts)) {
        // Leave nothing half-made behind.
        let _ = repo.find_branch(branch, git2::BranchType::Local).and_then(|mut b| b.delete());
        return Err(StoreError::git(path, e));
    }
    exclude(&layout.common_dir, &format!("/{}/", crate::project::WORKTREES_DIR))
}

pub(crate) fn exclude(common_dir: &Path, pattern: &str) -> Result<(), StoreError> {
    let info = common_dir.join("info");
    let file = info.join("exclude");
    let existing = fs::read_to_string(&file).unwrap_or_default();
    if existing.lines().any(|l| l.trim() == pattern) {
        return Ok(());
    }
    fs::create_dir_all(&info).at("create", &info)?;
    let mut f = fs::OpenOptions::new().create(true).append(true).open(&file).at("open", &file)?;
    let sep = if existing.is_empty() || existing.ends_with('\n') { "" } else { "\n" };
    writeln!(f, "{sep}{pattern}").at("write", &file)
}

/// Whether git ignores `path` (inside the repository at `root`).
pub fn is_ignored(root: &Path, path: &Path) -> Result<bool, StoreError> {
    let repo = Repository::open(root).map_err(|e| StoreError::git(root, e))?;
    let rel = path.strip_prefix(root).unwrap_or(path);
    repo.is_path_ignored(rel).map_err(|e| StoreError::git(path, e))
}
