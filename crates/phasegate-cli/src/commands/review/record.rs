//! `workflow-state review record`: one reviewer iteration.

use std::path::{Path, PathBuf};

use clap::Args;
use phasegate_core::Phase;
use phasegate_ops::OpError;
use phasegate_ops::feature::review;
use phasegate_ops::witness::Given;

use crate::commands::{FeatureArg, input};
use crate::{CmdResult, Ctx, ExitStatus};

/// Record one reviewer verdict and print the loop's decision.
///
/// Record one reviewer verdict: append it to .review-history.md, count the
/// iteration, and print the loop's decision (revise, approved, cap-reached;
/// the last two complete the phase). Inside Claude Code the verdict is the
/// last reply of the reviewer `review brief` named, spawned with its prompt
/// after the brief: read from Claude Code's transcript, never from a file
/// (exit 1, nothing counted, when no such reviewer answered). Outside
/// Claude Code a person gives it with --verdict-file, and the record says
/// who. An invalid verdict exits 2 and says what is wrong; nothing is
/// recorded then, and the reviewer is asked again.
#[derive(Debug, Args)]
pub struct RecordArgs {
    phase: Phase,
    /// The reviewer's reply (JSON, or text containing it), `-` for stdin:
    /// required outside Claude Code; inside it, it must be the reviewer's
    /// own reply.
    #[arg(long, value_name = "FILE")]
    verdict_file: Option<PathBuf>,
    /// What the executor changed in this iteration (for the history).
    #[arg(long, value_name = "TEXT")]
    changes: Option<String>,
    #[command(flatten)]
    feature: FeatureArg,
}

pub fn cmd_record(args: RecordArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let verdict = args.verdict_file.as_deref().map(|f| read_verdict(f, ctx)).transpose()?;
    let step = review::record(&ctx.env, args.feature.get(), args.phase, verdict, args.changes.as_deref())?;
    ctx.out.json(&step)?;
    Ok(ExitStatus::Success)
}

fn read_verdict(path: &Path, ctx: &Ctx<'_>) -> Result<Given, OpError> {
    let t = input::read(path, "verdict", &ctx.env.cwd)?;
    Ok(Given { source: t.source, text: t.text })
}
