//! `workflow-state finish`: end a feature.

use clap::Args;
use phasegate_core::Phase;
use phasegate_core::transition::Verdict;

use crate::commands::FeatureArg;
use crate::commands::validate::validate_feature;
use crate::context::Ctx;
use crate::error::{CliError, CliResult};
use crate::exit::ExitStatus;

/// Finish a feature: status completed, .review-history.md deleted, the review
/// summary (iterations, outcomes, notes per phase) kept in .meta.json.
#[derive(Debug, Args)]
pub struct FinishArgs {
    #[command(flatten)]
    feature: FeatureArg,
}

pub fn run(args: FinishArgs, ctx: &mut Ctx<'_>) -> CliResult {
    let (_, feature) = ctx.feature(args.feature.get())?;
    let v = validate_feature(&feature, Phase::Finish)?;
    if v.kind == Verdict::Blocked {
        return Err(CliError::refused(v.message.unwrap_or_default()));
    }
    let now = ctx.now;
    let guard = feature.lock(ctx.lock_timeout)?;
    let mut meta = guard.load()?;
    meta.finish(now)?;
    guard.save(&meta)?;
    let removed = guard.remove_history()?;
    drop(guard);
    let phases: serde_json::Map<String, serde_json::Value> = meta
        .phases
        .iter()
        .map(|(p, r)| {
            (p.name().to_owned(), serde_json::json!({"iterations": r.iterations, "outcome": r.outcome, "reviewerNotes": r.reviewer_notes}))
        })
        .collect();
    ctx.json(&serde_json::json!({
        "feature": feature.name(),
        "status": meta.status,
        "historyDeleted": removed,
        "totalIterations": meta.total_iterations(),
        "warning": v.message.filter(|_| v.kind == Verdict::Warning),
        "phases": phases,
    }))?;
    Ok(ExitStatus::Success)
}
