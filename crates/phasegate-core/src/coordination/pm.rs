//! The PM's decisions (seed 004 §8.2): what to do about a stuck task, a file
//! conflict, and the work of a session that went down. Each decision is a
//! [`PmDecision`] carrying its reason, for the decision log.
//!
//! Design choices:
//! - A stuck task is judged by how long it has run *now* (from its start),
//!   not by the duration written into the alert as the seed does: WATCH
//!   says "check again in 5 minutes", and the check must see those minutes.
//! - Thresholds are strict as in the seed: more than 30 minutes interrupts,
//!   more than 20 escalates, anything else is watched.
//! - Every decision has a `reason`, also where the seed gives only a
//!   message (ESCALATE) or nothing (WATCH), so the log says why.
//! - Redistribution balances instead of following the seed literally. The
//!   seed sorts the live loops by load once and then gives *every* task to
//!   `available_loops[0]`, contradicting its own comment ("Find least loaded
//!   loop"): all of a down session's work would pile onto one session. Here
//!   each task goes to the least-loaded candidate at that moment (ties by
//!   session id), and its load counts the tasks just given to it.
//! - Candidates are the sessions that are live, not in ERROR, and not the
//!   down session itself; the rule filters them so the caller cannot get it
//!   wrong. Tasks no candidate can take are listed as unassigned.

use chrono::{DateTime, TimeDelta, Utc};
use serde::{Deserialize, Serialize};

use super::lease::LeaseDecision;
use super::monitor::{ActiveTask, whole_minutes};
use super::session::{SessionRecord, SessionState};
use crate::session::SessionId;

/// §8.2: `if duration > timedelta(minutes=30)`: INTERRUPT.
pub(crate) const INTERRUPT_AFTER: TimeDelta = TimeDelta::minutes(30);
/// §8.2: `elif duration > timedelta(minutes=20)`: ESCALATE.
pub(crate) const ESCALATE_AFTER: TimeDelta = TimeDelta::minutes(20);
/// §8.2: WATCH's `check_again_in=timedelta(minutes=5)`.
pub const CHECK_AGAIN_IN: TimeDelta = TimeDelta::minutes(5);
/// §8.2: INTERRUPT's reason.
pub(crate) const INTERRUPT_REASON: &str = "Task exceeded 30 minute timeout";

/// §8.2's actions, and REASSIGN for redistributed work (§2.3's
/// `work.assigned`).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, strum::IntoStaticStr, strum::VariantArray,
)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
#[strum(serialize_all = "SCREAMING_SNAKE_CASE")]
pub enum PmAction {
    Grant,
    Preempt,
    Deny,
    Interrupt,
    Escalate,
    Watch,
    Reassign,
}

crate::named!(PmAction, "PM action");

/// What the target does after the decision.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, strum::IntoStaticStr, strum::VariantArray,
)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
#[strum(serialize_all = "SCREAMING_SNAKE_CASE")]
pub enum FollowUp {
    /// Preempted: stop editing the file and let the requester have it.
    PauseAndYield,
    /// Interrupted: skip the task and go on with the next.
    SkipAndContinue,
}

crate::named!(FollowUp, "follow-up");

/// ESCALATE's options for the human (§8.2: `['wait', 'skip', 'retry']`).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, strum::IntoStaticStr, strum::VariantArray,
)]
#[serde(rename_all = "lowercase")]
#[strum(serialize_all = "lowercase")]
pub enum EscalationOption {
    Wait,
    Skip,
    Retry,
}

crate::named!(EscalationOption, "escalation option");

/// Who a decision is addressed to: a session, or the human (§8.2's
/// `target='human'`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Target {
    Session(SessionId),
    Human,
}

/// One decision, as logged.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PmDecision {
    pub action: PmAction,
    pub target: Target,
    /// What it is about: a task (`feature/id`) or a file.
    pub subject: String,
    pub reason: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub follow_up: Option<FollowUp>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suggestion: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<EscalationOption>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub check_again_in_minutes: Option<i64>,
    pub decided_at: DateTime<Utc>,
}

impl PmDecision {
    fn new(action: PmAction, target: Target, subject: String, reason: String, now: DateTime<Utc>) -> PmDecision {
        PmDecision {
            action,
            target,
            subject,
            reason,
            message: None,
            follow_up: None,
            suggestion: None,
            options: Vec::new(),
            check_again_in_minutes: None,
            decided_at: now,
        }
    }
}

/// §8.2 `handle_stuck_task`: more than 30 minutes → INTERRUPT the session
/// (skip and continue); more than 20 → ESCALATE to the human; else WATCH.
pub fn handle_stuck_task(task: &ActiveTask, now: DateTime<Utc>) -> PmDecision {
    let duration = task.duration(now);
    let minutes = whole_minutes(duration);
    let subject = task.subject();
    let session = Target::Session(task.session.clone());
    if duration > INTERRUPT_AFTER {
        PmDecision {
            follow_up: Some(FollowUp::SkipAndContinue),
            ..PmDecision::new(PmAction::Interrupt, session, subject, INTERRUPT_REASON.to_owned(), now)
        }
    } else if duration > ESCALATE_AFTER {
        PmDecision {
            message: Some(format!("Task {} stuck for {minutes} min. Skip or wait?", task.id)),
            options: vec![EscalationOption::Wait, EscalationOption::Skip, EscalationOption::Retry],
            ..PmDecision::new(
                PmAction::Escalate,
                Target::Human,
                subject,
                format!("Task {} has run {minutes} min: more than 20, not more than 30", task.id),
                now,
            )
        }
    } else {
        PmDecision {
            check_again_in_minutes: Some(CHECK_AGAIN_IN.num_minutes()),
            ..PmDecision::new(
                PmAction::Watch,
                session,
                subject,
                format!("Task {} has run {minutes} min: not more than 20; checking again in 5 min", task.id),
                now,
            )
        }
    }
}

/// §8.2 `handle_conflict`: a lease decision (see `decide_request`) as a
/// logged PM decision.
pub fn handle_conflict(decision: &LeaseDecision, now: DateTime<Utc>) -> PmDecision {
    match decision {
        LeaseDecision::Grant { lease, reason, expired: _ } => PmDecision::new(
            PmAction::Grant,
            Target::Session(lease.holder.clone()),
            lease.path.to_string(),
            reason.clone(),
            now,
        ),
        LeaseDecision::Preempt { lease, preempted, message } => PmDecision {
            message: Some(message.clone()),
            follow_up: Some(FollowUp::PauseAndYield),
            ..PmDecision::new(
                PmAction::Preempt,
                Target::Session(preempted.holder.clone()),
                lease.path.to_string(),
                format!("{} has higher priority than {}", lease.holder, preempted.holder),
                now,
            )
        },
        LeaseDecision::Deny { requester, owner: _, path, reason, suggestion } => PmDecision {
            suggestion: Some((*suggestion).to_owned()),
            ..PmDecision::new(PmAction::Deny, Target::Session(requester.clone()), path.to_string(), reason.clone(), now)
        },
    }
}

/// One task moved from a down session to a live one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Assignment {
    pub task_id: String,
    pub from: SessionId,
    pub to: SessionId,
    pub reason: String,
}

impl Assignment {
    /// As a logged decision (the `work.assigned` event follows it).
    pub fn decision(&self, now: DateTime<Utc>) -> PmDecision {
        PmDecision::new(
            PmAction::Reassign,
            Target::Session(self.to.clone()),
            self.task_id.clone(),
            self.reason.clone(),
            now,
        )
    }
}

/// §8.2 `redistribute_work`'s result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Redistribution {
    pub assignments: Vec<Assignment>,
    /// Tasks no live session could take.
    pub unassigned: Vec<String>,
}

/// Gives each of a down session's pending tasks to the least-loaded live
/// session (ties by id), counting the tasks given out as it goes.
pub fn redistribute(
    down: &SessionId,
    pending: &[String],
    sessions: &[SessionRecord],
    now: DateTime<Utc>,
) -> Redistribution {
    let can_take = |s: &&SessionRecord| {
        s.id != *down
            && s.health(now).liveness.is_live()
            && match s.state {
                SessionState::Idle | SessionState::Loading | SessionState::Active | SessionState::Complete => true,
                SessionState::Error => false,
            }
    };
    let mut loads: Vec<(u32, &SessionId)> = sessions.iter().filter(can_take).map(|s| (s.load, &s.id)).collect();
    let mut out = Redistribution { assignments: Vec::new(), unassigned: Vec::new() };
    for task in pending {
        match loads.iter_mut().min() {
            Some((load, to)) => {
                out.assignments.push(Assignment {
                    task_id: task.clone(),
                    from: down.clone(),
                    to: (*to).clone(),
                    reason: format!("{down} is down; {to} is the least loaded live session ({load} tasks)"),
                });
                *load = load.saturating_add(1);
            }
            None => out.unassigned.push(task.clone()),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coordination::lease::{Lease, LeasePath, LeaseReason};
    use crate::coordination::session::DOWN_AFTER;
    use chrono::TimeZone;

    fn now() -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, 22, 12, 0, 0).unwrap()
    }

    fn sid(s: &str) -> SessionId {
        SessionId::parse(s).unwrap()
    }

    fn task(ran: TimeDelta) -> ActiveTask {
        ActiveTask { id: "T3".into(), feature: None, session: sid("s1"), layer: None, started_at: now() - ran }
    }

    fn session(id: &str, load: u32, state: SessionState, heartbeat_ago: TimeDelta) -> SessionRecord {
        let mut s = SessionRecord::new(sid(id), "/r", "/r", now() - TimeDelta::hours(1));
        (s.load, s.state, s.heartbeat_at) = (load, state, now() - heartbeat_ago);
        s
    }

    const SEC: TimeDelta = TimeDelta::seconds(1);

    #[test]
    fn more_than_30_minutes_interrupts_and_skips() {
        let d = handle_stuck_task(&task(INTERRUPT_AFTER + SEC), now());
        assert_eq!(
            (d.action, d.target, d.follow_up),
            (PmAction::Interrupt, Target::Session(sid("s1")), Some(FollowUp::SkipAndContinue))
        );
        assert_eq!(d.reason, "Task exceeded 30 minute timeout");
    }

    #[test]
    fn more_than_20_minutes_escalates_to_the_human_with_wait_skip_retry() {
        for ran in [ESCALATE_AFTER + SEC, INTERRUPT_AFTER] {
            let d = handle_stuck_task(&task(ran), now());
            assert_eq!((d.action, &d.target), (PmAction::Escalate, &Target::Human), "{ran}");
            assert_eq!(d.options, [EscalationOption::Wait, EscalationOption::Skip, EscalationOption::Retry]);
        }
        let d = handle_stuck_task(&task(TimeDelta::minutes(25) + TimeDelta::seconds(40)), now());
        assert_eq!(d.message.as_deref(), Some("Task T3 stuck for 25 min. Skip or wait?"));
    }

    #[test]
    fn twenty_minutes_or_less_is_watched_again_in_5_minutes() {
        for ran in [ESCALATE_AFTER, TimeDelta::minutes(11), TimeDelta::zero(), -TimeDelta::hours(1)] {
            let d = handle_stuck_task(&task(ran), now());
            assert_eq!((d.action, d.check_again_in_minutes), (PmAction::Watch, Some(5)), "{ran}");
            assert!(!d.reason.is_empty());
        }
    }

    #[test]
    fn a_watched_task_is_judged_again_by_its_current_duration() {
        let t = task(TimeDelta::minutes(18));
        assert_eq!(handle_stuck_task(&t, now()).action, PmAction::Watch);
        assert_eq!(handle_stuck_task(&t, now() + CHECK_AGAIN_IN).action, PmAction::Escalate);
    }

    #[test]
    fn a_stuck_task_alert_is_judged_by_the_tasks_duration_at_decision_time() {
        use crate::coordination::monitor::{AlertDetails, MonitorInput, run_monitor};
        let t = task(TimeDelta::minutes(11));
        let alerts = run_monitor(
            MonitorInput {
                sessions: &[],
                tasks: std::slice::from_ref(&t),
                waits: &[],
                leases: &[],
                alerts: &[],
                uncommitted: &[],
            },
            now(),
        )
        .raise;
        let AlertDetails::StuckTask(stuck) = &alerts[0].details else { panic!("{alerts:?}") };
        assert_eq!(ActiveTask::from(stuck), t);
        let later = now() + TimeDelta::minutes(20);
        assert_eq!(handle_stuck_task(&ActiveTask::from(stuck), later).action, PmAction::Interrupt);
    }

    #[test]
    fn conflicts_are_logged_with_the_seeds_fields() {
        let lease = |by: &str| Lease {
            path: LeasePath::parse("src/a.rs").unwrap(),
            holder: sid(by),
            feature: None,
            task: None,
            acquired_at: now(),
            reason: LeaseReason::FirstEdit,
        };
        let preempt = LeaseDecision::Preempt {
            lease: lease("b"),
            preempted: lease("a"),
            message: "b needs src/a.rs for higher priority work".into(),
        };
        let d = handle_conflict(&preempt, now());
        assert_eq!(
            (d.action, d.target, d.follow_up),
            (PmAction::Preempt, Target::Session(sid("a")), Some(FollowUp::PauseAndYield))
        );
        assert_eq!(d.message.as_deref(), Some("b needs src/a.rs for higher priority work"));

        let deny = LeaseDecision::Deny {
            requester: sid("b"),
            owner: sid("a"),
            path: LeasePath::parse("src/a.rs").unwrap(),
            reason: "File owned by a".into(),
            suggestion: "Wait or request change",
        };
        let d = handle_conflict(&deny, now());
        assert_eq!(
            (d.action, d.reason.as_str(), d.suggestion.as_deref()),
            (PmAction::Deny, "File owned by a", Some("Wait or request change"))
        );
        assert_eq!(d.target, Target::Session(sid("b")), "the seed tells the requester");

        let grant = LeaseDecision::Grant {
            lease: lease("b"),
            reason: "File unowned - granting to first requestor".into(),
            expired: None,
        };
        let d = handle_conflict(&grant, now());
        assert_eq!((d.action, d.target, d.subject.as_str()), (PmAction::Grant, Target::Session(sid("b")), "src/a.rs"));
    }

    #[test]
    fn redistribution_balances_instead_of_piling_onto_the_first_session() {
        let sessions = [
            session("down", 0, SessionState::Active, DOWN_AFTER),
            session("b", 1, SessionState::Active, SEC),
            session("a", 1, SessionState::Active, SEC),
            session("c", 2, SessionState::Idle, SEC),
        ];
        let pending: Vec<String> = ["T1", "T2", "T3", "T4", "T5", "T6"].map(String::from).to_vec();
        let r = redistribute(&sid("down"), &pending, &sessions, now());
        let to: Vec<&str> = r.assignments.iter().map(|a| a.to.as_str()).collect();
        // a and b tie at 1 (a first by id); then all three tie at 2, then at 3.
        assert_eq!(to, ["a", "b", "a", "b", "c", "a"]);
        assert!(r.unassigned.is_empty());
        assert_eq!(r.assignments[0].reason, "down is down; a is the least loaded live session (1 tasks)");
        let d = r.assignments[0].decision(now());
        assert_eq!((d.action, d.target, d.subject.as_str()), (PmAction::Reassign, Target::Session(sid("a")), "T1"));
    }

    #[test]
    fn down_failed_and_the_down_session_itself_take_no_work() {
        let sessions = [
            session("down", 0, SessionState::Active, SEC),
            session("gone", 0, SessionState::Active, DOWN_AFTER),
            session("failed", 0, SessionState::Error, SEC),
        ];
        let r = redistribute(&sid("down"), &["T1".to_owned()], &sessions, now());
        assert_eq!((r.assignments.len(), r.unassigned.as_slice()), (0, ["T1".to_owned()].as_slice()));
    }

    #[test]
    fn decisions_serialise_for_the_log() {
        let d = handle_stuck_task(&task(TimeDelta::minutes(21)), now());
        let json = serde_json::to_value(&d).unwrap();
        assert_eq!(json["action"], "ESCALATE");
        assert_eq!(json["target"], "human");
        assert_eq!(json["options"], serde_json::json!(["wait", "skip", "retry"]));
        assert_eq!(serde_json::from_value::<PmDecision>(json).unwrap(), d);
        let json = serde_json::to_value(handle_stuck_task(&task(TimeDelta::minutes(31)), now())).unwrap();
        assert_eq!(
            (json["target"]["session"].as_str(), json["follow_up"].as_str()),
            (Some("s1"), Some("SKIP_AND_CONTINUE"))
        );
    }

    #[test]
    fn names() {
        crate::names::assert_serde_names::<PmAction>();
        crate::names::assert_serde_names::<FollowUp>();
        crate::names::assert_serde_names::<EscalationOption>();
    }
}
