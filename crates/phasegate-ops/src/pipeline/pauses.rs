//! The pipeline's exceptional paths (seed 001, "When Pipeline Pauses",
//! phase-aware recovery): pause, resume, fail, recover, and cancel (the
//! seed's /cancel-loop).

use phasegate_core::pipeline::files::STATE_FILE;
use phasegate_core::pipeline::next::{CancelDone, NextAction as Action};
use phasegate_core::pipeline::{PauseReason, PipelineRun, State};
use phasegate_core::questions::{ItemType, Request};
use phasegate_core::session::SessionId;
use phasegate_store::{Feature, FeatureGuard, Project};
use serde::Serialize;

use super::{action, find, load_loop, loop_file, with_run};
use crate::coordination::effects::Effects;
use crate::env::Env;
use crate::error::{InvalidInput, OpResult, Refusal};
use crate::questions::ask::{self, AskInput, Asked, Interaction, Taken};

/// The run after a change, and its next action.
#[derive(Debug, Clone, Serialize)]
pub struct Changed {
    pub feature: String,
    pub state: State,
    pub next: Action,
}

fn changed(project: &Project, feature: &Feature, run: &PipelineRun) -> Changed {
    Changed { feature: feature.name().to_owned(), state: run.state, next: action(project, run, feature) }
}

/// Pauses the pipeline for the user (needs_user_input).
pub fn pause(env: &Env, given: Option<&str>, reason: PauseReason, message: &str) -> OpResult<Changed> {
    let (project, feature) = find(env, given)?;
    let run = with_run(env, &feature, |run, _| {
        run.pause(reason, message.to_owned(), env.now)?;
        Ok(run.clone())
    })?;
    Effects::of("pipeline pause").turn_to(feature.name()).apply_to_log(&project, env);
    Ok(changed(&project, &feature, &run))
}

/// Makes the loop hold the run's owner again (after resume, recover or
/// claim into implementing_loop). `fresh_budget` restarts the iteration count.
pub(super) fn reactivate_loop(
    guard: &FeatureGuard<'_>,
    run: &PipelineRun,
    env: &Env,
    fresh_budget: bool,
) -> OpResult<()> {
    if run.state != State::ImplementingLoop {
        return Ok(());
    }
    let Some(mut l) = load_loop(guard.feature())? else { return Ok(()) };
    l.reactivate(run.owner.as_ref().map(|o| o.session_id.clone()), env.now, fresh_budget);
    guard.write_task(loop_file(), &l)?;
    Ok(())
}

/// What `pipeline resume` prints: the run, and the answer it took in.
#[derive(Debug, Clone, Serialize)]
pub struct Resumed {
    #[serde(flatten)]
    pub changed: Changed,
    /// The answers to the pause's question, taken back into the work.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub answers: Vec<Taken>,
}

/// Hands a paused pipeline's decision to a person: a blocking question with
/// the pause's reason and message, routed like any question (a pipeline
/// runs unattended, so it suspends the feature; Slack when configured).
pub fn ask(env: &Env, given: Option<&str>, session: Interaction) -> OpResult<Asked> {
    let (_, feature) = find(env, given)?;
    let run = super::load_run(&feature)?;
    let Some(pause) = run.paused.as_ref().filter(|_| run.state == State::NeedsUserInput) else {
        return Err(Refusal::NotPaused { feature: feature.name().to_owned(), state: run.state }.into());
    };
    let request = Request::parse(
        &serde_json::json!({
            "type": "blocking",
            "text": format!("The pipeline of {} paused ({}): {} How should it go on?", feature.name(), pause.reason.name(), pause.message.trim_end_matches('.')),
            "context": format!("It paused in {}. Reply `resume` to go on as it is, `reset` to start over, or with instructions for the worker.", pause.from),
        })
        .to_string(),
    )
    .invalid_input()?;
    let input = AskInput {
        request,
        task: Some(format!("pipeline:{}", pause.from)),
        item_type: ItemType::Feature,
        session,
        round: None,
    };
    ask::ask(env, Some(feature.name()), input)
}

/// Back to the state that paused. After a review loop limit the gate's
/// count starts again; after the implementation loop's limit, its iterations
/// do. Refused while the pause's question waits for its answer; an arrived
/// answer is taken in (printed, and the question archived) with the resume.
pub fn resume(env: &Env, given: Option<&str>) -> OpResult<Resumed> {
    let (project, feature) = find(env, given)?;
    let guard = feature.lock(env.lock_timeout)?;
    if let Some(q) = ask::suspended_on(&project, feature.name())? {
        return Err(ask::suspended_refusal(&q));
    }
    let mut run = super::load_run(&feature)?;
    let reason = run.paused.as_ref().map(|p| p.reason);
    run.resume(env.now)?;
    let (answers, mut changes) = ask::take_answers(&project, &guard, env, None)?;
    changes.insert(0, guard.task_change(STATE_FILE, &run));
    guard.commit("pipeline resume", changes)?;
    reactivate_loop(&guard, &run, env, reason == Some(PauseReason::LoopLimit))?;
    drop(guard);
    if let Some(id) = run.owner.as_ref().and_then(|o| SessionId::parse(&o.session_id).ok()) {
        project.coordination().register_session(&id, &feature, env.now)?;
    }
    Effects::of("pipeline resume").turn_to(feature.name()).apply_to_log(&project, env);
    Ok(Resumed { changed: changed(&project, &feature, &run), answers })
}

/// Records an unrecoverable error (state error); `recover` retries the phase.
pub fn fail(env: &Env, given: Option<&str>, message: &str) -> OpResult<Changed> {
    let (project, feature) = find(env, given)?;
    let run = with_run(env, &feature, |run, _| {
        run.fail(message.to_owned(), env.now)?;
        Ok(run.clone())
    })?;
    Effects::of("pipeline fail").turn_to(feature.name()).apply_to_log(&project, env);
    Ok(changed(&project, &feature, &run))
}

/// Phase-aware recovery: back to the state that failed; its review round
/// restarts from the first reviewer.
pub fn recover(env: &Env, given: Option<&str>) -> OpResult<Changed> {
    let (project, feature) = find(env, given)?;
    let run = with_run(env, &feature, |run, guard| {
        run.recover(env.now)?;
        reactivate_loop(guard, run, env, false)?;
        Ok(run.clone())
    })?;
    Effects::of("pipeline recover").turn_to(feature.name()).apply_to_log(&project, env);
    Ok(changed(&project, &feature, &run))
}

/// What `cancel` did.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Cancelled {
    pub feature: String,
    pub loop_cancelled: bool,
    pub state: State,
    #[serde(serialize_with = "phasegate_core::words::as_words")]
    pub message: CancelDone,
    pub next: Action,
}

/// Cancels the implementation loop: the Stop hook stops holding the session
/// at once, and a working pipeline pauses (needs_user_input, cancelled).
pub fn cancel(env: &Env, given: Option<&str>) -> OpResult<Cancelled> {
    let (project, feature) = find(env, given)?;
    let now = env.now;
    let (run, had_loop, paused) = with_run(env, &feature, |run, guard| {
        let mut had_loop = false;
        if let Some(mut l) = load_loop(&feature)? {
            had_loop = l.active;
            if l.active {
                l.end("cancelled", now);
                guard.write_task(loop_file(), &l)?;
            }
        }
        let paused = run.state.is_working();
        if paused {
            run.pause(PauseReason::Cancelled, "cancelled by the user".into(), now)?;
        }
        Ok((run.clone(), had_loop, paused))
    })?;
    if let Some(id) = run.owner.as_ref().and_then(|o| SessionId::parse(&o.session_id).ok()) {
        project.coordination().unregister_session(&id)?;
    }
    let message = CancelDone { loop_cancelled: had_loop, paused, state: run.state };
    Effects::of("pipeline cancel").turn_to(feature.name()).apply_to_log(&project, env);
    Ok(Cancelled {
        feature: feature.name().to_owned(),
        loop_cancelled: had_loop,
        state: run.state,
        message,
        next: action(&project, &run, &feature),
    })
}
