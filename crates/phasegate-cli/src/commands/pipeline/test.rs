//! `workflow-state pipeline test`: run the plan's tests now.

use clap::Args;
use phasegate_core::pipeline::looping::TestOutcome;

use super::{PipelineArg, resolve, run_tests};
use crate::context::Ctx;
use crate::error::CliResult;
use crate::exit::ExitStatus;

/// Run the test commands of .task/plan-refined.json in the code directory,
/// exactly as the Stop hook does (same timeout, same success and failure
/// patterns). Exits 0 when they pass, 1 when they fail.
#[derive(Debug, Args)]
pub struct TestArgs {
    #[command(flatten)]
    feature: PipelineArg,
}

pub fn run(args: TestArgs, ctx: &mut Ctx<'_>) -> CliResult {
    let (project, feature) = resolve(ctx, &args.feature)?;
    let config = project.pipeline_config()?;
    let (outcome, runs) = run_tests(&project, &feature, &config)?;
    let commands: Vec<_> = runs
        .iter()
        .map(|r| serde_json::json!({"command": r.command, "exit": r.exit, "timedOut": r.timed_out}))
        .collect();
    let (passed, summary) = match outcome {
        TestOutcome::Passed => (true, None),
        TestOutcome::Failed { summary } => (false, Some(summary)),
    };
    ctx.json(
        &serde_json::json!({"feature": feature.name(), "passed": passed, "commands": commands, "summary": summary}),
    )?;
    Ok(if passed { ExitStatus::Success } else { ExitStatus::Refused })
}
