//! The cost's part of the hooks: SessionStart notes where the session's
//! transcript is; PreToolUse notes a sub-agent spawned with a task's
//! context package (by its tool use's id, which its transcript's meta file
//! names); Stop says in one line when the session's feature is at 80% of
//! its budget or over it (only when a budget is configured: otherwise one
//! `stat`).

use phasegate_core::cost::task_of_prompt;
use serde_json::Value;

use super::budget;
use crate::hook::{Contributor, HOOK_LOCK_WAIT, HookCtx, StopVote};

pub struct Cost;

pub static COST: Cost = Cost;

impl Contributor for Cost {
    fn session_start(&self, ctx: &HookCtx<'_>) -> Vec<String> {
        let (Some(path), Some(session), Ok(project)) =
            (ctx.input.transcript_path.as_deref(), ctx.session(), ctx.project())
        else {
            return Vec::new();
        };
        // A resumed session with the same transcript: one read, no lock.
        if project.cost_session(&session).ok().flatten().and_then(|l| l.transcript).as_deref() == Some(path) {
            return Vec::new();
        }
        let path = path.to_owned();
        let _ = project.update_cost_session(&session, HOOK_LOCK_WAIT, |log| {
            let changed = log.transcript.as_deref() != Some(path.as_str());
            log.transcript = Some(path);
            changed
        });
        Vec::new()
    }

    fn pre_tool_use(&self, ctx: &HookCtx<'_>) -> crate::hook::ToolVote {
        let tool = ctx.input.tool_name.as_deref();
        if !matches!(tool, Some("Agent" | "Task")) {
            return crate::hook::ToolVote::Pass;
        }
        let prompt = ctx.input.tool_input.as_ref().and_then(|i| i.get("prompt")).and_then(Value::as_str);
        let (Some((feature, task)), Some(id), Some(session)) =
            (prompt.and_then(task_of_prompt), ctx.input.tool_use_id.clone(), ctx.session())
        else {
            return crate::hook::ToolVote::Pass;
        };
        if let Ok(project) = ctx.project() {
            let _ = project.update_cost_session(&session, HOOK_LOCK_WAIT, |log| {
                log.agent_tasks.insert(id, (feature, task)).is_none()
            });
        }
        crate::hook::ToolVote::Pass
    }

    fn stop(&self, ctx: &HookCtx<'_>) -> StopVote {
        let (Ok(project), Some(session)) = (ctx.project(), ctx.session()) else { return StopVote::Pass };
        if !project.has_cost_config() {
            return StopVote::Pass;
        }
        let Some(name) = project.cost_session(&session).ok().flatten().and_then(|l| l.feature().map(str::to_owned))
        else {
            return StopVote::Pass;
        };
        let feature = project.feature_named(&name);
        let Ok(meta) = feature.load() else { return StopVote::Pass };
        match budget::state(project, &ctx.hook_env(), &feature, &meta) {
            Ok(state) => state.line(&name).map_or(StopVote::Pass, StopVote::Note),
            Err(_) => StopVote::Pass,
        }
    }
}
