//! The cost's part of the hooks: SessionStart notes where the session's
//! transcript is (an id used again with a new transcript keeps its earlier
//! one); UserPromptSubmit notes a phase command (its first requests are
//! the phase's it starts); PreToolUse notes a sub-agent spawned with a
//! task's context package (by its tool use's id, which its transcript's
//! meta file names); Stop says in one line when the session's feature is
//! at 80% of its budget or over it (only when a budget is configured:
//! otherwise one `stat`). Nothing is written outside a project (a git
//! repository, or a folder with features): a session that starts in any
//! other folder leaves no trace there.

use phasegate_core::cost::{command_of_prompt, task_of_prompt};
use phasegate_store::Project;
use serde_json::Value;

use super::budget;
use crate::hook::{Contributor, HOOK_LOCK_WAIT, HookCtx, StopVote};

/// The session's project, where its cost log may be written: none in a
/// folder that is no project (its runtime folder would be a `.phasegate`
/// folder made in whatever folder the session starts in).
fn repository<'a>(ctx: &'a HookCtx<'_>) -> Option<&'a Project> {
    ctx.project().ok().filter(|p| p.is_project())
}

pub struct Cost;

pub static COST: Cost = Cost;

impl Contributor for Cost {
    fn session_start(&self, ctx: &HookCtx<'_>) -> Vec<String> {
        let (Some(path), Some(session), Some(project)) =
            (ctx.input.transcript_path.as_deref(), ctx.session(), repository(ctx))
        else {
            return Vec::new();
        };
        // A resumed session with the same transcript: one read, no lock.
        if project.cost().session(&session).ok().flatten().and_then(|l| l.transcript).as_deref() == Some(path) {
            return Vec::new();
        }
        let _ = project.cost().update_session(&session, HOOK_LOCK_WAIT, |log| log.note_transcript(path));
        Vec::new()
    }

    /// A phase command (`/phasegate:design …`, `/phasegate:pipeline …`):
    /// when it was typed. Any other prompt costs a prefix check.
    fn user_prompt(&self, ctx: &HookCtx<'_>) -> Vec<String> {
        let Some(command) = ctx.input.prompt.as_deref().and_then(command_of_prompt) else { return Vec::new() };
        if let (Some(session), Some(project)) = (ctx.session(), repository(ctx)) {
            let _ = project.cost().update_session(&session, HOOK_LOCK_WAIT, |log| {
                log.note_command(command, ctx.env.now);
                true
            });
        }
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
        if let Some(project) = repository(ctx) {
            let _ = project
                .cost()
                .update_session(&session, HOOK_LOCK_WAIT, |log| log.agent_tasks.insert(id, (feature, task)).is_none());
        }
        crate::hook::ToolVote::Pass
    }

    fn stop(&self, ctx: &HookCtx<'_>) -> StopVote {
        let (Ok(project), Some(session)) = (ctx.project(), ctx.session()) else { return StopVote::Pass };
        if !project.cost().has_config() {
            return StopVote::Pass;
        }
        let Some(name) = project.cost().session(&session).ok().flatten().and_then(|l| l.feature().map(str::to_owned))
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
