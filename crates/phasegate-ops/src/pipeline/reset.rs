//! `reset`: back to idle, under the seed's PID lock.

use phasegate_core::pipeline::Step;
use phasegate_core::pipeline::files::{FINAL_GATE_SESSION_MARKER, FileKind, ORCHESTRATOR_LOCK, STATE_FILE};
use phasegate_core::pipeline::next::NextAction as Action;
use phasegate_core::pipeline::{PipelineRun, Stage, State};
use phasegate_core::session::SessionId;
use phasegate_store::pipeline::StaleRemoved;
use serde::Serialize;

use super::{action, find, loop_file};
use crate::coordination::effects::Effects;
use crate::env::Env;
use crate::error::OpResult;

/// What `reset` did.
#[derive(Debug, Clone, Serialize)]
pub struct Reset {
    pub feature: String,
    pub state: State,
    #[serde(serialize_with = "phasegate_core::words::as_words_opt")]
    pub note: Option<StaleRemoved>,
    pub next: Action,
}

/// Back to idle: the run's gates, pause and failure, the loop, the reviews
/// and the worker signal are cleared (the request, the approved requirements
/// and the plan stay). Guarded by `.task/.orchestrator.lock`. A missing
/// state.json starts a fresh run; an unreadable one is refused, never
/// overwritten.
pub fn reset(env: &Env, given: Option<&str>) -> OpResult<Reset> {
    let (project, feature) = find(env, given)?;
    let now = env.now;
    let (_pid_lock, note) = feature.pid_lock(ORCHESTRATOR_LOCK, "reset", now)?;
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
        changes.push(phasegate_store::FileWrite::remove(feature.task_path(file)));
    }
    changes.push(guard.task_change(STATE_FILE, &run));
    guard.commit("pipeline reset", changes)?;
    drop(guard);
    if let Some(id) = run.owner.as_ref().and_then(|o| SessionId::parse(&o.session_id).ok()) {
        project.coordination().unregister_session(&id)?;
    }
    Effects::of("pipeline reset").turn_to(feature.name()).apply_to_log(&project, env);
    Ok(Reset { feature: feature.name().to_owned(), state: run.state, note, next: action(&project, &run, &feature) })
}
