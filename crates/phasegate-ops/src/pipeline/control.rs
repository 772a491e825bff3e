//! The pipeline's exceptional paths (seed 001, "When Pipeline Pauses",
//! phase-aware recovery) and its ownership: pause, resume, fail, recover,
//! cancel (the seed's /cancel-loop), claim, reset.

use phasegate_core::pipeline::files::{FINAL_GATE_SESSION_MARKER, FileKind, ORCHESTRATOR_LOCK, STATE_FILE};
use phasegate_core::pipeline::next::Action;
use phasegate_core::pipeline::run::{Owner, Step};
use phasegate_core::pipeline::{PauseReason, PipelineRun, Stage, State};
use phasegate_core::session::SessionId;
use phasegate_store::pipeline::PidLock;
use phasegate_store::{Feature, FeatureGuard};
use serde::Serialize;

use super::{action, load_loop, loop_file, resolve, with_run};
use crate::env::Env;
use crate::error::{OpError, OpResult};

/// The run after a change, and its next action.
#[derive(Debug, Clone, Serialize)]
pub struct Changed {
    pub feature: String,
    pub state: State,
    pub next: Action,
}

fn changed(feature: &Feature, run: &PipelineRun) -> Changed {
    Changed { feature: feature.name().to_owned(), state: run.state, next: action(run, feature) }
}

/// Pauses the pipeline for the user (needs_user_input).
pub fn pause(env: &Env, given: Option<&str>, reason: PauseReason, message: &str) -> OpResult<Changed> {
    let (_, feature) = resolve(env, given)?;
    let run = with_run(env, &feature, |run, _| {
        run.pause(reason, message.to_owned(), env.now)?;
        Ok(run.clone())
    })?;
    Ok(changed(&feature, &run))
}

/// Makes the loop hold the run's owner again (after resume, recover or
/// claim into implementing_loop). `fresh_budget` restarts the iteration count.
fn reactivate_loop(guard: &FeatureGuard<'_>, run: &PipelineRun, env: &Env, fresh_budget: bool) -> OpResult<()> {
    if run.state != State::ImplementingLoop {
        return Ok(());
    }
    let Some(mut l) = load_loop(guard.feature())? else { return Ok(()) };
    l.reactivate(run.owner.as_ref().map(|o| o.session_id.clone()), env.now, fresh_budget);
    guard.write_task(loop_file(), &l)?;
    Ok(())
}

/// After the user answered: back to the state that paused. After a review
/// loop limit the gate's count starts again; after the implementation loop's
/// limit, its iterations do.
pub fn resume(env: &Env, given: Option<&str>) -> OpResult<Changed> {
    let (project, feature) = resolve(env, given)?;
    let run = with_run(env, &feature, |run, guard| {
        let reason = run.paused.as_ref().map(|p| p.reason);
        run.resume(env.now)?;
        reactivate_loop(guard, run, env, reason == Some(PauseReason::LoopLimit))?;
        Ok(run.clone())
    })?;
    if let Some(id) = run.owner.as_ref().and_then(|o| SessionId::parse(&o.session_id).ok()) {
        project.register_session(&id, &feature, env.now)?;
    }
    Ok(changed(&feature, &run))
}

/// Records an unrecoverable error (state error); `recover` retries the phase.
pub fn fail(env: &Env, given: Option<&str>, message: &str) -> OpResult<Changed> {
    let (_, feature) = resolve(env, given)?;
    let run = with_run(env, &feature, |run, _| {
        run.fail(message.to_owned(), env.now)?;
        Ok(run.clone())
    })?;
    Ok(changed(&feature, &run))
}

/// Phase-aware recovery: back to the state that failed; its review round
/// restarts from the first reviewer.
pub fn recover(env: &Env, given: Option<&str>) -> OpResult<Changed> {
    let (_, feature) = resolve(env, given)?;
    let run = with_run(env, &feature, |run, guard| {
        run.recover(env.now)?;
        reactivate_loop(guard, run, env, false)?;
        Ok(run.clone())
    })?;
    Ok(changed(&feature, &run))
}

/// What `cancel` did.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Cancelled {
    pub feature: String,
    pub loop_cancelled: bool,
    pub state: State,
    pub message: String,
    pub next: Action,
}

/// Cancels the implementation loop: the Stop hook stops holding the session
/// at once, and a working pipeline pauses (needs_user_input, cancelled).
pub fn cancel(env: &Env, given: Option<&str>) -> OpResult<Cancelled> {
    let (project, feature) = resolve(env, given)?;
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
        project.unregister_session(&id)?;
    }
    // Regression: cancelling a completed run said "the pipeline is paused".
    let message = match (had_loop, paused) {
        (true, true) => {
            "The implementation loop is cancelled and the pipeline paused; this session can stop.".to_owned()
        }
        (false, true) => "No loop was active; the pipeline is paused (resume it with /phasegate:pipeline).".to_owned(),
        (true, false) | (false, false) => {
            format!("Nothing to cancel: the pipeline is {} and holds no session.", run.state)
        }
    };
    Ok(Cancelled {
        feature: feature.name().to_owned(),
        loop_cancelled: had_loop,
        state: run.state,
        message,
        next: action(&run, &feature),
    })
}

/// What `claim` did.
#[derive(Debug, Clone, Serialize)]
pub struct Claimed {
    pub feature: String,
    pub owner: String,
    pub state: State,
    pub next: Action,
}

/// Makes this Claude Code session the pipeline's owner (after /clear, a
/// restart, or in a new session): its Stop hook now enforces the loop, and
/// no other session's does. A loop that expired picks up again. The id is
/// checked before anything changes.
pub fn claim(env: &Env, given: Option<&str>, session: Option<&str>) -> OpResult<Claimed> {
    let session = env.session(session)?.ok_or_else(|| {
        OpError::Invalid("no session id: run this inside Claude Code (CLAUDE_CODE_SESSION_ID) or pass --session".into())
    })?;
    let (project, feature) = resolve(env, given)?;
    let (run, previous) = with_run(env, &feature, |run, guard| {
        let previous = run
            .owner
            .replace(Owner { session_id: session.as_str().to_owned(), claimed_at: env.now })
            .map(|o| o.session_id);
        if run.paused.as_ref().is_some_and(|p| p.reason == PauseReason::Stale) {
            run.resume(env.now)?;
        }
        reactivate_loop(guard, run, env, false)?;
        Ok((run.clone(), previous))
    })?;
    if let Some(old) = previous.filter(|o| o != session.as_str()).and_then(|o| SessionId::parse(&o).ok()) {
        project.unregister_session(&old)?;
    }
    project.register_session(&session, &feature, env.now)?;
    Ok(Claimed {
        feature: feature.name().to_owned(),
        owner: session.to_string(),
        state: run.state,
        next: action(&run, &feature),
    })
}

/// What `reset` did.
#[derive(Debug, Clone, Serialize)]
pub struct Reset {
    pub feature: String,
    pub state: State,
    pub note: Option<String>,
    pub next: Action,
}

/// Back to idle: the run's gates, pause and failure, the loop, the reviews
/// and the worker signal are cleared (the request, the approved requirements
/// and the plan stay). Guarded by `.task/.orchestrator.lock`. A missing
/// state.json starts a fresh run; an unreadable one is refused, never
/// overwritten.
pub fn reset(env: &Env, given: Option<&str>) -> OpResult<Reset> {
    let (project, feature) = resolve(env, given)?;
    let now = env.now;
    let lock_path = feature.task_path(ORCHESTRATOR_LOCK);
    phasegate_store::fs::confine(feature.root(), &lock_path)?;
    let (_pid_lock, note) = PidLock::acquire(&lock_path, "reset", now)?;
    let guard = feature.lock(env.lock_timeout)?;
    let run = match feature.read_owned_task::<PipelineRun>()? {
        Some(mut run) => {
            run.reset(now);
            run
        }
        None => {
            let owner = env.session(None).ok().flatten().map(|s| s.as_str().to_owned());
            let mut run = PipelineRun::new(String::new(), owner, now);
            run.history.push(Step {
                from: State::Idle,
                to: State::Idle,
                at: now,
                note: Some("reset: new state".into()),
            });
            run
        }
    };
    let mut changes = Vec::new();
    let removed = [
        loop_file(),
        FINAL_GATE_SESSION_MARKER,
        FileKind::WorkerSignal.task_file().expect("task file"),
        FileKind::ImplResult.task_file().expect("task file"),
    ];
    for file in removed.into_iter().chain(Stage::ALL.map(Stage::file)) {
        changes.push(phasegate_store::Change::remove(feature.task_path(file)));
    }
    changes.push(guard.task_change(STATE_FILE, &run));
    guard.commit("pipeline reset", changes)?;
    drop(guard);
    if let Some(id) = run.owner.as_ref().and_then(|o| SessionId::parse(&o.session_id).ok()) {
        project.unregister_session(&id)?;
    }
    Ok(Reset { feature: feature.name().to_owned(), state: run.state, note, next: action(&run, &feature) })
}
