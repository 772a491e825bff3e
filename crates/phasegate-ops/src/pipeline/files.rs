//! The pipeline's files: checking one against its schema (the same check
//! every loader makes), reading the worker signal, and printing a schema.

use std::path::Path;

use phasegate_core::pipeline::files::{self, SignalStatus, WorkerQuestion as Question, WorkerSignal};
use phasegate_core::pipeline::{FileKind, validate};
use phasegate_core::words::Command;
use phasegate_store::files as user_files;
use serde::Serialize;

use super::find;
use crate::coordination::effects::Effects;
use crate::env::Env;
use crate::error::{Invalid, OpResult};
use crate::session;

/// Checks a pipeline file. `file` defaults to the kind's file in the
/// pipeline's `.task/` (or the project's configuration).
pub fn check(env: &Env, given: Option<&str>, kind: FileKind, file: Option<&Path>) -> OpResult<String> {
    // A file named on the command line is the user's; the others are the
    // configuration's and the pipeline's own, read through their handles.
    let (path, text) = match (file, kind) {
        (Some(f), _) => {
            let path = env.cwd.join(f);
            let text = user_files::read_optional(&path)?;
            (path, text)
        }
        (None, FileKind::Config) => {
            let project = session::project(env)?;
            (project.pipeline().config_path(), project.pipeline().config_text()?)
        }
        (None, FileKind::Review) => {
            return Err(Invalid::ReviewFileNeeded.into());
        }
        (None, kind) => {
            let (_, feature) = find(env, given)?;
            let file = kind.task_file().expect("kinds other than review and config have a task file");
            (feature.task_path(file), feature.read_task_text(file)?)
        }
    };
    let text = text.ok_or_else(|| Invalid::NoFileToCheck { path: path.clone() })?;
    let valid = validate(kind, &text).and_then(|()| match kind {
        // A plan must be able to prove its story: refused here, where the
        // planner checks it, not after the reviews and the loop.
        FileKind::PlanRefined => {
            let plan: files::PlanRefined = files::parse(kind, &text)?;
            let story = find(env, given).ok().and_then(|(_, f)| story_criteria(&f));
            files::plan_proves(&plan.test_plan.checks, story.as_deref()).map_err(files::FileError::Rule)
        }
        FileKind::WorkerSignal
        | FileKind::UserStory
        | FileKind::Review
        | FileKind::ImplResult
        | FileKind::LoopState
        | FileKind::Config
        | FileKind::State => Ok(()),
    });
    match valid {
        Ok(()) => Ok(format!(
            "ok: {} is a valid {kind} file (schema: `{schema}`)",
            path.display(),
            schema = Command::new("schema").arg(&kind)
        )),
        Err(source) => Err(Invalid::PipelineFile { path, kind, source }.into()),
    }
}

/// The acceptance criteria of `feature`'s user story, when it can be read.
pub(crate) fn story_criteria(feature: &phasegate_store::Feature) -> Option<Vec<String>> {
    let file = FileKind::UserStory.task_file()?;
    let story: serde_json::Value = feature.read_task(FileKind::UserStory, file).ok()??;
    Some(files::acceptance_criteria(&story))
}

/// Whether the feature's plan can prove its user story (see
/// [`files::plan_proves`]); why not, naming the file.
pub(crate) fn plan_proves_story(feature: &phasegate_store::Feature) -> Result<(), String> {
    let file = FileKind::PlanRefined.task_file().expect("the plan has a file");
    let plan: files::PlanRefined = match feature.read_task(FileKind::PlanRefined, file) {
        Ok(Some(p)) => p,
        Ok(None) => return Ok(()),
        Err(e) => return Err(e.to_string()),
    };
    let story = story_criteria(feature);
    files::plan_proves(&plan.test_plan.checks, story.as_deref()).map_err(|why| {
        format!(
            "{} cannot prove the user story: {why} (`{pipeline_check_plan_refined}`)",
            feature.task_path(file).display(),
            pipeline_check_plan_refined = Command::new("pipeline check plan-refined").feature(&feature.name())
        )
    })
}

/// What `signal` prints.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Signal {
    pub worker: String,
    pub agent_id: Option<String>,
    pub phase: String,
    pub status: SignalStatus,
    pub questions: Vec<Question>,
    pub error: Option<String>,
    pub action: String,
}

/// Reads `.task/worker-signal.json` (checked against its schema) and says
/// what the orchestrator does: ask the worker's questions, go on, or fail.
pub fn signal(env: &Env, given: Option<&str>) -> OpResult<Signal> {
    let (project, feature) = find(env, given)?;
    let file = FileKind::WorkerSignal.task_file().expect("task file");
    let signal: WorkerSignal = feature
        .read_task(FileKind::WorkerSignal, file)?
        .ok_or_else(|| Invalid::NoWorkerSignal { path: feature.task_path(file) })?;
    let f = feature.name();
    let action = match signal.status {
        SignalStatus::NeedsInput => {
            "Ask the user these questions (AskUserQuestion), then resume the worker with the answers.".to_owned()
        }
        SignalStatus::Completed => {
            format!(
                "The worker finished; continue with `{pipeline_next}`.",
                pipeline_next = Command::new("pipeline next").feature(&f)
            )
        }
        SignalStatus::InProgress => "The worker is still working; wait for it.".to_owned(),
        SignalStatus::Error => format!(
            "The worker failed; if it cannot be fixed, record it with `{pipeline_fail}`.",
            pipeline_fail = Command::new("pipeline fail").word("--message <text>").feature(&f)
        ),
    };
    Effects::of("pipeline signal").turn_to(feature.name()).apply_to_log(&project, env);
    Ok(Signal {
        worker: signal.worker_id,
        agent_id: signal.agent_id,
        phase: signal.phase,
        status: signal.status,
        questions: signal.questions,
        error: signal.error,
        action,
    })
}
