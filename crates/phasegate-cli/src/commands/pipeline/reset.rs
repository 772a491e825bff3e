//! `workflow-state pipeline reset`.

use clap::Args;
use phasegate_core::pipeline::files::{FINAL_GATE_SESSION_MARKER, ORCHESTRATOR_LOCK};
use phasegate_core::pipeline::{FileKind, Run, Stage, State};
use phasegate_store::pipeline::PidLock;

use super::{PipelineArg, action_json, loop_file, resolve, session_id};
use crate::context::Ctx;
use crate::error::CliResult;
use crate::exit::ExitStatus;

/// Reset the pipeline to idle: the run's gates, pause and failure, the loop,
/// the reviews and the worker signal are cleared (the request, the approved
/// requirements and the plan stay). Guarded by .task/.orchestrator.lock; a
/// stale lock (its process gone, or older than 10 minutes) is cleaned up.
#[derive(Debug, Args)]
pub struct ResetArgs {
    #[command(flatten)]
    feature: PipelineArg,
}

pub fn run(args: ResetArgs, ctx: &mut Ctx<'_>) -> CliResult {
    let (project, feature) = resolve(ctx, &args.feature)?;
    let now = ctx.now;
    let (_pid_lock, note) = PidLock::acquire(&feature.task_path(ORCHESTRATOR_LOCK), "reset", now)?;
    let guard = feature.lock(ctx.lock_timeout)?;
    // A missing or unreadable state.json is exactly what reset is for: start
    // a fresh run, keeping the request when it can be read.
    let old = feature.read_task::<Run>(FileKind::State, "state.json").ok().flatten();
    let run = match old {
        Some(mut run) => {
            run.reset(now);
            run
        }
        None => {
            let mut run = Run::new(String::new(), session_id(None), now);
            run.history.push(phasegate_core::pipeline::run::Step {
                from: State::Idle,
                to: State::Idle,
                at: now,
                note: Some("reset: new state".into()),
            });
            run
        }
    };
    for file in [
        loop_file(),
        FINAL_GATE_SESSION_MARKER,
        FileKind::WorkerSignal.task_file().unwrap_or_default(),
        FileKind::ImplResult.task_file().unwrap_or_default(),
    ] {
        guard.remove_task(file)?;
    }
    for stage in Stage::ALL {
        guard.remove_task(stage.file())?;
    }
    guard.write_task("state.json", &run)?;
    drop(guard);
    if let Some(owner) = &run.owner {
        project.unregister_session(&owner.session_id)?;
    }
    ctx.json(&serde_json::json!({"feature": feature.name(), "state": run.state, "note": note, "next": action_json(&run, &feature)}))?;
    Ok(ExitStatus::Success)
}
