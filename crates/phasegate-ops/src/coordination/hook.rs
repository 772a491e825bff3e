//! The coordination's part of every hook: each one is the session's
//! heartbeat; SessionStart registers the session, names the other sessions
//! at work and offers the events it can act on; UserPromptSubmit offers
//! new events; PreToolUse enforces file leases on Edit, Write, MultiEdit
//! and NotebookEdit; PostToolUse tells a Bash command's writes to files
//! another session leases; SessionEnd releases everything the session held.
//! Notices left for the session (pause and yield, stop a task, work given
//! to it) are shown at its next hook that can carry context.
//!
//! The per-edit hooks find the repository with a few `stat`s (no libgit2)
//! and read one lease file: see docs/benchmarks.md. A problem here never
//! denies an edit: the edit goes through and the model is told why the
//! lease could not be checked.

use std::path::Path;

use phasegate_core::coordination::{LeaseDecision, LeaseReason, PathCase, SessionRecord};
use phasegate_core::session::SessionId;
use phasegate_core::words::Command;
use phasegate_store::Project;
use phasegate_store::git::RepoLayout;

use super::effects::Effects;
use super::registry::{self, Beat, Came};
use super::{events, leases};
use crate::error::OpResult;
use crate::hook::{Contributor, HOOK_LOCK_WAIT, HookCtx, StopVote, ToolVote, clip, one_line};

/// The coordination's contributor.
pub struct Coordination;

pub static COORDINATION: Coordination = Coordination;

/// At most this many events are offered in one hook's context.
const MAX_OFFERED: usize = 3;

impl Contributor for Coordination {
    fn session_start(&self, ctx: &HookCtx<'_>) -> Vec<String> {
        let (Ok(project), Some(session)) = (ctx.project(), ctx.session()) else { return Vec::new() };
        let Some(repo) = project.repo() else { return Vec::new() };
        let (me, came) =
            match registry::ensure(project, &session, &ctx.dir(), &repo.current_root, Beat::from_hook(ctx.env.now)) {
                Ok(r) => r,
                Err(e) => {
                    return vec![format!(
                        "phasegate: the session could not be registered: {}",
                        one_line(&e.to_string())
                    )];
                }
            };
        let mut lines = came_lines(&came);
        lines.extend(notices(project, &session));
        if !ctx.compacted() {
            lines.extend(others(project, &me, ctx.env.now));
        }
        lines.extend(offers(project, ctx, &me));
        lines
    }

    fn user_prompt(&self, ctx: &HookCtx<'_>) -> Vec<String> {
        let Some((project, layout, session)) = fast(ctx, None) else { return Vec::new() };
        let Ok((me, came)) =
            registry::alive(&project, &session, &ctx.dir(), &layout.current_root, Beat::from_hook(ctx.env.now))
        else {
            return Vec::new();
        };
        let mut lines = came_lines(&came);
        lines.extend(notices(&project, &session));
        lines.extend(offers(&project, ctx, &me));
        lines
    }

    fn pre_tool_use(&self, ctx: &HookCtx<'_>) -> ToolVote {
        let file = ctx.edited_file();
        let Some((project, layout, session)) = fast(ctx, file.as_deref()) else { return ToolVote::Pass };
        let now = ctx.env.now;
        let Ok((mut me, came)) =
            registry::alive(&project, &session, &ctx.dir(), &layout.current_root, Beat::from_hook(now))
        else {
            return ToolVote::Pass;
        };
        let mut context = came_lines(&came);
        context.extend(notices(&project, &session));
        if let Some(file) = file {
            match lease_vote(&project, &layout, &mut me, &file, ctx) {
                Ok(LeaseVote::Quiet) => {}
                Ok(LeaseVote::Say(line)) => context.push(line),
                Ok(LeaseVote::Deny(reason)) => {
                    context.insert(0, reason);
                    return ToolVote::Deny(context.join("\n"));
                }
                Err(why) => context.push(format!(
                    "phasegate: the file lease could not be checked ({}); the edit goes through.",
                    one_line(&why.to_string())
                )),
            }
        }
        match context.is_empty() {
            true => ToolVote::Pass,
            false => ToolVote::Context(context.join("\n")),
        }
    }

    fn post_tool_use(&self, ctx: &HookCtx<'_>) -> Vec<String> {
        let Some((project, layout, session)) = fast(ctx, None) else { return Vec::new() };
        let Ok((me, came)) =
            registry::alive(&project, &session, &ctx.dir(), &layout.current_root, Beat::from_hook(ctx.env.now))
        else {
            return Vec::new();
        };
        let mut lines = came_lines(&came);
        lines.extend(notices(&project, &session));
        if ctx.input.tool_name.as_deref() == Some("Bash") {
            lines.extend(bash_writes(&project, &layout, &me, ctx));
        }
        lines
    }

    fn stop(&self, ctx: &HookCtx<'_>) -> StopVote {
        if let (Some(session), Some((project, _, _))) = (ctx.session(), fast(ctx, None)) {
            project.coordination().touch_session(&session, ctx.env.now);
        }
        StopVote::Pass
    }

    fn session_end(&self, ctx: &HookCtx<'_>) {
        let (Some(session), Some((project, _, _))) = (ctx.session(), fast(ctx, None)) else { return };
        if let Err(problem) = leases::ended(&project, &session, ctx.env.now, ctx.hook_env().lock_timeout) {
            // SessionEnd has no output: the problem goes where `status` reads it.
            let line = phasegate_store::coordination::events::HookProblem {
                at: ctx.env.now,
                hook: "session-end".into(),
                problem: problem.to_string(),
            };
            let _ = project.coordination().hook_problems().append(&[line], HOOK_LOCK_WAIT);
        }
    }
}

/// The repository (around `file`, else the session's folder, as the
/// context finds it once for every contributor) and the session, when both
/// exist.
fn fast(ctx: &HookCtx<'_>, file: Option<&Path>) -> Option<(Project, RepoLayout, SessionId)> {
    let session = ctx.session()?;
    let layout = match file {
        Some(f) => ctx.repo_of(f)?,
        None => ctx.repo()?,
    };
    Some((Project::from_layout(layout.clone()).with_key_dir(ctx.env.key_dir.clone()), layout, session))
}

fn came_lines(came: &Came) -> Vec<String> {
    match came {
        Came::Same => Vec::new(),
        Came::BackFromDown { silent_minutes } => vec![format!(
            "phasegate: this session was silent for {silent_minutes} min and counted as down: its file leases may have expired and its task may have gone to another session. Check `{watch}` before editing on.",
            watch = Command::new("watch").word("--once")
        )],
    }
}

fn notices(project: &Project, session: &SessionId) -> Vec<String> {
    if !project.coordination().has_notices(session) {
        return Vec::new();
    }
    project.coordination().take_notices(session).into_iter().map(|n| n.text).collect()
}

/// The other live sessions of the repository, in one line.
fn others(project: &Project, me: &SessionRecord, now: chrono::DateTime<chrono::Utc>) -> Vec<String> {
    let Ok((sessions, _)) = project.coordination().sessions() else { return Vec::new() };
    let live: Vec<&SessionRecord> =
        sessions.iter().filter(|s| s.id != me.id && s.state.holds_work() && s.health(now).liveness.is_live()).collect();
    if live.is_empty() {
        return Vec::new();
    }
    let leases = project.coordination().leases().map(|(l, _)| l).unwrap_or_default();
    let held = |s: &SessionRecord| leases.iter().filter(|l| l.holder == s.id).count();
    // Those holding files first: "and N more" never hides a holder of many.
    let mut live = live;
    live.sort_by_key(|s| std::cmp::Reverse(held(s)));
    let described: Vec<String> = live
        .iter()
        .take(3)
        .map(|s| {
            let n = held(s);
            let work = [s.feature.clone(), s.task.clone()].into_iter().flatten().collect::<Vec<_>>().join(" ");
            let work = if work.is_empty() { String::new() } else { format!(", {work}") };
            format!("{} ({}{work}, {n} leased file{})", s.id.short(), s.state, if n == 1 { "" } else { "s" })
        })
        .collect();
    let more = if live.len() > 3 { format!(" and {} more", live.len() - 3) } else { String::new() };
    vec![format!(
        "phasegate: {} here: {}{more}. A file another session leases cannot be edited (the edit is refused, naming who has it); `{watch}` shows who holds what.",
        if live.len() == 1 {
            "1 other session works".to_owned()
        } else {
            format!("{} other sessions work", live.len())
        },
        described.join("; "),
        watch = Command::new("watch").word("--once")
    )]
}

fn offers(project: &Project, ctx: &HookCtx<'_>, me: &SessionRecord) -> Vec<String> {
    let env = ctx.hook_env();
    let offered = events::offer(project, &env, me);
    let mut lines: Vec<String> = offered
        .iter()
        .take(MAX_OFFERED)
        .map(|(id, s)| {
            format!(
                "phasegate: {id}: {} When handled, or to dismiss it: `{events_ack}`.",
                s.sentence,
                events_ack = Command::new("events ack").arg(&id)
            )
        })
        .collect();
    if offered.len() > MAX_OFFERED {
        lines.push(format!(
            "phasegate: and {} more events: `{events_pending}`",
            offered.len() - MAX_OFFERED,
            events_pending = Command::new("events pending")
        ));
    }
    lines
}

enum LeaseVote {
    Quiet,
    Say(String),
    Deny(String),
}

fn lease_vote(
    project: &Project,
    layout: &RepoLayout,
    me: &mut SessionRecord,
    file: &Path,
    ctx: &HookCtx<'_>,
) -> OpResult<LeaseVote> {
    let case = PathCase::native();
    let root = phasegate_store::files::canonical_or_same(&layout.current_root);
    // A hard link to a leased file is that file.
    let Ok(path) = leases::lease_of(project, file, &root) else {
        // Outside the working tree: not a file leases cover.
        return Ok(LeaseVote::Quiet);
    };
    if path.as_str().split('/').next().is_some_and(|first| first.eq_ignore_ascii_case(".git")) {
        return Ok(LeaseVote::Quiet);
    }
    registry::working(project, me, None, None, None, ctx.env.now)?;
    // A hook never waits long: past this, the edit goes through unchecked.
    let env = ctx.hook_env();
    let got = leases::acquire(project, me, &path, LeaseReason::FirstEdit, case, &env)?;
    // A teammate's lease on another machine is told at this session's first
    // edit of the file (as the last team sync saw it), never enforced.
    let first_edit = match &got.decision {
        LeaseDecision::Grant { lease, .. } | LeaseDecision::Preempt { lease, .. } => lease.acquired_at == env.now,
        LeaseDecision::Deny { .. } => false,
    };
    let teammate =
        first_edit.then(|| crate::coordination::team::teammate_lease_notice(project, path.as_str())).flatten();
    let vote = match got.decision {
        LeaseDecision::Grant { expired: None, .. } => LeaseVote::Quiet,
        LeaseDecision::Grant { expired: Some(old), reason, .. } => LeaseVote::Say(format!(
            "phasegate: {path} was leased by session {}: {reason}. The file is yours now.",
            old.holder
        )),
        LeaseDecision::Preempt { preempted, .. } => LeaseVote::Say(format!(
            "phasegate: you took {path} from session {} for higher-priority work; it is told to pause and yield.",
            preempted.holder
        )),
        LeaseDecision::Deny { owner, path, .. } => {
            LeaseVote::Deny(leases::deny_message(&path, &owner, got.owner.as_ref(), ctx.env.now))
        }
    };
    Ok(match (vote, teammate) {
        (vote, None) | (vote @ LeaseVote::Deny(_), Some(_)) => vote,
        (LeaseVote::Quiet, Some(line)) => LeaseVote::Say(line),
        (LeaseVote::Say(said), Some(line)) => LeaseVote::Say(format!("{said}\n{line}")),
    })
}

/// What a Bash command wrote to files other live sessions lease, told after
/// the fact: a shell write cannot be refused before it runs. A leased file
/// whose modification time falls within the command's run counts as
/// written by it.
fn bash_writes(project: &Project, layout: &RepoLayout, me: &SessionRecord, ctx: &HookCtx<'_>) -> Vec<String> {
    let lists = project.coordination().lease_lists();
    if lists.iter().all(|(holder, _)| *holder == me.id) {
        return Vec::new();
    }
    let ran = chrono::TimeDelta::milliseconds(ctx.input.duration_ms.unwrap_or(10_000) as i64);
    let since = ctx.env.now - ran - chrono::TimeDelta::seconds(2);
    let case = PathCase::native();
    let mut hit = Vec::new();
    for (holder, paths) in lists.iter().filter(|(holder, _)| *holder != me.id) {
        let live = project
            .coordination()
            .session(holder)
            .ok()
            .flatten()
            .is_some_and(|s| s.state.holds_work() && s.health(ctx.env.now).liveness.is_live());
        if !live {
            continue;
        }
        for path in paths {
            let Some(modified) = phasegate_store::files::modified(&layout.current_root.join(path.as_str())) else {
                continue;
            };
            if chrono::DateTime::<chrono::Utc>::from(modified) < since {
                continue;
            }
            // The list is an index: the lease itself says who holds it now.
            if let phasegate_store::coordination::leases::LeaseRead::Held(l) =
                project.coordination().read_lease(path, case)
                && l.holder == *holder
            {
                hit.push(l);
            }
        }
    }
    if hit.is_empty() {
        return Vec::new();
    }
    // One take of the events' lock for all of them, within the hook's wait.
    let raised = hit.iter().fold(Effects::of("PostToolUse Bash"), |effects, l| {
        effects.raise(
            "conflict.detected",
            me.feature.as_deref(),
            me.task.as_deref(),
            serde_json::json!({"path": l.path.as_str(), "owner": l.holder.as_str(), "requester": me.id.as_str(), "action": "BASH_WRITE"}),
        )
    });
    raised.apply_to_log(project, &ctx.hook_env());
    let named: Vec<String> =
        hit.iter().map(|l| format!("{} (leased by session {})", l.path, l.holder.short())).collect();
    vec![clip(
        &format!(
            "phasegate: this command changed {} — files another session is editing. A shell write cannot be refused before it runs, so nothing stopped it. Do not undo it with git: that would also throw away the other session's uncommitted work. Tell the user which files you changed, and leave them to the session that leases them (`{watch}` shows who).",
            named.join(", "),
            watch = Command::new("watch").word("--once")
        ),
        2_000,
    )]
}
