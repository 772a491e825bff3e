//! Which project, which feature, which session: the one place that resolves
//! what a command or a hook acts on. A command names its feature with
//! `--feature`, else the folder or worktree it runs in decides, else the
//! only active feature; a session is Claude Code's `CLAUDE_CODE_SESSION_ID`
//! (or a hook input's `session_id`).

use phasegate_store::{Feature, Project};

use crate::env::Env;
use crate::error::OpResult;

/// The project around the working directory.
pub fn project(env: &Env) -> OpResult<Project> {
    Ok(Project::discover(&env.cwd)?)
}

/// The project and the feature a command is about (`--feature` or the
/// working directory).
pub fn resolve(env: &Env, given: Option<&str>) -> OpResult<(Project, Feature)> {
    let project = project(env)?;
    let feature = project.resolve(given, &env.cwd)?;
    Ok((project, feature))
}
