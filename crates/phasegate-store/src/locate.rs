//! The repository around a file, found with a few `stat`s and at most two
//! small reads, for the hooks that run on every edit (PreToolUse, PostToolUse):
//! opening the repository through libgit2 costs more than the whole hook may.
//!
//! The working tree's root is the nearest folder above the file holding
//! `.git`. A `.git` folder is the main working tree, and git's common
//! directory is that folder. A `.git` file (`gitdir: <path>`) is a linked
//! worktree (or a submodule): the common directory is named by the
//! `commondir` file in that git directory, else it is the git directory
//! itself. Whatever this cannot read, the caller treats as "no repository":
//! the hooks then let the edit through, as they would outside git.

use std::path::{Path, PathBuf};

use crate::git::RepoLayout;

/// The layout of the repository holding `path` (a file that need not exist,
/// or a folder), or None outside a working tree.
pub fn locate(path: &Path) -> Option<RepoLayout> {
    let start = if path.is_dir() { path } else { path.parent()? };
    for dir in start.ancestors() {
        let dot_git = dir.join(".git");
        let Ok(meta) = std::fs::symlink_metadata(&dot_git) else { continue };
        let (common_dir, worktree_name) = if meta.is_dir() {
            (dot_git, None)
        } else if meta.is_file() {
            let text = std::fs::read_to_string(&dot_git).ok()?;
            let gitdir = text.lines().find_map(|l| l.strip_prefix("gitdir:"))?.trim();
            let gitdir = dir.join(gitdir);
            let common = match std::fs::read_to_string(gitdir.join("commondir")) {
                Ok(c) => gitdir.join(c.trim()),
                Err(_) => gitdir.clone(),
            };
            // Resolved: git writes the `gitdir:` line in its own spelling
            // (`C:/x/.git/worktrees/w` on Windows), and the main root is
            // named from it.
            let common = crate::fs::canonical(&common).unwrap_or_else(|| clean(&common));
            (common, gitdir.file_name().map(|n| n.to_string_lossy().into_owned()))
        } else {
            return None;
        };
        let main_root = match common_dir.file_name() {
            Some(n) if n == ".git" => common_dir.parent()?.to_path_buf(),
            _ => dir.to_path_buf(),
        };
        return Some(RepoLayout { main_root, current_root: dir.to_path_buf(), common_dir, worktree_name });
    }
    None
}

/// `a/b/../c` → `a/c`, without touching the disk (a linked worktree's
/// `commondir` is `../..`).
fn clean(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_main_tree_and_a_linked_worktree_share_the_common_directory() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().canonicalize().unwrap();
        std::fs::create_dir_all(root.join(".git/worktrees/wt")).unwrap();
        std::fs::create_dir_all(root.join("src/deep")).unwrap();
        let main = locate(&root.join("src/deep/new.rs")).unwrap();
        assert_eq!((main.current_root.as_path(), main.main_root.as_path()), (root.as_path(), root.as_path()));
        assert_eq!(main.common_dir, root.join(".git"));

        let wt = root.join(".worktrees/wt");
        std::fs::create_dir_all(wt.join("src")).unwrap();
        std::fs::write(wt.join(".git"), format!("gitdir: {}\n", root.join(".git/worktrees/wt").display())).unwrap();
        std::fs::write(root.join(".git/worktrees/wt/commondir"), "../..\n").unwrap();
        let linked = locate(&wt.join("src/a.rs")).unwrap();
        assert_eq!(linked.current_root, wt);
        assert_eq!(linked.common_dir, root.join(".git"));
        assert_eq!(linked.main_root, root);
        assert_eq!(linked.worktree_name.as_deref(), Some("wt"));
    }

    #[test]
    fn outside_a_working_tree_there_is_nothing() {
        let tmp = tempfile::tempdir().unwrap();
        // A `.git` file that names nothing is not a repository.
        std::fs::write(tmp.path().join(".git"), "not a gitdir line\n").unwrap();
        assert!(locate(&tmp.path().join("a.rs")).is_none());
    }
}
