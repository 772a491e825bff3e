//! `workflow-state rounds record`.

use std::path::PathBuf;

use clap::Args;
use phasegate_core::Phase;
use phasegate_ops::questions::rounds;

use crate::commands::{FeatureArg, input};
use crate::{CmdResult, Ctx, ExitStatus};

/// Record the implementer's reply and print the decision.
///
/// Record the implementer's reply and print the decision: `complete` (the
/// document is written to the phase's artifact), `answer` (a question to
/// answer) or `cap-reached`. A reply that breaks the STATUS protocol exits 2
/// with the format, and nothing is recorded.
#[derive(Debug, Args)]
pub struct RecordArgs {
    phase: Phase,
    /// The implementer's reply, unchanged (`-` for stdin).
    #[arg(long, value_name = "FILE")]
    reply_file: PathBuf,
    #[command(flatten)]
    feature: FeatureArg,
}

pub fn cmd_record(a: RecordArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let reply = input::read(&a.reply_file, "implementer's reply", &ctx.env.cwd)?;
    let r = rounds::record(&ctx.env, a.feature.get(), a.phase, &reply.text, &reply.source)?;
    ctx.out.json(&r)?;
    Ok(ExitStatus::Success)
}
