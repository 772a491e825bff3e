//! Events and their delivery (seed 004 §1.2, §2): the binaries append an
//! event at their own transitions (`spec.approved`, `build.completed`,
//! `task.failed`, `ideation.completed`, `alert.*`, `conflict.detected`,
//! `decision.requested`, `work.assigned`); the routing table (with the
//! user's `.phasegate/routing.config.json`) says what follows; each event
//! is offered once, at the next SessionStart or prompt of a session that
//! can act on it, and stays pending until it settles: acknowledged
//! (`workflow-state events ack <id>`), settled by the binary that saw its
//! next step taken, or expired (`phasegate_core::coordination`'s rules).
//!
//! Delivery rules (docs/coordination.md):
//! - A session can act on an event when the route names something to do,
//!   the event is about its feature or it works on no feature, it did not
//!   come from that session (its own command already said it), and, for
//!   `work.assigned`, the work was given to it.
//! - An event is offered to one session, decided under the events' lock on
//!   a fresh read of the sessions, so sessions prompting at once never share
//!   one. It is offered again only when that session went down (silent, not
//!   ended) without acknowledging it: then the suggestion never reached
//!   anyone who could act.
//! - What an event suggests to move a feature on is the feature's own next
//!   step (`workflow-state next`).
//! - An event routed nowhere (`"none"`) is settled as it is read.

use std::collections::{BTreeMap, BTreeSet};

use phasegate_core::coordination::{
    Event, EventType, RoutingConfig, SessionRecord, SessionState, Settled, Suggestion, route, settled_by_feature,
    suggest,
};
use phasegate_core::feature::{Meta, Next, next_step};
use phasegate_core::session::SessionId;
use phasegate_store::Project;
use phasegate_store::coordination::events::{Ack, Delivery, Pending};
use serde::Serialize;
use serde_json::Value;

use crate::env::Env;
use crate::error::{InvalidInput, OpResult};
use crate::session;

/// The user's routing table (an unreadable file is reported and the
/// defaults apply).
pub fn routing(project: &Project) -> (RoutingConfig, Option<String>) {
    let path = project.root().join(phasegate_core::coordination::ROUTING_CONFIG_PATH);
    match phasegate_store::files::read_optional(&path) {
        Ok(None) => (RoutingConfig::default(), None),
        Ok(Some(text)) => match RoutingConfig::parse(&text) {
            Ok(c) => (c, None),
            Err(e) => (RoutingConfig::default(), Some(format!("{}: {e}; the default routes apply", path.display()))),
        },
        Err(e) => (RoutingConfig::default(), Some(format!("{e}; the default routes apply"))),
    }
}

/// An event to append: its type, feature, task and payload.
#[derive(Debug, Clone)]
pub struct NewEvent<'a> {
    pub event_type: &'a str,
    pub feature: Option<&'a str>,
    pub task: Option<&'a str>,
    pub payload: Value,
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
    // A type that is not an event's is refused before the lock is taken.
    EventType::parse(event_type).invalid_input()?;
    let mut all =
        with_held(project, env, |held| held.raise_all(vec![NewEvent { event_type, feature, task, payload }]))?;
    Ok(all.remove(0))
}

/// Keeps `problem`, said by `source` (`events`, `effects`, `question
/// dialog`), on one line where `status` reports the problems nobody was
/// told. Best effort: the log failing too leaves nothing more to tell.
pub fn note_problem(project: &Project, env: &Env, source: &str, problem: &str) {
    let _ = project.coordination().note_problem(env.now, source, &crate::hook::one_line(problem));
}

/// The events pending now, read without the lock and written nowhere: for
/// a step that decides which to settle and returns them among its effects.
pub fn pending_now(project: &Project) -> OpResult<Vec<Event>> {
    if nothing_pending(project) {
        return Ok(Vec::new());
    }
    Ok(synced(project)?.pending.into_values().map(|p| p.event).collect())
}

/// The delivery state, brought up to date with the logs; the caller holds
/// the events lock. A missing or unreadable state is rebuilt from the logs.
fn synced(project: &Project) -> OpResult<Delivery> {
    let mut d = project.coordination().delivery().unwrap_or_default();
    catch_up(project, &mut d)?;
    Ok(d)
}

fn catch_up(project: &Project, d: &mut Delivery) -> OpResult<()> {
    let log = project.coordination().event_log();
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
            if route(&e.event_type, &config).and_then(|r| r.target).is_some() {
                d.pending.entry(e.id.clone()).or_insert(Pending { event: e, offered_to: None, offered_at: None });
            }
        }
        d.through = tail.from + tail.lines.complete_len as u64;
        // Acknowledgements are read again from the start after a rebuild.
        if tail.from == 0 {
            d.acks_through = 0;
        }
    }
    let acks = project.coordination().event_acks();
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

fn view(p: &Pending, config: &RoutingConfig, features: &mut Features<'_>) -> PendingEvent {
    let e = &p.event;
    let next = e.feature.as_deref().and_then(|f| features.next(f));
    PendingEvent {
        id: e.id.clone(),
        event_type: e.event_type.to_string(),
        feature: e.feature.clone(),
        task: e.task.clone(),
        at: phasegate_core::time::stamp(e.at),
        source: e.source.as_ref().map(ToString::to_string),
        payload: e.payload.clone(),
        suggestion: suggest(e, config, next.as_ref()),
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

/// The features events are about, each read once: its state and its next
/// step (`workflow-state next`'s).
pub(crate) struct Features<'p> {
    project: &'p Project,
    read: BTreeMap<String, Option<Meta>>,
}

impl<'p> Features<'p> {
    pub(crate) fn new(project: &'p Project) -> Features<'p> {
        Features { project, read: BTreeMap::new() }
    }

    /// The feature's state; None when it is gone or cannot be read.
    fn meta(&mut self, name: &str) -> Option<&Meta> {
        let project = self.project;
        self.read
            .entry(name.to_owned())
            .or_insert_with(|| project.find_feature(name).ok().flatten().and_then(|f| f.load().ok()))
            .as_ref()
    }

    fn next(&mut self, name: &str) -> Option<Next> {
        self.meta(name).map(next_step)
    }
}

/// Settles, under the events' lock, what settled by itself: expired, or
/// its feature moved on (a phase started, the feature finished or
/// abandoned). Returns the ids settled.
fn settle_stale(
    project: &Project,
    env: &Env,
    d: &mut Delivery,
    config: &RoutingConfig,
    features: &mut Features<'_>,
) -> OpResult<Vec<String>> {
    let mut by: BTreeMap<Settled, Vec<String>> = BTreeMap::new();
    for p in d.pending.values() {
        let e = &p.event;
        let Some(target) = route(&e.event_type, config).and_then(|r| r.target) else { continue };
        let meta = e.feature.as_deref().and_then(|f| features.meta(f));
        if let Some(why) = settled_by_feature(e, target, meta, env.now) {
            by.entry(why).or_default().push(e.id.clone());
        }
    }
    let mut out = Vec::new();
    for (why, ids) in by {
        out.extend(acknowledge(project, env, d, &ids, &settled_by(why))?.acknowledged);
    }
    Ok(out)
}

/// Who an automatic settlement is logged as.
fn settled_by(why: Settled) -> String {
    format!("phasegate ({why})")
}

/// Every event waiting to settle; with `session`, only the ones that
/// session can act on. Reading it settles what expired or moved on.
pub fn pending(env: &Env, session: Option<&str>) -> OpResult<PendingList> {
    let project = session::project(env)?;
    let (config, routing_problem) = routing(&project);
    let mut features = Features::new(&project);
    let d = {
        let _lock = project.coordination().events_lock(env.lock_timeout)?;
        let mut d = synced(&project)?;
        // Settled what no route takes any more.
        d.pending.retain(|_, p| route(&p.event.event_type, &config).and_then(|r| r.target).is_some());
        settle_stale(&project, env, &mut d, &config, &mut features)?;
        project.coordination().save_delivery(&d)?;
        d
    };
    let me = match session {
        Some(s) => {
            let id = super::registry::session_arg(&project, s)?;
            Some(project.coordination().session(&id)?.unwrap_or_else(|| SessionRecord::new(id, "", "", env.now)))
        }
        None => None,
    };
    let events = d
        .pending
        .values()
        .filter(|p| me.as_ref().is_none_or(|m| can_act(m, &p.event)))
        .map(|p| view(p, &config, &mut features))
        .collect();
    let log = project.coordination().event_log().read::<Event>()?;
    let mut corrupt: Vec<String> = log.corrupt.iter().map(|b| format!("line {}: {}", b.line, b.error)).collect();
    corrupt.extend(log.incomplete.iter().map(|b| format!("line {}: {}", b.line, b.error)));
    Ok(PendingList { events, corrupt, routing: routing_problem })
}

/// How many events wait to settle, those past their time not counted: a
/// read without lock or write, for `status` (`events pending` settles them).
pub fn pending_count(project: &Project, env: &Env) -> usize {
    let Ok(d) = project.coordination().delivery() else { return 0 };
    let (config, _) = routing(project);
    d.pending
        .values()
        .filter(|p| {
            route(&p.event.event_type, &config)
                .and_then(|r| r.target)
                .is_some_and(|t| env.now - p.event.at < t.pending_for())
        })
        .count()
}

/// Whether `session` can act on `event` (routing aside): not its own
/// event, about its feature or any when it has none, and work given to it.
fn can_act(session: &SessionRecord, event: &Event) -> bool {
    if event.source.as_ref() == Some(&session.id) {
        return false;
    }
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

/// The events to offer `me` now, marked as offered to it. A first read
/// without the lock finds whether there is anything for `me` at all, so a
/// session with nothing to see pays one small read; the choice is made
/// again under the lock on fresh reads of the delivery state and of the
/// sessions, so one event is offered to exactly one session however many
/// prompt at once.
pub fn offer(project: &Project, env: &Env, me: &SessionRecord) -> Vec<(String, Suggestion)> {
    let Ok(d) = project.coordination().delivery() else { return Vec::new() };
    let log_grew = project.coordination().event_log().len() != d.through
        || project.coordination().event_acks().len() != d.acks_through;
    let maybe = |p: &Pending| can_act(me, &p.event) && p.offered_to.as_ref() != Some(&me.id);
    if !log_grew && !d.pending.values().any(maybe) {
        return Vec::new();
    }
    let Ok(_lock) = project.coordination().events_lock(env.lock_timeout) else { return Vec::new() };
    let Ok(mut d) = synced(project) else { return Vec::new() };
    let (config, _) = routing(project);
    let mut features = Features::new(project);
    let _ = settle_stale(project, env, &mut d, &config, &mut features);
    // Read under the lock: who was offered what is decided on what is true now.
    let others_offered = d.pending.values().any(|p| maybe(p) && p.offered_to.is_some());
    let sessions = match others_offered {
        true => project.coordination().sessions().map(|(s, _)| s).unwrap_or_default(),
        false => Vec::new(),
    };
    let ids: BTreeSet<String> = d
        .pending
        .values()
        .filter(|p| maybe(p))
        .filter(|p| p.offered_to.as_ref().is_none_or(|to| undelivered(to, &sessions, env.now)))
        .map(|p| p.event.id.clone())
        .collect();
    let mut out = Vec::new();
    for id in ids {
        let Some(p) = d.pending.get_mut(&id) else { continue };
        let next = p.event.feature.as_deref().and_then(|f| features.next(f));
        let Some(s) = suggest(&p.event, &config, next.as_ref()) else { continue };
        p.offered_to = Some(me.id.clone());
        p.offered_at = Some(env.now);
        out.push((id, s));
    }
    let _ = project.coordination().save_delivery(&d);
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
    let project = session::project(env)?;
    let by = env.session(None)?.map(|s| s.to_string()).unwrap_or_else(|| "user".to_owned());
    let _lock = project.coordination().events_lock(env.lock_timeout)?;
    let mut d = synced(&project)?;
    acknowledge(&project, env, &mut d, ids, &by)
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
    project.coordination().event_acks().append_held(&acks)?;
    d.acks_through = project.coordination().event_acks().len();
    project.coordination().save_delivery(d)?;
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
    let project = session::project(env)?;
    let payload = match payload {
        None => Value::Null,
        Some(text) => serde_json::from_str(text).invalid("--payload is not JSON")?,
    };
    emit(&project, env, event_type, feature, task, payload)
}

/// Whether the log holds an event of `event_type` about `feature`.
pub fn happened(project: &Project, event_type: &str, feature: &str) -> bool {
    project
        .coordination()
        .event_log()
        .read::<Event>()
        .map(|l| l.records.iter().any(|e| e.event_type.as_str() == event_type && e.feature.as_deref() == Some(feature)))
        .unwrap_or(false)
}

/// The events with their lock held and their delivery state read once: a
/// verb's effects (the `effects` module) raise and settle through it, in their
/// order, under one take of the lock.
pub struct Held<'p> {
    project: &'p Project,
    env: &'p Env,
    d: Delivery,
}

/// Runs `change` with the events' lock held (taken once, whatever it does).
pub fn with_held<T>(project: &Project, env: &Env, change: impl FnOnce(&mut Held<'_>) -> OpResult<T>) -> OpResult<T> {
    let _lock = project.coordination().events_lock(env.lock_timeout)?;
    let mut held = Held { project, env, d: synced(project)? };
    change(&mut held)
}

impl Held<'_> {
    /// Appends `new`, in one write of the log; the events appended.
    pub fn raise_all(&mut self, new: Vec<NewEvent<'_>>) -> OpResult<Vec<Event>> {
        let source = self.env.session(None).ok().flatten();
        let mut events = Vec::with_capacity(new.len());
        for n in new {
            events.push(Event {
                id: format!("e{}", self.d.next.max(1)),
                event_type: EventType::parse(n.event_type).invalid_input()?,
                feature: n.feature.map(str::to_owned),
                task: n.task.map(str::to_owned),
                payload: n.payload,
                at: self.env.now,
                source: source.clone(),
            });
            self.d.next = self.d.next.max(1) + 1;
        }
        self.project.coordination().event_log().append_held(&events)?;
        catch_up(self.project, &mut self.d)?;
        self.project.coordination().save_delivery(&self.d)?;
        Ok(events)
    }

    /// Appends one event; with `unless_raised`, not when the log already
    /// holds one of its type about its feature.
    pub fn raise(&mut self, new: NewEvent<'_>, unless_raised: bool) -> OpResult<Option<Event>> {
        if unless_raised && new.feature.is_some_and(|f| happened(self.project, new.event_type, f)) {
            return Ok(None);
        }
        Ok(self.raise_all(vec![new])?.pop())
    }

    /// Settles, as done, every pending event `which` picks; the ids settled.
    pub fn settle(&mut self, which: impl Fn(&Event) -> bool) -> OpResult<Vec<String>> {
        let ids: Vec<String> =
            self.d.pending.values().filter(|p| which(&p.event)).map(|p| p.event.id.clone()).collect();
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        Ok(acknowledge(self.project, self.env, &mut self.d, &ids, &settled_by(Settled::StepTaken))?.acknowledged)
    }

    /// Settles the pending events about `feature` that move it on: its
    /// next step, its build, its spec, the user's turn; with `also_retro`,
    /// its retrospective's too.
    pub fn settle_moved_on(&mut self, feature: &str, also_retro: bool) -> OpResult<Vec<String>> {
        let (config, _) = routing(self.project);
        self.settle(|e| {
            e.feature.as_deref() == Some(feature)
                && route(&e.event_type, &config).and_then(|r| r.target).is_some_and(|t| {
                    t.moves_feature() || (also_retro && !matches!(t, phasegate_core::coordination::RouteTarget::Pm))
                })
        })
    }
}

/// Whether nothing is pending and no event is unread: then settling has
/// nothing to do, and needs neither the lock nor a write.
pub fn nothing_pending(project: &Project) -> bool {
    let delivery = project.coordination().delivery();
    delivery.as_ref().is_ok_and(|d| d.pending.is_empty())
        && project.coordination().event_log().len() == delivery.map(|d| d.through).unwrap_or(0)
}
