//! `workflow-state phase start`.

use clap::Args;
use phasegate_core::feature::StartMode;
use phasegate_core::{Mode, Phase};
use phasegate_ops::feature::phase::{self, Target};

use crate::commands::FeatureArg;
use crate::{CmdResult, Ctx, ExitStatus};

/// Mark a phase started (refused with exit 1 when `validate` blocks it).
///
/// A partial phase resumes where it stopped unless --fresh; --review-only sends
/// the existing result straight to the reviewer. With --new, the feature is
/// created first from the user's words (a slug or a description), so a first
/// run needs one command.
#[derive(Debug, Args)]
pub struct StartArgs {
    phase: Phase,
    /// Start a partial (or completed) phase over from iteration 0.
    #[arg(long, conflicts_with = "review_only")]
    fresh: bool,
    /// Review the existing result as it is, without revising it first.
    #[arg(long)]
    review_only: bool,
    /// Create the feature first: a slug (`user-auth`) or a description (`"add search"`).
    #[arg(long, value_name = "WORDS", conflicts_with = "feature")]
    new: Option<String>,
    /// With --new: hotfix | quick | standard | full.
    #[arg(long, default_value = "standard", requires = "new")]
    mode: Mode,
    #[command(flatten)]
    feature: FeatureArg,
}

pub fn cmd_start(args: StartArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let mode = match (args.fresh, args.review_only) {
        (true, _) => StartMode::Fresh,
        (false, true) => StartMode::ReviewOnly,
        (false, false) => StartMode::Continue,
    };
    let target = match &args.new {
        Some(words) => Target::New { words, mode: args.mode },
        None => Target::Existing(args.feature.get()),
    };
    let started = phase::start(&ctx.env, target, args.phase, mode)?;
    ctx.out.json(&started)?;
    Ok(ExitStatus::Success)
}
