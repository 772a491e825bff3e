//! Is the current directory the feature's worktree?

use phasegate_store::WorktreeStatus;
use serde::Serialize;

use crate::effects::Effects;
use crate::env::Env;
use crate::error::OpResult;
use crate::session;

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Checked {
    pub feature: String,
    pub cwd: String,
    pub worktree: Option<String>,
    pub in_worktree: bool,
    pub message: String,
}

pub fn check(env: &Env, given: Option<&str>) -> OpResult<Checked> {
    let (project, feature) = session::find(env, given)?;
    let meta = feature.load()?;
    let cwd = env.cwd.display().to_string();
    let (ok, worktree, message) = match project.worktree_status(&meta, &env.cwd) {
        WorktreeStatus::NoWorktree => (true, None, "the feature has no worktree; work in the main checkout".to_owned()),
        WorktreeStatus::Inside { worktree } => (true, Some(worktree), "in the feature's worktree".to_owned()),
        WorktreeStatus::Outside { worktree } => {
            let m = format!("{cwd} is not the feature's worktree; cd {} before changing code", worktree.display());
            (false, Some(worktree), m)
        }
        WorktreeStatus::Missing { worktree } => {
            let m = format!(
                "the worktree {} recorded in .meta.json does not exist; recreate it (git worktree add) or clear \"worktree\"",
                worktree.display()
            );
            (false, Some(worktree), m)
        }
    };
    Effects::of("worktree check").turn_to(feature.name()).apply_to_log(&project, env);
    Ok(Checked {
        feature: feature.name().to_owned(),
        cwd,
        worktree: worktree.map(|w| w.display().to_string()),
        in_worktree: ok,
        message,
    })
}
