//! The hooks' registry, above every capability: the hook binary only reads
//! Claude Code's input, calls these, and prints; every problem becomes a
//! message here, never a failed hook. The trait and the context the
//! capabilities implement and read are the kernel's (`crate::hook`).
//!
//! Each hook is a fold over the capabilities that contribute to it: every
//! [`Contributor`] answers "what do you add or decide for this event", and
//! the fold combines the answers (SessionStart: the context lines, in order,
//! under one budget; Stop: a block wins and keeps its reason alone,
//! otherwise the messages are joined; PreToolUse: the first deny wins). A
//! new capability adds a contributor; no hook changes.

use std::path::Path;

use crate::env::Env;
pub use crate::hook::{Contributor, HookCtx, HookInput, MAX_CONTEXT, StopOutcome, StopVote, ToolVote, clip, one_line};

pub mod pre_tool_use;

/// Logs a problem a hook could not tell the session (a panic): one line in
/// the project's `hooks/problems.jsonl`, which `workflow-state status`
/// mentions. Returns the log's path; None outside a repository.
pub fn record_problem(input: &HookInput, env: &Env, hook: &str, problem: &str) -> Option<std::path::PathBuf> {
    let layout = HookCtx::new(input, env, None).repo()?;
    let project = phasegate_store::Project::from_layout(layout).with_key_dir(env.key_dir.clone());
    let log = project.hook_problems();
    let line = phasegate_store::coordination::events::HookProblem {
        at: env.now,
        hook: hook.to_owned(),
        problem: problem.to_owned(),
    };
    log.append(&[line], std::time::Duration::from_secs(2)).ok()?;
    Some(log.path)
}

/// Every contributor, in the order their answers are combined.
fn contributors() -> [&'static dyn Contributor; 10] {
    [
        &pre_tool_use::STATE_FILES,
        &crate::feature::ACTIVE_FEATURES,
        &crate::proof::TAMPER,
        &crate::tasks::TASKS,
        &crate::knowledge::KNOWLEDGE,
        &crate::pipeline::LOOP,
        &crate::questions::QUESTIONS,
        &crate::coordination::COORDINATION,
        &crate::cost::COST,
        &crate::interrupt::INTERRUPT,
    ]
}

/// PreToolUse: the first deny wins, and carries the context the
/// contributors before it gave (a gotcha they noted as given must reach the
/// model with the deny); otherwise the contributors' context is joined (the
/// state-file guard needs no project; a contributor that does finds it
/// through the context, once).
pub fn pre_tool_use(input: &HookInput, env: &Env) -> ToolVote {
    let ctx = HookCtx::new(input, env, None);
    let mut context = Vec::new();
    for c in contributors() {
        match c.pre_tool_use(&ctx) {
            ToolVote::Pass => {}
            ToolVote::Deny(reason) => {
                context.insert(0, reason);
                return ToolVote::Deny(context.join("\n"));
            }
            ToolVote::Context(text) => context.push(text),
        }
    }
    if context.is_empty() { ToolVote::Pass } else { ToolVote::Context(context.join("\n")) }
}

/// UserPromptSubmit: every contributor's lines.
pub fn user_prompt(input: &HookInput, env: &Env) -> String {
    let ctx = HookCtx::new(input, env, None);
    let lines: Vec<String> = contributors().iter().flat_map(|c| c.user_prompt(&ctx)).collect();
    clip(&lines.join("\n"), MAX_CONTEXT)
}

/// PostToolUse: every contributor's lines.
pub fn post_tool_use(input: &HookInput, env: &Env) -> String {
    let ctx = HookCtx::new(input, env, None);
    let lines: Vec<String> = contributors().iter().flat_map(|c| c.post_tool_use(&ctx)).collect();
    clip(&lines.join("\n"), MAX_CONTEXT)
}

/// StopFailure: every contributor is told; their lines are joined (for the
/// user: the event cannot block or reach the model).
pub fn stop_failure(input: &HookInput, env: &Env) -> String {
    let ctx = HookCtx::new(input, env, None);
    let lines: Vec<String> = contributors().iter().flat_map(|c| c.stop_failure(&ctx)).collect();
    clip(&lines.join("\n"), MAX_CONTEXT)
}

/// SessionEnd: every contributor is told.
pub fn session_end(input: &HookInput, env: &Env) {
    let ctx = HookCtx::new(input, env, None);
    for c in contributors() {
        c.session_end(&ctx);
    }
}

/// SessionStart: every contributor's lines, in order, under the budget.
/// `note` is a problem with the input itself.
pub fn session_start(input: &HookInput, env: &Env, note: Option<String>, workflow_state: Option<&Path>) -> String {
    phasegate_store::failpoint::panic_at("session-start");
    let ctx = HookCtx::new(input, env, workflow_state);
    let mut lines: Vec<String> = note.into_iter().map(|n| format!("phasegate: {n}")).collect();
    // The folder is gone (a removed worktree, say): said once, in one line.
    if !phasegate_store::fs::is_dir(&ctx.dir()) {
        lines.push(format!(
            "phasegate: this session's folder {} does not exist (a removed worktree?); there is nothing to report.",
            ctx.dir().display()
        ));
        return lines.join("\n");
    }
    if let Err(why) = ctx.project() {
        lines.push(format!("phasegate: {}", one_line(&why.to_string())));
        return lines.join("\n");
    }
    for c in contributors() {
        lines.extend(c.session_start(&ctx));
    }
    clip(&lines.join("\n"), MAX_CONTEXT)
}

/// Stop: every contributor votes; a block wins and keeps its reason alone
/// (it goes to the model; the notes come again at a later stop), otherwise
/// the notes are joined. A session is never held by a problem: a project
/// that cannot be found allows the stop and says why.
pub fn stop(input: &HookInput, env: &Env, note: Option<String>, workflow_state: Option<&Path>) -> StopOutcome {
    let ctx = HookCtx::new(input, env, workflow_state);
    let mut notes: Vec<String> = note.into_iter().map(|n| format!("phasegate: {n}; the stop is allowed.")).collect();
    if ctx.session().is_none() && input.session(env).is_none() {
        return notes.pop().map_or(StopOutcome::Silent, |message| StopOutcome::Allow { message });
    }
    // Regression: the Stop hook was silent where SessionStart reported git
    // refusing the repository (e.g. owned by another user).
    if let Err(why) = ctx.project() {
        notes.push(format!("phasegate: {}; the stop is allowed.", one_line(&why.to_string())));
        return StopOutcome::Allow { message: notes.join("\n") };
    }
    let mut block = None;
    for c in contributors() {
        match c.stop(&ctx) {
            StopVote::Pass => {}
            StopVote::Note(n) => notes.push(n),
            StopVote::Block(reason) => {
                block.get_or_insert(reason);
            }
        }
    }
    match block {
        Some(reason) => StopOutcome::Block { reason },
        None if notes.is_empty() => StopOutcome::Silent,
        None => StopOutcome::Allow { message: notes.join("\n") },
    }
}
