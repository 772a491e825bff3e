//! `workflow-state tasks record`.

use std::path::PathBuf;

use clap::Args;
use phasegate_ops::task_review;

use crate::commands::question::SessionArg;
use crate::commands::{FeatureArg, input};
use crate::{CmdResult, Ctx, ExitStatus};

/// Record the reviewer's reply for the task's current cycle: the verdict
/// JSON when the reply holds one, else seed 003's first-line patterns
/// (APPROVED, LGTM, NEEDS REVISION, -1, ...) and keyword rule. Prints
/// `decision`: `approved` (the task is ticked done), `revise` (with the
/// next reviewer, switched after the same issue twice or above a 0.7
/// failure rate, and why), `cap-reached` (escalated: accept as-is, fix by
/// hand, skip, abort; skip applies after 5 minutes), or none for `UNCLEAR`
/// (ask the user; nothing counted).
#[derive(Debug, Args)]
pub struct RecordArgs {
    /// The task id (T1).
    id: String,
    /// The reviewer's reply (`-` for stdin).
    #[arg(long, value_name = "FILE")]
    reply_file: PathBuf,
    #[command(flatten)]
    session: SessionArg,
    #[command(flatten)]
    feature: FeatureArg,
}

pub fn cmd_record(args: RecordArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let reply = input::read(&args.reply_file, "reviewer's reply", &ctx.env.cwd)?;
    let outcome = task_review::record(&ctx.env, args.feature.get(), &args.id, &reply.text, args.session.get())?;
    ctx.out.json(&outcome)?;
    Ok(ExitStatus::Success)
}
