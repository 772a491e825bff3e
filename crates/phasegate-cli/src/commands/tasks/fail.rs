//! `workflow-state tasks fail`.

use std::path::PathBuf;

use clap::Args;
use phasegate_ops::tasks::build;

use crate::commands::question::SessionArg;
use crate::commands::{FeatureArg, input};
use crate::{CmdResult, Ctx, ExitStatus};

/// Mark a task in progress failed and apply the build decision.
///
/// Mark a task in progress failed (`[!]`) and apply seed 004's build
/// decision to its validation output: SYNTAX_ERROR retries below 3
/// attempts, MISSING_DEPENDENCY installs and retries, CONFLICT rebases and
/// retries, VALIDATION_FAILED retries below 2 attempts and is then skipped
/// (`[-]`), NETWORK and TIMEOUT retry below 2 attempts, RESOURCE (the
/// machine out of memory, disk or file handles) and anything else escalate
/// to the user (a question). With
/// --rollback files go back to the task's checkpoint (the working tree when
/// it started, uncommitted work included; refused when the task committed):
/// its declared files (`Files:` in tasks.md), or for a task that declares
/// none the files the checkpoint has, never removing a file made since
/// (listed in `kept`); what it overwrites or removes is saved first in the
/// folder `savedIn` names. Prints `error`, `decision`, `stop` (more than 3 failed
/// tasks, a failed database task, the time limit, a stop request) and what
/// to do. Exit 1 when the task is not in progress.
#[derive(Debug, Args)]
pub struct FailArgs {
    /// The task id (T1).
    id: String,
    /// The validation output that failed (`-` for stdin).
    #[arg(long, value_name = "FILE")]
    output_file: Option<PathBuf>,
    /// The command that failed (`cargo test`): a test runner, type checker
    /// or linter that fails with no diagnostic the table recognises is a
    /// failed validation, not an unknown error.
    #[arg(long, value_name = "COMMAND")]
    command: Option<String>,
    /// Put the task's files back as they were when it started (see above).
    #[arg(long)]
    rollback: bool,
    #[command(flatten)]
    session: SessionArg,
    #[command(flatten)]
    feature: FeatureArg,
}

pub fn cmd_fail(args: FailArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let output = match &args.output_file {
        Some(f) => Some(input::read(f, "validation output", &ctx.env.cwd)?.text),
        None => None,
    };
    let failed = build::fail(
        &ctx.env,
        args.feature.get(),
        &args.id,
        output.as_deref(),
        args.command.as_deref(),
        args.rollback,
        args.session.get(),
    )?;
    ctx.out.json(&failed)?;
    Ok(ExitStatus::Success)
}

/// Ask the build to stop, or withdraw the request.
///
/// Ask the build to stop (seed 004's stop signal): `tasks next` hands out
/// nothing and `tasks start` is refused until `--clear`.
#[derive(Debug, Args)]
pub struct StopArgs {
    /// Withdraw the stop request and begin a new build (its time limit counts
    /// again from its first task).
    #[arg(long)]
    clear: bool,
    #[command(flatten)]
    feature: FeatureArg,
}

pub fn cmd_stop(args: StopArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let stopped = build::stop(&ctx.env, args.feature.get(), args.clear)?;
    ctx.out.json(&serde_json::json!({ "stopRequested": stopped }))?;
    Ok(ExitStatus::Success)
}
