//! `workflow-state phase start`.

use clap::Args;
use phasegate_core::Phase;
use phasegate_core::meta::StartKind;
use phasegate_core::transition::{self, Verdict};
use serde::Serialize;

use crate::commands::FeatureArg;
use crate::context::Ctx;
use crate::error::{CliError, CliResult};
use crate::exit::ExitStatus;

/// Mark a phase started (refused with exit 1 when `validate` blocks it). A
/// partial phase resumes where it stopped unless --fresh.
#[derive(Debug, Args)]
pub struct StartArgs {
    phase: Phase,
    /// Start a partial phase over from iteration 0.
    #[arg(long)]
    fresh: bool,
    #[command(flatten)]
    feature: FeatureArg,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Started {
    feature: String,
    phase: Phase,
    start: StartKind,
    /// Reviewer iterations already recorded in this run of the phase.
    iterations: u32,
    max_iterations: u32,
    warning: Option<String>,
}

pub fn run(args: StartArgs, ctx: &mut Ctx<'_>) -> CliResult {
    let (_, feature) = ctx.feature(args.feature.get())?;
    let artifacts = feature.artifacts();
    let now = ctx.now;
    let started = feature.update(ctx.lock_timeout, |meta| {
        let v = match transition::validate_status(meta.status, meta.workflow, feature.name()) {
            Some(v) => v,
            None => transition::validate(meta.position(), args.phase, artifacts),
        };
        let warning = match v.kind {
            Verdict::Blocked => return Err(CliError::refused(v.message.unwrap_or_default())),
            Verdict::Warning => v.message,
            Verdict::Proceed => None,
        };
        let start = meta.start_phase(args.phase, now, args.fresh)?;
        Ok(Started {
            feature: feature.name().to_owned(),
            phase: args.phase,
            start,
            iterations: meta.record(args.phase).map_or(0, |r| r.iterations),
            max_iterations: meta.mode.max_iterations(),
            warning,
        })
    })?;
    ctx.json(&started)?;
    Ok(ExitStatus::Success)
}
