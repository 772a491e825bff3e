//! Parallel tasks (seed 003: "launch multiple agents simultaneously,
//! synchronize at phase boundaries"): each task of a batch gets its own git
//! worktree and branch, its delegate commits there, and `tasks merge`
//! brings the branch back; a conflict changes nothing and fails the task as
//! a CONFLICT (rebase and retry).

use phasegate_core::tasks::Mark;
use phasegate_store::git::{self, Merged};
use phasegate_store::project::WORKTREES_DIR;
use serde::Serialize;

use super::marks::read;
use crate::coordination::effects::Effects;
use crate::env::Env;
use crate::error::{OpResult, Refusal};
use crate::questions::ask::Interaction;
use crate::session;
use crate::tasks::build::{self, Failed};

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TaskWorktree {
    pub feature: String,
    pub task: String,
    /// Where the task's delegate works (its cwd), and commits.
    pub path: String,
    pub branch: String,
    pub base: String,
}

/// How a task's branch came back.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum MergeResult {
    /// The feature's branch moved to the task's commit.
    FastForward,
    /// A merge commit joins the two.
    Merge,
    /// The merge stopped on conflicts; the task failed.
    Conflict,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MergedTask {
    pub feature: String,
    pub task: String,
    pub result: MergeResult,
    pub commit: Option<String>,
    pub conflicts: Vec<String>,
    /// For a conflict: the task's failure and its decision.
    pub failed: Option<Failed>,
}

fn names(feature: &str, task: &str) -> (String, String) {
    let name = format!("{feature}--{}", task.to_lowercase());
    (name, format!("task/{feature}/{task}"))
}

/// Gives a task in progress its own worktree and branch, from the HEAD of
/// the feature's code folder.
pub fn worktree(env: &Env, given: Option<&str>, id: &str) -> OpResult<TaskWorktree> {
    let (project, feature) = session::find(env, given)?;
    let guard = feature.lock(env.lock_timeout)?;
    let (list, file) = read(guard.feature())?;
    let task = super::marks::task(&list, &file, id)?;
    if task.mark != Mark::InProgress {
        return Err(
            Refusal::NotStarted { task: task.id.clone(), mark: task.mark, feature: feature.name().to_owned() }.into()
        );
    }
    let (name, branch) = names(feature.name(), &task.id);
    let path = project.root().join(WORKTREES_DIR).join(&name);
    project.exclude_from_git(&format!("/{WORKTREES_DIR}/"))?;
    let dir = project.code_dir(&guard.load()?);
    let base = git::add_task_worktree(&dir, &name, &path, &branch)?;
    let mut cycles = guard.feature().read_review_cycles()?;
    cycles
        .sessions
        .entry(feature.name().to_owned())
        .or_default()
        .build
        .worktrees
        .insert(task.id.clone(), path.display().to_string());
    guard.commit("tasks worktree", vec![guard.feature().review_cycles_change(&cycles, env.now)])?;
    Effects::of("tasks worktree").turn_to(feature.name()).apply_to_log(&project, env);
    Ok(TaskWorktree {
        feature: feature.name().to_owned(),
        task: task.id.clone(),
        path: path.display().to_string(),
        branch,
        base,
    })
}

/// Brings a task's branch back into the feature's code folder and removes
/// its worktree. A conflict leaves everything as it was and fails the task.
pub fn merge(env: &Env, given: Option<&str>, id: &str, session: Interaction) -> OpResult<MergedTask> {
    let (project, feature) = session::find(env, given)?;
    let guard = feature.lock(env.lock_timeout)?;
    let (list, file) = read(guard.feature())?;
    let task = super::marks::task(&list, &file, id)?.clone();
    let (name, branch) = names(feature.name(), &task.id);
    let path = project.root().join(WORKTREES_DIR).join(&name);
    let dir = project.code_dir(&guard.load()?);
    // Work left uncommitted in the task's worktree is not on its branch: a
    // merge would miss it and removing the worktree would lose it.
    if !git::worktree_is_clean(&path)? {
        return Err(Refusal::UncommittedWork {
            task: task.id.clone(),
            path: path.display().to_string(),
            branch: branch.clone(),
        }
        .into());
    }
    let merged =
        git::merge_branch(&dir, &branch, &format!("Merge {} ({}) of {}", task.id, task.title, feature.name()))?;
    let (result, commit) = match merged {
        Merged::UpToDate => {
            return Err(Refusal::NothingToMerge {
                task: task.id.clone(),
                branch: branch.clone(),
                path: path.display().to_string(),
            }
            .into());
        }
        Merged::Conflict(paths) => {
            drop(guard);
            let output = paths
                .iter()
                .map(|p| format!("CONFLICT (content): Merge conflict in {p}"))
                .collect::<Vec<_>>()
                .join("\n");
            let failed = build::fail(env, Some(feature.name()), &task.id, Some(&output), None, false, session)?;
            Effects::of("tasks merge").turn_to(feature.name()).apply_to_log(&project, env);
            return Ok(MergedTask {
                feature: feature.name().to_owned(),
                task: task.id,
                result: MergeResult::Conflict,
                commit: None,
                conflicts: paths,
                failed: Some(failed),
            });
        }
        Merged::FastForward(c) => (MergeResult::FastForward, c),
        Merged::Merge(c) => (MergeResult::Merge, c),
    };
    git::remove_task_worktree(&dir, &name, &path, &branch)?;
    let mut cycles = guard.feature().read_review_cycles()?;
    cycles.sessions.entry(feature.name().to_owned()).or_default().build.worktrees.remove(&task.id);
    guard.commit("tasks merge", vec![guard.feature().review_cycles_change(&cycles, env.now)])?;
    Effects::of("tasks merge").turn_to(feature.name()).apply_to_log(&project, env);
    Ok(MergedTask {
        feature: feature.name().to_owned(),
        task: task.id,
        result,
        commit: Some(commit),
        conflicts: Vec::new(),
        failed: None,
    })
}
