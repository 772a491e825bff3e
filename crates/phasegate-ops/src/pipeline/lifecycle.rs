//! Starting a pipeline and moving it along its state machine.

use phasegate_core::Mode;
use phasegate_core::feature::Workflow;
use phasegate_core::pipeline::Requirement;
use phasegate_core::pipeline::files::{FileKind, STATE_FILE, TASK_DIR};
use phasegate_core::pipeline::next::{NextAction as Action, Unclaimed};
use phasegate_core::pipeline::{LoopState, PipelineRun, State};
use phasegate_store::git;
use serde::Serialize;
use serde_json::Value;

use super::{action, commit_completion, find, load_loop, loop_file, plan, run_tests};
use crate::coordination::effects::Effects;
use crate::env::Env;
use crate::error::{Invalid, OpResult};
use crate::feature::lifecycle;
use crate::session;

/// A started pipeline.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Started {
    pub feature: String,
    pub dir: String,
    pub task_dir: String,
    pub state: State,
    pub owner: Option<String>,
    #[serde(serialize_with = "phasegate_core::words::as_words_opt")]
    pub warning: Option<Unclaimed>,
    pub next: Action,
}

/// Creates the pipeline feature, owned by this session, in requirements_gathering.
pub fn start(
    env: &Env,
    words: &str,
    request: &str,
    mode: Mode,
    worktree: bool,
    session: Option<&str>,
) -> OpResult<Started> {
    if request.trim().is_empty() {
        return Err(Invalid::EmptyRequest.into());
    }
    // Checked before anything is created on its behalf.
    let session = env.session(session)?;
    let created = lifecycle::create(env, words, mode, Workflow::Pipeline, worktree)?;
    let project = session::project(env)?;
    let feature = created.feature;
    project.exclude_from_git(&format!("{TASK_DIR}/"))?;
    let mut run = PipelineRun::new(request.to_owned(), session.as_ref().map(|s| s.as_str().to_owned()), env.now);
    run.transition(State::RequirementsGathering, env.now, Some("pipeline started".into()), |_| Ok(()))?;
    feature.lock(env.lock_timeout)?.write_task(STATE_FILE, &run)?;
    let warning = match &session {
        Some(s) => {
            project.coordination().register_session(s, &feature, env.now)?;
            None
        }
        None => Some(Unclaimed { feature: feature.name().to_owned() }),
    };
    Ok(Started {
        feature: feature.name().to_owned(),
        dir: feature.dir().display().to_string(),
        task_dir: feature.task_dir().display().to_string(),
        state: run.state,
        owner: session.map(|s| s.as_str().to_owned()),
        warning,
        next: action(&project, &run, &feature),
    })
}

/// The run after a change, and its next action.
#[derive(Debug, Clone, Serialize)]
pub struct Moved {
    pub feature: String,
    pub state: State,
    pub next: Action,
}

/// Moves the pipeline forward. Illegal transitions are refused with the
/// legal ones; a transition whose requirement is not met (a missing or
/// invalid file, an unpassed review gate, failing tests) is refused with what
/// is missing. Entering `implementing` records the commit the code is at;
/// entering `implementing_loop` starts the loop; `complete` closes the
/// feature in the same commit as the run.
pub fn transition(env: &Env, given: Option<&str>, to: State, note: Option<&str>) -> OpResult<Moved> {
    match to {
        State::NeedsUserInput => {
            return Err(Invalid::PauseInstead.into());
        }
        State::Error => {
            return Err(Invalid::FailInstead.into());
        }
        State::Idle
        | State::RequirementsGathering
        | State::PlanDrafting
        | State::PlanRefining
        | State::PlanReviewing
        | State::Implementing
        | State::ImplementingLoop
        | State::Complete => {}
    }
    let (project, feature) = find(env, given)?;
    let config = project.pipeline().config()?;
    let now = env.now;
    let guard = feature.lock(env.lock_timeout)?;
    let mut run = super::load_run(&feature)?;
    let mut effects = Effects::of("pipeline transition");
    let check = |req: Requirement| -> Result<(), String> {
        match req {
            Requirement::UserStory => {
                present(&feature, FileKind::UserStory, "the requirements-gatherer writes it once the user approves")
            }
            Requirement::Plan => present(&feature, FileKind::PlanRefined, "the planner writes it")
                .and_then(|()| super::files::plan_proves_story(&feature)),
            Requirement::TestsPass => match run_tests(&project, &feature, &config, env) {
                Ok((outcome, _)) => outcome.problem().map_or(Ok(()), Err),
                Err(e) => Err(e.to_string()),
            },
        }
    };
    run.transition(to, now, note.map(str::to_owned), check)?;
    match run.state {
        State::Implementing => {
            run.code_base = git::head_commit(&project.code_dir(&feature.load()?))?;
            guard.write_task(STATE_FILE, &run)?;
        }
        State::ImplementingLoop => {
            let plan = plan(&feature)?;
            let max = plan
                .implementation
                .as_ref()
                .and_then(|i| i.max_iterations)
                .unwrap_or(config.ralph_loop.default_max_iterations);
            let promise =
                plan.completion_promise.clone().unwrap_or_else(|| config.ralph_loop.completion_promise.clone());
            let session = run.owner.as_ref().map(|o| o.session_id.clone());
            let loop_state = LoopState::new(max, promise, session, now);
            guard.commit(
                "enter implementing_loop",
                vec![guard.task_change(loop_file(), &loop_state), guard.task_change(STATE_FILE, &run)],
            )?;
        }
        State::Complete => {
            let mut loop_state = load_loop(&feature)?;
            effects = commit_completion(&project, &guard, &run, loop_state.as_mut(), now)?;
        }
        State::Idle
        | State::RequirementsGathering
        | State::PlanDrafting
        | State::PlanRefining
        | State::PlanReviewing
        | State::Error
        | State::NeedsUserInput => guard.write_task(STATE_FILE, &run)?,
    }
    drop(guard);
    effects.apply_to_log(&project, env);
    Effects::of("pipeline transition").turn_to(feature.name()).apply_to_log(&project, env);
    Ok(Moved { feature: feature.name().to_owned(), state: run.state, next: action(&project, &run, &feature) })
}

fn present(feature: &phasegate_store::Feature, kind: FileKind, who: &str) -> Result<(), String> {
    let file = kind.task_file().expect("task file");
    match feature.read_task::<Value>(kind, file) {
        Ok(Some(_)) => Ok(()),
        Ok(None) => Err(format!("{} is missing ({who})", feature.task_path(file).display())),
        Err(e) => Err(e.to_string()),
    }
}
