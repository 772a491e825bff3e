//! `workflow-state feature abandon`.

use clap::Args;

use crate::commands::FeatureArg;
use crate::context::Ctx;
use crate::error::CliResult;
use crate::exit::ExitStatus;

/// Mark a feature abandoned: it stops counting as active; its files stay.
#[derive(Debug, Args)]
pub struct AbandonArgs {
    #[command(flatten)]
    feature: FeatureArg,
}

pub fn run(args: AbandonArgs, ctx: &mut Ctx<'_>) -> CliResult {
    let (_, feature) = ctx.feature(args.feature.get())?;
    let now = ctx.now;
    feature.update(ctx.lock_timeout, |meta| -> CliResult<()> { Ok(meta.abandon(now)?) })?;
    ctx.line(format!("{} abandoned", feature.name()))?;
    Ok(ExitStatus::Success)
}
