//! `workflow-state pipeline cancel`: the seed's /cancel-loop.

use clap::Args;
use phasegate_core::pipeline::{FileKind, LoopState, PauseReason};

use super::{PipelineArg, action_json, loop_file, resolve, with_run};
use crate::context::Ctx;
use crate::error::CliResult;
use crate::exit::ExitStatus;

/// Cancel the implementation loop: the Stop hook stops holding the session at
/// once, and the pipeline pauses (needs_user_input, cancelled) so it can be
/// resumed or reset later.
#[derive(Debug, Args)]
pub struct CancelArgs {
    #[command(flatten)]
    feature: PipelineArg,
}

pub fn run(args: CancelArgs, ctx: &mut Ctx<'_>) -> CliResult {
    let (project, feature) = resolve(ctx, &args.feature)?;
    let now = ctx.now;
    let (run, had_loop) = with_run(ctx, &feature, |run, guard| {
        let mut had_loop = false;
        if let Some(mut l) = feature.read_task::<LoopState>(FileKind::LoopState, loop_file())? {
            had_loop = l.active;
            l.active = false;
            l.ended_reason = Some("cancelled".into());
            l.updated_at = Some(now);
            guard.write_task(loop_file(), &l)?;
        }
        if run.state.is_working() {
            let _ = run.pause(PauseReason::Cancelled, "cancelled by the user".into(), now);
        }
        Ok((run.clone(), had_loop))
    })?;
    if let Some(owner) = &run.owner {
        project.unregister_session(&owner.session_id)?;
    }
    ctx.json(&serde_json::json!({
        "feature": feature.name(),
        "loopCancelled": had_loop,
        "state": run.state,
        "message": if had_loop { "The implementation loop is cancelled; this session can stop." } else { "No loop was active; the pipeline is paused." },
        "next": action_json(&run, &feature),
    }))?;
    Ok(ExitStatus::Success)
}
