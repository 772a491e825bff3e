//! The `.meta.json` model: one feature's state, and the pure operations on it
//! (seed 002, Interface 3). Fields this version does not know are kept as they
//! were, so an older binary never drops what a newer one wrote.

use std::collections::BTreeMap;
use std::fmt;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::mode::Mode;
use crate::phase::Phase;
use crate::transition::Position;
use crate::verdict::{IssueCounts, ReviewVerdict};

/// The file name of a feature's state.
pub const META_FILE: &str = ".meta.json";

/// Lifecycle of a feature. Only active features move through phases.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Active,
    Completed,
    Abandoned,
}

impl Status {
    pub fn name(self) -> &'static str {
        match self {
            Status::Active => "active",
            Status::Completed => "completed",
            Status::Abandoned => "abandoned",
        }
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How a feature is driven.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Workflow {
    /// Phase by phase, with a command per phase.
    #[default]
    Phased,
    /// The autonomous pipeline (`/phasegate:pipeline`); its state is in `.task/`.
    Pipeline,
}

impl Workflow {
    fn is_phased(&self) -> bool {
        *self == Workflow::Phased
    }
}

/// How a phase's reviewer loop ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LoopOutcome {
    /// The reviewer approved the artifact.
    Approved,
    /// The mode's iteration cap was reached without approval; concerns are in
    /// `reviewerNotes`.
    CapReached,
}

/// One phase's record inside `.meta.json`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PhaseRecord {
    #[serde(default)]
    pub started: Option<DateTime<Utc>>,
    #[serde(default)]
    pub completed: Option<DateTime<Utc>>,
    #[serde(default)]
    pub verified: bool,
    #[serde(default)]
    pub iterations: u32,
    #[serde(default)]
    pub reviewer_notes: Vec<String>,
    /// How the reviewer loop ended, when it ran to the end.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<LoopOutcome>,
    /// The last reviewer summary.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
    /// Issues raised over all iterations, by severity.
    #[serde(default, skip_serializing_if = "IssueCounts::is_zero")]
    pub issues: IssueCounts,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// Where one phase stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum PhaseState {
    NotStarted,
    /// Started and not completed: a session stopped in the middle.
    Partial,
    Completed,
}

impl PhaseRecord {
    pub fn state(&self) -> PhaseState {
        match (self.started, self.completed) {
            (_, Some(_)) => PhaseState::Completed,
            (Some(_), None) => PhaseState::Partial,
            (None, None) => PhaseState::NotStarted,
        }
    }
}

/// A feature's `.meta.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Meta {
    /// Zero-padded sequence number, the folder's prefix (`001`).
    pub id: String,
    pub slug: String,
    #[serde(default)]
    pub mode: Mode,
    #[serde(default, skip_serializing_if = "Workflow::is_phased")]
    pub workflow: Workflow,
    pub status: Status,
    pub created: DateTime<Utc>,
    /// When the feature was finished or abandoned.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub completed: Option<DateTime<Utc>>,
    /// The feature's git worktree, relative to the repository root; resolved
    /// at run time.
    #[serde(default)]
    pub worktree: Option<String>,
    /// The worktree's branch.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub branch: Option<String>,
    #[serde(default)]
    pub current_phase: Option<Phase>,
    #[serde(default)]
    pub phases: BTreeMap<Phase, PhaseRecord>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// An operation that the feature's state does not allow.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MetaError {
    #[error("feature {feature} is {status}; only active features change phases")]
    NotActive { feature: String, status: Status },
    #[error("phase {phase} is not in progress (it is {state}); run `workflow-state phase start {phase}` first")]
    NotInProgress { phase: Phase, state: &'static str },
    #[error("phase {phase} has no reviewer loop")]
    NoReviewLoop { phase: Phase },
}

/// What `phase start` did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum StartKind {
    /// First start of this phase.
    Started,
    /// The phase was partial; its record (start time, iterations) is kept.
    Resumed,
    /// The phase was partial or completed and starts over from iteration 0.
    Restarted,
}

/// The fields of the seed's updatePhaseState that `phase complete` sets.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Completion {
    pub iterations: Option<u32>,
    pub notes: Vec<String>,
    pub verified: bool,
}

impl Meta {
    pub fn new(id: String, slug: String, mode: Mode, now: DateTime<Utc>) -> Self {
        Meta {
            id,
            slug,
            mode,
            workflow: Workflow::Phased,
            status: Status::Active,
            created: now,
            completed: None,
            worktree: None,
            branch: None,
            current_phase: None,
            phases: BTreeMap::new(),
            extra: Map::new(),
        }
    }

    /// `NNN-slug`, the folder name.
    pub fn name(&self) -> String {
        format!("{}-{}", self.id, self.slug)
    }

    pub fn record(&self, phase: Phase) -> Option<&PhaseRecord> {
        self.phases.get(&phase)
    }

    pub fn phase_state(&self, phase: Phase) -> PhaseState {
        self.record(phase).map_or(PhaseState::NotStarted, PhaseRecord::state)
    }

    /// The phase reached last and whether it is still in progress.
    pub fn position(&self) -> Position {
        match self.current_phase {
            None => Position::NONE,
            Some(p) => Position { phase: Some(p), in_progress: self.phase_state(p) == PhaseState::Partial },
        }
    }

    /// Phases started and not completed, in workflow order.
    pub fn partial_phases(&self) -> Vec<Phase> {
        self.phases.iter().filter(|(_, r)| r.state() == PhaseState::Partial).map(|(p, _)| *p).collect()
    }

    fn ensure_active(&self) -> Result<(), MetaError> {
        match self.status {
            Status::Active => Ok(()),
            status @ (Status::Completed | Status::Abandoned) => {
                Err(MetaError::NotActive { feature: self.name(), status })
            }
        }
    }

    /// Marks `phase` started. A partial phase resumes unless `fresh`; a
    /// completed phase always starts over.
    pub fn start_phase(&mut self, phase: Phase, now: DateTime<Utc>, fresh: bool) -> Result<StartKind, MetaError> {
        self.ensure_active()?;
        let record = self.phases.entry(phase).or_default();
        let kind = match (record.state(), fresh) {
            (PhaseState::NotStarted, _) => StartKind::Started,
            (PhaseState::Partial, false) => StartKind::Resumed,
            (PhaseState::Partial, true) | (PhaseState::Completed, _) => StartKind::Restarted,
        };
        match kind {
            StartKind::Resumed => {}
            StartKind::Started | StartKind::Restarted => {
                let extra = std::mem::take(&mut record.extra);
                *record = PhaseRecord { started: Some(now), extra, ..PhaseRecord::default() };
            }
        }
        self.current_phase = Some(phase);
        Ok(kind)
    }

    /// The seed's updatePhaseState for a completion: merges the update into
    /// the phase's record and makes it the current phase.
    pub fn complete_phase(&mut self, phase: Phase, now: DateTime<Utc>, update: Completion) -> Result<(), MetaError> {
        self.ensure_active()?;
        let record = self.phases.entry(phase).or_default();
        record.started.get_or_insert(now);
        record.completed = Some(now);
        if let Some(n) = update.iterations {
            record.iterations = n;
        }
        record.reviewer_notes.extend(update.notes);
        record.verified |= update.verified;
        self.current_phase = Some(phase);
        Ok(())
    }

    /// Records one reviewer iteration of `phase` and applies the loop's
    /// decision: approved or cap reached complete the phase.
    pub fn record_review(
        &mut self,
        phase: Phase,
        verdict: &ReviewVerdict,
        now: DateTime<Utc>,
    ) -> Result<crate::review::Step, MetaError> {
        self.ensure_active()?;
        if !phase.has_review_loop() {
            return Err(MetaError::NoReviewLoop { phase });
        }
        let max = self.mode.max_iterations();
        let Some(record) = self.phases.get_mut(&phase) else {
            return Err(MetaError::NotInProgress { phase, state: "not started" });
        };
        match record.state() {
            PhaseState::Partial => {}
            PhaseState::NotStarted => return Err(MetaError::NotInProgress { phase, state: "not started" }),
            PhaseState::Completed => return Err(MetaError::NotInProgress { phase, state: "completed" }),
        }
        let iteration = record.iterations + 1;
        let decision = crate::review::decide(iteration, max, verdict.approved);
        record.iterations = iteration;
        record.issues.add(&verdict.counts());
        record.summary = Some(verdict.summary.clone());
        match decision {
            crate::review::Decision::Revise => {}
            crate::review::Decision::Approved => {
                record.completed = Some(now);
                record.outcome = Some(LoopOutcome::Approved);
                // The verify phase's reviewer checks the implementation against
                // the spec: its approval is the verification.
                record.verified |= phase == Phase::Verify;
            }
            crate::review::Decision::CapReached => {
                record.completed = Some(now);
                record.outcome = Some(LoopOutcome::CapReached);
                record.reviewer_notes.extend(verdict.open_concerns());
            }
        }
        self.current_phase = Some(phase);
        Ok(crate::review::Step::new(phase, iteration, max, decision, verdict, record))
    }

    /// Ends the feature: finish phase recorded, status completed.
    pub fn finish(&mut self, now: DateTime<Utc>) -> Result<(), MetaError> {
        self.ensure_active()?;
        let record = self.phases.entry(Phase::Finish).or_default();
        record.started.get_or_insert(now);
        record.completed = Some(now);
        self.current_phase = Some(Phase::Finish);
        self.status = Status::Completed;
        self.completed = Some(now);
        Ok(())
    }

    /// Marks the feature abandoned; its files stay.
    pub fn abandon(&mut self, now: DateTime<Utc>) -> Result<(), MetaError> {
        self.ensure_active()?;
        self.status = Status::Abandoned;
        self.completed = Some(now);
        Ok(())
    }

    /// Total reviewer iterations over all phases.
    pub fn total_iterations(&self) -> u32 {
        self.phases.values().map(|r| r.iterations).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verdict::parse_verdict;
    use chrono::TimeZone;

    fn t(h: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, 22, h, 0, 0).unwrap()
    }

    fn meta(mode: Mode) -> Meta {
        Meta::new("001".into(), "auth".into(), mode, t(0))
    }

    #[test]
    fn unknown_fields_survive_a_round_trip() {
        let text = r#"{"id":"001","slug":"a","mode":"quick","status":"active","created":"2026-11-22T00:00:00Z",
            "worktree":null,"currentPhase":"design","owner":{"team":"x"},
            "phases":{"design":{"started":"2026-11-22T01:00:00Z","completed":null,"verified":false,
            "iterations":1,"reviewerNotes":[],"custom":7}}}"#;
        let m: Meta = serde_json::from_str(text).unwrap();
        assert_eq!(m.extra["owner"]["team"], "x");
        let back = serde_json::to_value(&m).unwrap();
        assert_eq!(back["owner"]["team"], "x");
        assert_eq!(back["phases"]["design"]["custom"], 7);
        assert_eq!(back["currentPhase"], "design");
    }

    #[test]
    fn phases_serialize_in_workflow_order() {
        let mut m = meta(Mode::Standard);
        m.start_phase(Phase::Design, t(2), false).unwrap();
        m.start_phase(Phase::Brainstorm, t(1), false).unwrap();
        let text = serde_json::to_string(&m).unwrap();
        assert!(text.find("\"brainstorm\"").unwrap() < text.find("\"design\"").unwrap());
    }

    #[test]
    fn start_resume_restart() {
        let mut m = meta(Mode::Standard);
        assert_eq!(m.start_phase(Phase::Specify, t(1), false).unwrap(), StartKind::Started);
        m.phases.get_mut(&Phase::Specify).unwrap().iterations = 2;
        assert_eq!(m.start_phase(Phase::Specify, t(2), false).unwrap(), StartKind::Resumed);
        assert_eq!(m.record(Phase::Specify).unwrap().iterations, 2);
        assert_eq!(m.record(Phase::Specify).unwrap().started, Some(t(1)));
        assert_eq!(m.start_phase(Phase::Specify, t(3), true).unwrap(), StartKind::Restarted);
        assert_eq!(m.record(Phase::Specify).unwrap().iterations, 0);
        assert_eq!(m.position(), Position { phase: Some(Phase::Specify), in_progress: true });
    }

    #[test]
    fn complete_merges_the_update() {
        let mut m = meta(Mode::Standard);
        m.start_phase(Phase::Verify, t(1), false).unwrap();
        let update = Completion { iterations: Some(2), notes: vec!["flaky test".into()], verified: true };
        m.complete_phase(Phase::Verify, t(2), update).unwrap();
        let r = m.record(Phase::Verify).unwrap();
        assert_eq!((r.iterations, r.verified, r.completed), (2, true, Some(t(2))));
        assert_eq!(r.reviewer_notes, ["flaky test"]);
        assert_eq!(m.position(), Position::completed(Phase::Verify));
    }

    fn verdict(approved: bool) -> ReviewVerdict {
        let text = if approved {
            r#"{"approved":true,"issues":[{"severity":"note","description":"typo"}],"summary":"good"}"#
        } else {
            r#"{"approved":false,"issues":[{"severity":"blocker","description":"no AC","location":"§2"},
                {"severity":"warning","description":"vague"}],"summary":"needs work"}"#
        };
        parse_verdict(text).unwrap()
    }

    #[test]
    fn review_loop_approves_on_first_pass() {
        let mut m = meta(Mode::Standard);
        m.start_phase(Phase::Specify, t(1), false).unwrap();
        let step = m.record_review(Phase::Specify, &verdict(true), t(2)).unwrap();
        assert_eq!(step.decision, crate::review::Decision::Approved);
        let r = m.record(Phase::Specify).unwrap();
        assert_eq!((r.iterations, r.completed, r.outcome), (1, Some(t(2)), Some(LoopOutcome::Approved)));
        assert!(r.reviewer_notes.is_empty());
        assert_eq!(r.issues.note, 1);
    }

    #[test]
    fn review_loop_stops_at_the_mode_cap_with_notes() {
        let mut m = meta(Mode::Quick);
        m.start_phase(Phase::Design, t(1), false).unwrap();
        let first = m.record_review(Phase::Design, &verdict(false), t(2)).unwrap();
        assert_eq!(first.decision, crate::review::Decision::Revise);
        assert_eq!(m.phase_state(Phase::Design), PhaseState::Partial);
        let second = m.record_review(Phase::Design, &verdict(false), t(3)).unwrap();
        assert_eq!(second.decision, crate::review::Decision::CapReached);
        let r = m.record(Phase::Design).unwrap();
        assert_eq!((r.iterations, r.outcome), (2, Some(LoopOutcome::CapReached)));
        assert_eq!(r.reviewer_notes, ["[blocker] no AC (§2)", "[warning] vague"]);
        assert_eq!((r.issues.blocker, r.issues.warning), (2, 2));
        // The loop is over: a further verdict is refused, not counted.
        let err = m.record_review(Phase::Design, &verdict(false), t(4)).unwrap_err();
        assert!(err.to_string().contains("not in progress (it is completed)"), "{err}");
    }

    #[test]
    fn hotfix_caps_at_one_iteration() {
        let mut m = meta(Mode::Hotfix);
        m.start_phase(Phase::Specify, t(1), false).unwrap();
        let step = m.record_review(Phase::Specify, &verdict(false), t(2)).unwrap();
        assert_eq!(step.decision, crate::review::Decision::CapReached);
    }

    #[test]
    fn review_needs_a_started_phase() {
        let mut m = meta(Mode::Standard);
        let err = m.record_review(Phase::Design, &verdict(true), t(1)).unwrap_err();
        assert!(err.to_string().contains("workflow-state phase start design"), "{err}");
        // A refused call changes nothing.
        assert!(!m.phases.contains_key(&Phase::Design));
    }

    #[test]
    fn finished_features_refuse_changes() {
        let mut m = meta(Mode::Standard);
        m.finish(t(1)).unwrap();
        assert_eq!(m.status, Status::Completed);
        let err = m.start_phase(Phase::Design, t(2), false).unwrap_err();
        assert!(err.to_string().contains("is completed"), "{err}");
    }
}
