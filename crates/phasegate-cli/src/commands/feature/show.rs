//! `workflow-state feature show`.

use clap::Args;

use crate::commands::FeatureArg;
use crate::context::Ctx;
use crate::error::CliResult;
use crate::exit::ExitStatus;

/// Print which feature a command would act on: name, folder, worktree path,
/// artifacts present and its .meta.json.
#[derive(Debug, Args)]
pub struct ShowArgs {
    #[command(flatten)]
    feature: FeatureArg,
}

pub fn run(args: ShowArgs, ctx: &mut Ctx<'_>) -> CliResult {
    let (project, feature) = ctx.feature(args.feature.get())?;
    let meta = feature.load()?;
    let artifacts: Vec<&str> = feature.artifacts().iter().map(|a| a.file_name()).collect();
    ctx.json(&serde_json::json!({
        "name": feature.name(),
        "dir": feature.dir().display().to_string(),
        "worktreePath": project.worktree_path(&meta).map(|p| p.display().to_string()),
        "artifacts": artifacts,
        "meta": meta,
    }))?;
    Ok(ExitStatus::Success)
}
