//! `workflow-state review record`: one reviewer iteration.

use std::path::{Path, PathBuf};

use clap::Args;
use phasegate_core::Phase;
use phasegate_ops::OpError;
use phasegate_ops::feature::review::{self, VerdictInput};

use crate::commands::{FeatureArg, input};
use crate::{CmdResult, Ctx, ExitStatus};

/// Record one reviewer verdict: append it to .review-history.md, count the
/// iteration, and print the loop's decision (revise, approved, cap-reached;
/// the last two complete the phase). An invalid verdict exits 2 and says
/// what is wrong; nothing is recorded then, and the reviewer is asked again.
#[derive(Debug, Args)]
pub struct RecordArgs {
    phase: Phase,
    /// File holding the reviewer's reply (JSON, or text containing it); `-` for stdin.
    #[arg(long, value_name = "FILE")]
    verdict_file: PathBuf,
    /// What the executor changed in this iteration (for the history).
    #[arg(long, value_name = "TEXT")]
    changes: Option<String>,
    #[command(flatten)]
    feature: FeatureArg,
}

pub fn cmd_record(args: RecordArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let verdict = read_verdict(&args.verdict_file, ctx)?;
    let step = review::record(&ctx.env, args.feature.get(), args.phase, verdict, args.changes.as_deref())?;
    ctx.out.json(&step)?;
    Ok(ExitStatus::Success)
}

fn read_verdict(path: &Path, ctx: &Ctx<'_>) -> Result<VerdictInput, OpError> {
    let t = input::read(path, "verdict", &ctx.env.cwd)?;
    Ok(VerdictInput { source: t.source, text: t.text })
}
