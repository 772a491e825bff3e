//! Events and where they lead (seed 004 §1.2, §2): an event such as
//! `spec.approved` happens in one session; the routing table says which
//! phase or agent takes it up next, and what to suggest to the session that
//! reads it. Also the append-only event log, read line by line.
//!
//! Design choices:
//! - The default table is §2.1's decision tree and §2.2's subscriptions
//!   (with §2.3's `work.assigned`), as data: [`DEFAULT_ROUTES`]. Seed agents
//!   map onto the plugin: the build agent is the implement phase, the SIA
//!   the retrospective, the PM agent the PM, the specification agent the
//!   specify phase; `ideation.completed` waits for the user (§2.1), although
//!   §2.2 also lets the specification agent and the SIA subscribe to it.
//! - One event, one route: a route is a suggestion of the next step, and
//!   two suggestions for one event would leave the choice to the model.
//! - Patterns are an exact type (`task.failed`) or a prefix wildcard
//!   (`alert.*`, matching any type below `alert.`). The most specific
//!   matching pattern wins: an exact type over any wildcard, a longer prefix
//!   over a shorter one.
//! - The user's `.phasegate/routing.config.json` is consulted first: if one
//!   of its patterns matches, its most specific one decides, even against a
//!   more specific default (`"spec.*": "none"` silences `spec.approved`).
//!   Only when none matches does the default table decide. `none` means no
//!   suggestion at all.
//! - An event type is two or more dot-separated words of `a-z`, `0-9`, `_`,
//!   `-`; the configuration's schema spells the same rule as a regex.
//! - An event is pending until it settles: a binary that sees its next
//!   step taken settles it at once (a phase started, the feature finished
//!   or abandoned, a retrospective recorded, a task started or completed:
//!   [`settled_by_feature`] and the ops' explicit settles); the rest expire
//!   after their route's time ([`RouteTarget::pending_for`]): an alert, a
//!   conflict or a decision for the PM after 1 hour (the monitor raises a
//!   condition that persists again after 30 minutes), a feature's next step
//!   after 24 hours (its SessionStart line names it anyway), a
//!   retrospective after 7 days.
//! - A suggestion to move a feature on (the build, the spec, the user's
//!   turn) is the feature's own next step, the one `workflow-state next`
//!   gives: seed 004's "spec.approved → build agent" becomes the next phase
//!   of the feature's flow, so an event never contradicts the feature's
//!   line (see [`suggest`]).
//! - The log is one JSON object per line. A line that does not read as an
//!   event is reported with its number and skipped, never fatal. A record
//!   is committed by its newline: a last line without one was torn by a
//!   crash mid-write and is reported as incomplete, not corrupt, even when
//!   it happens to parse; [`JsonLines::complete_len`] is where an appender
//!   cuts the file before writing again. Blank lines are skipped. Unknown
//!   fields are ignored, so a newer writer's events still read.

use chrono::{DateTime, TimeDelta, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::feature::{Meta, Next, Status};

use crate::schema::{ConfigError, Schema};
use crate::session::SessionId;

pub const ROUTING_CONFIG_PATH: &str = ".phasegate/routing.config.json";

/// What a route's pattern or an event type must look like.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EventTypeError {
    #[error("`{0}` is not an event type; write two or more dot-separated words of a-z, 0-9, _ and - (spec.approved)")]
    Type(String),
    #[error("`{0}` is not an event pattern; write an event type (spec.approved) or a prefix and `.*` (alert.*)")]
    Pattern(String),
}

/// A validated event type such as `spec.approved`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct EventType(String);

fn is_word(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_' || b == b'-')
}

impl EventType {
    pub fn parse(s: &str) -> Result<EventType, EventTypeError> {
        let words: Vec<&str> = s.split('.').collect();
        match words.len() >= 2 && words.iter().all(|w| is_word(w)) {
            true => Ok(EventType(s.to_owned())),
            false => Err(EventTypeError::Type(s.to_owned())),
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for EventType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl Serialize for EventType {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for EventType {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        EventType::parse(&text).map_err(serde::de::Error::custom)
    }
}

/// One thing that happened.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Event {
    pub id: String,
    #[serde(rename = "type")]
    pub event_type: EventType,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub feature: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task: Option<String>,
    #[serde(default, skip_serializing_if = "Value::is_null")]
    pub payload: Value,
    pub at: DateTime<Utc>,
    /// The session it happened in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<SessionId>,
}

impl Event {
    /// What happened, in a few words, with the facts its payload holds (a
    /// conflict's path, owner and requester; an alert's message; a failed
    /// task's reason; reassigned work's sessions).
    pub fn about(&self) -> String {
        let mut out = self.event_type.to_string();
        if let Some(f) = &self.feature {
            out.push_str(&format!(" for {f}"));
        }
        if let Some(t) = &self.task {
            out.push_str(&format!(" (task {t})"));
        }
        let text = |k: &str| self.payload.get(k).and_then(Value::as_str);
        let facts = match self.event_type.as_str() {
            "conflict.detected" => match (text("requester"), text("path"), text("owner")) {
                (Some(r), Some(p), Some(o)) => {
                    let how = match text("action") {
                        Some("BASH_WRITE") => "wrote",
                        Some("PREEMPT") => "took",
                        Some(_) | None => "asked for",
                    };
                    let action = text("action").map(|a| format!(" ({a})")).unwrap_or_default();
                    Some(format!("session {} {how} {p}, leased by session {}{action}", short(r), short(o)))
                }
                _ => None,
            },
            "work.assigned" => match (text("from"), text("to")) {
                (Some(from), Some(to)) => Some(format!("from session {} to session {}", short(from), short(to))),
                _ => None,
            },
            "task.failed" => self.payload.pointer("/decision/reason").and_then(Value::as_str).map(str::to_owned),
            "decision.requested" => text("message").map(str::to_owned),
            t if t.starts_with("alert.") => text("message").map(str::to_owned),
            _ => None,
        };
        if let Some(facts) = facts {
            out.push_str(": ");
            out.push_str(&facts);
        }
        out
    }
}

/// A session id as messages name it: the whole id when short, else its
/// first 8 characters (a unique prefix is accepted wherever an id is).
fn short(id: &str) -> &str {
    match SessionId::parse(id) {
        Ok(_) => crate::session::short_str(id),
        Err(_) => id,
    }
}

/// An exact event type, or every type below a prefix (`alert.*`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EventPattern {
    Exact(EventType),
    /// The words before `.*`.
    Prefix(String),
}

impl EventPattern {
    pub fn parse(s: &str) -> Result<EventPattern, EventTypeError> {
        let bad = || EventTypeError::Pattern(s.to_owned());
        match s.strip_suffix(".*") {
            Some(prefix) => match prefix.split('.').all(is_word) {
                true => Ok(EventPattern::Prefix(prefix.to_owned())),
                false => Err(bad()),
            },
            None => EventType::parse(s).map(EventPattern::Exact).map_err(|_| bad()),
        }
    }

    pub fn matches(&self, t: &EventType) -> bool {
        match self {
            EventPattern::Exact(e) => e == t,
            EventPattern::Prefix(p) => t.as_str().strip_prefix(p.as_str()).is_some_and(|rest| rest.starts_with('.')),
        }
    }

    /// Larger is more specific: an exact type over any prefix, then the
    /// longer prefix.
    fn specificity(&self) -> (bool, usize) {
        match self {
            EventPattern::Exact(_) => (true, 0),
            EventPattern::Prefix(p) => (false, p.split('.').count()),
        }
    }
}

impl std::fmt::Display for EventPattern {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EventPattern::Exact(t) => write!(f, "{t}"),
            EventPattern::Prefix(p) => write!(f, "{p}.*"),
        }
    }
}

/// Where an event leads.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, strum::IntoStaticStr, strum::VariantArray,
)]
#[serde(rename_all = "kebab-case")]
#[strum(serialize_all = "kebab-case")]
pub enum RouteTarget {
    /// Seed 004's build agent: the implement phase.
    Build,
    /// The SIA: the retrospective that extracts gotchas and patterns.
    Retrospective,
    /// The PM: alerts, conflicts, decisions.
    Pm,
    /// The specification agent: the specify phase.
    Specify,
    /// Nothing runs on its own; the user decides (§2.1).
    WaitForUser,
}

crate::named!(RouteTarget, "route");

impl RouteTarget {
    /// The slash command to suggest, if one runs next.
    pub fn command(self) -> Option<&'static str> {
        match self {
            RouteTarget::Build => Some("/phasegate:implement"),
            RouteTarget::Retrospective => Some("/phasegate:retro"),
            RouteTarget::Pm => Some("/phasegate:pm"),
            RouteTarget::Specify => Some("/phasegate:specify"),
            RouteTarget::WaitForUser => None,
        }
    }

    /// How long an event on this route stays pending when no binary
    /// settles it (see the module's design choices).
    pub fn pending_for(self) -> TimeDelta {
        match self {
            RouteTarget::Pm => TimeDelta::hours(1),
            RouteTarget::Build | RouteTarget::Specify | RouteTarget::WaitForUser => TimeDelta::hours(24),
            RouteTarget::Retrospective => TimeDelta::days(7),
        }
    }

    /// Whether the route's step moves a feature on to its next step (and
    /// so is the feature's next step, settled when the feature moves).
    pub fn moves_feature(self) -> bool {
        match self {
            RouteTarget::Build | RouteTarget::Specify | RouteTarget::WaitForUser => true,
            RouteTarget::Retrospective | RouteTarget::Pm => false,
        }
    }

    /// What to do, after the event has been named.
    pub fn sentence(self) -> &'static str {
        match self {
            RouteTarget::Build => "build it: run /phasegate:implement.",
            RouteTarget::Retrospective => "learn from it while the evidence is fresh: run /phasegate:retro.",
            RouteTarget::Pm => "decide what happens next: run /phasegate:pm.",
            RouteTarget::Specify => "revise the spec: run /phasegate:specify.",
            RouteTarget::WaitForUser => {
                "nothing runs on its own; when the user is ready, /phasegate:specify turns the idea into a spec."
            }
        }
    }
}

/// One row of the default routing table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct DefaultRoute {
    pub pattern: &'static str,
    pub target: RouteTarget,
    /// Why, in the seed's words.
    pub because: &'static str,
}

const fn row(pattern: &'static str, target: RouteTarget, because: &'static str) -> DefaultRoute {
    DefaultRoute { pattern, target, because }
}

/// Seed 004 §2.1's decision tree, §2.2's subscriptions and §2.3's handoffs.
pub const DEFAULT_ROUTES: [DefaultRoute; 12] = [
    row("spec.approved", RouteTarget::Build, "Start building"),
    row("build.resume", RouteTarget::Build, "Resume interrupted build"),
    row("task.retry", RouteTarget::Build, "Retry failed task"),
    row("work.assigned", RouteTarget::Build, "Work reassigned"),
    row("build.completed", RouteTarget::Retrospective, "Review build outcome"),
    row("task.failed", RouteTarget::Retrospective, "Immediate gotcha extraction"),
    row("spec.generated", RouteTarget::Retrospective, "Review spec quality"),
    row("alert.*", RouteTarget::Pm, "Alert threshold exceeded"),
    row("conflict.detected", RouteTarget::Pm, "File ownership conflict"),
    row("decision.requested", RouteTarget::Pm, "Human decision needed"),
    row("spec.revision_requested", RouteTarget::Specify, "User requested changes"),
    row("ideation.completed", RouteTarget::WaitForUser, "Wait for user action"),
];

/// `.phasegate/routing.config.json`: the user's routes, consulted before
/// the defaults.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RoutingConfig {
    /// Each pattern with its target; `None` is the word `none`.
    pub routes: Vec<(EventPattern, Option<RouteTarget>)>,
}

impl RoutingConfig {
    /// Each route first (the error names the key and the fix), then the
    /// schema for everything else.
    pub fn parse(text: &str) -> Result<RoutingConfig, ConfigError> {
        let value: Value = serde_json::from_str(text).map_err(|e| ConfigError::Syntax(e.into()))?;
        let mut routes = Vec::new();
        let empty = serde_json::Map::new();
        let table = value.get("routes").and_then(Value::as_object).unwrap_or(&empty);
        for (key, target) in table {
            let rule = |why: String| ConfigError::Rule(format!("routes key `{key}`: {why}"));
            let pattern = EventPattern::parse(key).map_err(|e| rule(e.to_string()))?;
            let target = match target.as_str() {
                Some("none") => None,
                Some(name) => Some(name.parse::<RouteTarget>().map_err(|e| rule(format!("{e}, or none")))?),
                None => return Err(rule(format!("{target} is not a route; write one of {}, or none", route_names()))),
            };
            routes.push((pattern, target));
        }
        Schema::RoutingConfig.check(&value).map_err(ConfigError::Schema)?;
        Ok(RoutingConfig { routes })
    }
}

fn route_names() -> String {
    <RouteTarget as crate::names::Named>::names()
}

/// Which table a route came from.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, strum::IntoStaticStr, strum::VariantArray,
)]
#[serde(rename_all = "kebab-case")]
#[strum(serialize_all = "kebab-case")]
pub enum RouteOrigin {
    Default,
    Config,
}

crate::named!(RouteOrigin, "route origin");

/// The route an event type takes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Route {
    /// The pattern that decided.
    pub pattern: String,
    pub origin: RouteOrigin,
    /// `None`: the configuration routes it nowhere.
    pub target: Option<RouteTarget>,
    /// The seed's reason, for a default route.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub because: Option<&'static str>,
}

/// The route of an event type: the user's most specific matching pattern,
/// else the default table's; `None` when neither has one.
pub fn route(event_type: &EventType, config: &RoutingConfig) -> Option<Route> {
    let user = config.routes.iter().filter(|(p, _)| p.matches(event_type)).max_by_key(|(p, _)| p.specificity()).map(
        |(p, target)| Route { pattern: p.to_string(), origin: RouteOrigin::Config, target: *target, because: None },
    );
    user.or_else(|| {
        DEFAULT_ROUTES
            .iter()
            .filter_map(|r| EventPattern::parse(r.pattern).ok().map(|p| (p, r)))
            .filter(|(p, _)| p.matches(event_type))
            .max_by_key(|(p, _)| p.specificity())
            .map(|(p, r)| Route {
                pattern: p.to_string(),
                origin: RouteOrigin::Default,
                target: Some(r.target),
                because: Some(r.because),
            })
    })
}

/// What to tell the session that reads an event.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Suggestion {
    pub target: RouteTarget,
    /// The slash command to run, if any.
    pub command: Option<String>,
    pub sentence: String,
}

/// The suggestion for an event, or `None` when it is routed nowhere.
/// `next` is the event's feature's next step (`workflow-state next`), when
/// the event is about a feature: a route that moves the feature on suggests
/// that step, so the event and the feature's line agree.
pub fn suggest(event: &Event, config: &RoutingConfig, next: Option<&Next>) -> Option<Suggestion> {
    let target = route(&event.event_type, config)?.target?;
    let about = event.about();
    let step = next.filter(|_| target.moves_feature() && event.feature.is_some());
    Some(match step {
        // Nothing runs on its own (§2.1): the next step is named for the user.
        Some(Next { command: Some(command), reason, .. }) if target == RouteTarget::WaitForUser => Suggestion {
            target,
            command: None,
            sentence: format!("{about}: nothing runs on its own; when the user is ready ({reason}): {command}."),
        },
        Some(Next { command: Some(command), reason, .. }) => Suggestion {
            target,
            command: Some(command.to_string()),
            sentence: format!("{about}: {reason}; next: run {command}."),
        },
        Some(Next { command: None, reason, .. }) => {
            Suggestion { target, command: None, sentence: format!("{about}: {reason}; nothing to run.") }
        }
        None => Suggestion {
            target,
            command: target.command().map(str::to_owned),
            sentence: format!("{about}: {}", target.sentence()),
        },
    })
}

/// Why a pending event settled without an acknowledgement.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    strum::IntoStaticStr,
    strum::VariantArray,
)]
#[serde(rename_all = "kebab-case")]
#[strum(serialize_all = "kebab-case")]
pub enum Settled {
    /// What it suggests was done (a phase started, a retrospective
    /// recorded, the task started or completed, the alert's condition
    /// cleared).
    StepTaken,
    /// Its feature was finished or abandoned, or is gone.
    FeatureEnded,
    /// Nobody settled it within its route's time.
    Expired,
}

crate::named!(Settled, "settlement");

/// Whether an event settled by itself: expired, or its feature moved on.
/// `meta` is its feature's state (`None`: the feature is gone, or the event
/// is about none). A route that moves the feature on settles when any phase
/// started after the event, or the feature ended; a retrospective settles
/// when the feature was abandoned (a finished feature still has its
/// retrospective to run: `retro record` settles that).
pub fn settled_by_feature(
    event: &Event,
    target: RouteTarget,
    meta: Option<&Meta>,
    now: DateTime<Utc>,
) -> Option<Settled> {
    if now - event.at >= target.pending_for() {
        return Some(Settled::Expired);
    }
    event.feature.as_ref()?;
    let Some(meta) = meta else {
        return target.moves_feature().then_some(Settled::FeatureEnded);
    };
    match (target.moves_feature(), meta.status) {
        (true, Status::Completed | Status::Abandoned) | (false, Status::Abandoned) => Some(Settled::FeatureEnded),
        (false, Status::Active | Status::Completed) => None,
        (true, Status::Active) => {
            let moved = meta.phases.values().any(|r| r.started.is_some_and(|at| at > event.at));
            (moved && event.task.is_none()).then_some(Settled::StepTaken)
        }
    }
}

/// A line of the log that is not an event.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BadLine {
    /// 1-based.
    pub line: usize,
    pub error: String,
}

/// Any append-only log of one JSON record per line (events, the monitor's
/// alerts, the PM's decisions), read by the event log's rules.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct JsonLines<T> {
    pub records: Vec<T>,
    /// Complete lines that are not records, skipped.
    pub corrupt: Vec<BadLine>,
    /// The last line, written without its newline: torn mid-write.
    pub incomplete: Option<BadLine>,
    /// Bytes up to and including the last newline.
    pub complete_len: usize,
}

/// Reads one JSON record per line: a line that does not read as a `T` is
/// reported with its number and skipped; a last line without its newline is
/// incomplete (see the module's design choices).
pub fn parse_json_lines<T: serde::de::DeserializeOwned>(text: &str) -> JsonLines<T> {
    let complete_len = text.rfind('\n').map_or(0, |i| i + 1);
    let (complete, torn) = text.split_at(complete_len);
    let mut log = JsonLines { records: Vec::new(), corrupt: Vec::new(), incomplete: None, complete_len };
    let mut number = 0;
    for line in complete.split_terminator('\n') {
        number += 1;
        let line = line.strip_suffix('\r').unwrap_or(line);
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<T>(line) {
            Ok(e) => log.records.push(e),
            Err(e) => log.corrupt.push(BadLine { line: number, error: e.to_string() }),
        }
    }
    if !torn.trim().is_empty() {
        log.incomplete = Some(BadLine {
            line: number + 1,
            error: format!("the last line ({} bytes) has no newline: it was not completely written", torn.len()),
        });
    }
    log
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn ty(s: &str) -> EventType {
        EventType::parse(s).unwrap()
    }

    fn target(s: &str, config: &RoutingConfig) -> Option<RouteTarget> {
        route(&ty(s), config).and_then(|r| r.target)
    }

    #[test]
    fn the_default_table_follows_the_seed() {
        let none = RoutingConfig::default();
        for (event, want) in [
            ("spec.approved", RouteTarget::Build),
            ("build.resume", RouteTarget::Build),
            ("task.retry", RouteTarget::Build),
            ("work.assigned", RouteTarget::Build),
            ("build.completed", RouteTarget::Retrospective),
            ("task.failed", RouteTarget::Retrospective),
            ("spec.generated", RouteTarget::Retrospective),
            ("alert.stuck_task", RouteTarget::Pm),
            ("alert.deadlock", RouteTarget::Pm),
            ("alert.build_failed", RouteTarget::Pm),
            ("alert.session_down", RouteTarget::Pm),
            ("conflict.detected", RouteTarget::Pm),
            ("decision.requested", RouteTarget::Pm),
            ("spec.revision_requested", RouteTarget::Specify),
            ("ideation.completed", RouteTarget::WaitForUser),
        ] {
            assert_eq!(target(event, &none), Some(want), "{event}");
        }
        assert_eq!(route(&ty("task.failed"), &none).unwrap().because, Some("Immediate gotcha extraction"));
        assert_eq!(route(&ty("spec.drafted"), &none), None);
        for r in DEFAULT_ROUTES {
            assert!(EventPattern::parse(r.pattern).is_ok(), "{}", r.pattern);
        }
    }

    #[test]
    fn the_most_specific_pattern_wins() {
        let c = RoutingConfig::parse(
            r#"{"routes": {"alert.*": "none", "alert.deploy.*": "build", "alert.deploy.failed": "pm"}}"#,
        )
        .unwrap();
        assert_eq!(target("alert.stuck_task", &c), None);
        assert_eq!(target("alert.deploy.slow", &c), Some(RouteTarget::Build));
        assert_eq!(target("alert.deploy.failed", &c), Some(RouteTarget::Pm));
        assert_eq!(route(&ty("alert.deploy.slow"), &c).unwrap().pattern, "alert.deploy.*");
    }

    #[test]
    fn a_wildcard_matches_only_below_its_prefix() {
        let p = EventPattern::parse("alert.*").unwrap();
        assert!(p.matches(&ty("alert.x")) && p.matches(&ty("alert.x.y")));
        assert!(!p.matches(&ty("alerts.x")) && !p.matches(&ty("other.alert")));
    }

    #[test]
    fn the_users_config_comes_before_the_defaults() {
        let c = RoutingConfig::parse(r#"{"routes": {"spec.*": "none", "task.failed": "pm"}}"#).unwrap();
        let r = route(&ty("spec.approved"), &c).unwrap();
        assert_eq!((r.origin, r.target, r.pattern.as_str()), (RouteOrigin::Config, None, "spec.*"));
        assert_eq!(target("task.failed", &c), Some(RouteTarget::Pm));
        let r = route(&ty("build.completed"), &c).unwrap();
        assert_eq!((r.origin, r.target), (RouteOrigin::Default, Some(RouteTarget::Retrospective)));
    }

    #[test]
    fn config_errors_name_the_key() {
        for (text, key) in [
            (r#"{"routes": {"spec.approved": "builder"}}"#, "spec.approved"),
            (r#"{"routes": {"Spec.Approved": "build"}}"#, "Spec.Approved"),
            (r#"{"routes": {"*": "pm"}}"#, "*"),
            (r#"{"routes": {"alert": "pm"}}"#, "alert"),
            (r#"{"routes": {"alert.*": 3}}"#, "alert.*"),
            (r#"{"rutes": {}}"#, "rutes"),
        ] {
            let e = RoutingConfig::parse(text).unwrap_err().to_string();
            assert!(e.contains(key), "{text}: {e}");
        }
        assert!(matches!(RoutingConfig::parse("{"), Err(ConfigError::Syntax(_))));
        assert_eq!(RoutingConfig::parse("{}").unwrap(), RoutingConfig::default());
        let e = RoutingConfig::parse(r#"{"routes": {"spec.approved": "builder"}}"#).unwrap_err().to_string();
        assert_eq!(
            e,
            "routes key `spec.approved`: unknown route `builder`; expected one of: build, retrospective, pm, specify, wait-for-user, or none"
        );
        let e = RoutingConfig::parse(r#"{"routes": {"Spec.Approved": "build"}}"#).unwrap_err().to_string();
        assert!(e.contains("write an event type (spec.approved) or a prefix and `.*` (alert.*)"), "{e}");
    }

    #[test]
    fn the_schema_lists_every_route_and_none() {
        let doc: Value = serde_json::from_str(Schema::RoutingConfig.text()).unwrap();
        let listed = &doc["properties"]["routes"]["additionalProperties"]["enum"];
        let mut want: Vec<&str> = <RouteTarget as strum::VariantArray>::VARIANTS.iter().map(|t| t.name()).collect();
        want.push("none");
        assert_eq!(*listed, serde_json::json!(want));
    }

    #[test]
    fn the_typed_rules_agree_with_the_schema() {
        // The Rust rule and the schema's regex, each alone, refuse and accept the same keys.
        let schema_accepts =
            |key: &str| Schema::RoutingConfig.check(&serde_json::json!({"routes": {key: "pm"}})).is_ok();
        for bad in ["*", "alert", "Spec.x", "a..b", "a.*.b", ".*", "a.b.", "a.b*", "a b.c"] {
            assert!(EventPattern::parse(bad).is_err(), "{bad}");
            assert!(!schema_accepts(bad), "{bad}");
        }
        for good in ["a.b", "a.*", "a.b.*", "spec.revision_requested", "x-1.y_2"] {
            assert!(EventPattern::parse(good).is_ok(), "{good}");
            assert!(schema_accepts(good), "{good}");
            assert!(RoutingConfig::parse(&format!(r#"{{"routes": {{"{good}": "pm"}}}}"#)).is_ok(), "{good}");
        }
    }

    fn event(t: &str, feature: Option<&str>, task: Option<&str>, payload: Value) -> Event {
        Event {
            id: "e1".into(),
            event_type: ty(t),
            feature: feature.map(str::to_owned),
            task: task.map(str::to_owned),
            payload,
            at: Utc.with_ymd_and_hms(2026, 11, 22, 10, 0, 0).unwrap(),
            source: None,
        }
    }

    #[test]
    fn a_suggestion_names_the_event_and_the_command() {
        let e = event("task.failed", Some("001-login"), Some("T3"), Value::Null);
        let s = suggest(&e, &RoutingConfig::default(), None).unwrap();
        assert_eq!(s.command.as_deref(), Some("/phasegate:retro"));
        assert_eq!(
            s.sentence,
            "task.failed for 001-login (task T3): learn from it while the evidence is fresh: run /phasegate:retro."
        );
        let silenced = RoutingConfig::parse(r#"{"routes": {"task.failed": "none"}}"#).unwrap();
        assert_eq!(suggest(&e, &silenced, None), None);
        let waiting = Event { event_type: ty("ideation.completed"), ..e };
        assert_eq!(suggest(&waiting, &RoutingConfig::default(), None).unwrap().command, None);
    }

    // Regression: after specify was approved one context said
    // "spec.approved: build it: run /phasegate:implement" and "Next:
    // /phasegate:design".
    #[test]
    fn an_events_suggestion_contradicted_the_features_next_step() {
        let e = event("spec.approved", Some("001-login"), None, Value::Null);
        let next = Next {
            phase: Some(crate::Phase::Design),
            command: Some(crate::feature::Suggested::Phase(crate::Phase::Design)),
            reason: "specify is complete".into(),
        };
        let s = suggest(&e, &RoutingConfig::default(), Some(&next)).unwrap();
        assert_eq!(s.command.as_deref(), Some("/phasegate:design"));
        assert_eq!(s.sentence, "spec.approved for 001-login: specify is complete; next: run /phasegate:design.");
        // The PM's and the retrospective's routes keep their own step.
        let r = event("build.completed", Some("001-login"), None, Value::Null);
        assert_eq!(
            suggest(&r, &RoutingConfig::default(), Some(&next)).unwrap().command.as_deref(),
            Some("/phasegate:retro")
        );
    }

    // Regression: "e8 conflict.detected : conflict.detected: decide…" lost the
    // path, owner and requester the log holds; alerts lost their message.
    #[test]
    fn event_lines_dropped_their_payload() {
        let c = event(
            "conflict.detected",
            None,
            None,
            serde_json::json!({"path": "src/a.rs", "owner": "3f2a1b9c-5d4e-4f00-8a7b-0123456789ab", "requester": "s2", "action": "DENY"}),
        );
        assert_eq!(c.about(), "conflict.detected: session s2 asked for src/a.rs, leased by session 3f2a1b9c (DENY)");
        let d = event("alert.deadlock", None, None, serde_json::json!({"message": "Deadlock detected: a -> b -> a"}));
        assert_eq!(d.about(), "alert.deadlock: Deadlock detected: a -> b -> a");
        let down = event(
            "alert.session_down",
            None,
            None,
            serde_json::json!({"message": "Session s1 stopped answering 6 min ago; it held task T2 of 001-a"}),
        );
        assert_eq!(
            down.about(),
            "alert.session_down: Session s1 stopped answering 6 min ago; it held task T2 of 001-a"
        );
        let w = event("work.assigned", Some("001-a"), Some("T2"), serde_json::json!({"from": "s1", "to": "s2"}));
        assert_eq!(w.about(), "work.assigned for 001-a (task T2): from session s1 to session s2");
        let f = event(
            "task.failed",
            Some("001-a"),
            Some("T2"),
            serde_json::json!({"decision": {"reason": "Validation failed - will fix"}}),
        );
        assert_eq!(f.about(), "task.failed for 001-a (task T2): Validation failed - will fix");
        let s = suggest(&c, &RoutingConfig::default(), None).unwrap().sentence;
        assert!(
            s.starts_with("conflict.detected: session s2 asked for src/a.rs") && s.ends_with("run /phasegate:pm."),
            "{s}"
        );
    }

    #[test]
    fn events_settle_when_their_feature_moves_on_and_expire_by_route() {
        use crate::feature::{ArtifactSet, Mode, StartMode};
        let at = Utc.with_ymd_and_hms(2026, 11, 22, 10, 0, 0).unwrap();
        let approved = event("spec.approved", Some("001-a"), None, Value::Null);
        let mut meta = Meta::new("001".into(), "a".into(), Mode::Standard, at - TimeDelta::hours(1));
        let later = at + TimeDelta::minutes(5);
        let build = RouteTarget::Build;
        assert_eq!(settled_by_feature(&approved, build, Some(&meta), later), None);
        meta.start_phase(crate::Phase::Design, later, StartMode::Continue, ArtifactSet::empty()).unwrap();
        assert_eq!(settled_by_feature(&approved, build, Some(&meta), later), Some(Settled::StepTaken));
        assert_eq!(settled_by_feature(&approved, build, None, later), Some(Settled::FeatureEnded));
        let retro = event("build.completed", Some("001-a"), None, Value::Null);
        let r = RouteTarget::Retrospective;
        meta.finish(later).unwrap();
        assert_eq!(
            settled_by_feature(&retro, r, Some(&meta), later),
            None,
            "a finished feature's retro is still to run"
        );
        assert_eq!(settled_by_feature(&approved, build, Some(&meta), later), Some(Settled::FeatureEnded));
        assert_eq!(settled_by_feature(&retro, r, Some(&meta), at + TimeDelta::days(7)), Some(Settled::Expired));
        let alert = event("alert.stuck_task", None, None, Value::Null);
        let pm = RouteTarget::Pm;
        assert_eq!(settled_by_feature(&alert, pm, None, at + TimeDelta::minutes(59)), None);
        assert_eq!(settled_by_feature(&alert, pm, None, at + TimeDelta::hours(1)), Some(Settled::Expired));
        assert_eq!(settled_by_feature(&approved, build, None, at + TimeDelta::hours(24)), Some(Settled::Expired));
    }

    const GOOD: &str =
        r#"{"id":"e1","type":"spec.approved","feature":"001-a","at":"2026-11-22T10:00:00Z","source":"s1"}"#;

    #[test]
    fn a_corrupt_line_is_reported_with_its_number_and_skipped() {
        let text = format!(
            "{GOOD}\nnot json\n\n{{\"id\":\"e2\",\"type\":\"Bad\",\"at\":\"2026-11-22T10:00:00Z\"}}\r\n{GOOD}\r\n"
        );
        let log = parse_json_lines::<Event>(&text);
        assert_eq!(log.records.len(), 2);
        assert_eq!(log.corrupt.iter().map(|b| b.line).collect::<Vec<_>>(), [2, 4]);
        assert!(log.corrupt[1].error.contains("not an event type"), "{}", log.corrupt[1].error);
        assert_eq!((log.incomplete, log.complete_len), (None, text.len()));
        assert_eq!(log.records[0].source.as_ref().map(SessionId::as_str), Some("s1"));
    }

    #[test]
    fn a_torn_last_line_is_incomplete_not_corrupt() {
        let text = format!("{GOOD}\n{}", &GOOD[..30]);
        let log = parse_json_lines::<Event>(&text);
        assert_eq!((log.records.len(), log.corrupt.len()), (1, 0));
        assert_eq!(log.incomplete.as_ref().map(|b| b.line), Some(2));
        assert_eq!(log.complete_len, GOOD.len() + 1);
        // Even a whole object without its newline is not committed.
        let log = parse_json_lines::<Event>(GOOD);
        assert_eq!((log.records.len(), log.incomplete.map(|b| b.line), log.complete_len), (0, Some(1), 0));
        let empty = parse_json_lines::<Event>("");
        assert!(empty.records.is_empty() && empty.corrupt.is_empty() && empty.incomplete.is_none());
        assert_eq!(empty.complete_len, 0);
    }

    #[test]
    fn events_round_trip_and_unknown_fields_are_ignored() {
        let with_extra = r#"{"id":"e1","type":"alert.deadlock","payload":{"cycle":["a","b"]},"at":"2026-11-22T10:00:00Z","new_field":1}"#;
        let e: Event = serde_json::from_str(with_extra).unwrap();
        assert_eq!(e.payload["cycle"][1], "b");
        let again: Event = serde_json::from_str(&serde_json::to_string(&e).unwrap()).unwrap();
        assert_eq!(again, e);
    }

    #[test]
    fn names() {
        crate::names::assert_serde_names::<Settled>();
        crate::names::assert_serde_names::<RouteTarget>();
        crate::names::assert_serde_names::<RouteOrigin>();
    }
}
