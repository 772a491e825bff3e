//! `workflow-state tasks record`.

use std::path::PathBuf;

use clap::Args;
use phasegate_ops::tasks::review as task_review;
use phasegate_ops::witness::Given;

use crate::commands::question::SessionArg;
use crate::commands::{FeatureArg, input};
use crate::{CmdResult, Ctx, ExitStatus};

/// Record the reviewer's reply for the task's current cycle.
///
/// Record the reviewer's reply for the task's current cycle: the verdict
/// JSON when the reply holds one, else seed 003's first-line patterns
/// (APPROVED, LGTM, NEEDS REVISION, -1, ...) and keyword rule. Inside
/// Claude Code the reply is the last message of the reviewer `tasks review`
/// named, spawned with its prompt: read from Claude Code's transcript
/// (exit 1, nothing counted, when none answered); outside Claude Code a
/// person gives it with --reply-file, and the record says who. Prints
/// `decision`: `approved` (the task is ticked done), `revise` (with the
/// next reviewer, switched after the same issue twice or above a 0.7
/// failure rate, and why), `cap-reached` (escalated to a person: accept
/// as-is, fix by hand, skip, abort; the configured default applies after 5
/// minutes), or none for `UNCLEAR` (the reviewer answers again; nothing
/// counted). With --timed-out (the reviewer did not answer by the review's
/// `deadline`): the review is marked TIMEOUT and the configured default
/// action applies (skip with a warning, accept as it is, or stop the
/// build).
#[derive(Debug, Args)]
pub struct RecordArgs {
    /// The task id (T1).
    id: String,
    /// The reviewer's reply (`-` for stdin): required outside Claude Code;
    /// inside it, it must be the reviewer's own reply.
    #[arg(long, value_name = "FILE", conflicts_with = "timed_out")]
    reply_file: Option<PathBuf>,
    /// The reviewer did not answer in time.
    #[arg(long)]
    timed_out: bool,
    #[command(flatten)]
    session: SessionArg,
    #[command(flatten)]
    feature: FeatureArg,
}

pub fn cmd_record(args: RecordArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    if args.timed_out {
        let t = task_review::timed_out(&ctx.env, args.feature.get(), &args.id)?;
        ctx.out.json(&t)?;
        return Ok(ExitStatus::Success);
    }
    let reply = match &args.reply_file {
        Some(file) => {
            let t = input::read(file, "reviewer's reply", &ctx.env.cwd)?;
            Some(Given { source: t.source, text: t.text })
        }
        None => None,
    };
    let outcome = task_review::record(&ctx.env, args.feature.get(), &args.id, reply, args.session.get())?;
    ctx.out.json(&outcome)?;
    Ok(ExitStatus::Success)
}
