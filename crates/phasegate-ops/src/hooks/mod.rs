//! The hooks' registry, above every capability: the hook binary only reads
//! Claude Code's input, calls these, and prints; every problem becomes a
//! message here, never a failed hook. The trait and the context the
//! capabilities implement and read are the kernel's (`crate::hook`).
//!
//! Each hook is a fold over the capabilities that contribute to it: every
//! [`Contributor`] answers "what do you add or decide for this event", and
//! the fold combines the answers (SessionStart, UserPromptSubmit,
//! PostToolUse, StopFailure: the context lines, in order, fitted to one
//! budget by their contributor's [`Rank`]; Stop: a block wins and keeps its reason alone,
//! otherwise the messages are joined; PreToolUse: the first deny wins). A
//! new capability adds a contributor; no hook changes.

use std::path::Path;

use phasegate_core::words::Command;

use crate::env::Env;
pub use crate::hook::{Contributor, HookCtx, HookInput, MAX_CONTEXT, StopOutcome, StopVote, ToolVote, clip, one_line};

pub mod pre_tool_use;

/// Logs a problem a hook could not tell the session (a panic): one line in
/// the project's `hooks/problems.jsonl`, which `workflow-state status`
/// mentions. Returns the log's path; None outside a repository.
pub fn record_problem(input: &HookInput, env: &Env, hook: &str, problem: &str) -> Option<std::path::PathBuf> {
    let layout = HookCtx::new(input, env, None).repo()?;
    let project = phasegate_store::Project::from_layout(layout).with_key_dir(env.key_dir.clone());
    project.coordination().note_problem(env.now, hook, problem).ok()?;
    Some(project.coordination().hook_problems().path)
}

/// How much a contributor's lines are needed when a hook's context is over
/// its budget: the least needed go first, whatever their place.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Rank {
    /// Helps the work along (a gotcha, another session's news, a cost).
    Help,
    /// The work itself (the features, the task in progress).
    Work,
    /// Must be read: a guard, a mark of tampering, a person's question,
    /// the loop that holds the session, an interruption.
    Must,
}

/// Every contributor, in the order their answers are combined, with the
/// rank of its lines.
fn ranked() -> [(&'static dyn Contributor, Rank); 10] {
    [
        (&pre_tool_use::STATE_FILES, Rank::Must),
        (&crate::feature::ACTIVE_FEATURES, Rank::Work),
        (&crate::proof::TAMPER, Rank::Must),
        (&crate::tasks::TASKS, Rank::Work),
        (&crate::knowledge::KNOWLEDGE, Rank::Help),
        (&crate::pipeline::LOOP, Rank::Must),
        (&crate::questions::QUESTIONS, Rank::Must),
        (&crate::coordination::COORDINATION, Rank::Help),
        (&crate::cost::COST, Rank::Help),
        (&crate::interrupt::INTERRUPT, Rank::Must),
    ]
}

/// Every contributor, in the order their answers are combined.
fn contributors() -> impl Iterator<Item = &'static dyn Contributor> {
    ranked().into_iter().map(|(c, _)| c)
}

/// The contributors' lines as one context within `budget` bytes, in their
/// order: when they do not fit, the least needed lines go first (the last
/// of the lowest rank before the others), never the last contributor's
/// merely for being last, and a final line says how many were left out.
pub fn fit(sections: Vec<(Rank, Vec<String>)>, budget: usize) -> String {
    let mut lines: Vec<(Rank, String)> =
        sections.into_iter().flat_map(|(rank, lines)| lines.into_iter().map(move |l| (rank, l))).collect();
    let size = |lines: &[(Rank, String)]| lines.iter().map(|(_, l)| l.len() + 1).sum::<usize>();
    if size(&lines) <= budget + 1 {
        return lines.into_iter().map(|(_, l)| l).collect::<Vec<_>>().join("\n");
    }
    // Room for the line that says what was left out.
    let budget = budget.saturating_sub(120);
    let mut left_out = 0;
    while size(&lines) > budget + 1 {
        let Some(lowest) = lines.iter().map(|(r, _)| *r).min() else { break };
        let i = lines.iter().rposition(|(r, _)| *r == lowest).expect("a line of the lowest rank");
        // A lone line over the budget is cut, not lost.
        if lines.len() == 1 {
            lines[0].1 = clip(&lines[0].1, budget);
            break;
        }
        lines.remove(i);
        left_out += 1;
    }
    let mut out: Vec<String> = lines.into_iter().map(|(_, l)| l).collect();
    if left_out > 0 {
        out.push(format!(
            "phasegate: {left_out} more line(s) left out to keep this context small; `{status}` and `{watch}` show everything.", status = Command::new("status"), watch = Command::new("watch").word("--once")));
    }
    out.join("\n")
}

/// Every contributor's lines for one event, ranked, fitted to the budget.
fn fitted(first: Vec<String>, each: impl Fn(&dyn Contributor) -> Vec<String>) -> String {
    let mut sections = vec![(Rank::Must, first)];
    sections.extend(ranked().into_iter().map(|(c, rank)| (rank, each(c))));
    fit(sections, MAX_CONTEXT)
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
    fitted(Vec::new(), |c| c.user_prompt(&ctx))
}

/// PostToolUse: every contributor's lines.
pub fn post_tool_use(input: &HookInput, env: &Env) -> String {
    let ctx = HookCtx::new(input, env, None);
    fitted(Vec::new(), |c| c.post_tool_use(&ctx))
}

/// StopFailure: every contributor is told; their lines are joined (for the
/// user: the event cannot block or reach the model).
pub fn stop_failure(input: &HookInput, env: &Env) -> String {
    let ctx = HookCtx::new(input, env, None);
    fitted(Vec::new(), |c| c.stop_failure(&ctx))
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
    if !phasegate_store::files::is_dir(&ctx.dir()) {
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
    fitted(lines, |c| c.session_start(&ctx))
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

#[cfg(test)]
mod tests {
    use super::*;

    fn many(tag: &str, n: usize, len: usize) -> Vec<String> {
        (0..n).map(|i| format!("{tag} {i} {}", "x".repeat(len))).collect()
    }

    /// Regression: the context was clipped from its end, so the last
    /// contributors (the interruption, the cost) lost their lines first,
    /// whatever they said.
    #[test]
    fn a_context_over_budget_drops_the_least_needed_lines_not_the_last() {
        let out = fit(
            vec![
                (Rank::Work, many("feature", 3, 40)),
                (Rank::Help, many("gotcha", 50, 40)),
                (Rank::Must, vec!["interrupted: resumes at 15:00".to_owned()]),
            ],
            1_000,
        );
        assert!(out.len() <= 1_000, "{}", out.len());
        assert!(out.contains("interrupted: resumes at 15:00"), "{out}");
        assert!((0..3).all(|i| out.contains(&format!("feature {i} "))), "{out}");
        let kept = out.lines().filter(|l| l.starts_with("gotcha")).count();
        assert!(kept > 0 && kept < 50, "{kept}");
        // The first gotchas stay, the last go; the order is kept.
        assert!(out.contains("gotcha 0 ") && !out.contains("gotcha 49 "));
        let lines: Vec<&str> = out.lines().collect();
        assert!(lines[0].starts_with("feature 0") && lines[lines.len() - 2].starts_with("interrupted"), "{out}");
        assert!(lines.last().unwrap().contains(&format!("{} more line(s) left out", 50 - kept)), "{out}");
    }

    #[test]
    fn a_context_within_budget_is_every_line_in_order() {
        let out = fit(vec![(Rank::Help, vec!["a".into()]), (Rank::Must, vec!["b".into(), "c".into()])], 5);
        assert_eq!(out, "a\nb\nc");
        assert_eq!(fit(vec![(Rank::Must, vec!["y".repeat(50)])], 200), "y".repeat(50));
        let cut = fit(vec![(Rank::Must, vec!["z".repeat(500)])], 200);
        assert!(cut.len() <= 200 && cut.ends_with('…'), "{cut}");
    }
}
