//! `workflow-state lease release`.

use clap::Args;
use phasegate_ops::coordination::leases;

use crate::{CmdResult, Ctx, ExitStatus};

/// Give a lease back: this session's, or another's with --session.
///
/// Give a lease back: this session's, or another session's with
/// `--session` (when its owner asked, or the user decided). Without a
/// path, every lease of that session.
#[derive(Debug, Args)]
pub struct ReleaseArgs {
    /// The file, relative to the current directory or absolute.
    path: Option<String>,
    /// Whose lease (default: this session, CLAUDE_CODE_SESSION_ID).
    #[arg(long, value_name = "ID")]
    session: Option<String>,
}

pub fn cmd_release(a: ReleaseArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let released = leases::release(&ctx.env, a.path.as_deref(), a.session.as_deref())?;
    ctx.out.json(&serde_json::json!({ "released": released }))?;
    Ok(ExitStatus::Success)
}
