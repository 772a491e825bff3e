//! Who runs a pipeline: `claim` makes this Claude Code session its owner.

use phasegate_core::pipeline::Owner;
use phasegate_core::pipeline::next::NextAction as Action;
use phasegate_core::pipeline::{PauseReason, State};
use phasegate_core::session::SessionId;
use serde::Serialize;

use super::pauses::reactivate_loop;
use super::{action, find, with_run};
use crate::coordination::effects::Effects;
use crate::env::Env;
use crate::error::{Invalid, OpResult};

/// What `claim` did.
#[derive(Debug, Clone, Serialize)]
pub struct Claimed {
    pub feature: String,
    pub owner: String,
    pub state: State,
    pub next: Action,
}

/// Makes this Claude Code session the pipeline's owner (after /clear, a
/// restart, or in a new session): its Stop hook now enforces the loop, and
/// no other session's does. A loop that expired picks up again. The id is
/// checked before anything changes.
pub fn claim(env: &Env, given: Option<&str>, session: Option<&str>) -> OpResult<Claimed> {
    let session = env.session(session)?.ok_or(Invalid::NoSession)?;
    let (project, feature) = find(env, given)?;
    let (run, previous) = with_run(env, &feature, |run, guard| {
        let previous = run
            .owner
            .replace(Owner { session_id: session.as_str().to_owned(), claimed_at: env.now })
            .map(|o| o.session_id);
        if run.paused.as_ref().is_some_and(|p| p.reason == PauseReason::Stale) {
            run.resume(env.now)?;
        }
        reactivate_loop(guard, run, env, false)?;
        Ok((run.clone(), previous))
    })?;
    if let Some(old) = previous.filter(|o| o != session.as_str()).and_then(|o| SessionId::parse(&o).ok()) {
        project.coordination().unregister_session(&old)?;
    }
    project.coordination().register_session(&session, &feature, env.now)?;
    Effects::of("pipeline claim").turn_to(feature.name()).apply_to_log(&project, env);
    Ok(Claimed {
        feature: feature.name().to_owned(),
        owner: session.to_string(),
        state: run.state,
        next: action(&project, &run, &feature),
    })
}
