//! `workflow-state pipeline signal`: read the worker signal.

use clap::Args;
use phasegate_core::pipeline::FileKind;
use phasegate_core::pipeline::files::{SignalStatus, WorkerSignal};

use super::{PipelineArg, resolve};
use crate::context::Ctx;
use crate::error::{CliError, CliResult};
use crate::exit::ExitStatus;

/// Read .task/worker-signal.json (checked against its schema) and say what the
/// orchestrator does: ask the user the worker's questions, go on, or fail.
#[derive(Debug, Args)]
pub struct SignalArgs {
    #[command(flatten)]
    feature: PipelineArg,
}

pub fn run(args: SignalArgs, ctx: &mut Ctx<'_>) -> CliResult {
    let (_, feature) = resolve(ctx, &args.feature)?;
    let file = FileKind::WorkerSignal.task_file().expect("task file");
    let signal: WorkerSignal = feature.read_task(FileKind::WorkerSignal, file)?.ok_or_else(|| {
        CliError::error(format!("{} does not exist yet; the worker writes it", feature.task_path(file).display()))
    })?;
    let action = match signal.status {
        SignalStatus::NeedsInput => {
            "Ask the user these questions (AskUserQuestion), then resume the worker with the answers."
        }
        SignalStatus::Completed => "The worker finished; continue with `workflow-state pipeline next`.",
        SignalStatus::InProgress => "The worker is still working; wait for it.",
        SignalStatus::Error => {
            "The worker failed; if it cannot be fixed, record it with `workflow-state pipeline fail --message <text>`."
        }
    };
    ctx.json(&serde_json::json!({
        "worker": signal.worker_id,
        "agentId": signal.agent_id,
        "phase": signal.phase,
        "status": signal.status,
        "questions": signal.questions,
        "error": signal.error,
        "action": action,
    }))?;
    Ok(ExitStatus::Success)
}
