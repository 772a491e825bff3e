//! `workflow-state pipeline claim`.

use clap::Args;
use phasegate_core::pipeline::PauseReason;
use phasegate_core::pipeline::run::Owner;

use super::{PipelineArg, action_json, reactivate_loop, resolve, session_id, with_run};
use crate::context::Ctx;
use crate::error::{CliError, CliResult};
use crate::exit::ExitStatus;

/// Make this Claude Code session the pipeline's owner (after /clear, a
/// restart, or in a new session): its Stop hook now enforces the loop, and
/// no other session's does. A loop that expired picks up again.
#[derive(Debug, Args)]
pub struct ClaimArgs {
    /// The session (default: CLAUDE_CODE_SESSION_ID).
    #[arg(long, value_name = "ID")]
    session: Option<String>,
    #[command(flatten)]
    feature: PipelineArg,
}

pub fn run(args: ClaimArgs, ctx: &mut Ctx<'_>) -> CliResult {
    let session = session_id(args.session.as_deref()).ok_or_else(|| {
        CliError::error("no session id: run this inside Claude Code (CLAUDE_CODE_SESSION_ID) or pass --session")
    })?;
    let (project, feature) = resolve(ctx, &args.feature)?;
    let now = ctx.now;
    let (run, previous) = with_run(ctx, &feature, |run, guard| {
        let previous = run.owner.replace(Owner { session_id: session.clone(), claimed_at: now }).map(|o| o.session_id);
        if run.paused.as_ref().is_some_and(|p| p.reason == PauseReason::Stale) {
            run.resume(now).map_err(|e| CliError::error(e.to_string()))?;
        }
        reactivate_loop(guard, run, now, false)?;
        Ok((run.clone(), previous))
    })?;
    if let Some(old) = previous.filter(|o| *o != session) {
        project.unregister_session(&old)?;
    }
    project.register_session(&session, &feature, now)?;
    ctx.json(&serde_json::json!({"feature": feature.name(), "owner": session, "state": run.state, "next": action_json(&run, &feature)}))?;
    Ok(ExitStatus::Success)
}
