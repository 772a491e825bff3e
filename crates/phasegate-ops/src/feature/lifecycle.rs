//! Features: create (from a slug or from the user's words), show, abandon,
//! finish.

use phasegate_core::coordination::TeamSaid;
use phasegate_core::feature::{FinishedNext, Meta, RuleSaid, Workflow, validate_meta};
use phasegate_core::{Mode, Phase, slug};
use phasegate_store::creation::{Interrupted, NewFeature};
use phasegate_store::{Feature, FileWrite, Project};
use serde::Serialize;

use crate::coordination::effects::Effects;
use crate::coordination::team;
use crate::env::Env;
use crate::error::{Invalid, OpResult, Refusal};
use crate::proof::{self, Proof};
use crate::questions::ask;
use crate::session;

/// A new feature.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Created {
    pub name: String,
    pub dir: String,
    pub worktree_path: Option<String>,
    pub meta: Meta,
    /// An earlier `feature new` that was killed half-way: what of it was
    /// taken back, and what holds the user's work and was kept.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub interrupted: Option<Interrupted>,
    /// Said when the team's remote could not reserve the number.
    #[serde(skip_serializing_if = "Option::is_none", serialize_with = "phasegate_core::words::as_words_opt")]
    pub team: Option<TeamSaid>,
    /// What of the step's effects could not be done (also in the problems
    /// log `status` reports); the feature was created all the same.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub problems: Vec<String>,
    #[serde(skip)]
    pub feature: Feature,
}

impl Created {
    /// The lines that tell the user about [`Self::interrupted`].
    pub fn notes(&self) -> Vec<String> {
        let mut out: Vec<String> =
            self.team.iter().map(ToString::to_string).chain(self.problems.iter().cloned()).collect();
        let Some(i) = &self.interrupted else { return out };
        match i.undone.is_empty() {
            true if i.kept.is_empty() => {
                out.push(format!("an interrupted `feature new` of {} had made nothing yet", i.name))
            }
            true => {}
            false => out.push(format!(
                "an interrupted `feature new` of {} was taken back: {} removed",
                i.name,
                i.undone.join(", ")
            )),
        }
        if !i.kept.is_empty() {
            out.push(format!(
                "kept from the interrupted `feature new` of {}: {}; {}",
                i.name,
                i.kept.join("; "),
                i.advice
            ));
        }
        out
    }
}

/// Creates a feature. `words` is a slug, or a description the slug is made
/// from (`"add search"` → `add-search`).
pub fn create(env: &Env, words: &str, mode: Mode, workflow: Workflow, worktree: bool) -> OpResult<Created> {
    let slug = slug::from_words(words).ok_or_else(|| Invalid::NoFeatureName { words: words.trim().to_owned() })?;
    let project = session::project(env)?;
    let mut numbers = team::reserver(&project, env, &slug);
    let new = NewFeature { slug: &slug, mode, workflow, worktree };
    let created = project.create_feature(new, env.now, env.lock_timeout, &mut |n| numbers.reserve(n))?;
    project.exclude_scratch()?;
    let (feature, meta) = (created.feature, created.meta);
    // The session works on what it made (`feature new`, `phase start
    // --new`, `pipeline start`): its requests from now on are the new
    // feature's, not the one it was on before (or no feature's).
    let problems = Effects::of("feature new").turn_to(feature.name()).apply(&project, env);
    Ok(Created {
        name: feature.name().to_owned(),
        dir: feature.dir().display().to_string(),
        worktree_path: project.worktree_path(&meta).map(|p| p.display().to_string()),
        meta,
        interrupted: created.interrupted,
        team: numbers.note,
        problems,
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
    let (project, feature) = session::find(env, given)?;
    let meta = feature.load()?;
    Effects::of("feature show").turn_to(feature.name()).apply_to_log(&project, env);
    Ok(Shown {
        name: feature.name().to_owned(),
        dir: feature.dir().display().to_string(),
        worktree_path: project.worktree_path(&meta).map(|p| p.display().to_string()),
        artifacts: feature.artifacts().iter().map(|a| a.file_name()).collect(),
        meta,
    })
}

pub fn abandon(env: &Env, given: Option<&str>) -> OpResult<String> {
    let (project, feature) = session::find(env, given)?;
    let guard = feature.lock(env.lock_timeout)?;
    let mut meta = guard.load()?;
    meta.abandon(env.now)?;
    // Its open questions are withdrawn with it, in the same change.
    let withdrawn = ask::withdraw_open(&project, &guard, env)?;
    guard.commit_with_meta("feature abandon", &meta, withdrawn)?;
    drop(guard);
    Effects::of("feature abandon")
        .turn_to(feature.name())
        .feature_ended(feature.name(), true)
        .apply_to_log(&project, env);
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
    #[serde(serialize_with = "phasegate_core::words::as_words_opt")]
    pub warning: Option<RuleSaid>,
    pub phases: serde_json::Map<String, serde_json::Value>,
    /// The files `finish` changed, relative to the project root: commit them.
    pub to_commit: Vec<String>,
    /// What proves the feature done: its ledger at the tree as it is.
    pub proof: Proof,
    /// A pull request's description: the feature, what proves each
    /// requirement, and any waiver a person gave.
    pub pr_body: String,
    #[serde(serialize_with = "phasegate_core::words::as_words")]
    pub message: FinishedNext,
    /// What of the step's effects could not be done (also in the problems
    /// log `status` reports); the feature is finished all the same.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub problems: Vec<String>,
}

/// Ends a feature: status completed, `.review-history.md` and the scratch
/// verdict removed, the review summary kept in `.meta.json`; the state file
/// and the history change together or not at all.
pub fn finish(env: &Env, given: Option<&str>) -> OpResult<Finished> {
    let (project, feature) = session::find(env, given)?;
    let guard = feature.lock(env.lock_timeout)?;
    let mut meta = guard.load()?;
    let warning = validate_meta(&meta, feature.name(), Phase::Finish, feature.artifacts())
        .warning_or_block()
        .map_err(|message| Refusal::TransitionBlocked { phase: Phase::Finish, message })?;
    let proof = proven_now(env, &project, &feature, &meta)?;
    meta.finish(env.now)?;
    let (had_history, had_verdict) = (feature.has_history(), feature.has_verdict());
    let mut others = Vec::new();
    if had_history {
        others.push(FileWrite::remove(feature.history_path()));
    }
    // The phase loop's scratch files (a reviewer's reply, a brief, a round
    // loop's reply) go with the feature; its open questions are withdrawn.
    for path in feature.scratch_files()? {
        others.push(FileWrite::remove(&path));
    }
    others.extend(ask::withdraw_open(&project, &guard, env)?);
    guard.commit_with_meta("finish", &meta, others)?;
    drop(guard);
    let problems =
        Effects::of("finish").turn_to(feature.name()).feature_ended(feature.name(), false).apply(&project, env);
    // What to commit: the feature's folder (its artifacts and state); the
    // session commits it (the phase loop's commit policy).
    let to_commit = vec![feature.shown_dir().display().to_string()];
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
    Ok(Finished {
        feature: feature.name().to_owned(),
        status: meta.status,
        history_deleted: had_history,
        verdict_deleted: had_verdict,
        total_iterations: meta.total_iterations(),
        warning,
        phases,
        message: FinishedNext {
            feature: feature.name().to_owned(),
            proof: proof.summary(),
            dir: feature.shown_dir().display().to_string(),
            retro_recorded: feature.has_retro(),
        },
        to_commit,
        problems,
        pr_body: proof.pr_body() + &cleared_note(&feature),
        proof,
    })
}

/// The feature's proof, when it may finish: no mark of tampering left,
/// and every requirement proven on the tree as it is (or waived).
fn proven_now(env: &Env, project: &Project, feature: &Feature, meta: &Meta) -> OpResult<Proof> {
    // A state file changed outside phasegate's commands holds the feature
    // until a person has looked (and cleared the mark).
    let marks = crate::proof::tamper::marks(feature, env.now, "before `finish`")?;
    if let Some(summary) = crate::proof::tamper::summary(feature.name(), &marks) {
        return Err(Refusal::Tampered { feature: feature.name().to_owned(), summary }.into());
    }
    // Done means proven: every requirement by a check that passed on the
    // tree as it is now (or waived by a person), as the mode requires.
    let proof = proof::proof(env, project, feature, meta)?;
    if let Some(j) = proof.judgement.as_ref().filter(|j| j.only_stale()) {
        let (stale, total) = (j.stale_ids().len(), j.total);
        return Err(Refusal::ProofStale { feature: feature.name().to_owned(), stale, total }.into());
    }
    if !proof.proven() {
        return Err(Refusal::NotProven {
            feature: feature.name().to_owned(),
            summary: proof.summary(),
            open: proof.blocking(),
        }
        .into());
    }
    Ok(proof)
}

/// What the pull request says of marks of tampering a person cleared:
/// nothing when there were none.
fn cleared_note(feature: &phasegate_store::Feature) -> String {
    let cleared = feature.cleared_marks().unwrap_or_default();
    if cleared.is_empty() {
        return String::new();
    }
    let mut out =
        String::from("\n**State files changed outside phasegate's commands** (looked at and cleared by a person):\n");
    for c in &cleared {
        for m in &c.marks {
            out.push_str(&format!(
                "- `{}` {} ({}), cleared by {} at {}\n",
                m.file,
                m.how,
                m.seen,
                c.by,
                phasegate_core::time::stamp(c.at)
            ));
        }
    }
    out
}
