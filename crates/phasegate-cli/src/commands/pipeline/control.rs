//! `workflow-state pipeline pause|resume|fail|recover`: the pipeline's
//! exceptional paths (seed 001, "When Pipeline Pauses", phase-aware recovery).

use clap::Args;
use phasegate_core::pipeline::{PauseReason, Run};

use super::{PipelineArg, action_json, reactivate_loop, resolve, with_run};
use crate::context::Ctx;
use crate::error::{CliError, CliResult};
use crate::exit::ExitStatus;

/// Pause the pipeline for the user (state needs_user_input).
#[derive(Debug, Args)]
pub struct PauseArgs {
    /// needs_clarification, review_loop_exceeded, unrecoverable_error, loop_limit, final_gate_unavailable, cancelled or stale.
    reason: PauseReason,
    /// What the user must decide or answer.
    #[arg(long, value_name = "TEXT")]
    message: String,
    #[command(flatten)]
    feature: PipelineArg,
}

/// After the user answered: return to the state that paused. After a review
/// loop limit the gate's count starts again; after the implementation loop's
/// limit, its iterations do.
#[derive(Debug, Args)]
pub struct ResumeArgs {
    #[command(flatten)]
    feature: PipelineArg,
}

/// Record an unrecoverable error (state error); `recover` retries the phase.
#[derive(Debug, Args)]
pub struct FailArgs {
    /// What failed.
    #[arg(long, value_name = "TEXT")]
    message: String,
    #[command(flatten)]
    feature: PipelineArg,
}

/// Phase-aware recovery: from error back to the state that failed; its
/// review round restarts from the first reviewer.
#[derive(Debug, Args)]
pub struct RecoverArgs {
    #[command(flatten)]
    feature: PipelineArg,
}

fn done(ctx: &mut Ctx<'_>, feature: &phasegate_store::Feature, run: &Run) -> CliResult {
    ctx.json(&serde_json::json!({"feature": feature.name(), "state": run.state, "next": action_json(run, feature)}))?;
    Ok(ExitStatus::Success)
}

pub fn pause(args: PauseArgs, ctx: &mut Ctx<'_>) -> CliResult {
    let (_, feature) = resolve(ctx, &args.feature)?;
    let now = ctx.now;
    let run = with_run(ctx, &feature, |run, _| {
        run.pause(args.reason, args.message.clone(), now).map_err(|e| CliError::refused(e.to_string()))?;
        Ok(run.clone())
    })?;
    done(ctx, &feature, &run)
}

pub fn resume(args: ResumeArgs, ctx: &mut Ctx<'_>) -> CliResult {
    let (project, feature) = resolve(ctx, &args.feature)?;
    let now = ctx.now;
    let run = with_run(ctx, &feature, |run, guard| {
        let reason = run.paused.as_ref().map(|p| p.reason);
        run.resume(now).map_err(|e| CliError::refused(e.to_string()))?;
        reactivate_loop(guard, run, now, reason == Some(PauseReason::LoopLimit))?;
        Ok(run.clone())
    })?;
    if let Some(owner) = &run.owner {
        project.register_session(&owner.session_id, &feature, now)?;
    }
    done(ctx, &feature, &run)
}

pub fn fail(args: FailArgs, ctx: &mut Ctx<'_>) -> CliResult {
    let (_, feature) = resolve(ctx, &args.feature)?;
    let now = ctx.now;
    let run = with_run(ctx, &feature, |run, _| {
        run.fail(args.message.clone(), now).map_err(|e| CliError::refused(e.to_string()))?;
        Ok(run.clone())
    })?;
    done(ctx, &feature, &run)
}

pub fn recover(args: RecoverArgs, ctx: &mut Ctx<'_>) -> CliResult {
    let (_, feature) = resolve(ctx, &args.feature)?;
    let now = ctx.now;
    let run = with_run(ctx, &feature, |run, guard| {
        run.recover(now).map_err(|e| CliError::refused(e.to_string()))?;
        reactivate_loop(guard, run, now, false)?;
        Ok(run.clone())
    })?;
    done(ctx, &feature, &run)
}
