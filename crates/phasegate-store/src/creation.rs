//! `feature new`, crash-safe: a feature's number, folder, `.meta.json`,
//! branch and worktree appear together or not at all, and a number whose
//! folder, branch or worktree exists is never given to another feature.
//!
//! Under the project's `features.lock`, an intent record
//! (`<runtime>/journal/feature-new.json`, written atomically) names each
//! step before it is taken: the folder (assembled under a hidden name and
//! renamed into place last), the branch with the commit it starts from, the
//! worktree. A creation that fails takes back what it made; one that was
//! killed (`kill -9`, a power cut) is taken back by the next `feature new`,
//! which reads the record first. Taken back means only what that creation
//! made, as the checks before the record proved none of it existed: a
//! worktree that holds a new or changed file, or a branch with commits
//! made since, is the user's work and is kept, reported with what to do,
//! and listed in `<runtime>/interrupted-features.json` so that its number
//! stays taken (and `status` shows it) until the user removes it.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::Duration;

use chrono::{DateTime, Utc};
use phasegate_core::Mode;
use phasegate_core::feature::{META_FILE, Meta, Workflow};
use phasegate_core::slug::{self, split_feature_name};
use serde::{Deserialize, Serialize};

use crate::error::{IoContext, StoreError};
use crate::failpoint;
use crate::feature::index;
use crate::feature::{Feature, render_meta};
use crate::fs as sfs;
use crate::git::{self, RepoLayout};
use crate::lock::FileLock;
use crate::project::{Project, WORKTREES_DIR};

/// What a `feature new` found of an earlier one that was interrupted.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Interrupted {
    /// The feature it was making (`001-x`).
    pub name: String,
    /// What it had made and was taken back.
    pub undone: Vec<String>,
    /// What holds the user's work and was left as it is.
    pub kept: Vec<String>,
    /// What to do about what was kept (empty when nothing was).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub advice: String,
}

/// A feature just made.
#[derive(Debug, Clone)]
pub struct Created {
    pub feature: Feature,
    pub meta: Meta,
    /// An earlier `feature new` that was interrupted, and what became of it.
    pub interrupted: Option<Interrupted>,
}

/// The feature a `feature new` makes.
#[derive(Debug, Clone, Copy)]
pub struct NewFeature<'a> {
    pub slug: &'a str,
    pub mode: Mode,
    pub workflow: Workflow,
    /// Also a branch and a git worktree.
    pub worktree: bool,
}

/// What a `feature new` in progress planned, each step before it is taken.
#[derive(Debug, Serialize, Deserialize)]
struct Intent {
    name: String,
    staged: PathBuf,
    worktree: Option<IntentWorktree>,
}

#[derive(Debug, Serialize, Deserialize)]
struct IntentWorktree {
    path: PathBuf,
    branch: String,
    /// The commit the branch is created at (recorded before it is made).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    branch_at: Option<String>,
    /// The worktree is being added (recorded before `git worktree add`).
    #[serde(default, alias = "worktree_made")]
    worktree_planned: bool,
}

/// A branch or worktree an interrupted creation left because it holds the
/// user's work: its number stays taken while either exists.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Leftover {
    name: String,
    branch: String,
    worktree: PathBuf,
}

/// Records the creation's intent, before what it plans is made.
fn write_intent(path: &Path, intent: &Intent) -> Result<(), StoreError> {
    sfs::write_atomic(path, &serde_json::to_vec(intent).expect("an intent serialises"))
}

impl Project {
    fn intent_path(&self) -> PathBuf {
        self.runtime_dir().join("journal").join("feature-new.json")
    }

    fn leftovers_path(&self) -> PathBuf {
        self.runtime_dir().join("interrupted-features.json")
    }

    /// Creates `docs/features/<NNN>-<slug>/` with a fresh `.meta.json`; with
    /// `worktree`, also a branch `feature/<NNN>-<slug>` and a git worktree in
    /// `.worktrees/<NNN>-<slug>`. All or nothing, killed or not (see the
    /// module's documentation); a creation interrupted earlier is taken back
    /// first, and reported in [`Created::interrupted`].
    pub fn create_feature(
        &self,
        new: NewFeature<'_>,
        now: DateTime<Utc>,
        timeout: Duration,
        reserve: &mut dyn FnMut(u32) -> Result<u32, StoreError>,
    ) -> Result<Created, StoreError> {
        let NewFeature { slug, mode, workflow, worktree } = new;
        slug::validate(slug)?;
        let features_dir = self.features_dir();
        sfs::confine(self.root(), &features_dir.join("x"))?;
        let _guard = FileLock::acquire(&self.lock_dir().join("features.lock"), timeout)?;
        let interrupted = self.undo_interrupted_creation()?;
        let repo = match (worktree, self.repo()) {
            (false, _) => None,
            (true, Some(r)) => Some(r),
            (true, None) => {
                return Err(StoreError::Invalid(format!(
                    "--worktree needs a git repository, and {} is not in one",
                    self.root().display()
                )));
            }
        };
        // The team's remote may hold higher numbers: `reserve` takes the
        // first free one from the local next on (it is never lower).
        let id = format!("{:03}", reserve(self.next_id()?)?);
        let name = format!("{id}-{slug}");
        let dir = features_dir.join(&name);
        let staged = features_dir.join(format!(".{name}.creating"));
        let mut meta = Meta::new(id, slug.to_owned(), mode, now);
        meta.workflow = workflow;
        let mut intent = Intent {
            name: name.clone(),
            staged: staged.clone(),
            worktree: repo.map(|_| IntentWorktree {
                path: self.root().join(WORKTREES_DIR).join(&name),
                branch: format!("feature/{name}"),
                branch_at: None,
                worktree_planned: false,
            }),
        };
        // A branch, folder or worktree record that exists may hold the
        // user's work: refused before anything is made, so a refusal takes
        // nothing back, and an undo later takes back only what this made.
        if let (Some(repo), Some(wt)) = (repo, intent.worktree.as_mut()) {
            wt.branch_at = Some(git::check_worktree_free(repo, &name, &wt.path, &wt.branch)?);
        }
        if sfs::exists_entry(&staged) || sfs::exists_entry(&dir) {
            return Err(StoreError::Invalid(format!(
                "{} already exists (it is left as it is); remove it if it is unused",
                if sfs::exists_entry(&dir) { dir.display() } else { staged.display() }
            )));
        }
        let intent_path = self.intent_path();
        sfs::create_dir_all(intent_path.parent().expect("the intent lives in a folder"))?;
        write_intent(&intent_path, &intent)?;
        failpoint::hit("feature-new:intent");
        let before = self.stamp();
        let made = self.make_feature(repo, &mut intent, &mut meta, &intent_path, &dir);
        if let Err(e) = made {
            // Nothing here is the user's yet, but should anything be kept,
            // its number stays taken and `status` shows it.
            let undone = self.undo(&intent);
            if undone.left_something {
                let _ = self.remember_leftover(&intent);
            }
            let _ = sfs::remove_if_exists(&intent_path);
            return Err(e);
        }
        sfs::remove_if_exists(&intent_path)?;
        index::note_created(&self.runtime_dir(), &name, &before, self.stamp())?;
        Ok(Created { feature: self.feature_for_dir(dir), meta, interrupted })
    }

    /// Makes the feature as `intent` plans it: its folder staged, its
    /// branch and worktree (the intent written again before the worktree),
    /// its `.meta.json`, then the folder moved into place at `dir`.
    fn make_feature(
        &self,
        repo: Option<&RepoLayout>,
        intent: &mut Intent,
        meta: &mut Meta,
        intent_path: &Path,
        dir: &Path,
    ) -> Result<(), StoreError> {
        let (name, staged) = (intent.name.clone(), intent.staged.clone());
        sfs::create_dir_all(&staged)?;
        failpoint::hit("feature-new:staged");
        if let (Some(repo), Some(wt)) = (repo, intent.worktree.as_mut()) {
            let (path, branch) = (wt.path.clone(), wt.branch.clone());
            git::create_branch(repo, &branch, wt.branch_at.as_deref().expect("planned above"))?;
            failpoint::hit("feature-new:branch");
            wt.worktree_planned = true;
            write_intent(intent_path, intent)?;
            git::add_worktree(repo, &name, &path, &branch)?;
            failpoint::hit("feature-new:worktree");
            git::exclude(&repo.common_dir, &format!("/{WORKTREES_DIR}/"))?;
            meta.worktree = Some(format!("{WORKTREES_DIR}/{name}"));
            meta.branch = Some(branch);
        }
        sfs::write_atomic(&staged.join(META_FILE), render_meta(meta).as_bytes())?;
        failpoint::hit("feature-new:meta");
        fs::rename(&staged, dir).at("move into place", dir)?;
        sfs::sync_dir(&self.features_dir());
        failpoint::hit("feature-new:renamed");
        Ok(())
    }

    /// Takes back what an interrupted creation made (see the module's
    /// documentation), forgets leftovers the user has removed since, and
    /// removes the intent record.
    fn undo_interrupted_creation(&self) -> Result<Option<Interrupted>, StoreError> {
        self.forget_removed_leftovers()?;
        let intent_path = self.intent_path();
        let Some(text) = sfs::read_optional(&intent_path)? else { return Ok(None) };
        let intent: Intent = serde_json::from_str(&text).map_err(|e| StoreError::Corrupt {
            path: intent_path.clone(),
            detail: format!(
                "{e}; it records a `feature new` that was interrupted: check docs/features/, {WORKTREES_DIR}/ and the feature/ branches for what it made, then remove the file"
            ),
        })?;
        // Renamed into place: the creation finished; nothing to undo.
        if sfs::exists_entry(&self.features_dir().join(&intent.name).join(META_FILE)) {
            sfs::remove_if_exists(&intent_path)?;
            return Ok(None);
        }
        let undone = self.undo(&intent);
        if undone.left_something {
            self.remember_leftover(&intent)?;
        }
        sfs::remove_if_exists(&intent_path)?;
        let advice = match (&intent.worktree, undone.kept.is_empty()) {
            (Some(wt), false) => {
                let path = sfs::relative(&wt.path, self.root()).display().to_string();
                format!(
                    "they hold your work, so they stay, and the number of {} is not given to another feature: commit what you want to keep on {}, then remove them (`git worktree remove {path}`, `git branch -D {}`)",
                    intent.name, wt.branch, wt.branch
                )
            }
            (None, false) => format!(
                "they may hold your work, so they stay; remove them yourself when they are unused ({})",
                sfs::relative(&intent.staged, self.root()).display()
            ),
            (_, true) => String::new(),
        };
        Ok(Some(Interrupted { name: intent.name, undone: undone.removed, kept: undone.kept, advice }))
    }

    /// Takes back what a creation made, and only that (see
    /// [`git::undo_worktree`]): the staged folder while it holds only what
    /// phasegate writes there.
    fn undo(&self, intent: &Intent) -> git::Undone {
        let mut undone = git::Undone::default();
        let staged = &intent.staged;
        let shown = sfs::relative(staged, self.root()).display().to_string();
        if staged.parent() == Some(self.features_dir().as_path())
            && fs::symlink_metadata(staged).is_ok_and(|m| m.is_dir())
        {
            sfs::remove_temporaries(staged);
            let _ = sfs::remove_if_exists(&staged.join(META_FILE));
            match fs::remove_dir(staged) {
                Ok(()) => undone.removed.push(format!("folder {shown}")),
                Err(_) => {
                    undone.kept.push(format!("folder {shown} holds files phasegate did not write"));
                    undone.left_something = true;
                }
            }
        }
        if let (Some(repo), Some(wt)) = (self.repo(), &intent.worktree) {
            let planned = git::Planned { branch_at: wt.branch_at.as_deref(), worktree: wt.worktree_planned };
            let git = git::undo_worktree(repo, &intent.name, &wt.path, &wt.branch, &planned);
            undone.removed.extend(git.removed);
            undone.kept.extend(git.kept);
            undone.left_something |= git.left_something;
        }
        undone
    }

    fn read_leftovers(&self) -> Result<Vec<Leftover>, StoreError> {
        let path = self.leftovers_path();
        match sfs::read_optional(&path)? {
            None => Ok(Vec::new()),
            Some(text) => serde_json::from_str(&text).map_err(|e| StoreError::Corrupt {
                path,
                detail: format!("{e}; it lists what interrupted `feature new` runs left (written by phasegate only)"),
            }),
        }
    }

    fn write_leftovers(&self, leftovers: &[Leftover]) -> Result<(), StoreError> {
        let path = self.leftovers_path();
        if leftovers.is_empty() {
            return sfs::remove_if_exists(&path).map(drop);
        }
        sfs::write_atomic(&path, &serde_json::to_vec_pretty(leftovers).expect("leftovers serialise"))
    }

    fn remember_leftover(&self, intent: &Intent) -> Result<(), StoreError> {
        let mut leftovers = self.read_leftovers()?;
        let (branch, worktree) = match &intent.worktree {
            Some(wt) => (wt.branch.clone(), wt.path.clone()),
            None => (String::new(), intent.staged.clone()),
        };
        leftovers.retain(|l| l.name != intent.name);
        leftovers.push(Leftover { name: intent.name.clone(), branch, worktree });
        self.write_leftovers(&leftovers)
    }

    fn forget_removed_leftovers(&self) -> Result<(), StoreError> {
        let leftovers = self.read_leftovers()?;
        let kept: Vec<Leftover> = leftovers.iter().filter(|l| self.leftover_exists(l)).cloned().collect();
        if kept.len() != leftovers.len() {
            self.write_leftovers(&kept)?;
        }
        Ok(())
    }

    fn leftover_exists(&self, l: &Leftover) -> bool {
        let branch = !l.branch.is_empty() && self.repo().is_some_and(|r| git::branch_exists(r, &l.branch));
        branch || sfs::exists_entry(&l.worktree)
    }

    /// What interrupted `feature new` runs left, for `status`: one line each
    /// for a creation still to be taken back and for the user's work an
    /// earlier one kept.
    pub fn interrupted_creations(&self) -> Vec<String> {
        let mut out = Vec::new();
        if let Ok(Some(text)) = sfs::read_optional(&self.intent_path()) {
            let name = serde_json::from_str::<Intent>(&text).map(|i| i.name).unwrap_or_else(|_| "a feature".into());
            if !sfs::exists_entry(&self.features_dir().join(&name).join(META_FILE)) {
                out.push(format!(
                    "`feature new` of {name} was interrupted; the next `feature new` takes back what it made"
                ));
            }
        }
        for l in self.read_leftovers().unwrap_or_default().iter().filter(|l| self.leftover_exists(l)) {
            let path = sfs::relative(&l.worktree, self.root()).display().to_string();
            out.push(match l.branch.is_empty() {
                true => format!("an interrupted `feature new` of {} left {path}; remove it when it is unused", l.name),
                false => format!(
                    "an interrupted `feature new` of {} left {path} and branch {} holding your work; its number stays taken until you remove them (`git worktree remove {path}`, `git branch -D {}`)",
                    l.name, l.branch, l.branch
                ),
            });
        }
        out
    }

    /// One more than any number taken: by a feature folder (hidden staged
    /// ones included), a worktree folder under `.worktrees/`, or what an
    /// interrupted creation left.
    fn next_id(&self) -> Result<u32, StoreError> {
        let mut max = 0;
        for dir in [self.features_dir(), self.root().join(WORKTREES_DIR)] {
            // Not a folder: nothing is numbered in it (creating in it fails).
            if !fs::metadata(&dir).is_ok_and(|m| m.is_dir()) {
                continue;
            }
            let entries = match fs::read_dir(&dir) {
                Ok(entries) => entries,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
                Err(e) => return Err(e).at("list", dir),
            };
            for entry in entries {
                let entry = entry.at("list", &dir)?;
                if let Some(n) = entry.file_name().to_str().and_then(number_of) {
                    max = max.max(n);
                }
            }
        }
        for l in self.read_leftovers()? {
            if let Some(n) = number_of(&l.name) {
                max = max.max(n);
            }
        }
        Ok(max.saturating_add(1))
    }
}

/// The number of a feature folder's name, staged (`.NNN-slug.creating`) or not.
fn number_of(name: &str) -> Option<u32> {
    let name = name.strip_prefix('.').and_then(|n| n.strip_suffix(".creating")).unwrap_or(name);
    split_feature_name(name).map(|(n, _)| n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_of_staged_and_placed_folders() {
        assert_eq!(number_of("007-auth"), Some(7));
        assert_eq!(number_of(".012-auth.creating"), Some(12));
        assert_eq!(number_of(".gitkeep"), None);
        assert_eq!(number_of("notes"), None);
    }
}
