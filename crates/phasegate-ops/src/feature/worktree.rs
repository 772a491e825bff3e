//! Is the current directory the feature's worktree?

use phasegate_core::feature::WorktreePlace;
use phasegate_store::WorktreeStatus;
use serde::Serialize;

use crate::coordination::effects::Effects;
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
    #[serde(serialize_with = "phasegate_core::words::as_words")]
    pub message: WorktreePlace,
}

pub fn check(env: &Env, given: Option<&str>) -> OpResult<Checked> {
    let (project, feature) = session::find(env, given)?;
    let meta = feature.load()?;
    let cwd = env.cwd.display().to_string();
    let shown = |w: &std::path::Path| w.display().to_string();
    let (ok, worktree, message) = match project.worktree_status(&meta, &env.cwd) {
        WorktreeStatus::NoWorktree => (true, None, WorktreePlace::NoWorktree),
        WorktreeStatus::Inside { worktree } => (true, Some(worktree), WorktreePlace::Inside),
        WorktreeStatus::Outside { worktree } => {
            let place = WorktreePlace::Outside { cwd: cwd.clone(), worktree: shown(&worktree) };
            (false, Some(worktree), place)
        }
        WorktreeStatus::Missing { worktree } => {
            (false, Some(worktree.clone()), WorktreePlace::Missing { worktree: shown(&worktree) })
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
