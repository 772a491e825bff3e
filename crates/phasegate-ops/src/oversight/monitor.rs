//! The monitor (seed 004 §7): one check reads the facts (sessions and
//! their heartbeats, the tasks in progress with their start from the
//! build's records, the wait graph, the alerts raised before), applies the
//! core's rules (stuck tasks by layer, deadlocks, sessions down, no
//! duplicate within 30 minutes), appends the alerts and their `alert.*`
//! events, and lets the PM decide (see `pm.rs`). It also cleans up what
//! the rules declare dead: leases and waits of sessions that are down or
//! ended, and records of sessions that ended, failed or went silent
//! holding nothing a day ago; and it settles the alert and conflict events
//! whose condition no longer holds.
//!
//! It runs every 2 minutes while an interactive session is open (the
//! plugin's monitor runs `workflow-state monitor watch`), from cron or
//! systemd otherwise (`workflow-state monitor check`). Several watchers
//! share one clock: a check runs when the last one (anyone's) is 2 minutes
//! old, under the monitor's lock.

use chrono::{DateTime, TimeDelta, Utc};
use phasegate_core::coordination::{
    ActiveTask, Alert, AlertDetails, Lease, LeasePath, MonitorInput, MonitorReport, PathCase, Presence, SessionRecord,
    SessionState, Wait, monitor_due, run_monitor,
};
use phasegate_core::session::SessionId;
use phasegate_core::tasks::Mark;
use phasegate_store::Project;
use serde::Serialize;

use super::pm::{self, Running};
use crate::coordination::Logged;
use crate::coordination::effects::Effects;
use crate::coordination::events;
use crate::env::Env;
use crate::error::OpResult;
use crate::hook;
use crate::session;

/// Who works on a task nobody is known to work on (a task started from a
/// shell without a session id).
pub const NO_SESSION: &str = "no-session";

/// Records of sessions that ended (or failed) this long ago are removed.
pub const FORGET_AFTER: TimeDelta = TimeDelta::hours(24);

/// What one check did.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Checked {
    pub checked_at: DateTime<Utc>,
    /// False when `--if-due` found the last check younger than 2 minutes.
    pub ran: bool,
    /// Alerts raised by this check.
    pub alerts: Vec<Alert>,
    /// The PM's decisions of this check.
    pub decisions: Vec<Logged>,
    /// Everything the check saw (sessions, stuck tasks, deadlocks, the
    /// alerts it did not repeat).
    pub report: Option<MonitorReport>,
    /// Leases of sessions down or gone, removed.
    pub expired_leases: Vec<Lease>,
    /// Waits that ended (the waiter or holder gone, or the lease moved).
    pub stale_waits: usize,
    /// Files that could not be read, each with why; skipped, never fatal.
    pub problems: Vec<String>,
}

/// One check. With `if_due`, nothing runs when another check ran less than
/// 2 minutes ago.
pub fn check(env: &Env, if_due: bool) -> OpResult<Checked> {
    let project = session::project(env)?;
    check_project(&project, env, if_due)
}

pub fn check_project(project: &Project, env: &Env, if_due: bool) -> OpResult<Checked> {
    let _lock = project.coordination().monitor_lock(env.lock_timeout)?;
    let mut out = Checked {
        checked_at: env.now,
        ran: false,
        alerts: Vec::new(),
        decisions: Vec::new(),
        report: None,
        expired_leases: Vec::new(),
        stale_waits: 0,
        problems: Vec::new(),
    };
    let mut state = project.coordination().monitor_state();
    if if_due && !monitor_due(state.last_check, env.now) {
        return Ok(out);
    }
    out.ran = true;
    let facts = Facts::read(project, env, &mut out.problems)?;
    let tasks: Vec<ActiveTask> = facts.running.iter().map(|r| r.task.clone()).collect();
    let uncommitted = uncommitted_leased(project, env, &facts);
    let run = run_monitor(
        MonitorInput {
            sessions: &facts.sessions,
            tasks: &tasks,
            waits: &facts.waits,
            leases: &facts.leases,
            alerts: &facts.alerts,
            uncommitted: &uncommitted,
        },
        env.now,
    );
    project.coordination().alert_log().append(&run.raise, env.lock_timeout)?;
    let mut effects = Effects::of("monitor");
    for a in &run.raise {
        let (feature, task) = match &a.details {
            AlertDetails::StuckTask(s) => (s.feature.clone(), Some(s.task_id.clone())),
            AlertDetails::Deadlock(_) | AlertDetails::SessionDown(_) => (None, None),
        };
        let payload = serde_json::to_value(a).unwrap_or_default();
        effects = effects.raise(&a.alert_type().event_type(), feature.as_deref(), task.as_deref(), payload);
    }
    // The alerts are in their log already; their events go with one take
    // of the events' lock, and what fails is in the problems log.
    effects.apply_to_log(project, env);
    out.alerts = run.raise.clone();
    pm_decisions(project, env, &run.report, &facts, &mut out)?;
    clear_dead(project, env, &run.report, &facts, &mut out)?;
    settle_cleared(project, env, &run.report, &facts)?;
    state.last_check = Some(env.now);
    project.coordination().save_monitor_state(&state)?;
    out.report = Some(run.report);
    Ok(out)
}

/// The leased files not committed: what a session that stops answering
/// leaves in the working tree (read only when a holder is silent).
fn uncommitted_leased(project: &Project, env: &Env, facts: &Facts) -> Vec<LeasePath> {
    let silent = |l: &Lease| facts.sessions.iter().any(|s| s.id == l.holder && !s.health(env.now).liveness.is_live());
    let leased: Vec<&str> = facts.leases.iter().filter(|l| silent(l)).map(|l| l.path.as_str()).collect();
    match leased.is_empty() {
        true => Vec::new(),
        false => phasegate_store::git::uncommitted(project.root(), &leased)
            .into_iter()
            .filter_map(|p| LeasePath::parse(p).ok())
            .collect(),
    }
}

/// The PM's decisions on the stuck tasks and the sessions that went down,
/// logged.
fn pm_decisions(
    project: &Project,
    env: &Env,
    report: &MonitorReport,
    facts: &Facts,
    out: &mut Checked,
) -> OpResult<()> {
    let log = project.coordination().decision_log().read::<Logged>()?;
    problems_of(&mut out.problems, "monitor/decisions.jsonl", &log);
    let mut history = log.records;
    let stuck: Vec<&Running> = report
        .stuck_tasks
        .iter()
        .filter_map(|s| facts.running.iter().find(|r| r.task.id == s.task_id && r.task.feature == s.feature))
        .collect();
    for r in stuck {
        if let Some(l) = pm::stuck_task(project, env, r, &history) {
            history.push(l.clone());
            out.decisions.push(l);
        }
    }
    // Only a session that went silent holding something is the PM's: one
    // that held nothing was closed without SessionEnd, and is left alone.
    let presence = |id: &SessionId| report.sessions.iter().find(|r| r.session == *id).map(|r| r.presence);
    for s in &facts.sessions {
        if presence(&s.id) == Some(Presence::Down) {
            out.decisions.extend(pm::down_session(project, env, s, &facts.running, &facts.sessions));
        }
    }
    project.coordination().decision_log().append(&out.decisions, env.lock_timeout)?;
    Ok(())
}
/// What the rules declare dead: the leases of sessions no longer live,
/// stale waits, sessions ended long ago.
fn clear_dead(project: &Project, env: &Env, report: &MonitorReport, facts: &Facts, out: &mut Checked) -> OpResult<()> {
    let presence = |id: &SessionId| report.sessions.iter().find(|r| r.session == *id).map(|r| r.presence);
    let live = |id: &SessionId| {
        facts.sessions.iter().any(|s| s.id == *id && s.state.holds_work() && s.health(env.now).liveness.is_live())
    };
    let case = PathCase::native();
    {
        let _leases = project.coordination().leases_lock(env.lock_timeout)?;
        for l in facts.leases.iter().filter(|l| !live(&l.holder)) {
            if project.coordination().remove_lease(&l.path, Some(&l.holder), case) {
                out.expired_leases.push(l.clone());
            }
        }
    }
    let (waits, _) = project.coordination().waits()?;
    for w in waits {
        let holds = facts.leases.iter().any(|l| l.path == w.wait.path && l.holder == w.wait.holder);
        if !live(&w.wait.waiter) || !live(&w.wait.holder) || !holds {
            project.coordination().remove_wait(&w.wait.waiter, &w.wait.path, case);
            out.stale_waits += 1;
        }
    }
    for s in &facts.sessions {
        let ended =
            matches!(s.state, SessionState::Complete | SessionState::Error) || presence(&s.id) == Some(Presence::Gone);
        if ended && s.owns_loop.is_none() && env.now - s.heartbeat_at > FORGET_AFTER {
            let _ = project.coordination().remove_session(&s.id);
        }
    }
    Ok(())
}

/// Settles the PM's events whose condition no longer holds: a stuck task
/// no longer in progress, a deadlock no longer there, a session that is
/// back or ended, a conflict whose lease went back or moved. What still
/// holds stays pending until it expires.
fn settle_cleared(project: &Project, env: &Env, report: &MonitorReport, facts: &Facts) -> OpResult<()> {
    let cleared = events::pending_now(project)?
        .into_iter()
        .filter(|e| cleared(project, report, facts, e))
        .map(|e| e.id)
        .collect();
    Effects::of("monitor").settle_ids(cleared).apply_to_log(project, env);
    Ok(())
}

/// Whether the condition of the PM's event `e` no longer holds.
fn cleared(project: &Project, report: &MonitorReport, facts: &Facts, e: &phasegate_core::coordination::Event) -> bool {
    let case = PathCase::native();
    let text = |e: &phasegate_core::coordination::Event, k: &str| {
        e.payload.get(k).and_then(serde_json::Value::as_str).map(str::to_owned)
    };
    match e.event_type.as_str() {
        "alert.stuck_task" => {
            !facts.running.iter().any(|r| Some(&r.feature) == e.feature.as_ref() && Some(&r.task.id) == e.task.as_ref())
        }
        "alert.deadlock" => {
            let chain = text(e, "subject");
            !report.deadlocks.iter().any(|c| Some(c.chain()) == chain)
        }
        // Settled once the session is back or ended, or once the PM has
        // done what it could (its record in ERROR, its tasks given away or
        // pending again): no session is asked to run the PM about it then.
        // (`alert.component_down`: the name before.)
        "alert.session_down" | "alert.component_down" => {
            let session = text(e, "session");
            let handled = session
                .as_deref()
                .and_then(|id| SessionId::parse(id).ok())
                .and_then(|id| project.coordination().session(&id).ok().flatten())
                .is_some_and(|r| r.state == SessionState::Error);
            handled
                || report.sessions.iter().find(|s| Some(s.session.as_str()) == session.as_deref()).is_none_or(|s| {
                    matches!(
                        s.presence,
                        Presence::Live | Presence::Ended | Presence::Gone | Presence::Idle | Presence::Failed
                    )
                })
        }
        "conflict.detected" => match (text(e, "path"), text(e, "owner")) {
            (Some(path), Some(owner)) => {
                LeasePath::parse(&path).is_ok_and(|p| match project.coordination().read_lease(&p, case) {
                    phasegate_store::coordination::leases::LeaseRead::Held(l) => l.holder.as_str() != owner,
                    phasegate_store::coordination::leases::LeaseRead::Free
                    | phasegate_store::coordination::leases::LeaseRead::Unreadable(_) => true,
                })
            }
            _ => false,
        },
        _ => false,
    }
}

fn problems_of<T>(out: &mut Vec<String>, file: &str, lines: &phasegate_core::coordination::JsonLines<T>) {
    for b in lines.corrupt.iter().chain(lines.incomplete.iter()) {
        out.push(format!("{file} line {}: {} (skipped)", b.line, b.error));
    }
}

/// What a check reads.
struct Facts {
    sessions: Vec<SessionRecord>,
    running: Vec<Running>,
    waits: Vec<Wait>,
    alerts: Vec<Alert>,
    leases: Vec<Lease>,
}

impl Facts {
    fn read(project: &Project, env: &Env, problems: &mut Vec<String>) -> OpResult<Facts> {
        let (sessions, bad) = project.coordination().sessions()?;
        problems.extend(bad.iter().map(|b| format!("{}: {}", b.path.display(), b.error)));
        let (leases, bad_leases) = project.coordination().leases()?;
        problems.extend(bad_leases.iter().map(|b| format!("{}: {} (removed)", b.path.display(), b.error)));
        if !bad_leases.is_empty() {
            let _lock = project.coordination().leases_lock(env.lock_timeout)?;
            project.coordination().remove_bad_leases(&bad_leases);
        }
        let (waits, bad_waits) = project.coordination().waits()?;
        problems.extend(bad_waits.iter().map(|b| format!("{}: {}", b.path.display(), b.error)));
        let alerts = project.coordination().alert_log().read::<Alert>()?;
        problems_of(problems, "monitor/alerts.jsonl", &alerts);
        let running = running_tasks(project, &sessions, &leases, problems)?;
        Ok(Facts {
            sessions,
            running,
            waits: waits.into_iter().map(|w| w.wait).collect(),
            alerts: alerts.records,
            leases,
        })
    }
}

/// Every task in progress (`[~]`) of every active feature, with its start
/// (the build's record of when it last started), its layer (declared or
/// evident) and the session working on it.
pub fn running_tasks(
    project: &Project,
    sessions: &[SessionRecord],
    leases: &[Lease],
    problems: &mut Vec<String>,
) -> OpResult<Vec<Running>> {
    let mut out = Vec::new();
    for listed in project.list_active()? {
        let name = listed.feature.name().to_owned();
        let meta = match &listed.meta {
            Ok(m) if m.status == phasegate_core::Status::Active => m,
            Ok(_) => continue,
            Err(e) => {
                problems.push(format!("{name}: {}", hook::one_line(&e.to_string())));
                continue;
            }
        };
        let _ = meta;
        let list = match listed.feature.task_list() {
            Ok((l, _)) => l,
            // No task list yet is no problem; an unreadable one is.
            Err(e) => {
                if listed.feature.has_artifact(phasegate_core::Artifact::Tasks) {
                    problems.push(format!("{name}: {}", hook::one_line(&e.to_string())));
                }
                continue;
            }
        };
        let cycles = match listed.feature.read_review_cycles() {
            Ok(c) => c,
            Err(e) => {
                problems.push(format!("{name}: {}", hook::one_line(&e.to_string())));
                continue;
            }
        };
        let build = cycles.sessions.get(&name).map(|s| s.build.clone()).unwrap_or_default();
        for t in list.tasks.iter().filter(|t| t.mark == Mark::InProgress) {
            let Some(started_at) = build.started.get(&t.id).copied() else {
                problems.push(format!("{name}: {} is in progress with no start on record (started by hand?)", t.id));
                continue;
            };
            let session = owner_of(&name, &t.id, sessions, leases)
                .unwrap_or_else(|| SessionId::parse(NO_SESSION).expect("a valid id"));
            out.push(Running {
                task: ActiveTask {
                    id: t.id.clone(),
                    feature: Some(name.clone()),
                    session,
                    layer: phasegate_core::tasks::layer(t).map(|l| l.name().to_owned()),
                    started_at,
                },
                feature: name.clone(),
                title: t.title.clone(),
            });
        }
    }
    Ok(out)
}

/// The session working on a task: the one whose record says so (the most
/// recently heard from), else the holder of a lease taken for it.
fn owner_of(feature: &str, task: &str, sessions: &[SessionRecord], leases: &[Lease]) -> Option<SessionId> {
    sessions
        .iter()
        .filter(|s| s.feature.as_deref() == Some(feature) && s.task.as_deref() == Some(task))
        .max_by_key(|s| s.heartbeat_at)
        .map(|s| s.id.clone())
        .or_else(|| {
            leases
                .iter()
                .find(|l| l.feature.as_deref() == Some(feature) && l.task.as_deref() == Some(task))
                .map(|l| l.holder.clone())
        })
}

/// One line per alert and decision, for `monitor watch` and the hooks.
pub fn lines(c: &Checked) -> Vec<String> {
    let mut out: Vec<String> = c
        .alerts
        .iter()
        .map(|a| format!("phasegate monitor: {} {}: {}", a.severity, a.alert_type(), a.message))
        .collect();
    out.extend(c.decisions.iter().map(|d| format!("phasegate PM: {}", d.line())));
    out
}
