//! `workflow-state pipeline review`: record one reviewer's output.

use std::path::PathBuf;

use clap::Args;
use phasegate_core::pipeline::files::{FileKind, Review};
use phasegate_core::pipeline::gate::{GateDecision, GateKind, Stage};
use phasegate_core::pipeline::next::after_review;
use phasegate_core::pipeline::{Config, PauseReason, Run};
use phasegate_store::pipeline::parse_file;

use super::{PipelineArg, action_json, resolve, with_run};
use crate::context::Ctx;
use crate::error::{CliError, CliResult};
use crate::exit::ExitStatus;

/// Record the review of one stage of the current gate (plan review in
/// plan_reviewing, code review in implementing_loop), in the order sonnet →
/// opus → final. Prints the decision: next stage, passed, fix (the round
/// restarts from sonnet), or a pause. An out-of-order stage exits 1; a file
/// that breaks schemas/review.schema.json exits 2 and names each field.
#[derive(Debug, Args)]
pub struct ReviewArgs {
    /// sonnet, opus or final.
    stage: Stage,
    /// The review file (default: .task/review-<stage>.json; review-codex.json for final).
    #[arg(long, value_name = "PATH")]
    file: Option<PathBuf>,
    #[command(flatten)]
    feature: PipelineArg,
}

pub fn run(args: ReviewArgs, ctx: &mut Ctx<'_>) -> CliResult {
    let (project, feature) = resolve(ctx, &args.feature)?;
    let config = project.pipeline_config()?;
    let path = args.file.as_ref().map_or_else(|| feature.task_path(args.stage.file()), |f| ctx.cwd.join(f));
    let text = std::fs::read_to_string(&path)
        .map_err(|e| CliError::error(format!("cannot read the {} review {}: {e}", args.stage, path.display())))?;
    let review: Review = parse_file(FileKind::Review, &path, &text)?;
    let now = ctx.now;
    let (run, decision) = with_run(ctx, &feature, |run, _| {
        let decision = record(run, args.stage, &review, &config, now)?;
        Ok((run.clone(), decision))
    })?;
    print(ctx, &run, &feature, args.stage, decision, &config)?;
    Ok(ExitStatus::Success)
}

/// Records a checked review into the run's current gate and applies pauses.
pub fn record(
    run: &mut Run,
    stage: Stage,
    review: &Review,
    config: &Config,
    now: chrono::DateTime<chrono::Utc>,
) -> CliResult<GateDecision> {
    let kind = run.gate_kind().ok_or_else(|| {
        CliError::refused(format!(
            "the pipeline is {}; reviews are recorded in plan_reviewing and implementing_loop",
            run.state
        ))
    })?;
    if review.model != stage.model() {
        return Err(CliError::error(format!(
            "this review says model `{}`, but the {stage} stage needs model `{}`",
            review.model,
            stage.model()
        )));
    }
    let reviewer = if stage == Stage::Final { "review-codex" } else { kind.reviewer() };
    if review.reviewer != reviewer {
        return Err(CliError::error(format!(
            "this review comes from `{}`, but the {} gate's {stage} stage expects `{reviewer}`",
            review.reviewer,
            match kind {
                GateKind::Plan => "plan",
                GateKind::Code => "code",
            }
        )));
    }
    let limit = match kind {
        GateKind::Plan => config.autonomy.plan_review_loop_limit,
        GateKind::Code => config.autonomy.code_review_loop_limit,
    };
    let decision =
        run.gate_mut(kind).record(stage, review.status, limit).map_err(|e| CliError::refused(e.to_string()))?;
    run.updated_at = now;
    match decision {
        GateDecision::Clarify => {
            let questions =
                if review.questions.is_empty() { review.summary.clone() } else { review.questions.join(" ") };
            run.pause(PauseReason::NeedsClarification, format!("the {stage} reviewer asks: {questions}"), now)
                .map_err(|e| CliError::error(e.to_string()))?;
        }
        GateDecision::LimitReached => {
            run.pause(
                PauseReason::ReviewLoopExceeded,
                format!("{limit} review rounds ended in needs_changes without approval"),
                now,
            )
            .map_err(|e| CliError::error(e.to_string()))?;
        }
        GateDecision::Next { .. } | GateDecision::Passed | GateDecision::Fix => {}
    }
    Ok(decision)
}

pub fn print(
    ctx: &mut Ctx<'_>,
    run: &Run,
    feature: &phasegate_store::Feature,
    stage: Stage,
    decision: GateDecision,
    config: &Config,
) -> CliResult<()> {
    let kind = match run.gate_kind().or(run.paused.as_ref().and_then(|p| match p.from {
        phasegate_core::pipeline::State::PlanReviewing => Some(GateKind::Plan),
        phasegate_core::pipeline::State::ImplementingLoop => Some(GateKind::Code),
        _ => None,
    })) {
        Some(k) => k,
        None => GateKind::Plan,
    };
    let gate = run.gate(kind);
    let limit = match kind {
        GateKind::Plan => config.autonomy.plan_review_loop_limit,
        GateKind::Code => config.autonomy.code_review_loop_limit,
    };
    ctx.json(&serde_json::json!({
        "feature": feature.name(),
        "stage": stage,
        "decision": decision.name(),
        "nextStage": decision.next_stage(),
        "round": gate.round,
        "loops": gate.loops,
        "loopLimit": limit,
        "message": after_review(kind, decision),
        "state": run.state,
        "next": action_json(run, feature),
    }))
}
