//! A pipeline run: the `state.json` of one pipeline feature ([`PipelineRun`]),
//! and the pure operations on it. The binary enforces every transition here;
//! the Markdown only follows what it prints.

use crate::words::Command;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::gate::{Gate, GateKind};
use super::state::State;

/// Who runs the pipeline: the Claude Code session whose Stop hook enforces
/// its loop. No other session is ever held by it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Owner {
    pub session_id: String,
    pub claimed_at: DateTime<Utc>,
}

/// Why the pipeline waits for the user (seed 001, "When Pipeline Pauses",
/// plus the loop's own ends).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, strum::IntoStaticStr, strum::VariantArray)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum PauseReason {
    NeedsClarification,
    ReviewLoopExceeded,
    UnrecoverableError,
    /// The implementation loop used all its iterations.
    LoopLimit,
    /// The final gate's reviewer is not installed and the configuration says block.
    FinalGateUnavailable,
    /// `/phasegate:cancel-loop`.
    Cancelled,
    /// The loop had no activity for longer than the configured time.
    Stale,
}

crate::named!(PauseReason, "pause reason");

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Pause {
    pub from: State,
    pub reason: PauseReason,
    pub message: String,
    pub at: DateTime<Utc>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Failure {
    pub from: State,
    pub message: String,
    pub at: DateTime<Utc>,
}

/// One step of the run's history.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Step {
    pub from: State,
    pub to: State,
    pub at: DateTime<Utc>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// A pipeline's `state.json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PipelineRun {
    pub state: State,
    pub request: String,
    #[serde(default)]
    pub owner: Option<Owner>,
    #[serde(default)]
    pub paused: Option<Pause>,
    #[serde(default)]
    pub failed: Option<Failure>,
    #[serde(default)]
    pub plan_review: Gate,
    #[serde(default)]
    pub code_review: Gate,
    /// The commit the code was at when implementation began; code reviewers
    /// get the change since then.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code_base: Option<String>,
    #[serde(default)]
    pub history: Vec<Step>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

/// What a transition needs that only the files can tell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Requirement {
    /// A valid `.task/user-story.json`.
    UserStory,
    /// A valid `.task/plan-refined.json` whose checks can prove the user
    /// story (every acceptance criterion named by one).
    Plan,
    /// The plan's test commands pass.
    TestsPass,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RunError {
    #[error("cannot go from {from} to {to}; from {from} the legal transitions are: {legal}")]
    Illegal { from: State, to: State, legal: String },
    #[error("cannot go from {from} to {to} yet: {missing}")]
    Unmet { from: State, to: State, missing: String },
    #[error("{0}")]
    Invalid(String),
}

impl super::files::Owned for PipelineRun {
    const KIND: super::files::FileKind = super::files::FileKind::State;

    fn rules(&self) -> Result<(), String> {
        for (name, gate) in [("planReview", &self.plan_review), ("codeReview", &self.code_review)] {
            if gate.results.len() > 3 {
                return Err(format!("at /{name}/results: more than 3 results in one round"));
            }
        }
        Ok(())
    }
}

impl PipelineRun {
    pub fn new(request: String, owner: Option<String>, now: DateTime<Utc>) -> Self {
        PipelineRun {
            state: State::Idle,
            request,
            owner: owner.map(|session_id| Owner { session_id, claimed_at: now }),
            paused: None,
            failed: None,
            plan_review: Gate::default(),
            code_review: Gate::default(),
            code_base: None,
            history: Vec::new(),
            created_at: now,
            updated_at: now,
        }
    }

    pub fn owned_by(&self, session: &str) -> bool {
        self.owner.as_ref().is_some_and(|o| o.session_id == session)
    }

    /// The review gate of the current state, if it has one.
    pub fn gate_kind(&self) -> Option<GateKind> {
        gate_of(self.state)
    }

    pub fn gate_mut(&mut self, kind: GateKind) -> &mut Gate {
        match kind {
            GateKind::Plan => &mut self.plan_review,
            GateKind::Code => &mut self.code_review,
        }
    }

    pub fn gate(&self, kind: GateKind) -> &Gate {
        match kind {
            GateKind::Plan => &self.plan_review,
            GateKind::Code => &self.code_review,
        }
    }

    fn record(&mut self, to: State, now: DateTime<Utc>, note: Option<String>) {
        self.history.push(Step { from: self.state, to, at: now, note });
        self.state = to;
        self.updated_at = now;
    }

    /// The requirements of a forward transition.
    pub fn requirements(to: State) -> &'static [Requirement] {
        // Every forward transition has one source, so the target decides.
        match to {
            State::PlanDrafting => &[Requirement::UserStory],
            // The plan, and that its checks can prove the story: before its
            // review, and again after it (a revision may have dropped one).
            State::PlanReviewing | State::Implementing => &[Requirement::Plan],
            State::Complete => &[Requirement::TestsPass],
            State::Idle
            | State::RequirementsGathering
            | State::PlanRefining
            | State::ImplementingLoop
            | State::Error
            | State::NeedsUserInput => &[],
        }
    }

    /// Moves along the forward flow (or pauses / fails, through their own
    /// functions). `check` answers the requirements that need files.
    pub fn transition(
        &mut self,
        to: State,
        now: DateTime<Utc>,
        note: Option<String>,
        mut check: impl FnMut(Requirement) -> Result<(), String>,
    ) -> Result<(), RunError> {
        let from = self.state;
        if !from.forward().contains(&to) {
            let legal = from.legal();
            let legal = if legal.is_empty() {
                match from {
                    State::NeedsUserInput => {
                        format!("none: use `{}` after the user answered", Command::new("pipeline resume"))
                    }
                    State::Error => format!("none: use `{}`", Command::new("pipeline recover")),
                    State::Complete => "none: the pipeline is complete".to_owned(),
                    State::Idle
                    | State::RequirementsGathering
                    | State::PlanDrafting
                    | State::PlanRefining
                    | State::PlanReviewing
                    | State::Implementing
                    | State::ImplementingLoop => {
                        format!("none: use `{}` to start over", Command::new("pipeline reset"))
                    }
                }
            } else {
                legal.iter().map(|s| s.name()).collect::<Vec<_>>().join(", ")
            };
            return Err(RunError::Illegal { from, to, legal });
        }
        let mut missing: Vec<String> = Vec::new();
        if let Some(kind) = gate_of(from) {
            let gate = self.gate(kind);
            if !gate.passed {
                missing.push(gate_missing(gate, kind));
            }
        }
        if missing.is_empty() {
            for r in PipelineRun::requirements(to) {
                if let Err(m) = check(*r) {
                    missing.push(m);
                }
            }
        }
        if !missing.is_empty() {
            return Err(RunError::Unmet { from, to, missing: missing.join("; ") });
        }
        if let Some(kind) = gate_of(to) {
            *self.gate_mut(kind) = Gate::new();
        }
        self.record(to, now, note);
        Ok(())
    }

    /// Pauses a working state for the user.
    pub fn pause(&mut self, reason: PauseReason, message: String, now: DateTime<Utc>) -> Result<(), RunError> {
        let from = self.state;
        if !from.is_working() {
            return Err(RunError::Invalid(format!("the pipeline is {from}; only a working state can pause")));
        }
        self.paused = Some(Pause { from, reason, message: message.clone(), at: now });
        self.record(State::NeedsUserInput, now, Some(format!("{}: {message}", reason.name())));
        Ok(())
    }

    /// After the user answered: back to the state that paused.
    pub fn resume(&mut self, now: DateTime<Utc>) -> Result<State, RunError> {
        let Some(pause) = self.paused.take().filter(|_| self.state == State::NeedsUserInput) else {
            return Err(RunError::Invalid(format!("the pipeline is {}, not paused; nothing to resume", self.state)));
        };
        if let Some(kind) = gate_of(pause.from) {
            let gate = self.gate_mut(kind);
            match pause.reason {
                PauseReason::ReviewLoopExceeded => gate.continue_after_limit(),
                PauseReason::NeedsClarification
                | PauseReason::UnrecoverableError
                | PauseReason::LoopLimit
                | PauseReason::FinalGateUnavailable
                | PauseReason::Cancelled
                | PauseReason::Stale => {}
            }
        }
        self.record(pause.from, now, Some(format!("resumed after {}", pause.reason.name())));
        Ok(pause.from)
    }

    /// Marks the run failed in its current working state.
    pub fn fail(&mut self, message: String, now: DateTime<Utc>) -> Result<(), RunError> {
        let from = self.state;
        if !from.is_working() {
            return Err(RunError::Invalid(format!("the pipeline is {from}; only a working state can fail")));
        }
        self.failed = Some(Failure { from, message: message.clone(), at: now });
        self.record(State::Error, now, Some(message));
        Ok(())
    }

    /// Phase-aware recovery: back to the state that failed; its review round
    /// restarts from the first reviewer.
    pub fn recover(&mut self, now: DateTime<Utc>) -> Result<State, RunError> {
        let Some(failure) = self.failed.take().filter(|_| self.state == State::Error) else {
            return Err(RunError::Invalid(format!("the pipeline is {}, not in error; nothing to recover", self.state)));
        };
        if let Some(kind) = gate_of(failure.from) {
            self.gate_mut(kind).restart_round();
        }
        self.record(failure.from, now, Some("recovered".into()));
        Ok(failure.from)
    }

    /// Back to idle: gates, pause and failure cleared; the request stays.
    pub fn reset(&mut self, now: DateTime<Utc>) {
        self.plan_review = Gate::default();
        self.code_review = Gate::default();
        self.paused = None;
        self.failed = None;
        self.record(State::Idle, now, Some("reset".into()));
    }
}

/// The review gate a state runs, if any.
pub(crate) fn gate_of(state: State) -> Option<GateKind> {
    match state {
        State::PlanReviewing => Some(GateKind::Plan),
        State::ImplementingLoop => Some(GateKind::Code),
        State::Idle
        | State::RequirementsGathering
        | State::PlanDrafting
        | State::PlanRefining
        | State::Implementing
        | State::Complete
        | State::Error
        | State::NeedsUserInput => None,
    }
}

/// What is open in a gate that has not passed, in one phrase.
pub(crate) fn gate_missing(gate: &Gate, kind: GateKind) -> String {
    let round = gate.round.max(1);
    match (&gate.fixing, gate.expected()) {
        (Some(f), _) => format!(
            "the {kind} review gate has not passed: the {} is fixing the findings of round {}",
            kind.worker(),
            f.round
        ),
        (None, Some(stage)) => {
            format!("the {kind} review gate has not passed (round {round}, the {stage} review is next)")
        }
        (None, None) => format!("the {kind} review gate has not passed"),
    }
}

/// Its class: what a front end maps it to.
impl crate::error::Classified for RunError {
    fn class(&self) -> crate::error::ErrorClass {
        use RunError as E;
        match self {
            E::Illegal { .. } | E::Unmet { .. } | E::Invalid(_) => crate::error::ErrorClass::Refused,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::files::GateReviewStatus;
    use crate::pipeline::gate::Stage;
    use chrono::TimeZone;

    fn t(m: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, 22, 10, m, 0).unwrap()
    }

    fn ok(_: Requirement) -> Result<(), String> {
        Ok(())
    }

    fn pass(gate: &mut Gate) {
        for s in Stage::ALL {
            gate.admit(s, "v", GateKind::Code).unwrap();
            gate.record(s, GateReviewStatus::Approved, "v", 10, t(0)).unwrap();
        }
    }

    #[test]
    fn illegal_transitions_list_the_legal_ones() {
        let mut r = PipelineRun::new("x".into(), None, t(0));
        let e = r.transition(State::Implementing, t(1), None, ok).unwrap_err();
        assert_eq!(
            e.to_string(),
            "cannot go from idle to implementing; from idle the legal transitions are: requirements_gathering"
        );
        r.transition(State::RequirementsGathering, t(1), None, ok).unwrap();
        let e = r.transition(State::Complete, t(1), None, ok).unwrap_err().to_string();
        assert!(e.ends_with("plan_drafting, needs_user_input, error"), "{e}");
        assert_eq!(r.history.len(), 1);
    }

    #[test]
    fn requirements_are_checked() {
        let mut r = PipelineRun::new("x".into(), None, t(0));
        r.transition(State::RequirementsGathering, t(1), None, ok).unwrap();
        let e = r
            .transition(State::PlanDrafting, t(2), None, |req| match req {
                Requirement::UserStory => Err(".task/user-story.json is missing".into()),
                _ => Ok(()),
            })
            .unwrap_err();
        assert!(e.to_string().contains("user-story.json is missing"), "{e}");
        assert_eq!(r.state, State::RequirementsGathering);
    }

    #[test]
    fn gates_must_pass_before_moving_on() {
        let mut r = PipelineRun::new("x".into(), None, t(0));
        for s in [State::RequirementsGathering, State::PlanDrafting, State::PlanRefining, State::PlanReviewing] {
            r.transition(s, t(1), None, ok).unwrap();
        }
        let e = r.transition(State::Implementing, t(2), None, ok).unwrap_err().to_string();
        assert!(e.contains("plan review gate has not passed (round 1, the sonnet review is next)"), "{e}");
        pass(&mut r.plan_review);
        r.transition(State::Implementing, t(3), None, ok).unwrap();
        r.transition(State::ImplementingLoop, t(3), None, ok).unwrap();
        assert_eq!(r.code_review, Gate::new());
        let mut ran_tests = false;
        let e = r.transition(State::Complete, t(4), None, |_| {
            ran_tests = true;
            Ok(())
        });
        assert!(e.is_err() && !ran_tests, "tests run only once the code gate passed");
        pass(&mut r.code_review);
        r.transition(State::Complete, t(5), None, ok).unwrap();
    }

    #[test]
    fn pause_resume_and_the_loop_limit() {
        let mut r = PipelineRun::new("x".into(), None, t(0));
        for s in [State::RequirementsGathering, State::PlanDrafting, State::PlanRefining, State::PlanReviewing] {
            r.transition(s, t(1), None, ok).unwrap();
        }
        r.plan_review.record(Stage::Sonnet, GateReviewStatus::NeedsChanges, "v", 1, t(2)).unwrap();
        r.pause(PauseReason::ReviewLoopExceeded, "10 rounds".into(), t(2)).unwrap();
        assert_eq!(r.state, State::NeedsUserInput);
        assert!(r.pause(PauseReason::Cancelled, "again".into(), t(3)).is_err());
        assert_eq!(r.resume(t(3)).unwrap(), State::PlanReviewing);
        assert_eq!((r.plan_review.loops, r.plan_review.expected()), (0, Some(Stage::Sonnet)));
        assert!(r.resume(t(4)).is_err());
    }

    #[test]
    fn fail_and_recover_go_back_to_the_failed_phase() {
        let mut r = PipelineRun::new("x".into(), None, t(0));
        r.transition(State::RequirementsGathering, t(1), None, ok).unwrap();
        r.fail("build broke".into(), t(2)).unwrap();
        assert_eq!(r.state, State::Error);
        assert_eq!(r.recover(t(3)).unwrap(), State::RequirementsGathering);
        assert!(r.recover(t(4)).is_err());
        r.reset(t(5));
        assert_eq!(r.state, State::Idle);
        assert_eq!(r.history.last().unwrap().note.as_deref(), Some("reset"));
    }
}
