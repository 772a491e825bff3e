//! `workflow-state pipeline …`: pipeline mode (seed 001). The binary owns the
//! state machine, the review gates' order and counts, the loop limits and
//! the files' schemas; the /phasegate:pipeline command follows what it prints.

use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, Subcommand};
use phasegate_core::Status;
use phasegate_core::meta::Workflow;
use phasegate_core::pipeline::files::{FileKind, PlanRefined, STATE_FILE};
use phasegate_core::pipeline::looping::TestOutcome;
use phasegate_core::pipeline::next;
use phasegate_core::pipeline::tests_eval::{self, CommandRun};
use phasegate_core::pipeline::{Config, LoopState, Run};
use phasegate_store::{Feature, FeatureGuard, Project, process};

use crate::context::Ctx;
use crate::env;
use crate::error::{CliError, CliResult};

mod brief;
mod cancel;
mod check;
mod claim;
mod control;
mod dry_run;
mod final_gate;
mod next_cmd;
mod reset;
mod review;
mod signal;
mod start;
mod status;
mod test;
mod transition;

#[derive(Debug, Subcommand)]
pub enum PipelineCommand {
    Start(start::StartArgs),
    Brief(brief::BriefArgs),
    Status(status::StatusArgs),
    Next(next_cmd::NextArgs),
    Transition(transition::TransitionArgs),
    Check(check::CheckArgs),
    Signal(signal::SignalArgs),
    Review(review::ReviewArgs),
    FinalGate(final_gate::FinalGateArgs),
    Test(test::TestArgs),
    Pause(control::PauseArgs),
    Resume(control::ResumeArgs),
    Fail(control::FailArgs),
    Recover(control::RecoverArgs),
    Reset(reset::ResetArgs),
    Cancel(cancel::CancelArgs),
    Claim(claim::ClaimArgs),
    DryRun(dry_run::DryRunArgs),
}

pub fn run(cmd: PipelineCommand, ctx: &mut Ctx<'_>) -> CliResult {
    match cmd {
        PipelineCommand::Start(a) => start::run(a, ctx),
        PipelineCommand::Brief(a) => brief::run(a, ctx),
        PipelineCommand::Status(a) => status::run(a, ctx),
        PipelineCommand::Next(a) => next_cmd::run(a, ctx),
        PipelineCommand::Transition(a) => transition::run(a, ctx),
        PipelineCommand::Check(a) => check::run(a, ctx),
        PipelineCommand::Signal(a) => signal::run(a, ctx),
        PipelineCommand::Review(a) => review::run(a, ctx),
        PipelineCommand::FinalGate(a) => final_gate::run(a, ctx),
        PipelineCommand::Test(a) => test::run(a, ctx),
        PipelineCommand::Pause(a) => control::pause(a, ctx),
        PipelineCommand::Resume(a) => control::resume(a, ctx),
        PipelineCommand::Fail(a) => control::fail(a, ctx),
        PipelineCommand::Recover(a) => control::recover(a, ctx),
        PipelineCommand::Reset(a) => reset::run(a, ctx),
        PipelineCommand::Cancel(a) => cancel::run(a, ctx),
        PipelineCommand::Claim(a) => claim::run(a, ctx),
        PipelineCommand::DryRun(a) => dry_run::run(a, ctx),
    }
}

/// `--feature` for pipeline commands.
#[derive(Debug, Clone, Args)]
pub struct PipelineArg {
    /// The pipeline feature (folder, name, id or slug). Default: the pipeline
    /// this Claude Code session runs, else the only active pipeline.
    #[arg(long, value_name = "FEATURE")]
    pub feature: Option<String>,
}

/// The session running this command: `--session`, else Claude Code's
/// CLAUDE_CODE_SESSION_ID (set for the Bash tool and for hooks).
pub fn session_id(given: Option<&str>) -> Option<String> {
    given.map(str::to_owned).or_else(|| std::env::var(env::SESSION_ID).ok()).filter(|s| !s.trim().is_empty())
}

/// The pipeline feature a command is about.
pub fn resolve(ctx: &Ctx<'_>, arg: &PipelineArg) -> CliResult<(Project, Feature)> {
    let project = ctx.project()?;
    let feature = match arg.feature.as_deref().filter(|f| !f.trim().is_empty()) {
        Some(given) => project.resolve(Some(given), &ctx.cwd)?,
        None => match session_id(None).map(|s| project.session_feature(&s)).transpose()?.flatten() {
            Some(f) => f,
            None => only_active_pipeline(&project)?,
        },
    };
    let meta = feature.load()?;
    if meta.workflow != Workflow::Pipeline {
        return Err(CliError::error(format!(
            "feature {} is not a pipeline (it runs phase by phase); start one with `workflow-state pipeline start <slug> --request <text>`",
            feature.name()
        )));
    }
    Ok((project, feature))
}

fn only_active_pipeline(project: &Project) -> CliResult<Feature> {
    let mut found: Vec<Feature> = Vec::new();
    for l in project.list()? {
        if let Ok(meta) = &l.meta
            && meta.workflow == Workflow::Pipeline
            && meta.status == Status::Active
        {
            found.push(l.feature);
        }
    }
    match found.len() {
        1 => Ok(found.remove(0)),
        0 => Err(CliError::error(
            "no active pipeline; start one with `workflow-state pipeline start <slug> --request <text>` (or /phasegate:pipeline <request>)",
        )),
        _ => Err(CliError::error(format!(
            "several active pipelines: {}; pass --feature <name>",
            found.iter().map(|f| f.name()).collect::<Vec<_>>().join(", ")
        ))),
    }
}

/// Reads the run; a pipeline feature without state.json is an error that says so.
pub fn load_run(feature: &Feature) -> CliResult<Run> {
    feature.read_task::<Run>(FileKind::State, STATE_FILE)?.ok_or_else(|| {
        CliError::error(format!(
            "{} is missing; this pipeline was never started or its .task folder was removed. Run `workflow-state pipeline reset --feature {}` to start it again",
            feature.task_path(STATE_FILE).display(),
            feature.name()
        ))
    })
}

pub fn load_loop(feature: &Feature) -> CliResult<Option<LoopState>> {
    Ok(feature.read_task::<LoopState>(FileKind::LoopState, loop_file())?)
}

pub fn loop_file() -> &'static str {
    FileKind::LoopState.task_file().expect("loop-state has a task file")
}

/// Locks the feature, reads the run, lets `change` modify it, writes it back.
pub fn with_run<T>(
    ctx: &Ctx<'_>,
    feature: &Feature,
    change: impl FnOnce(&mut Run, &FeatureGuard<'_>) -> CliResult<T>,
) -> CliResult<T> {
    let guard = feature.lock(ctx.lock_timeout)?;
    let mut run = load_run(feature)?;
    let out = change(&mut run, &guard)?;
    guard.write_task(STATE_FILE, &run)?;
    Ok(out)
}

/// Where the code lives: the feature's worktree, else the project root.
pub fn code_dir(project: &Project, feature: &Feature) -> CliResult<PathBuf> {
    Ok(project.code_dir(&feature.load()?))
}

pub fn plan(feature: &Feature) -> CliResult<PlanRefined> {
    let file = FileKind::PlanRefined.task_file().expect("plan has a task file");
    feature.read_task::<PlanRefined>(FileKind::PlanRefined, file)?.ok_or_else(|| {
        CliError::error(format!("{} is missing; the planner writes it", feature.task_path(file).display()))
    })
}

/// Runs the plan's test commands in the code directory, each bounded by the
/// configured timeout.
pub fn run_tests(project: &Project, feature: &Feature, config: &Config) -> CliResult<(TestOutcome, Vec<CommandRun>)> {
    let plan = plan(feature)?;
    let dir = code_dir(project, feature)?;
    let timeout = Duration::from_secs(config.stop_hook.test_timeout_seconds);
    let mut runs = Vec::new();
    for command in &plan.test_plan.commands {
        let f = process::run_shell(command, &dir, timeout)
            .map_err(|e| CliError::error(format!("cannot run `{command}` in {}: {e}", dir.display())))?;
        let failed = f.timed_out || f.exit != Some(0);
        runs.push(CommandRun {
            command: command.clone(),
            exit: f.exit,
            timed_out: f.timed_out,
            output: format!("{}{}", f.stdout, f.stderr),
        });
        if failed {
            break;
        }
    }
    Ok((tests_eval::evaluate(&plan.test_plan, &runs), runs))
}

/// The next action as JSON, for every command that changes the run.
pub fn action_json(run: &Run, feature: &Feature) -> serde_json::Value {
    serde_json::to_value(next::next(run, feature.name())).expect("serialisable")
}

/// Makes the loop hold its owner again (after resume, recover or claim into
/// implementing_loop). `fresh_budget` restarts the iteration count.
pub fn reactivate_loop(
    guard: &FeatureGuard<'_>,
    run: &Run,
    now: chrono::DateTime<chrono::Utc>,
    fresh_budget: bool,
) -> CliResult<()> {
    if run.state != phasegate_core::pipeline::State::ImplementingLoop {
        return Ok(());
    }
    let feature = guard.feature();
    let Some(mut l) = feature.read_task::<LoopState>(FileKind::LoopState, loop_file())? else { return Ok(()) };
    l.active = true;
    l.ended_reason = None;
    l.consecutive_blocks = 0;
    l.session_id = run.owner.as_ref().map(|o| o.session_id.clone());
    l.updated_at = Some(now);
    if fresh_budget {
        l.iteration = 0;
    }
    guard.write_task(loop_file(), &l)?;
    Ok(())
}
