//! A review gate: sonnet → opus → final gate, in this order, until one round
//! approves all three (seed 001, Automated Review Loop). A needs_changes at
//! any stage ends the round: the worker fixes, the round counts against the
//! gate's cycle, and the next round restarts from the first reviewer.
//!
//! A gate approves one *version* of the work (the plan file, or the code
//! change): every review is recorded with the version it saw. If the work
//! changes in the middle of a round, that round's approvals are of an older
//! version and the round restarts from sonnet; if it changes after the gate
//! passed, the gate reopens. While the worker is fixing a round's findings,
//! no review may start: the gate waits until the fix is reported done.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::files::GateReviewStatus;
use crate::agent::Agent;
use crate::cycle::{Cycle, Decision};
use crate::witness::RecordedBy;

/// Plan review (plan_reviewing) or code review (implementing_loop).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, strum::IntoStaticStr, strum::VariantArray,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum GateKind {
    Plan,
    Code,
}

crate::named!(GateKind, "gate");

impl GateKind {
    /// The agent that reviews at the sonnet and opus stages.
    pub fn reviewer(self) -> Agent {
        match self {
            GateKind::Plan => Agent::PlanReviewer,
            GateKind::Code => Agent::CodeReviewer,
        }
    }

    /// The worker that fixes what reviewers find.
    pub fn worker(self) -> Agent {
        match self {
            GateKind::Plan => Agent::Planner,
            GateKind::Code => Agent::Implementer,
        }
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
    Serialize,
    Deserialize,
    strum::IntoStaticStr,
    strum::VariantArray,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum Stage {
    Sonnet,
    Opus,
    Final,
}

crate::named!(Stage, "review stage");

impl Stage {
    pub const ALL: [Stage; 3] = [Stage::Sonnet, Stage::Opus, Stage::Final];

    /// The review file in `.task/`.
    pub fn file(self) -> &'static str {
        match self {
            Stage::Sonnet => "review-sonnet.json",
            Stage::Opus => "review-opus.json",
            Stage::Final => "review-codex.json",
        }
    }

    /// The `model` a review of this stage must carry.
    pub fn model(self) -> &'static str {
        match self {
            Stage::Sonnet => "sonnet",
            Stage::Opus => "opus",
            Stage::Final => "codex",
        }
    }

    fn next(self) -> Option<Stage> {
        match self {
            Stage::Sonnet => Some(Stage::Opus),
            Stage::Opus => Some(Stage::Final),
            Stage::Final => None,
        }
    }
}

/// The worker is fixing a round's findings; reviews wait for it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Fixing {
    /// The round whose findings are being fixed.
    pub round: u32,
    pub since: DateTime<Utc>,
}

/// The state of one gate, kept in the pipeline's state.json.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Gate {
    /// The current round, from 1.
    pub round: u32,
    /// Rounds that ended in needs_changes against the current budget (the
    /// seed's LOOP_COUNT; the gate cycle's attempts).
    pub loops: u32,
    /// This round's results, in stage order.
    #[serde(default)]
    pub results: Vec<StageResult>,
    #[serde(default)]
    pub passed: bool,
    /// The version of the work this round's reviews saw.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub round_version: Option<String>,
    /// The version the gate approved, once it passed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub approved_version: Option<String>,
    /// Set while the worker fixes the findings of a round.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fixing: Option<Fixing>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StageResult {
    pub stage: Stage,
    pub status: GateReviewStatus,
    /// Who the review came from: the reviewer sub-agent Claude Code's
    /// transcript shows, or a person outside Claude Code (None: the final
    /// gate the binary ran itself, or a state written before this was kept).
    #[serde(default, rename = "recordedBy", skip_serializing_if = "Option::is_none")]
    pub recorded_by: Option<RecordedBy>,
}

/// What the orchestrator does after a review was recorded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GateDecision {
    /// Approved: run this stage next.
    Next { stage: Stage },
    /// All three approved in one round, of one version of the work.
    Passed,
    /// Resume the worker to fix the findings, report the fix, then review
    /// from sonnet again.
    Fix,
    /// A reviewer needs the user's answer: the pipeline pauses.
    Clarify,
    /// The loop limit is reached: the pipeline pauses (review_loop_exceeded).
    LimitReached,
}

impl GateDecision {
    pub fn name(self) -> &'static str {
        match self {
            GateDecision::Next { .. } => "next",
            GateDecision::Passed => "passed",
            GateDecision::Fix => "fix",
            GateDecision::Clarify => "clarify",
            GateDecision::LimitReached => "limit_reached",
        }
    }

    /// The stage to review next, when there is one.
    pub fn next_stage(self) -> Option<Stage> {
        match self {
            GateDecision::Next { stage } => Some(stage),
            GateDecision::Fix => Some(Stage::Sonnet),
            GateDecision::Passed | GateDecision::Clarify | GateDecision::LimitReached => None,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GateError {
    #[error("the review gate has already passed; nothing more to review")]
    AlreadyPassed,
    #[error("round {round} expects the {expected} review next, not {got} (order: sonnet → opus → final)")]
    OutOfOrder { round: u32, expected: Stage, got: Stage },
    #[error("only the final gate may be skipped")]
    SkipNotFinal,
    #[error(
        "the {worker} is still fixing the findings of round {round}; no review starts on work that is being changed. When its result has arrived, mark the fix done, then review from sonnet"
    )]
    FixInProgress { worker: Agent, round: u32 },
    #[error(
        "the work changed since round {round} began (its earlier reviews saw another version), so the round restarts: review again from sonnet"
    )]
    ChangedMidRound { round: u32 },
    #[error("no fix is in progress (round {round}); review with the next stage")]
    NotFixing { round: u32 },
}

impl Gate {
    pub fn new() -> Self {
        Gate { round: 1, ..Gate::default() }
    }

    /// The stage to review next, or None when the gate has passed.
    pub fn expected(&self) -> Option<Stage> {
        if self.passed {
            return None;
        }
        match self.results.last() {
            None => Some(Stage::Sonnet),
            Some(r) => match r.status {
                GateReviewStatus::Approved | GateReviewStatus::Skipped => r.stage.next(),
                // Waiting for the user's answer: the same stage reviews again.
                GateReviewStatus::NeedsClarification | GateReviewStatus::NeedsChanges => Some(r.stage),
            },
        }
    }

    /// Checks, before a review of `stage` is recorded, that the work is not
    /// being fixed and is the version this round's earlier reviews saw. A
    /// changed version restarts the round here (the caller saves that) and
    /// is refused unless the review is the round's first.
    pub fn admit(&mut self, stage: Stage, version: &str, kind: GateKind) -> Result<(), GateError> {
        if let Some(f) = &self.fixing {
            return Err(GateError::FixInProgress { worker: kind.worker(), round: f.round });
        }
        if self.passed {
            return Err(GateError::AlreadyPassed);
        }
        let changed = self.round_version.as_deref().is_some_and(|v| v != version);
        if changed && !self.results.is_empty() {
            self.results.clear();
            self.round_version = None;
            if stage != Stage::Sonnet {
                return Err(GateError::ChangedMidRound { round: self.round.max(1) });
            }
        }
        Ok(())
    }

    /// Records one review of the version `version` and says what happens
    /// next. Call [`Gate::admit`] first.
    pub fn record(
        &mut self,
        stage: Stage,
        status: GateReviewStatus,
        version: &str,
        loop_limit: u32,
        now: DateTime<Utc>,
    ) -> Result<GateDecision, GateError> {
        self.record_by(stage, status, None, version, loop_limit, now)
    }

    /// [`Gate::record`] of a review given `by` a reviewer or a person.
    pub fn record_by(
        &mut self,
        stage: Stage,
        status: GateReviewStatus,
        by: Option<RecordedBy>,
        version: &str,
        loop_limit: u32,
        now: DateTime<Utc>,
    ) -> Result<GateDecision, GateError> {
        if status == GateReviewStatus::Skipped && stage != Stage::Final {
            return Err(GateError::SkipNotFinal);
        }
        let expected = self.expected().ok_or(GateError::AlreadyPassed)?;
        if stage != expected {
            return Err(GateError::OutOfOrder { round: self.round.max(1), expected, got: stage });
        }
        if self.round == 0 {
            self.round = 1;
        }
        if self.results.last().is_some_and(|last| last.stage == stage) {
            self.results.pop();
        }
        self.round_version = Some(version.to_owned());
        match status {
            GateReviewStatus::Approved | GateReviewStatus::Skipped => {
                self.results.push(StageResult { stage, status, recorded_by: by.clone() });
                match stage.next() {
                    Some(next) => Ok(GateDecision::Next { stage: next }),
                    None => {
                        self.passed = true;
                        self.approved_version = Some(version.to_owned());
                        Ok(GateDecision::Passed)
                    }
                }
            }
            GateReviewStatus::NeedsClarification => {
                self.results.push(StageResult { stage, status, recorded_by: by.clone() });
                Ok(GateDecision::Clarify)
            }
            GateReviewStatus::NeedsChanges => {
                let mut cycle = Cycle::new(self.loops, loop_limit);
                let decision = cycle.record(false);
                self.loops = cycle.attempts;
                match decision {
                    Decision::CapReached => {
                        self.results.push(StageResult { stage, status, recorded_by: by.clone() });
                        Ok(GateDecision::LimitReached)
                    }
                    Decision::Revise | Decision::Approved => {
                        self.fixing = Some(Fixing { round: self.round, since: now });
                        self.round = self.round.saturating_add(1);
                        self.results.clear();
                        self.round_version = None;
                        Ok(GateDecision::Fix)
                    }
                }
            }
        }
    }

    /// The worker reported its fix: reviews may start again, from sonnet.
    pub fn fixed(&mut self) -> Result<u32, GateError> {
        match self.fixing.take() {
            Some(f) => Ok(f.round),
            None => Err(GateError::NotFixing { round: self.round.max(1) }),
        }
    }

    /// Called with the current version of the work: a passed gate whose work
    /// changed since its approval reopens for a new round (true when it did).
    /// A change is not a failed round: the loop count stays.
    pub fn reopen_if_changed(&mut self, version: &str) -> bool {
        let changed = self.passed && self.approved_version.as_deref().is_some_and(|v| v != version);
        if changed {
            self.passed = false;
            self.approved_version = None;
            self.round = self.round.saturating_add(1);
            self.results.clear();
            self.round_version = None;
        }
        changed
    }

    /// After the user chose to go on past the loop limit: a fresh count, a
    /// new round from the first reviewer.
    pub(crate) fn continue_after_limit(&mut self) {
        self.loops = 0;
        self.round = self.round.saturating_add(1);
        self.results.clear();
        self.round_version = None;
    }

    /// Restart the current round from the first reviewer (after recovery).
    pub(crate) fn restart_round(&mut self) {
        if !self.passed {
            self.results.clear();
            self.round_version = None;
            self.fixing = None;
        }
    }
}

/// Its class: what a front end maps it to.
impl crate::error::Classified for GateError {
    fn class(&self) -> crate::error::ErrorClass {
        use GateError as E;
        match self {
            E::AlreadyPassed
            | E::OutOfOrder { .. }
            | E::FixInProgress { .. }
            | E::ChangedMidRound { .. }
            | E::NotFixing { .. } => crate::error::ErrorClass::Refused,
            E::SkipNotFinal => crate::error::ErrorClass::Invalid,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use GateReviewStatus::*;
    use chrono::TimeZone;

    fn now() -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, 22, 10, 0, 0).unwrap()
    }

    fn rec(g: &mut Gate, stage: Stage, status: GateReviewStatus, limit: u32) -> Result<GateDecision, GateError> {
        g.admit(stage, "v1", GateKind::Code)?;
        g.record(stage, status, "v1", limit, now())
    }

    #[test]
    fn three_approvals_in_order_pass() {
        let mut g = Gate::new();
        assert_eq!(g.expected(), Some(Stage::Sonnet));
        assert_eq!(rec(&mut g, Stage::Sonnet, Approved, 10).unwrap(), GateDecision::Next { stage: Stage::Opus });
        assert_eq!(rec(&mut g, Stage::Opus, Approved, 10).unwrap(), GateDecision::Next { stage: Stage::Final });
        assert_eq!(rec(&mut g, Stage::Final, Approved, 10).unwrap(), GateDecision::Passed);
        assert!(g.passed);
        assert_eq!(g.approved_version.as_deref(), Some("v1"));
        assert_eq!(g.expected(), None);
        assert_eq!(rec(&mut g, Stage::Sonnet, Approved, 10).unwrap_err(), GateError::AlreadyPassed);
    }

    #[test]
    fn order_is_enforced() {
        let mut g = Gate::new();
        let e = rec(&mut g, Stage::Opus, Approved, 10).unwrap_err();
        assert_eq!(e.to_string(), "round 1 expects the sonnet review next, not opus (order: sonnet → opus → final)");
    }

    #[test]
    fn needs_changes_waits_for_the_fix_then_restarts_from_the_first_reviewer() {
        let mut g = Gate::new();
        rec(&mut g, Stage::Sonnet, Approved, 10).unwrap();
        rec(&mut g, Stage::Opus, Approved, 10).unwrap();
        assert_eq!(rec(&mut g, Stage::Final, NeedsChanges, 10).unwrap(), GateDecision::Fix);
        assert_eq!((g.round, g.loops), (2, 1));
        // Regression: the next round was handed out while the fix was still
        // being written.
        let e = rec(&mut g, Stage::Sonnet, Approved, 10).unwrap_err();
        assert_eq!(e, GateError::FixInProgress { worker: Agent::Implementer, round: 1 });
        assert_eq!(g.fixed().unwrap(), 1);
        assert_eq!(g.fixed().unwrap_err(), GateError::NotFixing { round: 2 });
        assert_eq!(g.expected(), Some(Stage::Sonnet));
        assert_eq!(rec(&mut g, Stage::Sonnet, NeedsChanges, 10).unwrap(), GateDecision::Fix);
        assert_eq!((g.round, g.loops), (3, 2));
    }

    #[test]
    fn a_change_in_the_middle_of_a_round_restarts_it() {
        let mut g = Gate::new();
        g.admit(Stage::Sonnet, "v1", GateKind::Plan).unwrap();
        g.record(Stage::Sonnet, Approved, "v1", 10, now()).unwrap();
        let e = g.admit(Stage::Opus, "v2", GateKind::Plan).unwrap_err();
        assert_eq!(e, GateError::ChangedMidRound { round: 1 });
        assert_eq!(g.expected(), Some(Stage::Sonnet));
        g.admit(Stage::Sonnet, "v2", GateKind::Plan).unwrap();
        g.record(Stage::Sonnet, Approved, "v2", 10, now()).unwrap();
        g.admit(Stage::Opus, "v2", GateKind::Plan).unwrap();
    }

    /// Regression: after the code gate passed, later code changes were
    /// re-tested but never re-reviewed.
    #[test]
    fn a_change_after_the_gate_passed_reopens_it() {
        let mut g = Gate::new();
        for s in Stage::ALL {
            rec(&mut g, s, Approved, 10).unwrap();
        }
        assert!(!g.reopen_if_changed("v1"));
        assert!(g.reopen_if_changed("v2"));
        assert!(!g.passed);
        assert_eq!((g.round, g.loops, g.expected()), (2, 0, Some(Stage::Sonnet)));
    }

    #[test]
    fn the_limit_pauses() {
        let mut g = Gate::new();
        assert_eq!(rec(&mut g, Stage::Sonnet, NeedsChanges, 2).unwrap(), GateDecision::Fix);
        g.fixed().unwrap();
        assert_eq!(rec(&mut g, Stage::Sonnet, NeedsChanges, 2).unwrap(), GateDecision::LimitReached);
        assert_eq!(g.loops, 2);
        g.continue_after_limit();
        assert_eq!((g.loops, g.expected()), (0, Some(Stage::Sonnet)));
    }

    #[test]
    fn clarification_repeats_the_stage() {
        let mut g = Gate::new();
        rec(&mut g, Stage::Sonnet, Approved, 10).unwrap();
        assert_eq!(rec(&mut g, Stage::Opus, NeedsClarification, 10).unwrap(), GateDecision::Clarify);
        assert_eq!(g.expected(), Some(Stage::Opus));
        assert_eq!(rec(&mut g, Stage::Opus, Approved, 10).unwrap(), GateDecision::Next { stage: Stage::Final });
        assert_eq!(g.results.len(), 2);
    }

    #[test]
    fn only_the_final_gate_may_be_skipped() {
        let mut g = Gate::new();
        assert_eq!(rec(&mut g, Stage::Sonnet, Skipped, 10).unwrap_err(), GateError::SkipNotFinal);
        rec(&mut g, Stage::Sonnet, Approved, 10).unwrap();
        rec(&mut g, Stage::Opus, Approved, 10).unwrap();
        assert_eq!(rec(&mut g, Stage::Final, Skipped, 10).unwrap(), GateDecision::Passed);
        crate::names::assert_serde_names::<Stage>();
        crate::names::assert_serde_names::<GateKind>();
    }
}
