//! `workflow-state pipeline claim`.

use clap::Args;
use phasegate_ops::pipeline::ownership;

use super::PipelineArg;
use crate::{CmdResult, Ctx, ExitStatus};

/// Make this Claude Code session the pipeline's owner.
///
/// Make this Claude Code session the pipeline's owner (after /clear, a
/// restart, or in a new session): its Stop hook now enforces the loop, and
/// no other session's does. A loop that expired picks up again. The session
/// id is checked (1-80 bytes, no control characters) before anything changes.
#[derive(Debug, Args)]
pub struct ClaimArgs {
    /// The session (default: CLAUDE_CODE_SESSION_ID).
    #[arg(long, value_name = "ID")]
    session: Option<String>,
    #[command(flatten)]
    feature: PipelineArg,
}

pub fn cmd_claim(args: ClaimArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let claimed = ownership::claim(&ctx.env, args.feature.get(), args.session.as_deref())?;
    ctx.out.json(&claimed)?;
    Ok(ExitStatus::Success)
}
