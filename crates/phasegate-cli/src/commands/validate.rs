//! `workflow-state validate`: may the feature move to a phase?

use clap::Args;
use phasegate_core::transition::{self, Position, Validation};
use phasegate_core::{ArtifactSet, Phase};
use phasegate_store::Feature;

use crate::commands::FeatureArg;
use crate::context::Ctx;
use crate::error::{CliError, CliResult};
use crate::exit::ExitStatus;

/// Check a phase transition. Prints {"allowed", "type": proceed|warning|blocked,
/// "message"}; exits 0 when allowed, 1 when blocked, 2 on a usage or state error.
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

pub fn run(args: ValidateArgs, ctx: &mut Ctx<'_>) -> CliResult {
    let validation = match &args.current {
        Some(current) => {
            let phase = match current.as_str() {
                "none" => None,
                other => Some(other.parse::<Phase>().map_err(|e| CliError::error(format!("--current: {e}")))?),
            };
            let artifacts = ArtifactSet::parse_list(args.artifacts.as_deref().unwrap_or(""))
                .map_err(|e| CliError::error(format!("--artifacts: {e}")))?;
            transition::validate(Position { phase, in_progress: args.in_progress }, args.target, artifacts)
        }
        None => {
            let (_, feature) = ctx.feature(args.feature.get())?;
            validate_feature(&feature, args.target)?
        }
    };
    ctx.json(&validation)?;
    Ok(if validation.allowed { ExitStatus::Success } else { ExitStatus::Refused })
}

/// The rule table applied to a feature on disk.
pub fn validate_feature(feature: &Feature, target: Phase) -> CliResult<Validation> {
    let meta = feature.load()?;
    if let Some(v) = transition::validate_status(meta.status, meta.workflow, feature.name()) {
        return Ok(v);
    }
    Ok(transition::validate(meta.position(), target, feature.artifacts()))
}
