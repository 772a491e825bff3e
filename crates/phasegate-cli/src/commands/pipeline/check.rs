//! `workflow-state pipeline check`: validate a pipeline file.

use std::path::PathBuf;

use clap::Args;
use phasegate_core::pipeline::FileKind;
use phasegate_ops::pipeline;

use super::PipelineArg;
use crate::{CmdResult, Ctx, ExitStatus};

/// Check a pipeline file exactly as every loader reads it.
///
/// Check a pipeline file exactly as every loader reads it (its schema: `workflow-state
/// schema <kind>`). Every problem names the field and the expected values;
/// exit 2 when the file does not match.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// worker-signal, user-story, plan-refined, review, impl-result, loop-state, config or state.
    kind: FileKind,
    /// The file (default: the kind's file in the pipeline's .task/, or the
    /// project's .phasegate/pipeline.config.json; required for review).
    #[arg(long, value_name = "PATH")]
    file: Option<PathBuf>,
    #[command(flatten)]
    feature: PipelineArg,
}

pub fn cmd_check(args: CheckArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let ok = pipeline::check(&ctx.env, args.feature.get(), args.kind, args.file.as_deref())?;
    ctx.out.line(ok)?;
    Ok(ExitStatus::Success)
}
