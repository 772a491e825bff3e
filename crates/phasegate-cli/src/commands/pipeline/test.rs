//! `workflow-state pipeline test`: run the plan's tests now.

use clap::Args;
use phasegate_core::pipeline::TestOutcome;
use phasegate_ops::pipeline;
use phasegate_ops::session::find_pipeline;

use super::PipelineArg;
use crate::{CmdResult, Ctx, ExitStatus};

/// Run the plan's tests as the Stop hook does, then its checks.
///
/// Run the test commands of .task/plan-refined.json in the code directory,
/// exactly as the Stop hook does (same timeout, same success and failure
/// patterns), then, when they pass, its checks into the evidence ledger
/// (`verify run`): every acceptance criterion must be proven. Exits 0 when
/// they pass and the criteria are proven, 1 otherwise.
#[derive(Debug, Args)]
pub struct TestArgs {
    #[command(flatten)]
    feature: PipelineArg,
}

pub fn cmd_test(args: TestArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let (project, feature) = find_pipeline(&ctx.env, args.feature.get())?;
    let config = project.pipeline().config().map_err(phasegate_ops::OpError::from)?;
    let (outcome, runs) = pipeline::run_tests(&project, &feature, &config, &ctx.env)?;
    let commands: Vec<_> = runs
        .iter()
        .map(|r| serde_json::json!({"command": r.command, "exit": r.exit, "timedOut": r.timed_out}))
        .collect();
    let (passed, summary) = match outcome {
        TestOutcome::Passed => (true, None),
        TestOutcome::Failed { summary } => (false, Some(summary)),
        TestOutcome::NotProven { .. } => (false, outcome.problem()),
    };
    ctx.out.json(
        &serde_json::json!({"feature": feature.name(), "passed": passed, "commands": commands, "summary": summary}),
    )?;
    Ok(if passed { ExitStatus::Success } else { ExitStatus::Refused })
}
