//! What people look at (`workflow-state watch`, `status`): the sessions
//! and their states, leases, waits, recent alerts and decisions, suspended
//! items, pending events, and each active feature's phase and task in
//! progress. Read only: nothing is written to build it.

use chrono::{DateTime, TimeDelta, Utc};
use phasegate_core::coordination::{Alert, Health, Lease, Presence, SessionRecord, SessionState, Wait};
use phasegate_core::questions::QuestionState;
use phasegate_core::tasks::Mark;
use phasegate_core::words::Command;
use phasegate_store::Project;
use serde::Serialize;

use crate::coordination::Logged;
use crate::coordination::events;
use crate::coordination::events::PendingEvent;
use crate::env::Env;
use crate::error::OpResult;
use crate::questions::ask;
use crate::session;

/// How many recent alerts and decisions are shown.
pub const RECENT: usize = 8;

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SessionView {
    pub id: String,
    pub state: SessionState,
    pub health: Health,
    /// Live, gone (silent, holding nothing), down (silent, holding
    /// something), ended, failed.
    pub presence: Presence,
    pub feature: Option<String>,
    pub task: Option<String>,
    pub priority: phasegate_core::coordination::Priority,
    pub worktree: String,
    pub leases: usize,
    pub heartbeat_at: DateTime<Utc>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FeatureView {
    pub feature: String,
    pub phase: Option<String>,
    /// Tasks in progress, with how long they have run.
    pub in_progress: Vec<String>,
    pub suspended: Option<String>,
}

/// Everything `watch` shows.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Overview {
    pub now: DateTime<Utc>,
    pub sessions: Vec<SessionView>,
    pub leases: Vec<Lease>,
    pub waits: Vec<Wait>,
    pub alerts: Vec<Alert>,
    pub decisions: Vec<Logged>,
    pub suspended: Vec<ask::View>,
    pub events: Vec<PendingEvent>,
    pub features: Vec<FeatureView>,
    pub last_check: Option<DateTime<Utc>>,
    /// Sessions an API error interrupted, one line each
    /// (`crate::interrupt::line`), and the runner's line.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub interrupted: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub runner: Option<String>,
    /// What teammates' clones claim on the team's remote, as the last sync
    /// saw it (no network): their tasks and phases, by machine.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub teammates: Vec<crate::coordination::team::SeenClaim>,
    /// Teammates' file leases, as the last sync saw them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub teammate_leases: Vec<phasegate_core::coordination::TeammateLease>,
    /// Files that could not be read.
    pub problems: Vec<String>,
}

fn recent<T: Clone>(v: &[T]) -> Vec<T> {
    v[v.len().saturating_sub(RECENT)..].to_vec()
}

/// Whether a session holds something another may wait for (a lease, a
/// task, a wait at either end, a pipeline loop).
fn holds(s: &SessionRecord, leases: &[Lease], waits: &[Wait]) -> bool {
    s.task.is_some()
        || s.owns_loop.is_some()
        || leases.iter().any(|l| l.holder == s.id)
        || waits.iter().any(|w| w.waiter == s.id || w.holder == s.id)
}

/// Waits whose lease is still held by the session waited for: a wait
/// lives no longer than its lease (the files of the others are removed by
/// the monitor and at SessionEnd).
fn current_waits(waits: Vec<Wait>, leases: &[Lease]) -> Vec<Wait> {
    let case = phasegate_core::coordination::PathCase::native();
    waits
        .into_iter()
        .filter(|w| leases.iter().any(|l| l.holder == w.holder && l.path.same_file(&w.path, case)))
        .collect()
}

/// How long a session that is no longer live stays in the lists when it
/// holds nothing.
pub const SHOWN_AFTER_END: TimeDelta = TimeDelta::hours(1);

/// Builds the overview. Sessions that ended, failed or went silent holding
/// nothing more than an hour ago are left out (the monitor forgets them
/// after a day).
pub fn overview(env: &Env) -> OpResult<Overview> {
    let project = session::project(env)?;
    let mut problems = Vec::new();
    let (sessions, bad) = project.coordination().sessions()?;
    problems.extend(bad.iter().map(|b| format!("{}: {}", b.path.display(), b.error)));
    let (leases, bad) = project.coordination().leases()?;
    problems.extend(bad.iter().map(|b| format!("{}: {}", b.path.display(), b.error)));
    let (waits, _) = project.coordination().waits()?;
    let waits = current_waits(waits.into_iter().map(|w| w.wait).collect(), &leases);
    let alerts = project.coordination().alert_log().read::<Alert>()?;
    let decisions = project.coordination().decision_log().read::<Logged>()?;
    for (name, bad) in [("alerts", &alerts.corrupt), ("decisions", &decisions.corrupt)] {
        problems.extend(bad.iter().map(|b| format!("monitor/{name}.jsonl line {}: {}", b.line, b.error)));
    }
    let sessions = session_views(sessions, &leases, &waits, env.now);
    let (questions, _) = ask::list(env, true)?;
    // Still waiting for a person: an overdue question too (blocking, past
    // its reminder time, never answered by itself).
    let suspended = questions
        .into_iter()
        .filter(|q| q.suspends || matches!(q.state, QuestionState::Waiting | QuestionState::Overdue))
        .collect();
    let events = events::pending(env, None).map(|p| p.events).unwrap_or_default();
    let features = feature_views(env, &project, &mut problems)?;
    let teammates = match crate::coordination::team::seen_claims(env) {
        Ok(claims) => claims.into_iter().filter(|c| !c.ours).collect(),
        Err(e) => {
            problems.push(format!("the team's claims seen last: {e}"));
            Vec::new()
        }
    };
    let teammate_leases = crate::coordination::team::teammates_leases(&project).unwrap_or_else(|e| {
        problems.push(format!("the teammates' leases seen last: {e}"));
        Vec::new()
    });
    Ok(Overview {
        now: env.now,
        sessions,
        leases,
        waits,
        alerts: recent(&alerts.records),
        decisions: recent(&decisions.records),
        suspended,
        events,
        features,
        last_check: project.coordination().monitor_state().last_check,
        interrupted: crate::interrupt::standing_in(&project, env.now),
        runner: crate::interrupt::runner_line(&project, env.now),
        teammates,
        teammate_leases,
        problems,
    })
}

/// The sessions shown: at work, or ended within [`SHOWN_AFTER_END`].
fn session_views(
    sessions: Vec<SessionRecord>,
    leases: &[Lease],
    waits: &[Wait],
    now: DateTime<Utc>,
) -> Vec<SessionView> {
    sessions
        .into_iter()
        .map(|s| (s.presence(holds(&s, leases, waits), now), s))
        .filter(|(p, s)| match p {
            Presence::Live | Presence::Down | Presence::Idle => true,
            Presence::Gone | Presence::Ended | Presence::Failed => now - s.heartbeat_at < SHOWN_AFTER_END,
        })
        .map(|(presence, s)| SessionView {
            presence,
            leases: leases.iter().filter(|l| l.holder == s.id).count(),
            health: s.health(now),
            id: s.id.to_string(),
            state: s.state,
            feature: s.feature,
            task: s.task,
            priority: s.priority,
            worktree: s.worktree,
            heartbeat_at: s.heartbeat_at,
        })
        .collect()
}

/// The active features: their phase, tasks in progress and the question
/// one is suspended on; an unreadable one is a problem.
fn feature_views(env: &Env, project: &Project, problems: &mut Vec<String>) -> OpResult<Vec<FeatureView>> {
    let mut features = Vec::new();
    for listed in project.list_active()? {
        let name = listed.feature.name().to_owned();
        let Ok(meta) = &listed.meta else {
            problems.push(format!("{name}: unreadable (`{status}`)", status = Command::new("status")));
            continue;
        };
        if meta.status != phasegate_core::Status::Active {
            continue;
        }
        let build = listed
            .feature
            .read_review_cycles()
            .ok()
            .and_then(|c| c.sessions.get(&name).map(|s| s.build.clone()))
            .unwrap_or_default();
        let in_progress = listed
            .feature
            .task_list()
            .map(|(list, _)| {
                list.tasks
                    .iter()
                    .filter(|t| t.mark == Mark::InProgress)
                    .map(|t| match build.started.get(&t.id) {
                        Some(at) => format!("{} ({} min)", t.id, super::pm::minutes(env.now - *at)),
                        None => t.id.clone(),
                    })
                    .collect()
            })
            .unwrap_or_default();
        let suspended = ask::suspended_on(project, &name).ok().flatten().map(|q| q.id);
        features.push(FeatureView {
            feature: name,
            phase: meta.current_phase.map(|p| p.to_string()),
            in_progress,
            suspended,
        });
    }
    Ok(features)
}

/// A line for `status`: live sessions and their leases, waits, alerts and
/// PM decisions of the last 30 minutes, pending events, and the last
/// decision with its reason; None when there is nothing.
pub fn summary(env: &Env) -> Option<String> {
    let project = session::project(env).ok()?;
    project.repo()?;
    let (sessions, _) = project.coordination().sessions().ok()?;
    // The sessions at work besides the one asking.
    let me = env.session(None).ok().flatten();
    let live = sessions.iter().filter(|s| Some(&s.id) != me.as_ref() && s.presence(true, env.now).is_live()).count();
    let (leases, _) = project.coordination().leases().ok()?;
    let waits = project
        .coordination()
        .waits()
        .map(|(w, _)| current_waits(w.into_iter().map(|w| w.wait).collect(), &leases).len())
        .unwrap_or(0);
    let alerts = project
        .coordination()
        .alert_log()
        .read::<Alert>()
        .map(|l| l.records.iter().filter(|a| env.now - a.created_at < TimeDelta::minutes(30)).count())
        .unwrap_or(0);
    let events = events::pending_count(&project, env);
    let decisions: Vec<Logged> = project
        .coordination()
        .decision_log()
        .read::<Logged>()
        .map(|l| l.records.into_iter().filter(|d| env.now - d.decision.decided_at < TimeDelta::minutes(30)).collect())
        .unwrap_or_default();
    if live + leases.len() + waits + alerts + events + decisions.len() == 0 {
        return hook_problems(&project, env);
    }
    let mut line = format!(
        "Sessions: {live} live{}, {} leased file(s), {waits} waiting; {alerts} alert(s) and {} PM decision(s) in the last 30 min; {events} event(s) pending. Details: `{watch}`.",
        if me.is_some() { " besides this one" } else { "" },
        leases.len(),
        decisions.len(),
        watch = Command::new("watch").word("--once")
    );
    if let Some(last) = decisions.last() {
        line.push_str(&format!("\nLast PM decision: {}", last.line()));
    }
    if let Some(p) = hook_problems(&project, env) {
        line.push('\n');
        line.push_str(&p);
    }
    Some(line)
}

/// The problems of the last day that reached nobody (a hook's, a verb's
/// effects'), in one line.
fn hook_problems(project: &phasegate_store::Project, env: &Env) -> Option<String> {
    let log =
        project.coordination().hook_problems().read::<phasegate_store::coordination::events::HookProblem>().ok()?;
    let recent: Vec<_> = log.records.iter().filter(|p| env.now - p.at < TimeDelta::hours(24)).collect();
    let last = recent.last()?;
    Some(format!(
        "Problems that reached nobody in the last 24 h: {} (last, {} at {}: {}). The log: {}.",
        recent.len(),
        last.hook,
        phasegate_core::time::stamp(last.at),
        last.problem,
        project.coordination().hook_problems().path.display()
    ))
}
