//! Build decisions for an orchestrated implement (seed 004 §5.3): a failed
//! task's error classified from its validation output and the seed's rule
//! applied (retry, install and retry, rebase and retry, skip, escalate), a
//! rollback to the task's checkpoint that keeps the user's earlier
//! uncommitted work, and the build's stop conditions.
//!
//! What a rollback touches (`tasks fail --rollback`): a task that declares
//! its files (`Files:` in tasks.md) gets exactly those put back as they were
//! at its checkpoint, or removed when they did not exist then; a task that
//! declares none has no file that is provably its, so only files the
//! checkpoint has are put back, and no file made since is ever removed: it
//! is kept and listed (`kept`), for the user to remove if it is the task's.
//! Every file overwritten or removed is saved first, and the output names
//! the folder (`savedIn`, and in `message`).

use phasegate_core::coordination::Claimed;
use phasegate_core::coordination::TeamSaid;
use phasegate_core::questions::{ItemType, Request};
use phasegate_core::tasks::{self as build, BuildAction as Action, ErrorType, FailedNext, FailureDecision};
use phasegate_core::tasks::{Mark, RetroOffer, SessionCycles, Task};
use phasegate_store::git::RollbackScope;
use phasegate_store::{FeatureGuard, Project};
use serde::Serialize;

use super::marks::{elapsed, limit, read, tick};
use crate::coordination::effects::Effects;
use crate::coordination::team;
use crate::env::Env;
use crate::error::{InvalidInput, OpResult, Refusal};
use crate::feature::review;
use crate::questions::ask::{self, AskInput, Asked, Interaction};
use crate::session;

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Failed {
    pub feature: String,
    pub task: String,
    /// How often the task was started.
    pub attempts: u32,
    pub error: ErrorType,
    pub decision: FailureDecision,
    /// The task's checkbox now: `failed`, or `skipped` when the rule skips it.
    pub mark: Mark,
    /// Files put back as they were when the task started (`--rollback`).
    pub rolled_back: Vec<String>,
    /// Changed files that are not provably the task's (not declared by it;
    /// for a task that declares none, files made since its checkpoint),
    /// left as they are.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub kept: Vec<String>,
    /// Where the files the rollback overwrote or removed were saved first.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub saved_in: Option<String>,
    /// The build stops (seed 004's `should_continue`), and why.
    pub stop: Option<String>,
    /// For `ESCALATE`: the question and where it went.
    pub escalation: Option<Asked>,
    #[serde(serialize_with = "phasegate_core::words::as_words")]
    pub message: FailedNext,
    /// The team's remote: said when the claim was given back here only.
    #[serde(skip_serializing_if = "Option::is_none", serialize_with = "phasegate_core::words::as_words_opt")]
    pub team: Option<TeamSaid>,
    /// What of the step's effects could not be done (also in the problems
    /// log `status` reports); the task failed all the same.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub problems: Vec<String>,
    /// Seed 004's `task.failed` event: the retrospective it offers (an
    /// immediate gotcha extraction for this one failure).
    #[serde(serialize_with = "phasegate_core::words::as_words")]
    pub retro: RetroOffer,
}

/// Marks the task in progress failed and decides what follows.
pub fn fail(
    env: &Env,
    given: Option<&str>,
    id: &str,
    output: Option<&str>,
    command: Option<&str>,
    rollback: bool,
    session: Interaction,
) -> OpResult<Failed> {
    let (project, feature) = session::find(env, given)?;
    let guard = feature.lock(env.lock_timeout)?;
    let (mut list, file) = read(guard.feature())?;
    let task = super::marks::task(&list, &file, id)?.clone();
    if task.mark != Mark::InProgress {
        return Err(Refusal::NotInProgress { task: task.id.clone(), mark: task.mark }.into());
    }
    let mut cycles = guard.feature().read_review_cycles()?;
    let s = cycles.sessions.entry(feature.name().to_owned()).or_default();
    let attempts = s.build.attempts.get(&task.id).copied().unwrap_or(1);
    let output = output.unwrap_or("");
    let error = build::classify_run(command, output);
    let decision = build::decide_failure(&error, attempts, output);
    note_failure(s, &task.id, &error, output, env);
    let restored = match rollback {
        true => roll_back(env, &project, &guard, &task, s)?,
        false => phasegate_store::git::Restored::default(),
    };
    let mark = if decision.action == Action::Skip { Mark::Skipped } else { Mark::Failed };
    let changes =
        vec![tick(guard.feature(), &file, &task, mark)?, guard.feature().review_cycles_change(&cycles, env.now)];
    guard.commit(&format!("tasks fail {}", task.id), changes)?;
    drop(guard);
    let team = team::release(&project, env, feature.name(), Claimed::Task(&task.id))?;
    let effects = Effects::of("tasks fail").turn_to(feature.name()).task_failed(feature.name(), &task.id, &decision);
    let problems = effects.apply(&project, env);
    if let Some(t) = list.tasks.iter_mut().find(|t| t.id == task.id) {
        t.mark = mark;
    }
    let s = cycles.sessions.get(feature.name()).cloned().unwrap_or_default();
    let stop =
        build::should_continue(&list.tasks, elapsed(&s.build, env), limit(&project)?, s.build.stop_requested).err();
    let escalation = match (&decision.action, &stop) {
        (Action::Escalate, None) => {
            Some(escalate(env, feature.name(), &task.id, &task.title, &decision.reason, session)?)
        }
        _ => None,
    };
    let message = FailedNext {
        feature: feature.name().to_owned(),
        task: task.id.clone(),
        decision: decision.clone(),
        stop: stop.clone(),
        implementer: s.build.implementers.get(&task.id).cloned(),
        saved_in: restored.saved_in.clone(),
        kept: restored.kept.clone(),
        undeclared: task.files.is_empty(),
    };
    let retro = RetroOffer { feature: feature.name().to_owned(), task: task.id.clone() };
    Ok(Failed {
        team,
        problems,
        retro,
        feature: feature.name().to_owned(),
        task: task.id,
        attempts,
        error,
        decision,
        mark,
        rolled_back: restored.restored,
        kept: restored.kept,
        saved_in: restored.saved_in,
        stop,
        escalation,
        message,
    })
}

/// Keeps the failure in the task's record (its class, when, an excerpt of
/// the output), for the retrospective.
fn note_failure(s: &mut SessionCycles, task: &str, error: &ErrorType, output: &str, env: &Env) {
    let error_type = serde_json::to_value(error).ok().and_then(|v| v["type"].as_str().map(str::to_owned));
    s.build.failures.entry(task.to_owned()).or_default().push(phasegate_core::tasks::TaskFailureRecord {
        error_type: error_type.unwrap_or_else(|| "OTHER".to_owned()),
        at: env.now,
        excerpt: phasegate_core::knowledge::excerpt(output),
    });
}

/// Puts back the task's checkpoint (what `tasks start` saw), saving what
/// it overwrites under the runtime folder.
fn roll_back(
    env: &Env,
    project: &Project,
    guard: &FeatureGuard<'_>,
    task: &Task,
    s: &SessionCycles,
) -> OpResult<phasegate_store::git::Restored> {
    let (Some(base), Some(snapshot)) = (s.bases.get(&task.id), s.build.snapshots.get(&task.id)) else {
        return Err(Refusal::NoCheckpoint { task: task.id.clone() }.into());
    };
    let dir = project.code_dir(&guard.load()?);
    let scope = match task.files.is_empty() {
        true => RollbackScope::Undeclared,
        false => RollbackScope::Declared(task.files.as_slice()),
    };
    let stamp = env.now.format("%Y%m%dT%H%M%S%.3fZ");
    let backup =
        project.runtime_dir().join("rollback").join(guard.feature().name()).join(format!("{}-{stamp}", task.id));
    Ok(phasegate_store::git::restore(&dir, snapshot, base, &review::own_files(project, &dir), scope, &backup)?)
}

fn escalate(env: &Env, feature: &str, id: &str, title: &str, reason: &str, session: Interaction) -> OpResult<Asked> {
    let request = Request::parse(
        &serde_json::json!({
            "type": "blocking",
            "text": format!("Task {id} ({title}) failed: {reason}. How should the build go on?"),
            "options": [
                {"label": "Retry", "description": format!("start {id} again")},
                {"label": "Skip", "description": format!("skip {id} and go on")},
                {"label": "Abort", "description": "stop the build"}
            ],
            "allowFreeText": true
        })
        .to_string(),
    )
    .invalid_input()?;
    ask::ask(
        env,
        Some(feature),
        AskInput { request, task: Some(id.to_owned()), item_type: ItemType::Feature, session, round: None },
    )
}

/// Asks the build to stop (seed 004's stop signal), or clears the request.
pub fn stop(env: &Env, given: Option<&str>, clear: bool) -> OpResult<bool> {
    let (project, feature) = session::find(env, given)?;
    let guard = feature.lock(env.lock_timeout)?;
    let mut cycles = guard.feature().read_review_cycles()?;
    let build = &mut cycles.sessions.entry(feature.name().to_owned()).or_default().build;
    build.stop_requested = !clear;
    // Clearing the stop begins a new build: its time limit counts again
    // from its first task (a build resumed the next day may go on).
    if clear {
        build.started_at = None;
    }
    guard.commit("tasks stop", vec![guard.feature().review_cycles_change(&cycles, env.now)])?;
    Effects::of("tasks stop").turn_to(feature.name()).apply_to_log(&project, env);
    Ok(!clear)
}
