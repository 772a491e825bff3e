//! The monitor (seed 004 §7): every 2 minutes, which sessions are down,
//! which tasks are stuck, which sessions wait for each other in a circle;
//! the alerts to raise and a report of everything it saw.
//!
//! Design choices:
//! - Stuck: a task is stuck when it has run strictly longer than its layer's
//!   threshold (§7.3: database 5 min, tests 15 min, anything else 10 min,
//!   `duration > threshold`). The layer is the task's own word (`database`,
//!   `tests`), compared exactly as the seed compares `task.phase`. A task
//!   whose start lies in the future (clock skew) has run 0 minutes.
//! - Minutes in messages are whole minutes, rounded down: the seed writes
//!   `duration.minutes`, and 10 min 59 s has run 10 whole minutes.
//! - Every in-progress task is checked, whatever its session's health, as
//!   the seed does; a task of a down session raises both alerts.
//! - Down: the seed alerts for a fixed list of expected "components"; our
//!   users run sessions, and want to hear about one only when it left
//!   something they must act on. A session that went silent while it holds
//!   work (LOADING or ACTIVE) and holds something another session may wait
//!   for (a lease, a task in progress, a place in the wait graph, a
//!   pipeline loop: [`holds_something`]) is [`Presence::Down`]; one holding
//!   nothing was closed without SessionEnd, which happens every day: it is
//!   [`Presence::Gone`]. IDLE, COMPLETE or ERROR has ended. Only a down
//!   session with something at stake ([`AtStake`]: a task in progress, a
//!   pipeline it runs, a session waiting for its file) is an alert, saying
//!   what is at stake, with the files it wrote that are not committed:
//!   `Session 3f2a1b05 stopped answering 6 min ago; it held task T2 of
//!   001-search; src/query.rs, which it wrote, is not committed`. A session
//!   that only leased files it wrote is no alert: its leases expire, and
//!   its files stay in the working tree where `git status` shows them. A
//!   clock beyond the tolerance counts as not answering and the report
//!   shows by how much. (Alerts written as `component_down` before read as
//!   `session_down`.)
//! - Deadlocks: waits whose waiter or holder is not live are left out: the
//!   holder's leases have expired (or the waiter is gone), so nobody is
//!   stuck for good. Severity critical.
//! - No duplicates: an alert of the same type about the same subject (the
//!   task, qualified by its feature; the session; the cycle's chain)
//!   created less than 30 minutes ago (`created_at > now - 30 min`, as §7.2)
//!   and not acknowledged suppresses a new one. An alert stamped more than
//!   the clock tolerance in the future suppresses nothing, so a wrong clock
//!   cannot silence the monitor.

use chrono::{DateTime, TimeDelta, Utc};
use serde::{Deserialize, Serialize};

use super::lease::{Lease, LeasePath};
use super::session::{CLOCK_SKEW_TOLERANCE, Health, Presence, SessionRecord, SessionState};
use super::waits::{Wait, WaitCycle, find_cycles};
use crate::priority::Priority;
use crate::session::SessionId;

/// §7.1: "Timer-based (every 2 minutes)"; §2.2: "Polls every 2 minutes".
pub(crate) const CHECK_EVERY: TimeDelta = TimeDelta::minutes(2);
/// §7.3: `if task.phase == 'database': threshold = timedelta(minutes=5)`.
pub(crate) const DATABASE_STUCK_AFTER: TimeDelta = TimeDelta::minutes(5);
/// §7.3: `elif task.phase == 'tests': threshold = timedelta(minutes=15)`.
pub(crate) const TESTS_STUCK_AFTER: TimeDelta = TimeDelta::minutes(15);
/// §7.3: `else: threshold = timedelta(minutes=10)`.
pub(crate) const STUCK_AFTER: TimeDelta = TimeDelta::minutes(10);
/// §7.2: recent alerts are `created_at > datetime('now', '-30 minutes')
/// AND acknowledged = 0`.
pub(crate) const ALERT_QUIET_FOR: TimeDelta = TimeDelta::minutes(30);

/// A task in progress.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ActiveTask {
    pub id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub feature: Option<String>,
    /// The session working on it.
    pub session: SessionId,
    /// Its layer (`database`, `types`, `queries`, `api`, `ui`, `tests`), if known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub layer: Option<String>,
    pub started_at: DateTime<Utc>,
}

impl ActiveTask {
    /// How long it has run; never negative.
    pub fn duration(&self, now: DateTime<Utc>) -> TimeDelta {
        (now - self.started_at).max(TimeDelta::zero())
    }

    /// What alerts about it are keyed by: `feature/id`, or the id alone.
    pub fn subject(&self) -> String {
        match &self.feature {
            Some(f) => format!("{f}/{}", self.id),
            None => self.id.clone(),
        }
    }
}

/// §7.3's threshold for a task's layer.
pub(crate) fn stuck_threshold(layer: Option<&str>) -> TimeDelta {
    match layer {
        Some("database") => DATABASE_STUCK_AFTER,
        Some("tests") => TESTS_STUCK_AFTER,
        Some(_) | None => STUCK_AFTER,
    }
}

/// Whole minutes, rounded down.
pub(super) fn whole_minutes(d: TimeDelta) -> i64 {
    d.num_minutes().max(0)
}

/// The monitor is due when it never ran or ran 2 minutes ago or more (or
/// its last run lies beyond the clock tolerance in the future).
pub fn monitor_due(last_check: Option<DateTime<Utc>>, now: DateTime<Utc>) -> bool {
    match last_check {
        None => true,
        Some(last) => now - last >= CHECK_EVERY || last - now > CLOCK_SKEW_TOLERANCE,
    }
}

/// §7.3's alert types.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, strum::IntoStaticStr, strum::VariantArray,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum AlertType {
    StuckTask,
    Deadlock,
    #[serde(alias = "component_down")]
    SessionDown,
}

crate::named!(AlertType, "alert type");

impl AlertType {
    /// §7.3: stuck_task → warning, deadlock → critical, component_down
    /// (our session_down) → error.
    pub fn severity(self) -> Severity {
        match self {
            AlertType::StuckTask => Severity::Warning,
            AlertType::Deadlock => Severity::Critical,
            AlertType::SessionDown => Severity::Error,
        }
    }

    /// The event it is published as: `alert.stuck_task`, ... (§2.2).
    pub fn event_type(self) -> String {
        format!("alert.{}", self.name())
    }
}

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
#[serde(rename_all = "lowercase")]
#[strum(serialize_all = "lowercase")]
pub enum Severity {
    Warning,
    Error,
    Critical,
}

crate::named!(Severity, "severity");

/// A task that has run past its threshold.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StuckTask {
    pub task_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub feature: Option<String>,
    pub session: SessionId,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub layer: Option<String>,
    pub started_at: DateTime<Utc>,
    pub duration_minutes: i64,
    pub threshold_minutes: i64,
}

/// The task behind a `stuck_task` alert, for the PM to judge again now.
impl From<&StuckTask> for ActiveTask {
    fn from(s: &StuckTask) -> ActiveTask {
        ActiveTask {
            id: s.task_id.clone(),
            feature: s.feature.clone(),
            session: s.session.clone(),
            layer: s.layer.clone(),
            started_at: s.started_at,
        }
    }
}

/// One session as the monitor saw it. (Not `deny_unknown_fields`: a
/// session-down alert carries it flattened beside what is at stake.)
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SessionStatus {
    pub session: SessionId,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub feature: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task: Option<String>,
    pub state: SessionState,
    pub priority: Priority,
    pub load: u32,
    pub heartbeat_at: DateTime<Utc>,
    pub health: Health,
    pub presence: Presence,
}

/// What a session that stopped answering leaves for others to act on.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AtStake {
    /// Its tasks in progress, as `T2 of 001-search`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tasks: Vec<String>,
    /// The feature whose pipeline loop it runs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pipeline: Option<String>,
    /// Sessions waiting for a file it leases.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub waiting: Vec<SessionId>,
    /// Files it leased (it wrote them) that git shows not committed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub uncommitted: Vec<String>,
}

impl AtStake {
    /// Whether another session or a person must act on it (files alone
    /// stay where `git status` shows them).
    pub fn is_empty(&self) -> bool {
        self.tasks.is_empty() && self.pipeline.is_none() && self.waiting.is_empty()
    }
}

/// A session that stopped answering, and what it leaves at stake.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SessionDown {
    #[serde(flatten)]
    pub status: SessionStatus,
    #[serde(default, flatten)]
    pub at_stake: AtStake,
}

impl SessionDown {
    /// `Session 3f2a1b05 stopped answering 6 min ago; it held task T2 of
    /// 001-search; src/query.rs, which it wrote, is not committed`.
    pub fn message(&self, now: DateTime<Utc>) -> String {
        let id = crate::session::short_str(self.status.session.as_str());
        let mut parts = vec![match self.status.health.clock_ahead_seconds {
            Some(s) => format!(
                "Session {id} counts as not answering: its clock is {} min ahead of this one (set that machine's clock)",
                s / 60
            ),
            None => format!(
                "Session {id} stopped answering {} min ago",
                whole_minutes((now - self.status.heartbeat_at).max(TimeDelta::zero()))
            ),
        }];
        let s = &self.at_stake;
        let mut held: Vec<String> = s.tasks.iter().map(|t| format!("task {t}")).collect();
        held.extend(s.pipeline.iter().map(|f| format!("the pipeline of {f}")));
        if !held.is_empty() {
            parts.push(format!("it held {}", held.join(" and ")));
        }
        if !s.waiting.is_empty() {
            let ids: Vec<&str> = s.waiting.iter().map(|w| crate::session::short_str(w.as_str())).collect();
            let one = ids.len() == 1;
            parts.push(format!(
                "session{} {} wait{} for a file it leased",
                if one { "" } else { "s" },
                ids.join(", "),
                if one { "s" } else { "" }
            ));
        }
        match s.uncommitted.as_slice() {
            [] => {}
            [one] => parts.push(format!("{one}, which it wrote, is not committed")),
            many => parts.push(format!("{}, which it wrote, are not committed", many.join(", "))),
        }
        parts.join("; ")
    }
}

/// What an alert is about: its type and the facts behind it (the seed's
/// `context`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum AlertDetails {
    StuckTask(StuckTask),
    Deadlock(WaitCycle),
    #[serde(alias = "component_down")]
    SessionDown(SessionDown),
}

impl AlertDetails {
    pub fn alert_type(&self) -> AlertType {
        match self {
            AlertDetails::StuckTask(_) => AlertType::StuckTask,
            AlertDetails::Deadlock(_) => AlertType::Deadlock,
            AlertDetails::SessionDown(_) => AlertType::SessionDown,
        }
    }

    /// Alerts about the same subject and of the same type are duplicates.
    pub fn subject(&self) -> String {
        match self {
            AlertDetails::StuckTask(s) => match &s.feature {
                Some(f) => format!("{f}/{}", s.task_id),
                None => s.task_id.clone(),
            },
            AlertDetails::Deadlock(c) => c.chain(),
            AlertDetails::SessionDown(s) => s.status.session.to_string(),
        }
    }

    /// §7.3's messages; a session down says what it left at stake.
    pub fn message(&self, now: DateTime<Utc>) -> String {
        match self {
            AlertDetails::StuckTask(s) => format!("Task {} stuck for {} min", s.task_id, s.duration_minutes),
            AlertDetails::Deadlock(c) => c.message(),
            AlertDetails::SessionDown(s) => s.message(now),
        }
    }

    /// §7.3's `source`: the task's session for a stuck task, else `monitor`.
    pub fn source(&self) -> String {
        match self {
            AlertDetails::StuckTask(s) => s.session.to_string(),
            AlertDetails::Deadlock(_) | AlertDetails::SessionDown(_) => "monitor".to_owned(),
        }
    }
}

/// One alert, as raised and as stored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Alert {
    #[serde(flatten)]
    pub details: AlertDetails,
    pub severity: Severity,
    pub source: String,
    pub subject: String,
    pub message: String,
    pub created_at: DateTime<Utc>,
    #[serde(default)]
    pub acknowledged: bool,
}

impl Alert {
    pub fn new(details: AlertDetails, now: DateTime<Utc>) -> Alert {
        Alert {
            severity: details.alert_type().severity(),
            source: details.source(),
            subject: details.subject(),
            message: details.message(now),
            created_at: now,
            acknowledged: false,
            details,
        }
    }

    pub fn alert_type(&self) -> AlertType {
        self.details.alert_type()
    }

    /// Whether this alert still silences a new one of the same type and
    /// subject.
    pub fn suppresses(&self, now: DateTime<Utc>) -> bool {
        !self.acknowledged && self.created_at > now - ALERT_QUIET_FOR && self.created_at - now <= CLOCK_SKEW_TOLERANCE
    }
}

/// What the monitor reads.
#[derive(Debug, Clone, Copy)]
pub struct MonitorInput<'a> {
    pub sessions: &'a [SessionRecord],
    /// Tasks in progress.
    pub tasks: &'a [ActiveTask],
    pub waits: &'a [Wait],
    /// Leases on record (any holder's).
    pub leases: &'a [Lease],
    /// Alerts raised before (any age; old and acknowledged ones are ignored).
    pub alerts: &'a [Alert],
    /// The leased files git shows not committed (changed or untracked).
    pub uncommitted: &'a [LeasePath],
}

/// What `session`, down, leaves at stake.
pub(crate) fn at_stake(session: &SessionRecord, input: &MonitorInput<'_>) -> AtStake {
    let id = &session.id;
    let mut waiting: Vec<SessionId> =
        input.waits.iter().filter(|w| w.holder == *id && w.waiter != *id).map(|w| w.waiter.clone()).collect();
    waiting.sort();
    waiting.dedup();
    AtStake {
        tasks: input
            .tasks
            .iter()
            .filter(|t| t.session == *id)
            .map(|t| match &t.feature {
                Some(f) => format!("{} of {f}", t.id),
                None => t.id.clone(),
            })
            .collect(),
        pipeline: session.owns_loop.clone(),
        waiting,
        uncommitted: input
            .leases
            .iter()
            .filter(|l| l.holder == *id && input.uncommitted.contains(&l.path))
            .map(|l| l.path.as_str().to_owned())
            .collect(),
    }
}

/// Whether `session` holds something another session may wait for: a
/// lease, a task in progress, a place in the wait graph (either end), or a
/// pipeline loop it owns.
pub fn holds_something(session: &SessionRecord, input: &MonitorInput<'_>) -> bool {
    let id = &session.id;
    session.owns_loop.is_some()
        || input.leases.iter().any(|l| l.holder == *id)
        || input.tasks.iter().any(|t| t.session == *id)
        || input.waits.iter().any(|w| w.waiter == *id || w.holder == *id)
}

/// An alert not raised because an earlier one covers it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Suppressed {
    #[serde(rename = "type")]
    pub alert_type: AlertType,
    pub subject: String,
    /// When the covering alert was raised.
    pub since: DateTime<Utc>,
}

/// Everything one check saw.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MonitorReport {
    pub checked_at: DateTime<Utc>,
    pub sessions: Vec<SessionStatus>,
    pub stuck_tasks: Vec<StuckTask>,
    pub deadlocks: Vec<WaitCycle>,
    pub suppressed: Vec<Suppressed>,
}

/// One check's outcome: the alerts to raise now, and the report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MonitorRun {
    pub raise: Vec<Alert>,
    pub report: MonitorReport,
}

fn status(s: &SessionRecord, input: &MonitorInput<'_>, now: DateTime<Utc>) -> SessionStatus {
    SessionStatus {
        presence: s.presence(holds_something(s, input), now),
        session: s.id.clone(),
        feature: s.feature.clone(),
        task: s.task.clone(),
        state: s.state,
        priority: s.priority,
        load: s.load,
        heartbeat_at: s.heartbeat_at,
        health: s.health(now),
    }
}

/// §7.3's three checks, in the seed's order (stuck tasks, deadlocks,
/// component health), and the duplicate filter.
pub fn run_monitor(input: MonitorInput<'_>, now: DateTime<Utc>) -> MonitorRun {
    let mut sessions: Vec<SessionStatus> = input.sessions.iter().map(|s| status(s, &input, now)).collect();
    sessions.sort_by(|a, b| a.session.cmp(&b.session));

    let stuck_tasks: Vec<StuckTask> = input
        .tasks
        .iter()
        .filter_map(|t| {
            let threshold = stuck_threshold(t.layer.as_deref());
            let duration = t.duration(now);
            (duration > threshold).then(|| StuckTask {
                task_id: t.id.clone(),
                feature: t.feature.clone(),
                session: t.session.clone(),
                layer: t.layer.clone(),
                started_at: t.started_at,
                duration_minutes: whole_minutes(duration),
                threshold_minutes: threshold.num_minutes(),
            })
        })
        .collect();

    let live = |id: &SessionId| sessions.iter().any(|s| s.session == *id && s.health.liveness.is_live());
    let live_waits: Vec<Wait> = input.waits.iter().filter(|w| live(&w.waiter) && live(&w.holder)).cloned().collect();
    let deadlocks = find_cycles(&live_waits);

    // Down, with something another session or a person must act on.
    let down: Vec<SessionDown> = sessions
        .iter()
        .filter(|s| s.presence == Presence::Down)
        .filter_map(|s| {
            let record = input.sessions.iter().find(|r| r.id == s.session)?;
            let at_stake = at_stake(record, &input);
            (!at_stake.is_empty()).then(|| SessionDown { status: s.clone(), at_stake })
        })
        .collect();

    let candidates = stuck_tasks
        .iter()
        .cloned()
        .map(AlertDetails::StuckTask)
        .chain(deadlocks.iter().cloned().map(AlertDetails::Deadlock))
        .chain(down.into_iter().map(AlertDetails::SessionDown));

    let mut raise = Vec::new();
    let mut suppressed = Vec::new();
    for details in candidates {
        let (kind, subject) = (details.alert_type(), details.subject());
        let covering = input
            .alerts
            .iter()
            .filter(|a| a.alert_type() == kind && a.subject == subject && a.suppresses(now))
            .map(|a| a.created_at)
            .max();
        match covering {
            Some(since) => suppressed.push(Suppressed { alert_type: kind, subject, since }),
            None => raise.push(Alert::new(details, now)),
        }
    }

    MonitorRun { raise, report: MonitorReport { checked_at: now, sessions, stuck_tasks, deadlocks, suppressed } }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coordination::lease::LeasePath;
    use chrono::TimeZone;

    fn now() -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, 22, 12, 0, 0).unwrap()
    }

    fn sid(s: &str) -> SessionId {
        SessionId::parse(s).unwrap()
    }

    fn session(id: &str, state: SessionState, heartbeat_ago: TimeDelta) -> SessionRecord {
        let mut s = SessionRecord::new(sid(id), "/repo", "/repo", now() - TimeDelta::hours(1));
        s.state = state;
        s.heartbeat_at = now() - heartbeat_ago;
        s
    }

    fn task(id: &str, layer: Option<&str>, ran: TimeDelta) -> ActiveTask {
        ActiveTask {
            id: id.into(),
            feature: Some("001-login".into()),
            session: sid("s1"),
            layer: layer.map(str::to_owned),
            started_at: now() - ran,
        }
    }

    fn wait(waiter: &str, holder: &str) -> Wait {
        Wait { waiter: sid(waiter), holder: sid(holder), path: LeasePath::parse("x.rs").unwrap(), since: now() }
    }

    fn run(sessions: &[SessionRecord], tasks: &[ActiveTask], waits: &[Wait], alerts: &[Alert]) -> MonitorRun {
        // Every session of these tests holds a lease and a task that has
        // run a minute, so its going down is worth an alert (see
        // `a_session_that_vanished_holding_nothing...`).
        let leases: Vec<Lease> = sessions.iter().map(|s| lease_of(s.id.as_str())).collect();
        let mut tasks = tasks.to_vec();
        for s in sessions {
            let mut t = task(&format!("T-{}", s.id), None, TimeDelta::minutes(1));
            t.session = s.id.clone();
            tasks.push(t);
        }
        run_monitor(MonitorInput { sessions, tasks: &tasks, waits, leases: &leases, alerts, uncommitted: &[] }, now())
    }

    fn lease_of(holder: &str) -> Lease {
        Lease {
            path: LeasePath::parse(&format!("{holder}.rs")).unwrap(),
            holder: sid(holder),
            feature: None,
            task: None,
            acquired_at: now(),
            reason: crate::coordination::LeaseReason::FirstEdit,
        }
    }

    // Regression: every session closed without SessionEnd was reported
    // down five minutes later, and every later session was told about it.
    #[test]
    fn a_session_that_vanished_holding_nothing_was_an_alert() {
        let five = TimeDelta::minutes(5);
        let sessions = [
            session("empty", SessionState::Active, five),
            session("leasing", SessionState::Active, five),
            session("tasked", SessionState::Loading, five),
            session("waiting", SessionState::Active, five),
            session("looping", SessionState::Active, five),
        ];
        let mut looping = sessions[4].clone();
        looping.owns_loop = Some("001-login".into());
        let sessions = [sessions[0].clone(), sessions[1].clone(), sessions[2].clone(), sessions[3].clone(), looping];
        let mut t = task("T1", None, TimeDelta::minutes(1));
        t.session = sid("tasked");
        let leases = [lease_of("leasing")];
        let waits = [wait("waiting", "leasing")];
        let tasks = [t];
        let r = run_monitor(
            MonitorInput {
                sessions: &sessions,
                tasks: &tasks,
                waits: &waits,
                leases: &leases,
                alerts: &[],
                uncommitted: &[LeasePath::parse("leasing.rs").unwrap()],
            },
            now(),
        );
        let mut down: Vec<&str> = r.raise.iter().map(|a| a.subject.as_str()).collect();
        down.sort();
        // `leasing` is down (its lease expires) but nobody must act on it:
        // only `waiting` waits for its file, and says so.
        assert_eq!(down, ["leasing", "looping", "tasked"]);
        let messages: Vec<&str> = r.raise.iter().map(|a| a.message.as_str()).collect();
        assert!(messages.contains(&"Session tasked stopped answering 5 min ago; it held task T1 of 001-login"));
        assert!(messages.contains(&"Session looping stopped answering 5 min ago; it held the pipeline of 001-login"));
        assert!(messages.contains(
            &"Session leasing stopped answering 5 min ago; session waiting waits for a file it leased; leasing.rs, which it wrote, is not committed"
        ));
        let presence = |id: &str| r.report.sessions.iter().find(|s| s.session.as_str() == id).unwrap().presence;
        assert_eq!(presence("empty"), Presence::Gone);
        assert_eq!(presence("waiting"), Presence::Down, "down, but nothing of it is at stake: no alert");
        assert!(!messages.iter().any(|m| m.contains("waiting stopped")), "{messages:?}");
    }

    const SEC: TimeDelta = TimeDelta::seconds(1);

    #[test]
    fn stuck_thresholds_are_the_seeds_and_strictly_greater() {
        for (layer, threshold) in [(Some("database"), 5), (Some("tests"), 15), (Some("api"), 10), (None, 10)] {
            let limit = TimeDelta::minutes(threshold);
            assert_eq!(stuck_threshold(layer), limit);
            let at = |ran| run(&[], &[task("T1", layer, ran)], &[], &[]).report.stuck_tasks.len();
            assert_eq!(at(limit), 0, "{layer:?} at exactly {threshold} min is not stuck");
            assert_eq!(at(limit + SEC), 1, "{layer:?} one second past is stuck");
        }
        // The seed compares the word exactly.
        assert_eq!(stuck_threshold(Some("Database")), STUCK_AFTER);
    }

    #[test]
    fn a_stuck_task_alert_is_a_warning_with_whole_minutes() {
        let r = run(&[], &[task("T3", Some("api"), TimeDelta::minutes(12) + TimeDelta::seconds(59))], &[], &[]);
        let a = &r.raise[0];
        assert_eq!((a.alert_type(), a.severity), (AlertType::StuckTask, Severity::Warning));
        assert_eq!(a.message, "Task T3 stuck for 12 min");
        assert_eq!((a.source.as_str(), a.subject.as_str()), ("s1", "001-login/T3"));
    }

    #[test]
    fn a_task_started_in_the_future_has_not_run() {
        assert!(run(&[], &[task("T1", None, -TimeDelta::hours(3))], &[], &[]).raise.is_empty());
    }

    #[test]
    fn only_sessions_holding_work_are_reported_down() {
        let five = TimeDelta::minutes(5);
        let sessions = [
            session("loading", SessionState::Loading, five),
            session("active", SessionState::Active, five),
            session("fresh", SessionState::Active, five - SEC),
            session("idle", SessionState::Idle, five),
            session("done", SessionState::Complete, TimeDelta::hours(2)),
            session("failed", SessionState::Error, TimeDelta::hours(2)),
        ];
        let r = run(&sessions, &[], &[], &[]);
        let messages: Vec<&str> = r.raise.iter().map(|a| a.message.as_str()).collect();
        assert_eq!(
            messages,
            [
                "Session active stopped answering 5 min ago; it held task T-active of 001-login",
                "Session loading stopped answering 5 min ago; it held task T-loading of 001-login"
            ]
        );
        assert!(r.raise.iter().all(|a| a.severity == Severity::Error && a.source == "monitor"));
        assert_eq!(r.report.sessions.len(), 6);
    }

    #[test]
    fn a_session_with_its_clock_far_ahead_is_reported_not_responding_with_the_skew_once_its_process_ended() {
        let mut s = session("ahead", SessionState::Active, -TimeDelta::hours(1));
        assert!(run(std::slice::from_ref(&s), &[], &[], &[]).raise.is_empty(), "live while its process runs");
        s.process_ended = true;
        let r = run(&[s], &[], &[], &[]);
        assert_eq!(
            r.raise[0].message,
            "Session ahead counts as not answering: its clock is 60 min ahead of this one (set that machine's clock); it held task T-ahead of 001-login"
        );
        assert_eq!(r.report.sessions[0].health.clock_ahead_seconds, Some(3600));
    }

    #[test]
    fn a_deadlock_between_live_sessions_is_critical() {
        let sessions = [session("a", SessionState::Active, SEC), session("b", SessionState::Active, SEC)];
        let r = run(&sessions, &[], &[wait("a", "b"), wait("b", "a")], &[]);
        assert_eq!(r.raise.len(), 1);
        assert_eq!(
            (r.raise[0].severity, r.raise[0].message.as_str()),
            (Severity::Critical, "Deadlock detected: a -> b -> a")
        );
        assert_eq!(r.report.deadlocks.len(), 1);
    }

    #[test]
    fn a_circle_through_a_down_session_is_no_deadlock() {
        let sessions = [session("a", SessionState::Active, SEC), session("b", SessionState::Idle, TimeDelta::hours(1))];
        let r = run(&sessions, &[], &[wait("a", "b"), wait("b", "a")], &[]);
        assert!(r.report.deadlocks.is_empty());
        // Nor through a session the store does not know.
        let r = run(&sessions[..1], &[], &[wait("a", "ghost"), wait("ghost", "a")], &[]);
        assert!(r.report.deadlocks.is_empty());
    }

    #[test]
    fn an_unacknowledged_alert_younger_than_30_minutes_suppresses_its_duplicate() {
        let t = [task("T3", None, TimeDelta::minutes(40))];
        let first = run(&[], &t, &[], &[]).raise;
        assert_eq!(first.len(), 1);
        let mut earlier = first[0].clone();
        let cases = [
            (TimeDelta::minutes(30) - SEC, false, true),
            (TimeDelta::minutes(30), false, false),
            (TimeDelta::minutes(5), true, false),
            (-CLOCK_SKEW_TOLERANCE, false, true),
            (-CLOCK_SKEW_TOLERANCE - SEC, false, false),
        ];
        for (ago, acknowledged, suppressed) in cases {
            earlier.created_at = now() - ago;
            earlier.acknowledged = acknowledged;
            let r = run(&[], &t, &[], std::slice::from_ref(&earlier));
            assert_eq!(r.raise.is_empty(), suppressed, "raised {ago} ago, acknowledged: {acknowledged}");
            assert_eq!(r.report.suppressed.len(), usize::from(suppressed));
        }
    }

    #[test]
    fn an_alert_about_another_subject_or_type_does_not_suppress() {
        let t = [task("T3", None, TimeDelta::minutes(40))];
        let mut other = run(&[], &[task("T4", None, TimeDelta::minutes(40))], &[], &[]).raise[0].clone();
        other.created_at = now();
        assert_eq!(run(&[], &t, &[], std::slice::from_ref(&other)).raise.len(), 1);
        // The same task id in another feature is another subject.
        let mut elsewhere = t[0].clone();
        elsewhere.feature = Some("002-billing".into());
        assert_eq!(run(&[], &[elsewhere], &[], &run(&[], &t, &[], &[]).raise).raise.len(), 1);
    }

    #[test]
    fn due_every_two_minutes() {
        assert!(monitor_due(None, now()));
        assert!(!monitor_due(Some(now() - CHECK_EVERY + SEC), now()));
        assert!(monitor_due(Some(now() - CHECK_EVERY), now()));
        assert!(!monitor_due(Some(now() + TimeDelta::minutes(1)), now()));
        assert!(monitor_due(Some(now() + TimeDelta::hours(1)), now()));
    }

    #[test]
    fn alerts_and_the_report_round_trip_through_json() {
        let sessions =
            [session("a", SessionState::Active, TimeDelta::minutes(9)), session("b", SessionState::Active, SEC)];
        let r = run(&sessions, &[task("T1", Some("database"), TimeDelta::minutes(6))], &[], &[]);
        let json = serde_json::to_value(&r).unwrap();
        assert_eq!(json["raise"][0]["type"], "stuck_task");
        assert_eq!(json["raise"][0]["task_id"], "T1");
        assert_eq!(json["raise"][1]["type"], "session_down");
        assert_eq!(json["raise"][1]["tasks"], serde_json::json!(["T-a of 001-login"]));
        assert_eq!(json["report"]["sessions"][0]["health"]["liveness"], "down");
        assert_eq!(serde_json::from_value::<MonitorRun>(json).unwrap(), r);
        assert_eq!(AlertType::Deadlock.event_type(), "alert.deadlock");
    }

    #[test]
    fn names() {
        crate::names::assert_serde_names::<AlertType>();
        crate::names::assert_serde_names::<Severity>();
    }
}
