//! Stop, for the pipeline: while a pipeline owned by *this* session is in its implementation
//! loop, keep the session working until the code gate passed (for the code
//! as it is now), the plan's tests pass and the last message carries the
//! completion promise; or until the loop's limit, its expiry, or Claude
//! Code's cap on consecutive blocks. A stop made while the session waits for
//! its own background worker is let through and not counted. A session that
//! owns no loop is never blocked: the lookup is one small file named after
//! the session id, and its absence ends the hook.

use std::cell::RefCell;
use std::time::Duration;

use chrono::{DateTime, Utc};
use phasegate_core::pipeline::files::STATE_FILE;
use phasegate_core::pipeline::impl_loop::{self, StopContext, StopDecision};
use phasegate_core::pipeline::{GateKind, LoopState, PipelineRun, TestOutcome};
use phasegate_core::session::SessionId;
use phasegate_core::words::Command;
use phasegate_store::{Feature, FeatureGuard, Project};

use crate::coordination::effects::Effects;
use crate::env::Env;
use crate::error::OpResult;
use crate::hook::{Contributor, HookCtx, HookInput, StopOutcome, StopVote, one_line};
use crate::pipeline::{commit_completion, load_loop, load_run, loop_file, run_tests, version};

/// How long the hook waits for a writer of the same feature.
const LOCK_WAIT: Duration = Duration::from_secs(5);

/// The pipeline loop's contributor to Stop.
pub struct Loop;

pub static LOOP: Loop = Loop;

impl Contributor for Loop {
    fn stop(&self, ctx: &HookCtx<'_>) -> StopVote {
        // An id phasegate would refuse to record owns no loop.
        let (Ok(project), Some(session)) = (ctx.project(), ctx.session()) else { return StopVote::Pass };
        match loop_outcome(project, &session, ctx.input, ctx.env) {
            StopOutcome::Silent => StopVote::Pass,
            StopOutcome::Allow { message } => StopVote::Note(message),
            StopOutcome::Block { reason } => StopVote::Block(reason),
        }
    }
}

/// The decision on this session's pipeline loop, if it owns one.
fn loop_outcome(project: &Project, session: &SessionId, input: &HookInput, env: &Env) -> StopOutcome {
    let feature = match project.coordination().session_feature(session) {
        Ok(Some(f)) => f,
        Ok(None) => return StopOutcome::Silent,
        Err(e) => {
            return StopOutcome::Allow {
                message: format!("phasegate: {}; the stop is allowed.", one_line(&e.to_string())),
            };
        }
    };
    match decide_and_apply(project, &feature, session, input, env) {
        Ok(out) => out,
        Err(why) => StopOutcome::Allow {
            message: format!(
                "phasegate: cannot check the loop of {}: {}; the stop is allowed. Fix the file, or run /phasegate:cancel-loop.",
                feature.name(),
                one_line(&why.to_string())
            ),
        },
    }
}

fn decide_and_apply(
    project: &Project,
    feature: &Feature,
    session: &SessionId,
    input: &HookInput,
    env: &Env,
) -> OpResult<StopOutcome> {
    let config = project.pipeline().config()?;
    let run = load_run(feature)?;
    let looping = load_loop(feature)?;
    let Some(looping) = looping else {
        return Ok(if run.owned_by(session.as_str()) { StopOutcome::Silent } else { forget(project, session) });
    };
    if !run.owned_by(session.as_str()) {
        // Another session claimed the pipeline since: this record is stale.
        return Ok(forget(project, session));
    }
    if !crate::pipeline::in_loop(&run) || !looping.active {
        return Ok(StopOutcome::Silent);
    }
    if let Some(allowed) = suspended(project, feature) {
        return Ok(allowed);
    }
    let last = input.last_assistant_message.clone().unwrap_or_default();
    let now = env.now;
    let tests: RefCell<Option<TestOutcome>> = RefCell::new(None);
    let run_once = || {
        tests
            .borrow_mut()
            .get_or_insert_with(|| match run_tests(project, feature, &config, env) {
                Ok((outcome, _)) => outcome,
                Err(e) => TestOutcome::Failed { summary: e.to_string() },
            })
            .clone()
    };
    let ctx = |run, looping| StopContext {
        feature: feature.name(),
        run,
        loop_state: looping,
        config: &config.stop_hook,
        session_id: session.as_str(),
        stop_hook_active: input.stop_hook_active,
        last_message: &last,
        background: &input.background_tasks,
        now,
    };
    // A gate approves one version of the code: if the code changed since the
    // code gate passed, the gate reopens before anything is decided.
    let current = if run.code_review.passed { Some(version(project, feature, &run, GateKind::Code)?) } else { None };
    let reopens = |run: &PipelineRun| {
        current
            .as_deref()
            .is_some_and(|v| run.code_review.passed && run.code_review.approved_version.as_deref() != Some(v))
    };
    // Decide without the lock (tests may take minutes), then apply under it
    // on a fresh read; if a writer changed the files meanwhile, decide again
    // on what it wrote.
    let first = if reopens(&run) { None } else { Some(impl_loop::decide(&ctx(&run, &looping), run_once)) };
    if first == Some(StopDecision::Ignore) || first == Some(StopDecision::Wait) {
        return Ok(StopOutcome::Silent);
    }
    let guard = feature.lock(LOCK_WAIT)?;
    let mut run2 = load_run(feature)?;
    let Some(mut looping2) = load_loop(feature)? else { return Ok(StopOutcome::Silent) };
    let mut reopened = false;
    if let Some(v) = current.as_deref() {
        reopened = run2.code_review.reopen_if_changed(v);
    }
    let decision = match first {
        Some(d) if run2 == run && looping2 == looping => d,
        Some(_) | None => impl_loop::decide(&ctx(&run2, &looping2), run_once),
    };
    impl_loop::apply(&decision, &mut run2, &mut looping2, input.stop_hook_active, now);
    let effects = write_decision(project, &guard, &decision, &run2, &mut looping2, reopened, now)?;
    drop(guard);
    effects.apply_to_log(project, env);
    Ok(outcome(project, feature, session, decision, reopened))
}

/// A suspended item waits for a person: the session is never held on it.
fn suspended(project: &Project, feature: &Feature) -> Option<StopOutcome> {
    if let Ok(Some(q)) = project.questions().marker(feature.name())
        && q.answer.is_none()
    {
        return Some(StopOutcome::Allow {
            message: format!(
                "phasegate: {} is suspended until question {} is answered; the stop is allowed and the loop resumes after the answer.",
                feature.name(),
                q.id
            ),
        });
    }
    None
}

/// Writes what the decision changed, under the feature's lock `guard`;
/// returns its effects, to apply once the lock is given back.
fn write_decision(
    project: &Project,
    guard: &FeatureGuard<'_>,
    decision: &StopDecision,
    run: &PipelineRun,
    looping: &mut LoopState,
    reopened: bool,
    now: DateTime<Utc>,
) -> OpResult<Effects> {
    match decision {
        StopDecision::Ignore | StopDecision::Wait => {
            if reopened {
                guard.write_task(STATE_FILE, run)?;
            }
        }
        StopDecision::Complete { .. } => {
            return commit_completion(project, guard, run, Some(looping), now);
        }
        StopDecision::LimitReached { .. }
        | StopDecision::Expired { .. }
        | StopDecision::Yield { .. }
        | StopDecision::Block { .. } => {
            guard.commit(
                "stop hook",
                vec![guard.task_change(loop_file(), looping), guard.task_change(STATE_FILE, run)],
            )?;
        }
    }
    Ok(Effects::of("Stop hook"))
}

/// What the hook answers for the decision applied.
fn outcome(
    project: &Project,
    feature: &Feature,
    session: &SessionId,
    decision: StopDecision,
    reopened: bool,
) -> StopOutcome {
    let reopened_note = if reopened {
        "the code changed after the code review gate passed, so the gate reopened for a new round; "
    } else {
        ""
    };
    match decision {
        StopDecision::Ignore | StopDecision::Wait => StopOutcome::Silent,
        StopDecision::Block { reason } => StopOutcome::Block {
            reason: if reopened { reason.replacen(":\n", &format!(":\n- {reopened_note}\n"), 1) } else { reason },
        },
        StopDecision::Yield { message } => StopOutcome::Allow { message },
        // Nothing after this stop would commit the run's work: the session
        // is held once more to commit it (the next stop owns no loop).
        StopDecision::Complete { message } => match crate::pipeline::completion_commits(project, feature).is_empty() {
            true => StopOutcome::Allow { message },
            false => StopOutcome::Block {
                reason: format!(
                    "{message} Its work is not committed yet, and nothing after this stop would commit it: run `{pipeline_commit}` (its code, then its folder), then report the result to the user and offer /phasegate:retro {f}.",
                    f = feature.name(),
                    pipeline_commit = Command::new("pipeline commit").feature(&feature.name())
                ),
            },
        },
        StopDecision::LimitReached { message } | StopDecision::Expired { message } => {
            let _ = project.coordination().unregister_session(session);
            StopOutcome::Allow { message }
        }
    }
}

fn forget(project: &Project, session: &SessionId) -> StopOutcome {
    let _ = project.coordination().unregister_session(session);
    StopOutcome::Silent
}
