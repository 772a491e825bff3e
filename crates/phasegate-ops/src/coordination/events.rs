//! Events and their delivery (seed 004 §1.2, §2): the binaries append an
//! event at their own transitions (`spec.approved`, `build.completed`,
//! `task.failed`, `ideation.completed`, `alert.*`, `conflict.detected`,
//! `decision.requested`, `work.assigned`); the routing table (with the
//! user's `.phasegate/routing.config.json`) says what follows; each event
//! is offered once, at the next SessionStart or prompt of a session that
//! can act on it, and stays pending until someone acknowledges it
//! (`workflow-state events ack <id>`).
//!
//! Delivery rules (docs/coordination.md):
//! - A session can act on an event when the route names something to do,
//!   the event is about its feature or it works on no feature, and, for
//!   `work.assigned`, the work was given to it.
//! - An event is offered to one session. It is offered again only when
//!   that session went down (silent, not ended) without acknowledging it:
//!   then the suggestion never reached anyone who could act.
//! - An event routed nowhere (`"none"`) is settled as it is read.

use std::collections::BTreeSet;

use phasegate_core::coordination::{Event, EventType, RoutingConfig, SessionRecord, SessionState, Suggestion, suggest};
use phasegate_core::session::SessionId;
use phasegate_store::Project;
use phasegate_store::events::{Ack, Delivery, Pending};
use serde::Serialize;
use serde_json::Value;

use crate::env::Env;
use crate::error::{OpError, OpResult};

/// The user's routing table (an unreadable file is reported and the
/// defaults apply).
pub fn routing(project: &Project) -> (RoutingConfig, Option<String>) {
    let path = project.root().join(phasegate_core::coordination::ROUTING_CONFIG_PATH);
    match phasegate_store::fs::read_optional(&path) {
        Ok(None) => (RoutingConfig::default(), None),
        Ok(Some(text)) => match RoutingConfig::parse(&text) {
            Ok(c) => (c, None),
            Err(e) => (RoutingConfig::default(), Some(format!("{}: {e}; the default routes apply", path.display()))),
        },
        Err(e) => (RoutingConfig::default(), Some(format!("{e}; the default routes apply"))),
    }
}

/// Appends one event. The caller's own transition has happened already, so
/// a failure here is returned for the caller to report, never to undo it.
pub fn emit(
    project: &Project,
    env: &Env,
    event_type: &str,
    feature: Option<&str>,
    task: Option<&str>,
    payload: Value,
) -> OpResult<Event> {
    let event_type = EventType::parse(event_type).map_err(|e| OpError::Invalid(e.to_string()))?;
    let _lock = project.events_lock(env.lock_timeout)?;
    let mut d = synced(project)?;
    let event = Event {
        id: format!("e{}", d.next.max(1)),
        event_type,
        feature: feature.map(str::to_owned),
        task: task.map(str::to_owned),
        payload,
        at: env.now,
        source: env.session(None).ok().flatten(),
    };
    d.next = d.next.max(1) + 1;
    project.event_log().append_held(std::slice::from_ref(&event))?;
    catch_up(project, &mut d)?;
    project.save_delivery(&d)?;
    Ok(event)
}

/// [`emit`] for a transition that must not fail because of its event: a
/// problem is swallowed (the event log is then one event short, and the
/// transition's own output still says what happened).
pub fn emit_quietly(
    project: &Project,
    env: &Env,
    event_type: &str,
    feature: Option<&str>,
    task: Option<&str>,
    payload: Value,
) -> Option<Event> {
    emit(project, env, event_type, feature, task, payload).ok()
}

/// The delivery state, brought up to date with the logs; the caller holds
/// the events lock. A missing or unreadable state is rebuilt from the logs.
fn synced(project: &Project) -> OpResult<Delivery> {
    let mut d = project.delivery().unwrap_or_default();
    catch_up(project, &mut d)?;
    Ok(d)
}

fn catch_up(project: &Project, d: &mut Delivery) -> OpResult<()> {
    let log = project.event_log();
    if log.len() != d.through {
        let tail = log.read_from::<Event>(d.through)?;
        if tail.from != d.through {
            // The log was replaced: start over from it.
            *d = Delivery::default();
        }
        let (config, _) = routing(project);
        for e in tail.lines.records {
            if let Some(n) = e.id.strip_prefix('e').and_then(|n| n.parse::<u64>().ok()) {
                d.next = d.next.max(n + 1);
            }
            if suggest(&e, &config).is_some() {
                d.pending.entry(e.id.clone()).or_insert(Pending { event: e, offered_to: None, offered_at: None });
            }
        }
        d.through = tail.from + tail.lines.complete_len as u64;
        // Acknowledgements are read again from the start after a rebuild.
        if tail.from == 0 {
            d.acks_through = 0;
        }
    }
    let acks = project.event_acks();
    if acks.len() != d.acks_through {
        let tail = acks.read_from::<Ack>(d.acks_through)?;
        for a in tail.lines.records {
            d.pending.remove(&a.id);
        }
        d.acks_through = tail.from + tail.lines.complete_len as u64;
    }
    Ok(())
}

/// One pending event as listed and offered.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PendingEvent {
    pub id: String,
    #[serde(rename = "type")]
    pub event_type: String,
    pub feature: Option<String>,
    pub task: Option<String>,
    pub at: String,
    pub source: Option<String>,
    pub payload: Value,
    pub suggestion: Option<Suggestion>,
    pub offered_to: Option<String>,
    pub offered_at: Option<String>,
}

fn view(p: &Pending, config: &RoutingConfig) -> PendingEvent {
    let e = &p.event;
    PendingEvent {
        id: e.id.clone(),
        event_type: e.event_type.to_string(),
        feature: e.feature.clone(),
        task: e.task.clone(),
        at: phasegate_core::time::stamp(e.at),
        source: e.source.as_ref().map(ToString::to_string),
        payload: e.payload.clone(),
        suggestion: suggest(e, config),
        offered_to: p.offered_to.as_ref().map(ToString::to_string),
        offered_at: p.offered_at.map(phasegate_core::time::stamp),
    }
}

/// What `events pending` prints.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PendingList {
    pub events: Vec<PendingEvent>,
    /// Lines of the log that are not events, with their numbers.
    pub corrupt: Vec<String>,
    /// A problem with the routing configuration.
    pub routing: Option<String>,
}

/// Every event waiting for its acknowledgement; with `session`, only the
/// ones that session can act on.
pub fn pending(env: &Env, session: Option<&str>) -> OpResult<PendingList> {
    let project = crate::session::project(env)?;
    let d = {
        let _lock = project.events_lock(env.lock_timeout)?;
        let mut d = synced(&project)?;
        // Settled what no route takes any more.
        let (config, _) = routing(&project);
        d.pending.retain(|_, p| suggest(&p.event, &config).is_some());
        project.save_delivery(&d)?;
        d
    };
    let (config, routing_problem) = routing(&project);
    let me = match session {
        Some(s) => {
            let id = SessionId::parse(s).map_err(|e| OpError::Invalid(format!("--session: {e}")))?;
            Some(project.session(&id)?.unwrap_or_else(|| SessionRecord::new(id, "", "", env.now)))
        }
        None => None,
    };
    let events = d
        .pending
        .values()
        .filter(|p| me.as_ref().is_none_or(|m| can_act(m, &p.event)))
        .map(|p| view(p, &config))
        .collect();
    let log = project.event_log().read::<Event>()?;
    let mut corrupt: Vec<String> = log.corrupt.iter().map(|b| format!("line {}: {}", b.line, b.error)).collect();
    corrupt.extend(log.incomplete.iter().map(|b| format!("line {}: {}", b.line, b.error)));
    Ok(PendingList { events, corrupt, routing: routing_problem })
}

/// Whether `session` can act on `event` (routing aside).
fn can_act(session: &SessionRecord, event: &Event) -> bool {
    if event.event_type.as_str() == "work.assigned" {
        return event.payload.get("to").and_then(Value::as_str) == Some(session.id.as_str());
    }
    match (&event.feature, &session.feature) {
        (Some(f), Some(mine)) => f == mine,
        (None, _) | (_, None) => true,
    }
}

/// Whether an event offered to `to` should be offered again: `to` went
/// down without ending and without acknowledging it.
fn undelivered(to: &SessionId, sessions: &[SessionRecord], now: chrono::DateTime<chrono::Utc>) -> bool {
    match sessions.iter().find(|s| s.id == *to) {
        None => true,
        Some(s) => s.state != SessionState::Complete && !s.health(now).liveness.is_live(),
    }
}

/// The events to offer `me` now, marked as offered to it: read without a
/// lock first, so a session with nothing to see pays one small read.
pub fn offer(project: &Project, env: &Env, me: &SessionRecord) -> Vec<(String, Suggestion)> {
    let Ok(d) = project.delivery() else { return Vec::new() };
    let log_grew = project.event_log().len() != d.through || project.event_acks().len() != d.acks_through;
    // The sessions are read only when an event offered to another might
    // have to be offered again.
    let others_offered = d.pending.values().any(|p| p.offered_to.as_ref().is_some_and(|to| *to != me.id));
    if !log_grew && !d.pending.values().any(|p| p.offered_to.is_none() && can_act(me, &p.event)) && !others_offered {
        return Vec::new();
    }
    let (sessions, _) = match others_offered || log_grew {
        true => project.sessions().unwrap_or_default(),
        false => Default::default(),
    };
    let candidates = |d: &Delivery| -> Vec<String> {
        d.pending
            .values()
            .filter(|p| can_act(me, &p.event))
            .filter(|p| match &p.offered_to {
                None => true,
                Some(to) => *to != me.id && undelivered(to, &sessions, env.now),
            })
            .map(|p| p.event.id.clone())
            .collect()
    };
    if !log_grew && candidates(&d).is_empty() {
        return Vec::new();
    }
    let Ok(_lock) = project.events_lock(env.lock_timeout) else { return Vec::new() };
    let Ok(mut d) = synced(project) else { return Vec::new() };
    let (config, _) = routing(project);
    let ids: BTreeSet<String> = candidates(&d).into_iter().collect();
    let mut out = Vec::new();
    for id in ids {
        let Some(p) = d.pending.get_mut(&id) else { continue };
        let Some(s) = suggest(&p.event, &config) else { continue };
        p.offered_to = Some(me.id.clone());
        p.offered_at = Some(env.now);
        out.push((id, s));
    }
    let _ = project.save_delivery(&d);
    out
}

/// What `events ack` did.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Acked {
    pub acknowledged: Vec<String>,
    /// Ids that were not pending (unknown or acknowledged before).
    pub not_pending: Vec<String>,
}

/// Acknowledges events: they are no longer pending or offered.
pub fn ack(env: &Env, ids: &[String]) -> OpResult<Acked> {
    let project = crate::session::project(env)?;
    let by = env.session(None)?.map(|s| s.to_string()).unwrap_or_else(|| "user".to_owned());
    let _lock = project.events_lock(env.lock_timeout)?;
    let mut d = synced(&project)?;
    acknowledge(&project, env, &mut d, ids, &by)
}

/// Settles the pending events about `feature` of the given types, because
/// what their route suggests has been done (a recorded retrospective
/// settles its feature's `build.completed` and `task.failed`): no session
/// is offered them again. Events that arrive later stay pending. Returns
/// the ids settled; a problem is returned for the caller to report, never
/// to undo what it did.
pub fn settle(project: &Project, env: &Env, feature: &str, types: &[&str]) -> OpResult<Vec<String>> {
    let by = env.session(None).ok().flatten().map(|s| s.to_string()).unwrap_or_else(|| "user".to_owned());
    let _lock = project.events_lock(env.lock_timeout)?;
    let mut d = synced(project)?;
    let ids: Vec<String> = d
        .pending
        .values()
        .filter(|p| p.event.feature.as_deref() == Some(feature) && types.contains(&p.event.event_type.as_str()))
        .map(|p| p.event.id.clone())
        .collect();
    Ok(acknowledge(project, env, &mut d, &ids, &by)?.acknowledged)
}

/// Removes `ids` from the pending events and logs their acknowledgement by
/// `by`; the caller holds the events lock.
fn acknowledge(project: &Project, env: &Env, d: &mut Delivery, ids: &[String], by: &str) -> OpResult<Acked> {
    let mut out = Acked { acknowledged: Vec::new(), not_pending: Vec::new() };
    let mut acks = Vec::new();
    for id in ids {
        match d.pending.remove(id) {
            Some(_) => {
                acks.push(Ack { id: id.clone(), by: by.to_owned(), at: env.now });
                out.acknowledged.push(id.clone());
            }
            None => out.not_pending.push(id.clone()),
        }
    }
    project.event_acks().append_held(&acks)?;
    d.acks_through = project.event_acks().len();
    project.save_delivery(d)?;
    Ok(out)
}

/// `events emit`: an event by hand (a person's own transition, or a test).
pub fn emit_by_hand(
    env: &Env,
    event_type: &str,
    feature: Option<&str>,
    task: Option<&str>,
    payload: Option<&str>,
) -> OpResult<Event> {
    let project = crate::session::project(env)?;
    let payload = match payload {
        None => Value::Null,
        Some(text) => {
            serde_json::from_str(text).map_err(|e| OpError::Invalid(format!("--payload is not JSON: {e}")))?
        }
    };
    emit(&project, env, event_type, feature, task, payload)
}

/// Whether the log holds an event of `event_type` about `feature`.
pub fn happened(project: &Project, event_type: &str, feature: &str) -> bool {
    project
        .event_log()
        .read::<Event>()
        .map(|l| l.records.iter().any(|e| e.event_type.as_str() == event_type && e.feature.as_deref() == Some(feature)))
        .unwrap_or(false)
}

// The binaries' transitions, one call each.

/// A phase completed: specify → `spec.approved` (the spec goes to the
/// build), implement → `build.completed` (the retrospective learns from it).
pub fn on_phase_completed(project: &Project, env: &Env, feature: &str, phase: phasegate_core::Phase) {
    use phasegate_core::Phase;
    let event = match phase {
        Phase::Specify => "spec.approved",
        Phase::Implement => "build.completed",
        Phase::Brainstorm | Phase::Design | Phase::CreatePlan | Phase::CreateTasks | Phase::Verify | Phase::Finish => {
            return;
        }
    };
    emit_quietly(project, env, event, Some(feature), None, serde_json::json!({"phase": phase.name()}));
}

/// `tasks fail`: `task.failed`, with the build's decision (the
/// retrospective extracts a gotcha at once).
pub fn on_task_failed(
    project: &Project,
    env: &Env,
    feature: &str,
    task: &str,
    decision: &phasegate_core::tasks::FailureDecision,
) {
    let payload = serde_json::json!({"decision": decision});
    emit_quietly(project, env, "task.failed", Some(feature), Some(task), payload);
}

/// A pipeline completed: `build.completed`.
pub fn on_build_completed(project: &Project, feature: &str, now: chrono::DateTime<chrono::Utc>) {
    let env = Env {
        cwd: project.root().to_owned(),
        now,
        lock_timeout: phasegate_store::lock::DEFAULT_TIMEOUT,
        session_var: None,
    };
    emit_quietly(project, &env, "build.completed", Some(feature), None, serde_json::json!({"workflow": "pipeline"}));
}

/// `finish`: `build.completed`, unless the feature's build already said so.
pub fn on_finished(project: &Project, env: &Env, feature: &str) {
    if !happened(project, "build.completed", feature) {
        emit_quietly(project, env, "build.completed", Some(feature), None, serde_json::json!({"at": "finish"}));
    }
}
