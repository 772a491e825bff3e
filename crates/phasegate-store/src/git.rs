//! Git through libgit2: where the repository's main working tree is, feature
//! worktrees and branches, and the code change a reviewer must see (what
//! differs from a base commit, committed or not) with its fingerprint.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use git2::{DiffFormat, DiffOptions, ErrorCode, Oid, Repository, WorktreeAddOptions, WorktreePruneOptions};
use phasegate_core::change::{CodeChange, FileChange, FileStatus};

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

    /// The main checkout's HEAD file (what is checked out there).
    pub fn head_file(&self) -> PathBuf {
        self.common_dir.join("HEAD")
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
    crate::fs::canonical_or_same(p)
}

fn open(dir: &Path) -> Result<Repository, StoreError> {
    Repository::discover(dir).map_err(|e| StoreError::git(dir, e))
}

/// Refuses, before anything is created, a worktree whose branch, folder or
/// git record (`.git/worktrees/<name>`) already exists: each may hold the
/// user's work. Returns the commit the branch is to start from (HEAD now).
pub fn check_worktree_free(layout: &RepoLayout, name: &str, path: &Path, branch: &str) -> Result<String, StoreError> {
    let repo = Repository::open(&layout.main_root).map_err(|e| StoreError::git(&layout.main_root, e))?;
    let Ok(head) = repo.head().and_then(|h| h.peel_to_commit()) else {
        return Err(StoreError::Invalid(format!(
            "--worktree needs a commit to branch from, and {} has none yet; make an initial commit first",
            layout.main_root.display()
        )));
    };
    if repo.find_branch(branch, git2::BranchType::Local).is_ok() {
        return Err(StoreError::Invalid(format!(
            "branch {branch} already exists (it is left as it is); delete it yourself if it is unused (git branch -D {branch}) or choose another slug"
        )));
    }
    if crate::fs::exists_entry(path) {
        return Err(StoreError::Invalid(format!(
            "{} already exists (it is left as it is); remove it yourself if it is unused, or choose another slug",
            path.display()
        )));
    }
    let record = worktree_record(layout, name);
    if crate::fs::exists_entry(&record) {
        return Err(StoreError::Invalid(format!(
            "git already has a worktree named {name} ({}); remove it if it is unused (git worktree prune, or git worktree remove <its folder>), or choose another slug",
            record.display()
        )));
    }
    Ok(head.id().to_string())
}

/// Whether the local branch `branch` exists (false when git cannot tell).
pub fn branch_exists(layout: &RepoLayout, branch: &str) -> bool {
    Repository::open(&layout.main_root).is_ok_and(|r| r.find_branch(branch, git2::BranchType::Local).is_ok())
}

/// Where git keeps its record of the linked worktree `name`.
fn worktree_record(layout: &RepoLayout, name: &str) -> PathBuf {
    layout.common_dir.join("worktrees").join(name)
}

/// Creates branch `branch` at commit `at`.
pub fn create_branch(layout: &RepoLayout, branch: &str, at: &str) -> Result<(), StoreError> {
    let repo = Repository::open(&layout.main_root).map_err(|e| StoreError::git(&layout.main_root, e))?;
    let commit =
        Oid::from_str(at).and_then(|o| repo.find_commit(o)).map_err(|e| StoreError::git(&layout.main_root, e))?;
    repo.branch(branch, &commit, false).map_err(|e| StoreError::git(&layout.main_root, e))?;
    Ok(())
}

/// Adds a worktree for the existing branch `branch` at `path`.
pub fn add_worktree(layout: &RepoLayout, name: &str, path: &Path, branch: &str) -> Result<(), StoreError> {
    let repo = Repository::open(&layout.main_root).map_err(|e| StoreError::git(&layout.main_root, e))?;
    let reference = repo
        .find_branch(branch, git2::BranchType::Local)
        .map_err(|e| StoreError::git(&layout.main_root, e))?
        .into_reference();
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent).at("create", parent)?;
    }
    let mut opts = WorktreeAddOptions::new();
    opts.reference(Some(&reference));
    repo.worktree(name, path, Some(&opts)).map_err(|e| StoreError::git(path, e))?;
    Ok(())
}

/// What a creation planned, and so may have made (wholly or in part) when
/// it was killed: each step is on record before it is taken.
#[derive(Debug, Clone, Default)]
pub struct Planned<'a> {
    /// The branch, to be created at this commit.
    pub branch_at: Option<&'a str>,
    /// The worktree was about to be added (or was added).
    pub worktree: bool,
}

/// What [`undo_worktree`] did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Undone {
    /// What was taken back.
    pub removed: Vec<String>,
    /// What holds work and was left as it is, with the reason.
    pub kept: Vec<String>,
    /// The branch or the worktree is left (the feature's number stays taken).
    pub left_something: bool,
}

/// Takes back what a creation that did not finish made, and nothing else:
/// its worktree (folder and git's record) while it holds nothing that is
/// not in the commit it started from, a half-made one included (a missing
/// file is not work; a new or changed file is), and its branch while it
/// still points at that commit. The checks that preceded the plan proved
/// that none of these existed before, so what exists now is the creation's,
/// or the user's work since, which is kept. Best effort.
pub fn undo_worktree(layout: &RepoLayout, name: &str, path: &Path, branch: &str, planned: &Planned<'_>) -> Undone {
    let mut out = Undone::default();
    let shown = crate::fs::relative(path, &layout.main_root).display().to_string();
    let Ok(repo) = Repository::open(&layout.main_root) else {
        out.kept.push(format!(
            "{} cannot be opened; {shown} and branch {branch} are left as they are",
            layout.main_root.display()
        ));
        out.left_something = true;
        return out;
    };
    let record = worktree_record(layout, name);
    let mut worktree_gone = true;
    if planned.worktree && (crate::fs::exists_entry(path) || crate::fs::exists_entry(&record)) {
        match holds_work(&repo, path, planned.branch_at) {
            Ok(None) => {
                if let Ok(wt) = repo.find_worktree(name) {
                    let mut opts = WorktreePruneOptions::new();
                    opts.valid(true).working_tree(true).locked(false);
                    let _ = wt.prune(Some(&mut opts));
                }
                if path.starts_with(&layout.main_root) && fs::symlink_metadata(path).is_ok_and(|m| m.is_dir()) {
                    let _ = fs::remove_dir_all(path);
                }
                // A record git cannot read (the creation died writing it).
                if crate::fs::exists_entry(&record) {
                    let _ = fs::remove_dir_all(&record);
                }
                worktree_gone = !crate::fs::exists_entry(path) && !crate::fs::exists_entry(&record);
                if worktree_gone {
                    out.removed.push(format!("worktree {shown}"));
                } else {
                    out.kept.push(format!("worktree {shown} could not be removed"));
                }
            }
            Ok(Some(why)) => {
                out.kept.push(format!("worktree {shown} {why}"));
                worktree_gone = false;
            }
            Err(e) => {
                out.kept.push(format!("worktree {shown} cannot be inspected ({e})"));
                worktree_gone = false;
            }
        }
    }
    if let Some(at) = planned.branch_at
        && let Ok(mut b) = repo.find_branch(branch, git2::BranchType::Local)
    {
        if !worktree_gone {
            out.kept.push(format!("branch {branch}, checked out in that worktree"));
        } else if b.get().target().map(|o| o.to_string()).as_deref() != Some(at) {
            out.kept.push(format!("branch {branch} has commits made since"));
        } else {
            match b.delete() {
                Ok(()) => out.removed.push(format!("branch {branch}")),
                Err(e) => out.kept.push(format!("branch {branch} could not be deleted ({})", e.message())),
            }
        }
    }
    out.left_something = !out.kept.is_empty();
    out
}

/// Why the folder `path` of a worktree that was being made at commit `base`
/// holds work (None: removing it loses nothing). A file that differs from
/// `base` or is not in it (and is not ignored) is work; a file missing, or
/// one that holds the beginning of its committed content only (a checkout
/// cut short: libgit2 writes each file in place), is not: all of it is in
/// the commit. A folder that is not a git working tree (its record half
/// made, or half removed by an undo that was killed in turn) is compared
/// with `base` through the main repository `main`, file by file, the same
/// way; without a `base` it may hold git's `.git` file only.
fn holds_work(main: &Repository, path: &Path, base: Option<&str>) -> Result<Option<String>, StoreError> {
    let Ok(meta) = fs::symlink_metadata(path) else { return Ok(None) };
    if !meta.is_dir() {
        return Ok(Some("is not a folder".to_owned()));
    }
    let changed = match Repository::open(path) {
        Ok(repo) => changed_in_worktree(&repo, path, base)?,
        Err(_) => {
            let base_tree = base.and_then(|at| Oid::from_str(at).ok()).and_then(|o| main.find_commit(o).ok());
            match base_tree.and_then(|c| c.tree().ok()) {
                Some(tree) => {
                    let mut changed = Vec::new();
                    files_beyond(main, &tree, path, Path::new(""), &mut changed)?;
                    changed
                }
                None => {
                    let mut entries = fs::read_dir(path).at("list", path)?;
                    let only_git_file = entries.all(|e| e.is_ok_and(|e| e.file_name() == ".git"));
                    return Ok((!only_git_file).then(|| "holds files and is not a git working tree".to_owned()));
                }
            }
        }
    };
    Ok(match changed.as_slice() {
        [] => None,
        [one] => Some(format!("holds a change ({one})")),
        [first, ..] => Some(format!("holds {} changes ({first}, ...)", changed.len())),
    })
}

/// The files of the working tree `repo` (at `path`) that are work against
/// `base` (its HEAD without one), as [`holds_work`] counts them.
fn changed_in_worktree(repo: &Repository, path: &Path, base: Option<&str>) -> Result<Vec<String>, StoreError> {
    let tree = match base {
        Some(at) => Oid::from_str(at).and_then(|o| repo.find_commit(o)).and_then(|c| c.tree()),
        None => repo.head().and_then(|h| h.peel_to_tree()),
    }
    .map_err(|e| StoreError::git(path, e))?;
    let mut opts = DiffOptions::new();
    opts.include_untracked(true).recurse_untracked_dirs(true).include_ignored(false).include_typechange(true);
    let diff = repo.diff_tree_to_workdir(Some(&tree), Some(&mut opts)).map_err(|e| StoreError::git(path, e))?;
    Ok(diff
        .deltas()
        .filter(|d| d.status() != git2::Delta::Deleted)
        .filter(|d| {
            // A file the checkout was writing when it was killed.
            let cut_short = d.status() == git2::Delta::Modified
                && d.new_file().path().is_some_and(|rel| beginning_of(repo, d.old_file().id(), &path.join(rel)));
            !cut_short
        })
        .filter_map(|d| d.new_file().path().map(|p| p.to_string_lossy().into_owned()))
        .collect())
}

/// Whether the regular file at `file` holds the beginning of blob `blob`
/// (all of it, or none).
fn beginning_of(repo: &Repository, blob: Oid, file: &Path) -> bool {
    let Ok(blob) = repo.find_blob(blob) else { return false };
    if !fs::symlink_metadata(file).is_ok_and(|m| m.is_file() && m.len() <= blob.size() as u64) {
        return false;
    }
    fs::read(file).is_ok_and(|bytes| blob.content().starts_with(&bytes))
}

/// Adds to `out` the files under `dir` (the folder `rel` of a worktree that
/// is not a working tree) that are not in `tree` as its beginning, as
/// [`holds_work`] counts them; git's `.git` file at the top is not one.
fn files_beyond(
    repo: &Repository,
    tree: &git2::Tree<'_>,
    dir: &Path,
    rel: &Path,
    out: &mut Vec<String>,
) -> Result<(), StoreError> {
    let here = dir.join(rel);
    for entry in fs::read_dir(&here).at("list", &here)? {
        let entry = entry.at("list", &here)?;
        let name = rel.join(entry.file_name());
        if name == Path::new(".git") {
            continue;
        }
        let kind = entry.file_type().at("inspect", entry.path())?;
        let in_tree = tree.get_path(&name).ok().map(|e| (e.kind(), e.id()));
        let fine = match in_tree {
            Some((Some(git2::ObjectType::Tree), _)) if kind.is_dir() => {
                files_beyond(repo, tree, dir, &name, out)?;
                true
            }
            Some((Some(git2::ObjectType::Blob), id)) if kind.is_file() => beginning_of(repo, id, &entry.path()),
            Some((Some(git2::ObjectType::Blob), id)) if kind.is_symlink() => {
                match (fs::read_link(entry.path()), repo.find_blob(id)) {
                    (Ok(t), Ok(b)) => t.as_os_str().as_encoded_bytes() == b.content(),
                    _ => false,
                }
            }
            // A folder the tree lacks: its files count, not the folder (an
            // empty one holds nothing).
            None if kind.is_dir() => {
                files_beyond(repo, tree, dir, &name, out)?;
                true
            }
            _ => false,
        };
        if !fine {
            out.push(name.to_string_lossy().replace('\\', "/"));
        }
    }
    Ok(())
}

/// Whether the worktree at `path` has no change to a tracked file and no
/// untracked file (ignored files do not count): removing it loses nothing.
pub fn worktree_is_clean(path: &Path) -> Result<bool, StoreError> {
    if !path.is_dir() {
        return Ok(true);
    }
    let repo = Repository::open(path).map_err(|e| StoreError::git(path, e))?;
    let mut opts = git2::StatusOptions::new();
    opts.include_untracked(true).recurse_untracked_dirs(true).include_ignored(false).exclude_submodules(true);
    let statuses = repo.statuses(Some(&mut opts)).map_err(|e| StoreError::git(path, e))?;
    Ok(statuses.is_empty())
}

/// Of `paths` (`/`-separated, from the working tree's root at `root`),
/// those git shows not committed: changed, added or untracked (ignored
/// ones do not count). None outside a repository.
pub fn uncommitted<'a>(root: &Path, paths: &[&'a str]) -> Vec<&'a str> {
    let Ok(repo) = Repository::open(root) else { return Vec::new() };
    paths
        .iter()
        .copied()
        .filter(|p| repo.status_file(Path::new(p)).is_ok_and(|s| !s.is_empty() && !s.contains(git2::Status::IGNORED)))
        .collect()
}

/// Keeps `pattern` out of `git status` through `.git/info/exclude`.
pub(crate) fn exclude(common_dir: &Path, pattern: &str) -> Result<(), StoreError> {
    let info = common_dir.join("info");
    let file = info.join("exclude");
    let existing = crate::fs::read_optional(&file)?.unwrap_or_default();
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

/// The commit checked out in the working tree around `dir`; None outside
/// git or before the first commit.
pub fn head_commit(dir: &Path) -> Result<Option<String>, StoreError> {
    let repo = match Repository::discover(dir) {
        Ok(r) => r,
        Err(e) if e.code() == ErrorCode::NotFound => return Ok(None),
        Err(e) => return Err(StoreError::git(dir, e)),
    };
    Ok(repo.head().ok().and_then(|h| h.peel_to_commit().ok()).map(|c| c.id().to_string()))
}

/// The most of a patch kept in memory and in the diff file a reviewer reads.
pub const MAX_PATCH_BYTES: usize = 4 * 1024 * 1024;

/// What differs in the working tree around `dir` from commit `base`:
/// commits since, staged and unstaged changes, and untracked files that git
/// does not ignore. Paths under any of `skip` (relative to the working tree,
/// e.g. `docs/features/`) are left out: phasegate's own files are not code.
pub fn change_since(dir: &Path, base: &str, skip: &[String]) -> Result<CodeChange, StoreError> {
    let repo = open(dir)?;
    let root = repo.workdir().map(Path::to_path_buf).unwrap_or_else(|| dir.to_owned());
    let commit = repo.revparse_single(base).and_then(|o| o.peel_to_commit()).map_err(|source| {
        StoreError::MissingObject { what: "base commit", rev: base.to_owned(), repo: root.clone(), source }
    })?;
    let tree = commit.tree().map_err(|e| StoreError::git(&root, e))?;
    let mut opts = DiffOptions::new();
    opts.include_untracked(true).recurse_untracked_dirs(true).show_untracked_content(true).include_typechange(true);
    let diff =
        repo.diff_tree_to_workdir_with_index(Some(&tree), Some(&mut opts)).map_err(|e| StoreError::git(&root, e))?;
    let skipped = |p: &str| skip.iter().any(|s| p.starts_with(s.as_str()));
    let mut files = Vec::new();
    for (i, delta) in diff.deltas().enumerate() {
        let path = delta
            .new_file()
            .path()
            .or_else(|| delta.old_file().path())
            .map(|p| p.to_string_lossy().replace('\\', "/"))
            .unwrap_or_default();
        if skipped(&path) {
            continue;
        }
        let status = match delta.status() {
            git2::Delta::Added | git2::Delta::Untracked => FileStatus::Added,
            git2::Delta::Modified | git2::Delta::Typechange => FileStatus::Modified,
            git2::Delta::Deleted => FileStatus::Deleted,
            git2::Delta::Renamed | git2::Delta::Copied => FileStatus::Renamed,
            git2::Delta::Unmodified | git2::Delta::Ignored | git2::Delta::Unreadable | git2::Delta::Conflicted => {
                FileStatus::Other
            }
        };
        let (insertions, deletions) = git2::Patch::from_diff(&diff, i)
            .ok()
            .flatten()
            .and_then(|p| p.line_stats().ok())
            .map_or((0, 0), |(_, ins, del)| (ins, del));
        files.push(FileChange { path, status, insertions, deletions });
    }
    let mut patch = String::new();
    let mut full = false;
    diff.print(DiffFormat::Patch, |delta, _hunk, line| {
        let path =
            delta.new_file().path().or_else(|| delta.old_file().path()).map(|p| p.to_string_lossy().into_owned());
        if path.as_deref().is_some_and(|p| skipped(&p.replace('\\', "/"))) {
            return true;
        }
        if patch.len() >= MAX_PATCH_BYTES {
            full = true;
            return true;
        }
        match line.origin() {
            '+' | '-' | ' ' => patch.push(line.origin()),
            _ => {}
        }
        patch.push_str(&String::from_utf8_lossy(line.content()));
        true
    })
    .map_err(|e| StoreError::git(&root, e))?;
    if full {
        patch.push_str(&format!(
            "\n[phasegate: the diff is longer than {MAX_PATCH_BYTES} bytes; the rest is left out]\n"
        ));
    }
    Ok(CodeChange { base: commit.id().to_string(), files, patch })
}

/// A short identity of a change's content: two working trees with the same
/// change since the same base have the same fingerprint.
pub fn fingerprint(change: &CodeChange) -> String {
    let mut text = change.base.clone();
    text.push('\n');
    text.push_str(&change.patch);
    Oid::hash_object(git2::ObjectType::Blob, text.as_bytes()).map(|o| o.to_string()).unwrap_or_default()
}

/// A fingerprint of plain content (a plan file).
pub fn content_fingerprint(text: &str) -> String {
    Oid::hash_object(git2::ObjectType::Blob, text.as_bytes()).map(|o| o.to_string()).unwrap_or_default()
}

/// A checkpoint of the working tree around `dir` as it is now: its tracked
/// files with their uncommitted changes and the untracked files git does
/// not ignore, written as a tree to the object database. Nothing else is
/// touched: not the index file, HEAD, or any file. Paths under `skip` are
/// left out. Returns the tree's id.
pub fn snapshot(dir: &Path, skip: &[String]) -> Result<String, StoreError> {
    // A handle of its own: the index below is changed in memory only.
    let repo = open(dir)?;
    let root = repo.workdir().map(Path::to_path_buf).unwrap_or_else(|| dir.to_owned());
    let mut index = repo.index().map_err(|e| StoreError::git(&root, e))?;
    let skipped = |p: &Path, _: &[u8]| -> i32 {
        let p = p.to_string_lossy().replace('\\', "/");
        i32::from(skip.iter().any(|s| p.starts_with(s.as_str())))
    };
    index
        .add_all(["*"], git2::IndexAddOption::DEFAULT, Some(&mut |p, m| skipped(p, m)))
        .map_err(|e| StoreError::git(&root, e))?;
    index.update_all(["*"], Some(&mut |p, m| skipped(p, m))).map_err(|e| StoreError::git(&root, e))?;
    let tree = index.write_tree().map_err(|e| StoreError::git(&root, e))?;
    Ok(tree.to_string())
}

/// What a rollback did.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct Restored {
    /// Paths put back as the snapshot had them (or removed: not there then).
    pub restored: Vec<String>,
    /// Paths that changed but are not provably the task's, left as they are.
    pub kept: Vec<String>,
    /// Where every file the rollback overwrote or removed was saved first.
    pub saved_in: Option<String>,
}

/// Which changed files a rollback may put back.
#[derive(Debug, Clone, Copy)]
pub enum RollbackScope<'a> {
    /// The task declares these files (`Files:` in tasks.md): only they are
    /// put back, or removed when the checkpoint did not have them.
    Declared(&'a [String]),
    /// The task declares no file, so no file is provably its: a file the
    /// checkpoint has is put back (the version it replaces saved first), a
    /// file made since is never removed: it may be the user's.
    Undeclared,
}

/// Puts the working tree back as [`snapshot`] saw it, for the files that
/// differ from it now (outside `skip`) and that `scope` lets it touch: a
/// file of the snapshot gets its content and kind back (a symbolic link
/// stays a link); a declared file that was not there is removed. Every
/// other changed path is left as it is and listed as kept. Every file the
/// rollback overwrites or removes is first copied under `backup` (named in
/// [`Restored::saved_in`], and in the error if it stops half-way), so
/// nothing is lost. Refused when HEAD is no longer `base`: commits are
/// never undone.
pub fn restore(
    dir: &Path,
    tree: &str,
    base: &str,
    skip: &[String],
    scope: RollbackScope<'_>,
    backup: &Path,
) -> Result<Restored, StoreError> {
    let mut out = Restored::default();
    restore_into(dir, tree, base, skip, scope, backup, &mut out).map_err(|e| match &out.saved_in {
        Some(saved) => StoreError::RollbackStopped { saved_in: saved.clone(), source: Box::new(e) },
        None => e,
    })?;
    Ok(out)
}

fn restore_into(
    dir: &Path,
    tree: &str,
    base: &str,
    skip: &[String],
    scope: RollbackScope<'_>,
    backup: &Path,
    out: &mut Restored,
) -> Result<(), StoreError> {
    let repo = open(dir)?;
    let root = repo.workdir().map(Path::to_path_buf).unwrap_or_else(|| dir.to_owned());
    let head = repo.head().ok().and_then(|h| h.target()).map(|o| o.to_string());
    if head.as_deref() != Some(base) {
        return Err(StoreError::Invalid(format!(
            "HEAD moved since the task started ({} then, {} now): a rollback never undoes commits; revert them with git",
            &base[..base.len().min(12)],
            head.as_deref().map_or("none", |h| &h[..h.len().min(12)])
        )));
    }
    let tree = Oid::from_str(tree).and_then(|o| repo.find_tree(o)).map_err(|source| StoreError::MissingObject {
        what: "task's checkpoint",
        rev: tree.to_owned(),
        repo: root.clone(),
        source,
    })?;
    let mut opts = DiffOptions::new();
    opts.include_untracked(true).recurse_untracked_dirs(true).include_typechange(true);
    let diff = repo.diff_tree_to_workdir(Some(&tree), Some(&mut opts)).map_err(|e| StoreError::git(&root, e))?;
    let normalise = |p: &str| p.trim_start_matches("./").replace('\\', "/");
    let declared: Option<Vec<String>> = match scope {
        RollbackScope::Declared(files) => Some(files.iter().map(|p| normalise(p)).collect()),
        RollbackScope::Undeclared => None,
    };
    for delta in diff.deltas() {
        let Some(rel) = delta.new_file().path().or_else(|| delta.old_file().path()).map(Path::to_path_buf) else {
            continue;
        };
        let shown = rel.to_string_lossy().replace('\\', "/");
        if skip.iter().any(|s| shown.starts_with(s.as_str()))
            || rel.components().any(|c| !matches!(c, std::path::Component::Normal(_)))
        {
            continue;
        }
        let allowed = match &declared {
            Some(d) => d.contains(&shown),
            // Not in the checkpoint: made since, by the task or the user.
            None => tree.get_path(&rel).is_ok(),
        };
        if !allowed {
            out.kept.push(shown);
            continue;
        }
        let path = root.join(&rel);
        // Saved first: what the task wrote may still be wanted.
        if back_up(&path, &backup.join(&rel))? {
            out.saved_in = Some(backup.display().to_string());
        }
        match tree.get_path(&rel) {
            Ok(entry) => put_back(&repo, &root, &entry, &path)?,
            Err(_) => {
                crate::fs::remove_if_exists(&path)?;
            }
        }
        out.restored.push(shown);
    }
    Ok(())
}

/// Copies the file or link at `path` (if any) to `saved`; true when there
/// was one.
fn back_up(path: &Path, saved: &Path) -> Result<bool, StoreError> {
    let Ok(meta) = fs::symlink_metadata(path) else { return Ok(false) };
    if let Some(parent) = saved.parent() {
        fs::create_dir_all(parent).at("create", parent)?;
    }
    if meta.file_type().is_symlink() {
        #[cfg(unix)]
        {
            let target = fs::read_link(path).at("read the link", path)?;
            std::os::unix::fs::symlink(&target, saved).at("save the link", saved)?;
        }
    } else if meta.is_file() {
        fs::copy(path, saved).at("save", path)?;
    }
    Ok(true)
}

/// Writes the snapshot's `entry` at `path`: its content, and its kind (a
/// link stays a link) and executable bits.
fn put_back(repo: &Repository, root: &Path, entry: &git2::TreeEntry<'_>, path: &Path) -> Result<(), StoreError> {
    let blob = entry.to_object(repo).and_then(|o| o.peel_to_blob()).map_err(|e| StoreError::git(root, e))?;
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent).at("create", parent)?;
    }
    if entry.filemode() == 0o120_000 {
        // A symbolic link: its blob is the target.
        crate::fs::remove_if_exists(path)?;
        #[cfg(unix)]
        {
            let target = std::ffi::OsStr::new(std::str::from_utf8(blob.content()).unwrap_or_default());
            std::os::unix::fs::symlink(target, path).at("restore the link", path)?;
        }
        #[cfg(not(unix))]
        crate::fs::write_atomic(path, blob.content())?;
    } else {
        crate::fs::write_atomic(path, blob.content())?;
        #[cfg(unix)]
        {
            // The executable bits as the snapshot had them; the
            // rest of the mode stays as the file has it.
            use std::os::unix::fs::PermissionsExt;
            let now = fs::metadata(path).at("inspect", path)?.permissions().mode();
            let mode = if entry.filemode() == 0o100_755 { now | 0o111 } else { now & !0o111 };
            if mode != now {
                fs::set_permissions(path, fs::Permissions::from_mode(mode)).at("set the mode of", path)?;
            }
        }
    }
    Ok(())
}

/// Creates branch `branch` at the HEAD of the working tree around `dir` and
/// a linked worktree for it at `path` (for one task of a parallel batch).
/// Returns the commit it starts from.
pub fn add_task_worktree(dir: &Path, name: &str, path: &Path, branch: &str) -> Result<String, StoreError> {
    let repo = open(dir)?;
    let root = repo.workdir().map(Path::to_path_buf).unwrap_or_else(|| dir.to_owned());
    let head = repo.head().and_then(|h| h.peel_to_commit()).map_err(|_| {
        StoreError::Invalid(format!("{} has no commit to branch a task from; commit first", root.display()))
    })?;
    if repo.find_branch(branch, git2::BranchType::Local).is_ok() || crate::fs::exists_entry(path) {
        return Err(StoreError::Invalid(format!(
            "the task's branch {branch} or folder {} exists already: merge it (`tasks merge`) or remove both",
            path.display()
        )));
    }
    let created = repo.branch(branch, &head, false).map_err(|e| StoreError::git(&root, e))?;
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent).at("create", parent)?;
    }
    let mut opts = WorktreeAddOptions::new();
    opts.reference(Some(created.get()));
    repo.worktree(name, path, Some(&opts)).map_err(|e| StoreError::git(path, e))?;
    Ok(head.id().to_string())
}

/// How a task's branch came back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Merged {
    /// The branch has no commit the working tree lacks.
    UpToDate,
    FastForward(String),
    Merge(String),
    /// Nothing was changed; these paths conflict.
    Conflict(Vec<String>),
}

/// Merges `branch` into the HEAD of the working tree around `dir`: a fast
/// forward when possible, else a merge commit. The working tree is updated
/// safely (a file with local changes is never overwritten: that is an
/// error, and nothing is committed). A conflict changes nothing.
pub fn merge_branch(dir: &Path, branch: &str, message: &str) -> Result<Merged, StoreError> {
    let repo = open(dir)?;
    let root = repo.workdir().map(Path::to_path_buf).unwrap_or_else(|| dir.to_owned());
    let err = |e: git2::Error| StoreError::git(&root, e);
    let theirs_ref = repo.find_branch(branch, git2::BranchType::Local).map_err(err)?;
    let theirs = theirs_ref.get().peel_to_commit().map_err(err)?;
    let ours = repo.head().and_then(|h| h.peel_to_commit()).map_err(err)?;
    let annotated = repo.find_annotated_commit(theirs.id()).map_err(err)?;
    let (analysis, _) = repo.merge_analysis(&[&annotated]).map_err(err)?;
    let mut checkout = git2::build::CheckoutBuilder::new();
    checkout.safe();
    if analysis.is_up_to_date() {
        return Ok(Merged::UpToDate);
    }
    if analysis.is_fast_forward() {
        repo.checkout_tree(theirs.as_object(), Some(&mut checkout)).map_err(err)?;
        let mut head = repo.head().and_then(|h| h.resolve()).map_err(err)?;
        head.set_target(theirs.id(), message).map_err(err)?;
        return Ok(Merged::FastForward(theirs.id().to_string()));
    }
    let mut index = repo.merge_commits(&ours, &theirs, None).map_err(err)?;
    if index.has_conflicts() {
        let mut paths: Vec<String> = index
            .conflicts()
            .map_err(err)?
            .flatten()
            .filter_map(|c| c.our.or(c.their).or(c.ancestor))
            .map(|e| String::from_utf8_lossy(&e.path).into_owned())
            .collect();
        paths.dedup();
        return Ok(Merged::Conflict(paths));
    }
    let tree_id = index.write_tree_to(&repo).map_err(err)?;
    let tree = repo.find_tree(tree_id).map_err(err)?;
    repo.checkout_tree(tree.as_object(), Some(&mut checkout)).map_err(err)?;
    let sig = repo.signature().or_else(|_| git2::Signature::now("phasegate", "phasegate@localhost")).map_err(err)?;
    let id = repo.commit(Some("HEAD"), &sig, &sig, message, &tree, &[&ours, &theirs]).map_err(err)?;
    Ok(Merged::Merge(id.to_string()))
}

/// Removes a task's worktree (folder and git's record) and its branch, once
/// its branch is merged. Refused while the worktree holds uncommitted
/// changes or untracked files: they would be lost.
pub fn remove_task_worktree(dir: &Path, name: &str, path: &Path, branch: &str) -> Result<(), StoreError> {
    if !worktree_is_clean(path)? {
        return Err(StoreError::Invalid(format!(
            "{} holds uncommitted changes or untracked files; commit them on its branch (or move them away), then run the command again",
            path.display()
        )));
    }
    let repo = open(dir)?;
    if let Ok(wt) = repo.find_worktree(name) {
        let mut opts = WorktreePruneOptions::new();
        opts.valid(true).working_tree(true).locked(false);
        wt.prune(Some(&mut opts)).map_err(|e| StoreError::git(path, e))?;
    }
    if path.is_dir() {
        fs::remove_dir_all(path).at("remove", path)?;
    }
    if let Ok(mut b) = repo.find_branch(branch, git2::BranchType::Local) {
        b.delete().map_err(|e| StoreError::git(path, e))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn commit_all(repo: &Repository, msg: &str) -> Oid {
        let mut index = repo.index().unwrap();
        index.add_all(["*"], git2::IndexAddOption::DEFAULT, None).unwrap();
        index.write().unwrap();
        let tree = repo.find_tree(index.write_tree().unwrap()).unwrap();
        let sig = git2::Signature::now("t", "t@example.com").unwrap();
        let parents: Vec<git2::Commit<'_>> =
            repo.head().ok().and_then(|h| h.peel_to_commit().ok()).into_iter().collect();
        let refs: Vec<&git2::Commit<'_>> = parents.iter().collect();
        repo.commit(Some("HEAD"), &sig, &sig, msg, &tree, &refs).unwrap()
    }

    #[test]
    fn the_change_includes_commits_edits_and_new_files_but_not_phasegate_files() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let repo = Repository::init(root).unwrap();
        fs::write(root.join("a.txt"), "one\n").unwrap();
        let base = commit_all(&repo, "base").to_string();
        fs::write(root.join("a.txt"), "one\ntwo\n").unwrap();
        commit_all(&repo, "task 1");
        fs::write(root.join("b.txt"), "new\n").unwrap();
        fs::create_dir_all(root.join("docs/features/001-a")).unwrap();
        fs::write(root.join("docs/features/001-a/.meta.json"), "{}").unwrap();
        let change = change_since(root, &base, &["docs/features/".into()]).unwrap();
        let paths: Vec<(&str, FileStatus, usize)> =
            change.files.iter().map(|f| (f.path.as_str(), f.status, f.insertions)).collect();
        assert_eq!(paths, [("a.txt", FileStatus::Modified, 1), ("b.txt", FileStatus::Added, 1)]);
        assert!(change.patch.contains("+two") && change.patch.contains("+new"), "{}", change.patch);
        assert!(!change.patch.contains(".meta.json"), "{}", change.patch);
        let before = fingerprint(&change);
        fs::write(root.join("b.txt"), "newer\n").unwrap();
        assert_ne!(fingerprint(&change_since(root, &base, &[]).unwrap()), before);
        assert_eq!(head_commit(root).unwrap().map(|h| h.len()), Some(40));
    }
}

/// The identity of a working tree as it is on disk, and each file in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TreeIdentity {
    /// One hash of every file's path, mode and content.
    pub id: String,
    /// Each file's `mode blob-id`, by its `/`-separated path.
    pub files: std::collections::BTreeMap<String, String>,
}

impl TreeIdentity {
    /// The identity of these files.
    pub fn of(files: std::collections::BTreeMap<String, String>) -> TreeIdentity {
        let mut manifest = String::new();
        for (path, entry) in &files {
            manifest.push_str(entry);
            manifest.push(' ');
            manifest.push_str(path);
            manifest.push('\n');
        }
        let id =
            Oid::hash_object(git2::ObjectType::Blob, manifest.as_bytes()).map(|o| o.to_string()).unwrap_or_default();
        TreeIdentity { id, files }
    }

    /// The paths whose content, mode or presence differs in `other`.
    pub fn changed(&self, other: &TreeIdentity) -> Vec<String> {
        let mut out: Vec<String> = self
            .files
            .iter()
            .filter(|(p, v)| other.files.get(*p) != Some(*v))
            .map(|(p, _)| p.clone())
            .chain(other.files.keys().filter(|p| !self.files.contains_key(*p)).cloned())
            .collect();
        out.sort();
        out
    }
}

/// The identity of the working tree around `dir` as it is now: every file
/// git tracks, with its content as it is on disk (a change not committed
/// counts), and every untracked file git does not ignore; the files `skip`
/// picks (by `/`-separated path from the tree's root) are left out.
/// Nothing is written: clean files take their blob id from the index, the
/// others are hashed as git would hash them.
pub fn tree_identity(dir: &Path, skip: &dyn Fn(&str) -> bool) -> Result<TreeIdentity, StoreError> {
    let repo = open(dir)?;
    Ok(TreeIdentity::of(tree_files(&repo, dir, skip, 0)?))
}

/// How deep repositories inside repositories are followed.
const MAX_NESTING: usize = 8;

/// The entries of [`tree_identity`] for `repo`: its files, and each
/// submodule or repository nested in it as its checked-out commit and the
/// identity of its own files (a commit or an edit inside it counts).
fn tree_files(
    repo: &Repository,
    dir: &Path,
    skip: &dyn Fn(&str) -> bool,
    depth: usize,
) -> Result<std::collections::BTreeMap<String, String>, StoreError> {
    use std::collections::BTreeMap;
    let root = repo.workdir().map(Path::to_path_buf).unwrap_or_else(|| dir.to_owned());
    let index = repo.index().map_err(|e| StoreError::git(&root, e))?;
    let mut files: BTreeMap<String, String> = BTreeMap::new();
    for e in index.iter() {
        let path = String::from_utf8_lossy(&e.path).into_owned();
        if skip(&path) {
            continue;
        }
        let full = root.join(&path);
        // A submodule: what is checked out in it, not what the index says.
        if e.mode == 0o160000 {
            files.insert(path, nested_entry(&full, depth).unwrap_or_else(|| format!("160000 {}", e.id)));
            continue;
        }
        // `assume-unchanged` and `skip-worktree` make git stop looking at
        // the file: it is read from disk instead, so they hide no change.
        let hidden = e.flags & (git2::IndexEntryFlag::VALID.bits()) != 0
            || e.flags_extended & (git2::IndexEntryExtendedFlag::SKIP_WORKTREE.bits()) != 0;
        if hidden {
            match fs::symlink_metadata(&full) {
                Ok(m) if !m.is_dir() => {
                    files.insert(path, blob_entry(&full, &m)?);
                }
                Ok(_) | Err(_) => {
                    files.insert(path, "deleted".to_owned());
                }
            }
            continue;
        }
        files.insert(path, format!("{:o} {}", e.mode, e.id));
    }
    let mut opts = git2::StatusOptions::new();
    // The index is the base (its entries above): only the working tree
    // against it matters, never HEAD (no tree is read from the objects).
    opts.show(git2::StatusShow::Workdir)
        .include_untracked(true)
        .recurse_untracked_dirs(true)
        .include_ignored(false)
        .exclude_submodules(true)
        .renames_head_to_index(false)
        .renames_index_to_workdir(false);
    let statuses = repo.statuses(Some(&mut opts)).map_err(|e| StoreError::git(&root, e))?;
    for s in statuses.iter() {
        let path = String::from_utf8_lossy(s.path_bytes()).into_owned();
        if skip(&path) || s.status().is_ignored() {
            continue;
        }
        let full = root.join(&path);
        match fs::symlink_metadata(&full) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                files.remove(&path);
            }
            Err(e) => return Err(e).at("read", &full),
            // An untracked folder git does not descend into is a
            // repository of its own: its commit and files count.
            Ok(m) if m.is_dir() => {
                if let Some(entry) = nested_entry(&full, depth) {
                    files.insert(path.trim_end_matches('/').to_owned(), entry);
                }
            }
            Ok(m) => {
                files.insert(path, blob_entry(&full, &m)?);
            }
        }
    }
    Ok(files)
}

/// A repository at `dir` (a submodule, or one nested untracked) as one
/// entry: `160000 <its HEAD> <the identity of its files>`; None when none
/// is checked out there.
fn nested_entry(dir: &Path, depth: usize) -> Option<String> {
    if depth >= MAX_NESTING || fs::symlink_metadata(dir.join(".git")).is_err() {
        return None;
    }
    let repo = Repository::open(dir).ok()?;
    let head = repo.head().ok().and_then(|h| h.target()).map(|o| o.to_string()).unwrap_or_else(|| "unborn".into());
    let files = tree_files(&repo, dir, &|_| false, depth + 1).ok()?;
    Some(format!("160000 {head} {}", TreeIdentity::of(files).id))
}

/// The content of `rel` (`/`-separated, from the working tree's root) as
/// HEAD holds it; None when HEAD does not (or there is no repository).
pub fn committed_blob(root: &Path, rel: &str) -> Option<Vec<u8>> {
    let repo = Repository::open(root).ok()?;
    let tree = repo.head().ok()?.peel_to_tree().ok()?;
    let entry = tree.get_path(Path::new(rel)).ok()?;
    let blob = repo.find_blob(entry.id()).ok()?;
    Some(blob.content().to_vec())
}

/// Whether one of the last commits made in this clone (`git commit`, its
/// `--amend`, the first commit, as HEAD's reflog records them) changed
/// `rel` from a content `was` recognises (what phasegate wrote last): such
/// a change was made by hand and committed, where a checkout, merge, pull,
/// reset or rebase brings another commit's file. Read only when a state
/// file differs from what phasegate wrote.
pub fn committed_here_from(root: &Path, rel: &str, was: &dyn Fn(&[u8]) -> bool) -> bool {
    let Ok(repo) = Repository::open(root) else { return false };
    let Ok(log) = repo.reflog("HEAD") else { return false };
    let blob_in = |tree: Option<git2::Tree<'_>>| {
        let id = tree.and_then(|t| t.get_path(Path::new(rel)).ok()).map(|e| e.id());
        id.and_then(|id| repo.find_blob(id).ok()).map(|b| b.content().to_vec())
    };
    for entry in log.iter().take(100) {
        let message = entry.message().ok().flatten().unwrap_or("");
        if !["commit:", "commit (amend):", "commit (initial):"].iter().any(|m| message.starts_with(m)) {
            continue;
        }
        let Ok(commit) = repo.find_commit(entry.id_new()) else { continue };
        let before = blob_in(commit.parent(0).ok().and_then(|p| p.tree().ok()));
        if before.as_deref().is_some_and(was) && blob_in(commit.tree().ok()) != before {
            return true;
        }
    }
    false
}

/// `mode blob-id` of a file on disk, as git would record it.
pub fn blob_entry(path: &Path, meta: &fs::Metadata) -> Result<String, StoreError> {
    if meta.file_type().is_symlink() {
        let target = fs::read_link(path).at("read the link", path)?;
        let id = Oid::hash_object(git2::ObjectType::Blob, target.to_string_lossy().as_bytes())
            .map_err(|e| StoreError::git(path, e))?;
        return Ok(format!("120000 {id}"));
    }
    #[cfg(unix)]
    let executable = {
        use std::os::unix::fs::PermissionsExt;
        meta.permissions().mode() & 0o111 != 0
    };
    #[cfg(not(unix))]
    let executable = false;
    let id = Oid::hash_file(git2::ObjectType::Blob, path).map_err(|e| StoreError::git(path, e))?;
    Ok(format!("{} {id}", if executable { "100755" } else { "100644" }))
}

#[cfg(test)]
mod identity_tests {
    use super::*;

    fn repo() -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let repo = Repository::init(&root).unwrap();
        fs::write(root.join("a.txt"), "one\n").unwrap();
        fs::write(root.join(".gitignore"), "target/\n").unwrap();
        let mut index = repo.index().unwrap();
        index.add_path(Path::new("a.txt")).unwrap();
        index.add_path(Path::new(".gitignore")).unwrap();
        let tree = repo.find_tree(index.write_tree().unwrap()).unwrap();
        index.write().unwrap();
        let sig = git2::Signature::now("t", "t@e").unwrap();
        repo.commit(Some("HEAD"), &sig, &sig, "init", &tree, &[]).unwrap();
        (dir, root)
    }

    #[test]
    fn every_change_on_disk_counts_and_ignored_or_skipped_files_do_not() {
        let (_d, root) = repo();
        let none = |_: &str| false;
        let first = tree_identity(&root, &none).unwrap();
        assert_eq!(tree_identity(&root, &none).unwrap(), first, "nothing changed, nothing differs");
        fs::create_dir_all(root.join("target")).unwrap();
        fs::write(root.join("target/out.bin"), "built").unwrap();
        assert_eq!(tree_identity(&root, &none).unwrap().id, first.id, "ignored files do not count");
        fs::write(root.join("a.txt"), "two\n").unwrap();
        let edited = tree_identity(&root, &none).unwrap();
        assert_ne!(edited.id, first.id, "an uncommitted edit counts");
        assert_eq!(first.changed(&edited), ["a.txt"]);
        fs::write(root.join("a.txt"), "one\n").unwrap();
        assert_eq!(tree_identity(&root, &none).unwrap().id, first.id, "the same content is the same tree");
        fs::write(root.join("new.txt"), "n").unwrap();
        let added = tree_identity(&root, &none).unwrap();
        assert_eq!(first.changed(&added), ["new.txt"], "an untracked file counts");
        let skip = |p: &str| p == "new.txt";
        assert_eq!(tree_identity(&root, &skip).unwrap().id, first.id, "a skipped file does not");
        fs::remove_file(root.join("a.txt")).unwrap();
        fs::remove_file(root.join("new.txt")).unwrap();
        let removed = tree_identity(&root, &none).unwrap();
        assert_eq!(first.changed(&removed), ["a.txt"], "a deleted file counts");
    }
}

#[cfg(test)]
mod hidden_change_tests {
    use super::*;

    fn git(dir: &Path, args: &[&str]) {
        let out = std::process::Command::new("git")
            .args(["-c", "user.name=t", "-c", "user.email=t@e", "-c", "protocol.file.allow=always"])
            .args(args)
            .current_dir(dir)
            .env_remove("GIT_DIR")
            .output()
            .unwrap();
        assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    }

    fn repo(dir: &Path) {
        fs::create_dir_all(dir).unwrap();
        git(dir, &["init", "-q"]);
        fs::write(dir.join("a.txt"), "one\n").unwrap();
        git(dir, &["add", "a.txt"]);
        git(dir, &["commit", "-qm", "init"]);
    }

    /// Regression: a file hidden by `git update-index --assume-unchanged`
    /// or `--skip-worktree` left the ledger fresh after an edit.
    #[test]
    fn index_flags_do_not_hide_a_change() {
        for flag in ["--assume-unchanged", "--skip-worktree"] {
            let d = tempfile::tempdir().unwrap();
            let root = d.path().canonicalize().unwrap();
            repo(&root);
            let none = |_: &str| false;
            let before = tree_identity(&root, &none).unwrap();
            git(&root, &["update-index", flag, "a.txt"]);
            assert_eq!(tree_identity(&root, &none).unwrap().id, before.id, "{flag}: the flag alone changes nothing");
            fs::write(root.join("a.txt"), "two\n").unwrap();
            let after = tree_identity(&root, &none).unwrap();
            assert_eq!(before.changed(&after), ["a.txt"], "{flag} hid an edit");
            fs::remove_file(root.join("a.txt")).unwrap();
            assert_ne!(tree_identity(&root, &none).unwrap().id, before.id, "{flag} hid a removal");
        }
    }

    /// Regression: a commit or an edit inside a submodule, or inside a
    /// repository nested in the tree, left the ledger fresh.
    #[test]
    fn submodules_and_nested_repositories_count_by_their_commit_and_files() {
        let d = tempfile::tempdir().unwrap();
        let base = d.path().canonicalize().unwrap();
        let lib = base.join("lib");
        repo(&lib);
        let root = base.join("app");
        repo(&root);
        git(&root, &["submodule", "add", "-q", lib.to_str().unwrap(), "sub"]);
        git(&root, &["commit", "-qm", "sub"]);
        let none = |_: &str| false;
        let first = tree_identity(&root, &none).unwrap();
        assert_eq!(tree_identity(&root, &none).unwrap().id, first.id, "stable");
        fs::write(root.join("sub/a.txt"), "edited\n").unwrap();
        let edited = tree_identity(&root, &none).unwrap();
        assert_eq!(first.changed(&edited), ["sub"], "an edit inside the submodule counts");
        git(&root.join("sub"), &["commit", "-qam", "in sub"]);
        let committed = tree_identity(&root, &none).unwrap();
        assert_ne!(committed.id, edited.id, "a commit inside the submodule counts");
        // A repository nested, untracked, in the tree.
        repo(&root.join("vendor/tool"));
        let nested = tree_identity(&root, &none).unwrap();
        assert!(nested.files.contains_key("vendor/tool"), "{:?}", nested.files.keys().collect::<Vec<_>>());
        fs::write(root.join("vendor/tool/a.txt"), "changed\n").unwrap();
        let changed = tree_identity(&root, &none).unwrap();
        assert_eq!(nested.changed(&changed), ["vendor/tool"]);
    }
}
