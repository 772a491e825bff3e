//! Which project, which feature, which session: the one place that resolves
//! what a command or a hook acts on. A command names its feature with
//! `--feature`, else the folder or worktree it runs in decides, else the
//! only active feature; a session is Claude Code's `CLAUDE_CODE_SESSION_ID`
//! (or a hook input's `session_id`). A hook finds its repository through
//! its context (`crate::hook::HookCtx`), once for every contributor.

use phasegate_core::Status;
use phasegate_core::feature::Workflow;
use phasegate_store::{Feature, Project};

use crate::env::Env;
use crate::error::{Invalid, OpResult};

/// The project around the working directory, whose writers witness the
/// state files they write with the user's key.
pub fn project(env: &Env) -> OpResult<Project> {
    Ok(Project::discover(&env.cwd)?.with_key_dir(env.key_dir.clone()))
}

/// The working tree holding `path` (a file that need not exist, or a
/// folder): a linked worktree's own root, not the main checkout's. None
/// outside a repository.
pub fn working_tree(path: &std::path::Path) -> Option<std::path::PathBuf> {
    phasegate_store::locate::locate(path).map(|r| r.current_root)
}

/// The project and the feature a command is about (`--feature` or the
/// working directory), found without writing anything: a verb returns the
/// session's turn to the feature among its effects (the `effects` module),
/// for its cost.
pub fn find(env: &Env, given: Option<&str>) -> OpResult<(Project, Feature)> {
    let project = project(env)?;
    let feature = project.resolve(given, &env.cwd)?;
    Ok((project, feature))
}

/// Notes that this session turned to `feature`, when a Claude Code session
/// runs the command (its lock waited for a second at most): what a verb's
/// effects apply, after its own change.
pub(crate) fn note_turn(project: &Project, env: &Env, feature: &str) -> OpResult<()> {
    if let Ok(Some(session)) = env.session(None) {
        let wait = env.lock_timeout.min(std::time::Duration::from_secs(1));
        project.cost().update_session(&session, wait, |log| log.turn_to(feature, env.now))?;
    }
    Ok(())
}

/// The pipeline feature a command is about: `--feature`, else the pipeline
/// this session runs, else the only active pipeline. Found without writing
/// anything.
pub fn find_pipeline(env: &Env, given: Option<&str>) -> OpResult<(Project, Feature)> {
    let project = project(env)?;
    let feature = match given.filter(|f| !f.trim().is_empty()) {
        Some(given) => project.resolve(Some(given), &env.cwd)?,
        None => match env
            .session(None)
            .ok()
            .flatten()
            .map(|s| project.coordination().session_feature(&s))
            .transpose()?
            .flatten()
        {
            Some(f) => f,
            None => only_active_pipeline(&project)?,
        },
    };
    let meta = feature.load()?;
    match meta.workflow {
        Workflow::Pipeline => Ok((project, feature)),
        Workflow::Phased => Err(Invalid::NotAPipeline { feature: feature.name().to_owned() }.into()),
    }
}

fn only_active_pipeline(project: &Project) -> OpResult<Feature> {
    let mut found: Vec<Feature> = Vec::new();
    for l in project.list_active()? {
        if let Ok(meta) = &l.meta
            && meta.workflow == Workflow::Pipeline
            && meta.status == Status::Active
        {
            found.push(l.feature);
        }
    }
    match found.len() {
        1 => Ok(found.remove(0)),
        0 => Err(Invalid::NoActivePipeline.into()),
        _ => Err(Invalid::SeveralPipelines { features: found.iter().map(|f| f.name().to_owned()).collect() }.into()),
    }
}
