//! `workflow-state pipeline check`: validate a pipeline file.

use std::path::PathBuf;

use clap::Args;
use phasegate_core::pipeline::FileKind;
use phasegate_core::pipeline::files::{self, FileError};

use super::{PipelineArg, resolve};
use crate::context::Ctx;
use crate::error::{CliError, CliResult};
use crate::exit::ExitStatus;

/// Check a pipeline file against its schema (schemas/<kind>.schema.json).
/// Every problem names the field and the expected values; exit 2 when the
/// file does not match.
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

pub fn run(args: CheckArgs, ctx: &mut Ctx<'_>) -> CliResult {
    let path = match (&args.file, args.kind) {
        (Some(f), _) => ctx.cwd.join(f),
        (None, FileKind::Config) => ctx.project()?.pipeline_config_path(),
        (None, FileKind::Review) => {
            return Err(CliError::error("pass the review file with --file (e.g. --file .task/review-sonnet.json)"));
        }
        (None, kind) => {
            let (_, feature) = resolve(ctx, &args.feature)?;
            feature.task_path(kind.task_file().expect("kinds other than review and config have a task file"))
        }
    };
    let text =
        std::fs::read_to_string(&path).map_err(|e| CliError::error(format!("cannot read {}: {e}", path.display())))?;
    match files::check(args.kind, &text) {
        Ok(_) => {
            ctx.line(format!("ok: {} matches schemas/{}", path.display(), args.kind.schema().file_name()))?;
            Ok(ExitStatus::Success)
        }
        Err(FileError::Syntax(e)) => Err(CliError::error(format!("{} is not valid JSON: {e}", path.display()))),
        Err(e) => Err(CliError::error(format!("{} {e}", path.display()))),
    }
}
