//! `workflow-state pipeline start`.

use clap::Args;
use phasegate_core::Mode;
use phasegate_core::meta::Workflow;
use phasegate_core::pipeline::files::{STATE_FILE, TASK_DIR};
use phasegate_core::pipeline::{Run, State};

use super::{action_json, session_id};
use crate::context::Ctx;
use crate::error::{CliError, CliResult};
use crate::exit::ExitStatus;

/// Start a pipeline: create the feature (docs/features/<NNN>-<slug>/ with a
/// .task/ folder), owned by this Claude Code session, in requirements_gathering.
#[derive(Debug, Args)]
pub struct StartArgs {
    /// Short name of the feature: letters, digits, '-', '_', '.'.
    slug: String,
    /// What the user asked for.
    #[arg(long, value_name = "TEXT")]
    request: String,
    /// hotfix | quick | standard | full (recorded on the feature).
    #[arg(long, default_value = "standard")]
    mode: Mode,
    /// Also create a git branch and worktree for the feature.
    #[arg(long)]
    worktree: bool,
    /// The owning session (default: CLAUDE_CODE_SESSION_ID).
    #[arg(long, value_name = "ID")]
    session: Option<String>,
}

pub fn run(args: StartArgs, ctx: &mut Ctx<'_>) -> CliResult {
    if args.request.trim().is_empty() {
        return Err(CliError::error("--request is empty; pass what the user asked for"));
    }
    let project = ctx.project()?;
    let session = session_id(args.session.as_deref());
    let (feature, _) =
        project.create_feature(&args.slug, args.mode, Workflow::Pipeline, args.worktree, ctx.now, ctx.lock_timeout)?;
    project.exclude_from_git(&format!("{TASK_DIR}/"))?;
    let mut run = Run::new(args.request, session.clone(), ctx.now);
    run.transition(State::RequirementsGathering, ctx.now, Some("pipeline started".into()), |_| Ok(()))
        .map_err(|e| CliError::error(e.to_string()))?;
    feature.lock(ctx.lock_timeout)?.write_task(STATE_FILE, &run)?;
    let warning = match &session {
        Some(s) => {
            project.register_session(s, &feature, ctx.now)?;
            None
        }
        None => Some(
            "no Claude Code session id (CLAUDE_CODE_SESSION_ID); the Stop hook enforces this pipeline's loop only after `workflow-state pipeline claim` runs inside a session",
        ),
    };
    ctx.json(&serde_json::json!({
        "feature": feature.name(),
        "dir": feature.dir().display().to_string(),
        "taskDir": feature.task_dir().display().to_string(),
        "state": run.state,
        "owner": session,
        "warning": warning,
        "next": action_json(&run, &feature),
    }))?;
    Ok(ExitStatus::Success)
}
