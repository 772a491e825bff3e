//! Features: create (from a slug or from the user's words), show, abandon,
//! finish.

use phasegate_core::feature::ValidationKind as Verdict;
use phasegate_core::feature::{Meta, Workflow};
use phasegate_core::{Mode, Phase, slug};
use phasegate_store::{Feature, FileWrite};
use serde::Serialize;

use crate::env::Env;
use crate::error::{OpError, OpResult, Refusal};
use crate::session;

/// A new feature.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Created {
    pub name: String,
    pub dir: String,
    pub worktree_path: Option<String>,
    pub meta: Meta,
    #[serde(skip)]
    pub feature: Feature,
}

/// Creates a feature. `words` is a slug, or a description the slug is made
/// from (`"add search"` → `add-search`).
pub fn create(env: &Env, words: &str, mode: Mode, workflow: Workflow, worktree: bool) -> OpResult<Created> {
    let slug = slug::from_words(words).ok_or_else(|| {
        OpError::Invalid(format!(
            "cannot make a feature name from `{}`: give a short slug of letters, digits, '-', '_' or '.' (for example `user-auth`)",
            words.trim()
        ))
    })?;
    let project = session::project(env)?;
    let (feature, meta) = project.create_feature(&slug, mode, workflow, worktree, env.now, env.lock_timeout)?;
    project.exclude_scratch()?;
    Ok(Created {
        name: feature.name().to_owned(),
        dir: feature.dir().display().to_string(),
        worktree_path: project.worktree_path(&meta).map(|p| p.display().to_string()),
        meta,
        feature,
    })
}

/// What `feature show` prints.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Shown {
    pub name: String,
    pub dir: String,
    pub worktree_path: Option<String>,
    pub artifacts: Vec<&'static str>,
    pub meta: Meta,
}

pub fn show(env: &Env, given: Option<&str>) -> OpResult<Shown> {
    let (project, feature) = session::resolve(env, given)?;
    let meta = feature.load()?;
    Ok(Shown {
        name: feature.name().to_owned(),
        dir: feature.dir().display().to_string(),
        worktree_path: project.worktree_path(&meta).map(|p| p.display().to_string()),
        artifacts: feature.artifacts().iter().map(|a| a.file_name()).collect(),
        meta,
    })
}

pub fn abandon(env: &Env, given: Option<&str>) -> OpResult<String> {
    let (_, feature) = session::resolve(env, given)?;
    let now = env.now;
    feature.update(env.lock_timeout, |meta| -> OpResult<()> { Ok(meta.abandon(now)?) })?;
    Ok(feature.name().to_owned())
}

/// What `finish` did and what it leaves for the user to commit.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Finished {
    pub feature: String,
    pub status: phasegate_core::Status,
    pub history_deleted: bool,
    pub verdict_deleted: bool,
    pub total_iterations: u32,
    pub warning: Option<String>,
    pub phases: serde_json::Map<String, serde_json::Value>,
    /// The files `finish` changed, relative to the project root: commit them.
    pub to_commit: Vec<String>,
    pub message: String,
}

/// Ends a feature: status completed, `.review-history.md` and the scratch
/// verdict removed, the review summary kept in `.meta.json`; the state file
/// and the history change together or not at all.
pub fn finish(env: &Env, given: Option<&str>) -> OpResult<Finished> {
    let (project, feature) = session::resolve(env, given)?;
    let guard = feature.lock(env.lock_timeout)?;
    let mut meta = guard.load()?;
    let v = crate::feature::phase::validate_meta(&feature, &meta, Phase::Finish);
    if v.kind == Verdict::Blocked {
        return Err(Refusal::TransitionBlocked { phase: Phase::Finish, message: v.message.unwrap_or_default() }.into());
    }
    meta.finish(env.now)?;
    let history = feature.history_path();
    let had_history = phasegate_store::fs::exists_entry(&history);
    let verdict = feature.verdict_path();
    let had_verdict = phasegate_store::fs::exists_entry(&verdict);
    let mut others = Vec::new();
    if had_history {
        others.push(FileWrite::remove(&history));
    }
    if had_verdict {
        others.push(FileWrite::remove(&verdict));
    }
    guard.commit_with_meta("finish", &meta, others)?;
    drop(guard);
    let rel = |p: &std::path::Path| phasegate_store::fs::relative(p, project.root()).display().to_string();
    let mut to_commit = vec![rel(&feature.meta_path())];
    if had_history {
        to_commit.push(rel(&history));
    }
    let phases = meta
        .phases
        .iter()
        .map(|(p, r)| {
            (
                p.name().to_owned(),
                serde_json::json!({"iterations": r.iterations, "outcome": r.outcome, "reviewerNotes": r.reviewer_notes}),
            )
        })
        .collect();
    let dir = rel(feature.dir());
    Ok(Finished {
        feature: feature.name().to_owned(),
        status: meta.status,
        history_deleted: had_history,
        verdict_deleted: had_verdict,
        total_iterations: meta.total_iterations(),
        warning: v.message.filter(|_| v.kind == Verdict::Warning),
        phases,
        message: format!(
            "Feature {} is completed. Commit its state: git add -A {dir} && git commit -m \"Finish {}\"",
            feature.name(),
            feature.name()
        ),
        to_commit,
    })
}
