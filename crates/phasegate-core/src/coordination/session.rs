//! A Claude Code session working in a shared repository (a "loop" of seed
//! 004): its record, its lifecycle (§1.2) and whether it is still there
//! (§7.2's heartbeat rule).
//!
//! Design choices:
//! - The lifecycle has exactly the arrows of §1.2's diagram: IDLE → LOADING
//!   → ACTIVE → COMPLETE → IDLE, and LOADING or ACTIVE → ERROR. ERROR has no
//!   way out in the diagram, so none here: a failed session starts over as a
//!   fresh record in IDLE (the store replaces the record, it does not move it).
//!   Staying in the same state is not an arrow either; a heartbeat is not a
//!   transition.
//! - States are spelled as the seed spells them (`IDLE`, `LOADING`, ...).
//! - Down after 5 minutes, exactly §7.2's `last_heartbeat > datetime('now',
//!   '-5 minutes')`: a session is live while its heartbeat is *strictly*
//!   newer than five minutes ago, so a heartbeat exactly 5:00 old is down.
//! - The heartbeat is the *last* sign of life in the order the session gave
//!   them, not the latest time stamped (the store reads the record file's
//!   modification time, which every sign of life sets): a session whose
//!   clock was set back beats normally from its next hook on.
//! - A heartbeat in the future: the clock was set back after the session's
//!   last hook (or another machine's clock runs ahead). It is read as
//!   written "now" (age 0), so a clock moving back never makes a working
//!   session look gone and never gives a negative age. Up to
//!   [`CLOCK_SKEW_TOLERANCE`] ahead (5 minutes, Kerberos' default tolerance)
//!   it counts as an ordinary heartbeat. Further ahead it is believed until
//!   the clock reaches it, unless the machine sees that the session's
//!   process has ended ([`SessionRecord::process_ended`]): then it counts as
//!   not live ([`Liveness::ClockAhead`]) and the report names the skew, so a
//!   clock set back can neither let another session write a working
//!   session's files nor keep a dead session's leases until the clock
//!   catches up. A clock that runs *behind* shortens its own grace by the
//!   difference; one timestamp cannot reveal that, and sessions of one
//!   repository share a machine in practice.
//! - A session whose Claude Code process the machine sees has ended (its
//!   id is the hooks' parent, recorded by them) is gone at the next look,
//!   whatever its heartbeat ([`Liveness::Ended`]): a crashed or killed
//!   session's leases and claims go at once, not 5 minutes later (issue 33).
//! - A session a usage limit or an API error paused (its StopFailure hook
//!   recorded when work may resume) keeps what it holds until that time
//!   plus [`PAUSE_GRACE`], process or heartbeat or not
//!   ([`Liveness::Paused`]), and whoever it refuses is told until when: its
//!   runner, or its person, carries on at the reset.
//! - Priority orders work when two sessions want the same file: `low` <
//!   `normal` < `high` < `critical`, `normal` by default.

use chrono::{DateTime, TimeDelta, Utc};
use serde::{Deserialize, Serialize};

use crate::priority::Priority;
use crate::session::SessionId;

/// §7.2: `WHERE last_heartbeat > datetime('now', '-5 minutes')`.
pub(crate) const DOWN_AFTER: TimeDelta = TimeDelta::minutes(5);

/// How far ahead of the reader's clock a heartbeat may lie and still count.
pub const CLOCK_SKEW_TOLERANCE: TimeDelta = TimeDelta::minutes(5);

/// How long after its resume time a paused session keeps what it holds:
/// one heartbeat's span, for the runner (or Claude Code) to start again.
pub const PAUSE_GRACE: TimeDelta = DOWN_AFTER;

/// §1.2's lifecycle states.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, strum::IntoStaticStr, strum::VariantArray,
)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
#[strum(serialize_all = "SCREAMING_SNAKE_CASE")]
pub enum SessionState {
    Idle,
    Loading,
    Active,
    Complete,
    Error,
}

crate::named!(SessionState, "session state");

impl SessionState {
    /// The states §1.2's arrows lead to from this one.
    pub fn next(self) -> &'static [SessionState] {
        match self {
            SessionState::Idle => &[SessionState::Loading],
            SessionState::Loading => &[SessionState::Active, SessionState::Error],
            SessionState::Active => &[SessionState::Complete, SessionState::Error],
            SessionState::Complete => &[SessionState::Idle],
            SessionState::Error => &[],
        }
    }

    /// Follows one arrow, or says which arrows exist.
    pub fn to(self, to: SessionState) -> Result<SessionState, LifecycleError> {
        match self.next().contains(&to) {
            true => Ok(to),
            false => Err(LifecycleError { from: self, to }),
        }
    }

    /// A session in this state has work in hand, so it is expected to answer:
    /// if it stops heartbeating it is down, not finished.
    pub fn holds_work(self) -> bool {
        match self {
            SessionState::Loading | SessionState::Active => true,
            SessionState::Idle | SessionState::Complete | SessionState::Error => false,
        }
    }
}

/// A move that is not one of §1.2's arrows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub struct LifecycleError {
    pub from: SessionState,
    pub to: SessionState,
}

impl std::fmt::Display for LifecycleError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let LifecycleError { from, to } = self;
        match from.next() {
            [] => write!(
                f,
                "a session cannot go from {from} to {to}: {from} is final; start the session over with a new record in IDLE"
            ),
            legal => {
                let legal = legal.iter().map(|s| s.name()).collect::<Vec<_>>().join(" or ");
                write!(f, "a session cannot go from {from} to {to}; from {from} it may go to {legal}")
            }
        }
    }
}

/// One session, as the store keeps it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SessionRecord {
    pub id: SessionId,
    /// The feature it works on, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub feature: Option<String>,
    /// The task it works on, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task: Option<String>,
    pub state: SessionState,
    pub started_at: DateTime<Utc>,
    /// The session's own clock at its last sign of life.
    pub heartbeat_at: DateTime<Utc>,
    /// Where the session runs.
    pub cwd: String,
    /// The root of the git working tree it edits (the main one or a linked
    /// worktree).
    pub worktree: String,
    #[serde(default)]
    pub priority: Priority,
    /// Tasks assigned to it.
    #[serde(default)]
    pub load: u32,
    /// The feature whose implementation loop this session owns (a pipeline
    /// it started or claimed): the Stop hook holds this session, and no
    /// other, to that loop.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owns_loop: Option<String>,
    /// The Claude Code process the session's hooks run under (their
    /// parent), on the machine that wrote the record; None where the system
    /// does not tell.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pid: Option<u32>,
    /// That process has ended, as the store saw when it read the record (a
    /// fact of the reading, never stored): what decides a heartbeat from
    /// the future.
    #[serde(skip)]
    pub process_ended: bool,
    /// When work may resume after an interruption its StopFailure hook
    /// recorded (a usage limit's reset, a back-off), as the store saw when
    /// it read the record; never stored here.
    #[serde(skip)]
    pub paused_until: Option<DateTime<Utc>>,
}

impl SessionRecord {
    /// A session that has just started: IDLE, nothing assigned, its first
    /// heartbeat now.
    pub fn new(id: SessionId, cwd: &str, worktree: &str, now: DateTime<Utc>) -> SessionRecord {
        SessionRecord {
            id,
            feature: None,
            task: None,
            state: SessionState::Idle,
            started_at: now,
            heartbeat_at: now,
            cwd: cwd.to_owned(),
            worktree: worktree.to_owned(),
            priority: Priority::default(),
            load: 0,
            owns_loop: None,
            pid: None,
            process_ended: false,
            paused_until: None,
        }
    }

    pub fn heartbeat(&mut self, now: DateTime<Utc>) {
        self.heartbeat_at = now;
    }

    /// Follows one lifecycle arrow; a move is a sign of life too.
    pub fn move_to(&mut self, to: SessionState, now: DateTime<Utc>) -> Result<(), LifecycleError> {
        self.state = self.state.to(to)?;
        self.heartbeat(now);
        Ok(())
    }

    /// The heartbeat rule ([`health`]), after the two facts that overrule
    /// it: paused until a resume time still to come (plus the grace), or
    /// its process ended.
    pub fn health(&self, now: DateTime<Utc>) -> Health {
        let mut h = health(self.heartbeat_at, now, self.process_ended);
        if let Some(until) = self.paused_until.filter(|u| now < *u + PAUSE_GRACE) {
            h.liveness = Liveness::Paused;
            h.paused_until = Some(until);
        } else if self.process_ended && h.liveness == Liveness::Live {
            h.liveness = Liveness::Ended;
        }
        h
    }

    /// SessionEnd: the session is COMPLETE, by §1.2's arrows only. A session
    /// that ends before it did any work (LOADING) passes through ACTIVE,
    /// since the diagram has no LOADING → COMPLETE arrow; one in IDLE loads
    /// first. A record the monitor already counted down (ERROR) stays
    /// ERROR, which is final; one COMPLETE stays so.
    pub fn end(&mut self, now: DateTime<Utc>) -> Result<(), LifecycleError> {
        let path: &[SessionState] = match self.state {
            SessionState::Idle => &[SessionState::Loading, SessionState::Active, SessionState::Complete],
            SessionState::Loading => &[SessionState::Active, SessionState::Complete],
            SessionState::Active => &[SessionState::Complete],
            SessionState::Complete | SessionState::Error => &[],
        };
        for to in path {
            self.move_to(*to, now)?;
        }
        self.task = None;
        self.heartbeat(now);
        Ok(())
    }

    /// Whether the session is there, gone, or ended, for people and for
    /// the monitor. `holds` says whether it holds anything another session
    /// may wait for: a lease, a task in progress, a place in the wait
    /// graph, a pipeline loop.
    pub fn presence(&self, holds: bool, now: DateTime<Utc>) -> Presence {
        match self.state {
            SessionState::Complete => Presence::Ended,
            SessionState::Error => Presence::Failed,
            SessionState::Idle => Presence::Idle,
            SessionState::Loading | SessionState::Active => match (self.health(now).liveness.is_live(), holds) {
                (true, _) => Presence::Live,
                (false, true) => Presence::Down,
                (false, false) => Presence::Gone,
            },
        }
    }
}

/// A session as people see it: its lifecycle state read with its heartbeat
/// and with what it holds.
///
/// Terminals are closed without SessionEnd every day: a session that went
/// silent holding nothing is simply [`Presence::Gone`], worth no alert; only
/// one that went silent holding something ([`Presence::Down`]) keeps
/// another session waiting, and is the PM's business.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, strum::IntoStaticStr, strum::VariantArray,
)]
#[serde(rename_all = "kebab-case")]
#[strum(serialize_all = "kebab-case")]
pub enum Presence {
    /// Working, and heard from within 5 minutes.
    Live,
    /// Registered and not yet loading (a record made by hand or a test).
    Idle,
    /// Silent for 5 minutes holding nothing: closed without SessionEnd.
    Gone,
    /// Silent for 5 minutes holding a lease, a task or a wait.
    Down,
    /// Ended through SessionEnd (COMPLETE).
    Ended,
    /// Counted down by the monitor, its work given away (ERROR).
    Failed,
}

crate::named!(Presence, "presence");

impl Presence {
    /// Whether it counts as a session at work (the "live" of `status`).
    pub fn is_live(self) -> bool {
        match self {
            Presence::Live => true,
            Presence::Idle | Presence::Gone | Presence::Down | Presence::Ended | Presence::Failed => false,
        }
    }
}

/// Whether a session is there, by its heartbeat.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, strum::IntoStaticStr, strum::VariantArray,
)]
#[serde(rename_all = "kebab-case")]
#[strum(serialize_all = "kebab-case")]
pub enum Liveness {
    /// Heartbeat less than 5 minutes old, or in the future (see
    /// [`health`]).
    Live,
    /// Heartbeat 5 minutes old or older.
    Down,
    /// Heartbeat further ahead of this clock than the tolerance, and the
    /// session's process has ended: not trusted, so not live.
    ClockAhead,
    /// The session's Claude Code process has ended (crashed, killed, or
    /// closed without a SessionEnd), as this machine sees: not live.
    Ended,
    /// Paused by a usage limit or an API error until a resume time still
    /// to come (plus [`PAUSE_GRACE`]): it keeps what it holds.
    Paused,
}

crate::named!(Liveness, "liveness");

impl Liveness {
    pub fn is_live(self) -> bool {
        match self {
            Liveness::Live | Liveness::Paused => true,
            Liveness::Down | Liveness::ClockAhead | Liveness::Ended => false,
        }
    }
}

/// A session's heartbeat read against the reader's clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Health {
    pub liveness: Liveness,
    /// Whole seconds since the heartbeat; 0 when it lies in the future.
    pub age_seconds: i64,
    /// Whole seconds the heartbeat lies ahead of the reader's clock, when it
    /// does by a second or more.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock_ahead_seconds: Option<i64>,
    /// Paused until then ([`Liveness::Paused`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paused_until: Option<DateTime<Utc>>,
}

/// The liveness rule: live while the heartbeat is strictly newer than 5
/// minutes ago. A heartbeat in the future counts as now: within the
/// tolerance always, beyond it while the session's process is not known to
/// have ended (`process_ended`), since a clock set back while the session
/// works puts its last heartbeat there.
pub fn health(heartbeat_at: DateTime<Utc>, now: DateTime<Utc>, process_ended: bool) -> Health {
    let age = now - heartbeat_at;
    let ahead = -age;
    let liveness = if ahead > CLOCK_SKEW_TOLERANCE && process_ended {
        Liveness::ClockAhead
    } else if age < DOWN_AFTER {
        Liveness::Live
    } else {
        Liveness::Down
    };
    Health {
        liveness,
        age_seconds: age.num_seconds().max(0),
        clock_ahead_seconds: Some(ahead.num_seconds()).filter(|s| *s > 0),
        paused_until: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn t0() -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, 22, 10, 0, 0).unwrap()
    }

    fn record() -> SessionRecord {
        SessionRecord::new(SessionId::parse("s1").unwrap(), "/repo", "/repo", t0())
    }

    #[test]
    fn lifecycle_follows_exactly_the_arrows_of_the_diagram() {
        use SessionState::*;
        let arrows = [
            (Idle, Loading),
            (Loading, Active),
            (Active, Complete),
            (Loading, Error),
            (Active, Error),
            (Complete, Idle),
        ];
        for from in [Idle, Loading, Active, Complete, Error] {
            for to in [Idle, Loading, Active, Complete, Error] {
                assert_eq!(from.to(to).is_ok(), arrows.contains(&(from, to)), "{from} -> {to}");
            }
        }
    }

    #[test]
    fn a_refused_move_lists_the_legal_ones() {
        let e = SessionState::Active.to(SessionState::Loading).unwrap_err().to_string();
        assert_eq!(e, "a session cannot go from ACTIVE to LOADING; from ACTIVE it may go to COMPLETE or ERROR");
        let e = SessionState::Error.to(SessionState::Idle).unwrap_err().to_string();
        assert!(e.contains("ERROR is final; start the session over with a new record in IDLE"), "{e}");
    }

    #[test]
    fn a_move_is_a_heartbeat_and_a_refused_move_changes_nothing() {
        let mut r = record();
        let later = t0() + TimeDelta::minutes(3);
        r.move_to(SessionState::Loading, later).unwrap();
        assert_eq!((r.state, r.heartbeat_at), (SessionState::Loading, later));
        assert!(r.move_to(SessionState::Complete, later + TimeDelta::minutes(1)).is_err());
        assert_eq!((r.state, r.heartbeat_at), (SessionState::Loading, later));
    }

    #[test]
    fn down_at_exactly_five_minutes_as_the_seeds_strict_comparison() {
        let hb = t0();
        let at = |d: TimeDelta| health(hb, hb + d, false).liveness;
        assert_eq!(at(TimeDelta::zero()), Liveness::Live);
        assert_eq!(at(TimeDelta::minutes(5) - TimeDelta::milliseconds(1)), Liveness::Live);
        assert_eq!(at(TimeDelta::minutes(5)), Liveness::Down);
        assert_eq!(at(TimeDelta::hours(3)), Liveness::Down);
        assert_eq!(health(hb, hb + TimeDelta::seconds(301), false).age_seconds, 301);
        // A process that ended changes nothing about a heartbeat in the past.
        assert_eq!(health(hb, hb + TimeDelta::minutes(1), true).liveness, Liveness::Live);
    }

    #[test]
    fn a_heartbeat_slightly_ahead_counts_as_now_and_is_reported() {
        let now = t0();
        let h = health(now + TimeDelta::minutes(2), now, false);
        assert_eq!(
            h,
            Health { liveness: Liveness::Live, age_seconds: 0, clock_ahead_seconds: Some(120), paused_until: None }
        );
        // Sub-second differences are not worth a report.
        assert_eq!(health(now + TimeDelta::milliseconds(400), now, false).clock_ahead_seconds, None);
        // Exactly at the tolerance still counts, whatever the process.
        assert_eq!(health(now + CLOCK_SKEW_TOLERANCE, now, true).liveness, Liveness::Live);
    }

    // Regression (issue 31, "clock set back"): the clock set back an hour
    // while a session worked made its heartbeat an hour "ahead", read as
    // not live, and another session could take its files.
    #[test]
    fn a_clock_set_back_while_a_session_works_keeps_it_live_until_its_process_ends() {
        let now = t0();
        let written_before_the_change = now + TimeDelta::hours(1);
        let h = health(written_before_the_change, now, false);
        assert_eq!((h.liveness, h.age_seconds, h.clock_ahead_seconds), (Liveness::Live, 0, Some(3600)));
        // Believed until the clock reaches it, then the usual 5 minutes.
        assert!(health(written_before_the_change, now + TimeDelta::minutes(64), false).liveness.is_live());
        assert_eq!(health(written_before_the_change, now + TimeDelta::minutes(65), false).liveness, Liveness::Down);
        // Its process has ended: a heartbeat beyond the tolerance is not trusted.
        let h = health(now + CLOCK_SKEW_TOLERANCE + TimeDelta::seconds(1), now, true);
        assert_eq!((h.liveness, h.clock_ahead_seconds), (Liveness::ClockAhead, Some(301)));
        assert!(!h.liveness.is_live());
        let year_2099 = Utc.with_ymd_and_hms(2099, 1, 1, 0, 0, 0).unwrap();
        assert!(!health(year_2099, now, true).liveness.is_live());
    }

    #[test]
    fn a_dead_session_with_a_clock_slightly_ahead_is_down_at_most_ten_minutes_after_its_last_heartbeat() {
        // The session's clock is 4 minutes ahead; it dies right after this heartbeat.
        let real = t0();
        let hb = real + TimeDelta::minutes(4);
        assert!(health(hb, real + TimeDelta::minutes(8), false).liveness.is_live());
        assert_eq!(health(hb, real + TimeDelta::minutes(9), false).liveness, Liveness::Down);
        let worst = real + CLOCK_SKEW_TOLERANCE;
        assert_eq!(health(worst, real + CLOCK_SKEW_TOLERANCE + DOWN_AFTER, false).liveness, Liveness::Down);
    }

    #[test]
    fn priorities_are_ordered_low_normal_high_critical_with_normal_by_default() {
        assert!(Priority::Low < Priority::Normal && Priority::Normal < Priority::High);
        assert!(Priority::High < Priority::Critical);
        assert_eq!(Priority::default(), Priority::Normal);
    }

    #[test]
    fn a_record_reads_back_with_defaults_for_priority_and_load() {
        let r = record();
        let json = serde_json::to_value(&r).unwrap();
        assert_eq!(json["state"], "IDLE");
        assert_eq!(serde_json::from_value::<SessionRecord>(json).unwrap(), r);
        let minimal = r#"{"id":"s2","state":"ACTIVE","started_at":"2026-11-22T10:00:00Z","heartbeat_at":"2026-11-22T10:01:00Z","cwd":"/r","worktree":"/r"}"#;
        let m: SessionRecord = serde_json::from_str(minimal).unwrap();
        assert_eq!((m.priority, m.load, m.feature), (Priority::Normal, 0, None));
    }

    // Regression: SessionEnd moved LOADING straight to COMPLETE, which §1.2
    // does not allow; the error was dropped and the session stayed LOADING
    // forever (reported down five minutes later).
    #[test]
    fn a_session_that_ends_without_editing_a_file_stayed_loading_forever() {
        for from in [SessionState::Idle, SessionState::Loading, SessionState::Active, SessionState::Complete] {
            let mut r = record();
            r.state = from;
            r.task = Some("T1".into());
            r.end(t0() + TimeDelta::minutes(1)).unwrap();
            assert_eq!((r.state, r.task), (SessionState::Complete, None), "from {from}");
            assert_eq!(r.heartbeat_at, t0() + TimeDelta::minutes(1));
        }
        let mut failed = record();
        failed.state = SessionState::Error;
        failed.end(t0()).unwrap();
        assert_eq!(failed.state, SessionState::Error, "ERROR is final");
    }

    /// Issue 33, "Crashes heal at once": a session whose process ended is
    /// gone at the next look, not 5 minutes later; one paused by a limit
    /// stays until its reset plus the grace, its process gone or not.
    #[test]
    fn a_crashed_session_is_gone_at_once_and_a_paused_one_stays_until_its_reset() {
        let now = t0() + TimeDelta::minutes(10);
        let mut crashed = record();
        crashed.heartbeat_at = now - TimeDelta::seconds(20);
        crashed.process_ended = true;
        assert_eq!(crashed.health(now).liveness, Liveness::Ended);
        assert!(!crashed.health(now).liveness.is_live());

        let mut paused = crashed.clone();
        paused.heartbeat_at = now - TimeDelta::hours(2);
        paused.paused_until = Some(now + TimeDelta::hours(1));
        let h = paused.health(now);
        assert_eq!((h.liveness, h.paused_until), (Liveness::Paused, Some(now + TimeDelta::hours(1))));
        assert!(h.liveness.is_live(), "a paused session keeps its leases");
        let later = now + TimeDelta::hours(1) + PAUSE_GRACE - TimeDelta::seconds(1);
        assert_eq!(paused.health(later).liveness, Liveness::Paused, "within the grace");
        let after = now + TimeDelta::hours(1) + PAUSE_GRACE;
        assert_eq!(paused.health(after).liveness, Liveness::Down, "after the grace, the heartbeat rule again");

        let mut resumed = record();
        resumed.heartbeat_at = now;
        assert_eq!(
            resumed.health(now).liveness,
            Liveness::Live,
            "a process not known to have ended: the heartbeat rules"
        );
    }

    #[test]
    fn presence_reads_the_state_the_heartbeat_and_what_the_session_holds() {
        let now = t0() + TimeDelta::minutes(10);
        let at = |state, silent: i64, holds| {
            let mut r = record();
            r.state = state;
            r.heartbeat_at = now - TimeDelta::minutes(silent);
            r.presence(holds, now)
        };
        assert_eq!(at(SessionState::Active, 1, false), Presence::Live);
        assert_eq!(at(SessionState::Loading, 6, false), Presence::Gone);
        assert_eq!(at(SessionState::Active, 6, true), Presence::Down);
        assert_eq!(at(SessionState::Complete, 0, true), Presence::Ended, "an ended session is never live");
        assert_eq!(at(SessionState::Error, 0, false), Presence::Failed);
        assert_eq!(at(SessionState::Idle, 0, false), Presence::Idle);
        assert!(Presence::Live.is_live() && !Presence::Ended.is_live() && !Presence::Gone.is_live());
    }

    #[test]
    fn names() {
        crate::names::assert_serde_names::<Presence>();
        crate::names::assert_serde_names::<SessionState>();
        crate::names::assert_serde_names::<Priority>();
        crate::names::assert_serde_names::<Liveness>();
    }
}
