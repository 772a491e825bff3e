//! `pipeline dry-run`: validate the setup (seed 001, Dry-Run Validation).
//! Each check passes or fails with the fix.

use std::path::{Path, PathBuf};

use phasegate_core::agent::Agent;
use phasegate_core::pipeline::PipelineRun;
use phasegate_core::pipeline::files::{STATE_FILE, TASK_DIR};
use phasegate_core::pipeline::{Config, WhenUnavailable};
use phasegate_core::words::Command;
use phasegate_store::{files, git, process};
use serde::Serialize;

use super::find;
use crate::env::Env;
use crate::error::OpResult;
use crate::session;

const AGENTS: [Agent; 5] =
    [Agent::RequirementsGatherer, Agent::Planner, Agent::PlanReviewer, Agent::Implementer, Agent::CodeReviewer];

#[derive(Debug, Clone, Serialize)]
pub struct Check {
    pub check: String,
    pub ok: bool,
    pub detail: String,
}

/// The checks made so far, in order.
#[derive(Default)]
struct Checks(Vec<Check>);

impl Checks {
    fn add(&mut self, check: &str, ok: bool, detail: String) {
        self.0.push(Check { check: check.into(), ok, detail });
    }
}

/// Every check, in order.
pub fn dry_run(env: &Env, given: Option<&str>) -> OpResult<Vec<Check>> {
    let mut checks = Checks::default();
    check_plugin(&mut checks);
    // The project's configuration and the pipeline's files.
    let project = session::project(env)?;
    let config = match project.pipeline().config() {
        Ok(c) => {
            let path = project.pipeline().config_path();
            let detail = if project.pipeline().has_config() {
                path.display().to_string()
            } else {
                "not present: defaults apply".into()
            };
            checks.add("pipeline.config.json valid", true, detail);
            c
        }
        Err(e) => {
            checks.add("pipeline.config.json valid", false, e.to_string());
            Default::default()
        }
    };
    check_pipeline_files(env, given, &mut checks);
    check_tools(&config, &mut checks);
    Ok(checks.0)
}

/// The plugin this binary belongs to: its commands, agents and hooks, and
/// the hook binary beside this one.
fn check_plugin(checks: &mut Checks) {
    let mut add = |check: &str, ok: bool, detail: String| checks.add(check, ok, detail);
    match plugin_root() {
        Some(root) => {
            for (what, rel) in [
                ("command /phasegate:pipeline", "commands/pipeline.md"),
                ("command /phasegate:cancel-loop", "commands/cancel-loop.md"),
                ("command /phasegate:review-codex", "commands/review-codex.md"),
                ("docs (README.md)", "README.md"),
            ] {
                let ok = files::is_regular_file(&root.join(rel));
                let detail = if ok {
                    rel.to_owned()
                } else {
                    format!("{} is missing; reinstall the plugin (scripts/install.sh)", root.join(rel).display())
                };
                add(what, ok, detail);
            }
            let missing: Vec<&str> = AGENTS
                .into_iter()
                .map(Agent::name)
                .filter(|a| !files::is_regular_file(&root.join(format!("agents/{a}.md"))))
                .collect();
            let detail = if missing.is_empty() {
                AGENTS.map(Agent::name).join(", ")
            } else {
                format!("missing: {}; reinstall the plugin", missing.join(", "))
            };
            add("agents (5)", missing.is_empty(), detail);
            let hooks = files::read_optional(&root.join("hooks/hooks.json")).ok().flatten().unwrap_or_default();
            let ok = hooks.contains("\"Stop\"") && hooks.contains("\"stop\"");
            let detail = if ok {
                "hooks/hooks.json".into()
            } else {
                "hooks/hooks.json does not register the Stop hook; reinstall the plugin".into()
            };
            add("Stop hook registered", ok, detail);
        }
        None => add(
            "plugin files",
            false,
            "cannot find the plugin folder (.claude-plugin/plugin.json) above this binary; reinstall with scripts/install.sh"
                .into(),
        ),
    }
    let hook = std::env::current_exe().ok().and_then(|e| e.parent().map(|d| d.join(exe("phasegate-hook"))));
    let ok = hook.as_deref().is_some_and(executable);
    add(
        "hook binary executable",
        ok,
        match &hook {
            Some(h) if ok => h.display().to_string(),
            Some(h) => format!("{} is missing or not executable; run scripts/install.sh (or chmod +x it)", h.display()),
            None => "cannot locate this binary".into(),
        },
    );
}

/// The feature's pipeline files: its `.task/` folder, its state, and that
/// git ignores them.
fn check_pipeline_files(env: &Env, given: Option<&str>, checks: &mut Checks) {
    let mut add = |check: &str, ok: bool, detail: String| checks.add(check, ok, detail);
    match find(env, given) {
        Ok((project, feature)) => {
            let task = feature.task_dir();
            let task_found = feature.has_task_dir();
            let detail = if task_found {
                task.display().to_string()
            } else {
                format!(
                    "{} is missing; run `{pipeline_reset}`",
                    task.display(),
                    pipeline_reset = Command::new("pipeline reset").feature(&feature.name())
                )
            };
            add(".task/ directory exists", task_found, detail);
            match feature.read_owned_task::<PipelineRun>() {
                Ok(Some(run)) => add("state.json valid", true, format!("state {}", run.state)),
                Ok(None) => add(
                    "state.json valid",
                    false,
                    format!(
                        "{} is missing; run `{pipeline_reset}`",
                        feature.task_path(STATE_FILE).display(),
                        pipeline_reset = Command::new("pipeline reset").feature(&feature.name())
                    ),
                ),
                Err(e) => add("state.json valid", false, e.to_string()),
            }
            if project.repo().is_some() {
                match git::is_ignored(project.root(), &task) {
                    Ok(true) => add(".task ignored by git", true, format!("{TASK_DIR}/ is ignored")),
                    Ok(false) => add(
                        ".task ignored by git",
                        false,
                        format!("add `{TASK_DIR}/` to .gitignore (or .git/info/exclude)"),
                    ),
                    Err(e) => add(".task ignored by git", false, e.to_string()),
                }
            }
        }
        Err(e) => add("pipeline", true, format!("no pipeline checked: {e}")),
    }
}

/// Tools: git, and the final gate's reviewer.
fn check_tools(config: &Config, checks: &mut Checks) {
    let mut add = |check: &str, ok: bool, detail: String| checks.add(check, ok, detail);
    let git_ok = process::find_program("git").is_some();
    add("git on PATH", git_ok, if git_ok { "found".into() } else { "install git".into() });
    let program = config.final_gate.command.first().cloned().unwrap_or_default();
    match (process::find_program(&program), config.final_gate.when_unavailable) {
        (Some(p), _) => add("final gate reviewer", true, format!("{program} at {}", p.display())),
        (None, WhenUnavailable::Skip) => add(
            "final gate reviewer",
            true,
            format!(
                "`{program}` not found: the final gate will be skipped with a recorded reason (finalGate.whenUnavailable = skip)"
            ),
        ),
        (None, WhenUnavailable::Block) => add(
            "final gate reviewer",
            false,
            format!(
                "`{program}` not found and finalGate.whenUnavailable = block; install it or set whenUnavailable to skip"
            ),
        ),
    }
}

fn plugin_root() -> Option<PathBuf> {
    let exe = phasegate_store::files::current_exe()?;
    exe.ancestors()
        .skip(1)
        .find(|d| phasegate_store::files::is_file(&d.join(".claude-plugin/plugin.json")))
        .map(Path::to_path_buf)
}

fn exe(name: &str) -> String {
    format!("{name}{}", std::env::consts::EXE_SUFFIX)
}

fn executable(p: &Path) -> bool {
    phasegate_store::files::is_executable(p)
}
