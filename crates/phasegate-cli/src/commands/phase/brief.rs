//! `workflow-state phase brief`: everything a phase command needs to know
//! before it starts, in a few lines. Always exits 0, so it can run as a
//! `!` injection in a command file (a failing injection aborts the command).

use clap::Args;
use phasegate_core::Phase;
use phasegate_ops::feature::phase;

use crate::commands::FeatureArg;
use crate::{CmdResult, Ctx, ExitStatus};

/// Summarise the feature before running a phase.
///
/// Summarise the feature before running a phase: the transition check, the
/// phase's state (partial? with the choices to offer), concerns left open by
/// earlier phases, the worktree check; with no active feature, how to start
/// one. Always exits 0.
#[derive(Debug, Args)]
pub struct BriefArgs {
    phase: Phase,
    #[command(flatten)]
    feature: FeatureArg,
    /// The user's words from the command: the feature they name is briefed;
    /// words that name no feature get how to start a new one from them.
    #[arg(long, value_name = "TEXT")]
    words: Option<String>,
}

pub fn cmd_brief(args: BriefArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    for line in phase::brief(&ctx.env, args.feature.get(), args.phase, args.words.as_deref()) {
        ctx.out.line(line)?;
    }
    Ok(ExitStatus::Success)
}
