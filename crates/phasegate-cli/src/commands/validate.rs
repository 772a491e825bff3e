//! `workflow-state validate`: may the feature move to a phase?

use clap::Args;
use phasegate_core::{ArtifactSet, Phase};
use phasegate_ops::error::InvalidInput;
use phasegate_ops::feature::phase;

use super::FeatureArg;
use crate::{CmdResult, Ctx, ExitStatus};

/// Check a phase transition.
///
/// Prints {"allowed", "type": proceed|warning|blocked, "message"}; exits 0 when
/// allowed, 1 when blocked, 2 on a usage or state error.
#[derive(Debug, Args)]
pub struct ValidateArgs {
    /// The phase to move to.
    target: Phase,
    #[command(flatten)]
    feature: FeatureArg,
    /// Check the rule table without files: the phase reached last (or `none`).
    #[arg(long, value_name = "PHASE|none", conflicts_with = "feature")]
    current: Option<String>,
    /// With --current: the artifacts present, e.g. `spec,plan` (or `none`).
    #[arg(long, value_name = "LIST", requires = "current")]
    artifacts: Option<String>,
    /// With --current: that phase was started but not completed.
    #[arg(long, requires = "current")]
    in_progress: bool,
}

pub fn cmd_validate(args: ValidateArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let validation = match &args.current {
        Some(current) => {
            let current = match current.as_str() {
                "none" => None,
                other => Some(other.parse::<Phase>().invalid("--current")?),
            };
            let artifacts = ArtifactSet::parse_list(args.artifacts.as_deref().unwrap_or("")).invalid("--artifacts")?;
            phase::validate_table(current, args.in_progress, args.target, artifacts)
        }
        None => phase::validate(&ctx.env, args.feature.get(), args.target)?,
    };
    ctx.out.json(&validation)?;
    Ok(if validation.allowed { ExitStatus::Success } else { ExitStatus::Refused })
}
