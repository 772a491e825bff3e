//! A feature's requirements and the checks that prove them, from its
//! files: a phased feature's spec.md and tasks.md `## Checks`; a
//! pipeline's user story (its acceptance criteria) and plan
//! (`test_plan.checks`).

use phasegate_core::Artifact;
use phasegate_core::feature::{Meta, Workflow};
use phasegate_core::pipeline::files::{FileKind, PlanRefined};
use phasegate_core::proof::{self, CheckDecl, GrammarError, LineError, Requirement};
use phasegate_core::words::Command;
use phasegate_store::{Feature, Project, files};
use serde::Serialize;
use serde_json::Value;

use crate::coordination::effects::Effects;
use crate::env::Env;
use crate::error::{Invalid, OpError, OpResult};
use crate::session;

/// What a feature must prove, and what proves it.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Sources {
    pub requirements: Vec<Requirement>,
    pub checks: Vec<CheckDecl>,
    /// Where the requirements come from, from the project's root.
    pub requirements_file: String,
    /// Where the checks are declared, from the project's root.
    pub checks_file: String,
    /// How a check is added there, in the file's own form.
    pub add_check: String,
}

impl Sources {
    /// The checks that name `id`.
    pub fn checks_of<'a>(&'a self, id: &'a str) -> impl Iterator<Item = &'a CheckDecl> + 'a {
        self.checks.iter().filter(move |c| c.requirements.iter().any(|r| r == id))
    }

    /// The requirements no check names.
    pub fn unchecked(&self) -> Vec<String> {
        self.requirements.iter().filter(|r| self.checks_of(&r.id).next().is_none()).map(|r| r.id.clone()).collect()
    }
}

fn rel(project: &Project, path: &std::path::Path) -> String {
    files::relative(path, project.root()).display().to_string()
}

/// Reads a feature's requirements and checks; a file that breaks its
/// grammar is an error naming it and each line.
pub fn sources(project: &Project, feature: &Feature, meta: &Meta) -> OpResult<Sources> {
    match meta.workflow {
        Workflow::Phased => phased(project, feature),
        Workflow::Pipeline => pipeline(project, feature),
    }
}

fn phased(project: &Project, feature: &Feature) -> OpResult<Sources> {
    let spec_path = feature.artifact_path(Artifact::Spec);
    let requirements_file = rel(project, &spec_path);
    let Some(spec) = feature.read_artifact(Artifact::Spec)? else {
        return Err(Invalid::NoSpec { file: requirements_file }.into());
    };
    let requirements =
        proof::requirements(&spec).map_err(|error| OpError::Grammar { file: requirements_file.clone(), error })?;
    let tasks_path = feature.artifact_path(Artifact::Tasks);
    let checks_file = rel(project, &tasks_path);
    let (checks, mut errors) = match feature.read_artifact(Artifact::Tasks)? {
        None => (Vec::new(), Vec::new()),
        Some(text) => proof::checks_and_errors(&text),
    };
    errors.extend(proof::unknown_ids(&requirements, &checks));
    if !errors.is_empty() {
        errors.sort_by_key(|e| e.line);
        return Err(OpError::Grammar { file: checks_file, error: GrammarError(errors) });
    }
    let add_check = format!("add one per requirement under `## Checks` in {checks_file} (`- R1: `<command>``)");
    Ok(Sources { requirements, checks, requirements_file, checks_file, add_check })
}

fn pipeline(project: &Project, feature: &Feature) -> OpResult<Sources> {
    let story_file = FileKind::UserStory.task_file().expect("the user story has a file");
    let requirements_file = rel(project, &feature.task_path(story_file));
    let story: Value = feature
        .read_task(FileKind::UserStory, story_file)?
        .ok_or_else(|| Invalid::NoUserStory { file: requirements_file.clone() })?;
    let text = |c: &Value, k: &str| c.get(k).and_then(Value::as_str).unwrap_or_default().to_owned();
    let requirements: Vec<Requirement> = story
        .get("acceptance_criteria")
        .and_then(Value::as_array)
        .map(|list| {
            list.iter()
                .map(|c| Requirement {
                    id: text(c, "id"),
                    line: 0,
                    text: text(c, "scenario"),
                    criteria: ["given", "when", "then"]
                        .iter()
                        .map(|k| format!("{} {}", capital(k), text(c, k)))
                        .collect(),
                })
                .collect()
        })
        .unwrap_or_default();
    let plan_file = FileKind::PlanRefined.task_file().expect("the plan has a file");
    let checks_file = rel(project, &feature.task_path(plan_file));
    let checks: Vec<CheckDecl> = match feature.read_task::<PlanRefined>(FileKind::PlanRefined, plan_file)? {
        None => Vec::new(),
        Some(plan) => plan
            .test_plan
            .checks
            .into_iter()
            .enumerate()
            .map(|(i, c)| CheckDecl { line: i + 1, requirements: c.requirements, command: c.command, junit: c.junit })
            .collect(),
    };
    let known: Vec<&str> = requirements.iter().map(|r| r.id.as_str()).collect();
    let unknown: Vec<LineError> = checks
        .iter()
        .flat_map(|c| {
            c.requirements.iter().filter(|r| !known.contains(&r.as_str())).map(|r| LineError {
                line: c.line,
                message: format!(
                    "test_plan.checks[{}] names {r}, which is not an acceptance criterion of {requirements_file} ({})",
                    c.line - 1,
                    known.join(", ")
                ),
            })
        })
        .collect();
    if !unknown.is_empty() {
        return Err(OpError::Grammar { file: checks_file, error: GrammarError(unknown) });
    }
    let add_check = format!(
        "add one per criterion to `test_plan.checks` in {checks_file} (`{{\"requirements\": [\"AC1\"], \"command\": \"<command>\"}}`), then check the plan with `{pipeline_check_plan_refined}`",
        pipeline_check_plan_refined = Command::new("pipeline check plan-refined").feature(&feature.name())
    );
    Ok(Sources { requirements, checks, requirements_file, checks_file, add_check })
}

fn capital(word: &str) -> String {
    let mut c = word.chars();
    c.next().map(|f| f.to_uppercase().collect::<String>() + c.as_str()).unwrap_or_default()
}

/// One requirement as `verify list` shows it.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Listed {
    pub id: String,
    pub text: String,
    pub checks: Vec<String>,
}

/// What `verify list` prints.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Listing {
    pub feature: String,
    pub requirements_file: String,
    pub checks_file: String,
    pub requirements: Vec<Listed>,
    /// Requirements no check names.
    pub unchecked: Vec<String>,
    /// How a check is added, in the checks file's own form.
    pub add_check: String,
}

/// Each requirement and the checks that name it.
pub fn list(env: &Env, given: Option<&str>) -> OpResult<Listing> {
    let (project, feature) = session::find(env, given)?;
    let meta = feature.load()?;
    let s = sources(&project, &feature, &meta)?;
    Effects::of("verify list").turn_to(feature.name()).apply_to_log(&project, env);
    Ok(Listing {
        feature: feature.name().to_owned(),
        requirements: s
            .requirements
            .iter()
            .map(|r| Listed {
                id: r.id.clone(),
                text: r.text.clone(),
                checks: s.checks_of(&r.id).map(|c| c.command.clone()).collect(),
            })
            .collect(),
        unchecked: s.unchecked(),
        requirements_file: s.requirements_file,
        checks_file: s.checks_file,
        add_check: s.add_check,
    })
}
