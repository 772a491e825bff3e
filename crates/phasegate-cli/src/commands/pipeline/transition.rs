//! `workflow-state pipeline transition`.

use clap::Args;
use phasegate_core::pipeline::files::{FINAL_GATE_SESSION_MARKER, FileKind};
use phasegate_core::pipeline::looping::TestOutcome;
use phasegate_core::pipeline::run::Requirement;
use phasegate_core::pipeline::{LoopState, State};
use serde_json::Value;

use super::{PipelineArg, action_json, loop_file, plan, resolve, run_tests, with_run};
use crate::context::Ctx;
use crate::error::{CliError, CliResult};
use crate::exit::ExitStatus;

/// Move the pipeline to the next state. Illegal transitions are refused
/// (exit 1) with the legal ones; a transition whose requirement is not met
/// (a missing or invalid file, an unpassed review gate, failing tests) is
/// refused with what is missing.
#[derive(Debug, Args)]
pub struct TransitionArgs {
    /// The state to move to.
    to: State,
    /// Why, for the run's history.
    #[arg(long, value_name = "TEXT")]
    note: Option<String>,
    #[command(flatten)]
    feature: PipelineArg,
}

pub fn run(args: TransitionArgs, ctx: &mut Ctx<'_>) -> CliResult {
    match args.to {
        State::NeedsUserInput => {
            return Err(CliError::error(
                "pause with `workflow-state pipeline pause <reason> --message <text>` instead",
            ));
        }
        State::Error => {
            return Err(CliError::error("fail with `workflow-state pipeline fail --message <text>` instead"));
        }
        _ => {}
    }
    let (project, feature) = resolve(ctx, &args.feature)?;
    let config = project.pipeline_config()?;
    let now = ctx.now;
    let run = with_run(ctx, &feature, |run, guard| {
        let check = |req: Requirement| -> Result<(), String> {
            match req {
                Requirement::UserStory => {
                    present(&feature, FileKind::UserStory, "the requirements-gatherer writes it once the user approves")
                }
                Requirement::Plan => present(&feature, FileKind::PlanRefined, "the planner writes it"),
                Requirement::TestsPass => match run_tests(&project, &feature, &config) {
                    Ok((TestOutcome::Passed, _)) => Ok(()),
                    Ok((TestOutcome::Failed { summary }, _)) => Err(format!("the plan's tests fail: {summary}")),
                    Err(e) => Err(e.message),
                },
            }
        };
        run.transition(args.to, now, args.note.clone(), check).map_err(|e| CliError::refused(e.to_string()))?;
        match run.state {
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
                guard.write_task(loop_file(), &LoopState::new(max, promise, session, now))?;
            }
            State::Complete => {
                if let Some(mut l) = feature.read_task::<LoopState>(FileKind::LoopState, loop_file())? {
                    l.active = false;
                    l.ended_reason = Some("complete".into());
                    l.updated_at = Some(now);
                    guard.write_task(loop_file(), &l)?;
                }
                guard.remove_task(FINAL_GATE_SESSION_MARKER)?;
                if let Some(owner) = &run.owner {
                    project.unregister_session(&owner.session_id)?;
                }
            }
            _ => {}
        }
        Ok(run.clone())
    })?;
    ctx.json(&serde_json::json!({"feature": feature.name(), "state": run.state, "next": action_json(&run, &feature)}))?;
    Ok(ExitStatus::Success)
}

fn present(feature: &phasegate_store::Feature, kind: FileKind, who: &str) -> Result<(), String> {
    let file = kind.task_file().expect("task file");
    match feature.read_task::<Value>(kind, file) {
        Ok(Some(_)) => Ok(()),
        Ok(None) => Err(format!("{} is missing ({who})", feature.task_path(file).display())),
        Err(e) => Err(e.to_string()),
    }
}
