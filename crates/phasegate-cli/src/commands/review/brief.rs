//! `workflow-state review brief`: the prompt for the reviewer agent.

use clap::Args;
use phasegate_core::Phase;
use phasegate_core::guide::{self, BriefInput};

use crate::commands::FeatureArg;
use crate::context::Ctx;
use crate::error::CliResult;
use crate::exit::ExitStatus;

/// Print the reviewer's brief for a phase: which agent to spawn, the previous
/// and current artifacts, and what the next phase needs.
#[derive(Debug, Args)]
pub struct BriefArgs {
    phase: Phase,
    #[command(flatten)]
    feature: FeatureArg,
}

pub fn run(args: BriefArgs, ctx: &mut Ctx<'_>) -> CliResult {
    let (project, feature) = ctx.feature(args.feature.get())?;
    let meta = feature.load()?;
    let code_dir = project.code_dir(&meta);
    let dir = feature.dir().display().to_string();
    let code = code_dir.display().to_string();
    let text = guide::brief(&BriefInput {
        phase: args.phase,
        feature: feature.name(),
        feature_dir: &dir,
        code_dir: &code,
        iteration: meta.record(args.phase).map_or(0, |r| r.iterations) + 1,
        max_iterations: meta.mode.max_iterations(),
        present: feature.artifacts(),
    });
    ctx.line(format!("Reviewer agent: {}", guide::reviewer(args.phase)))?;
    ctx.line(text)?;
    Ok(ExitStatus::Success)
}
