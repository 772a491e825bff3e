//! A review gate: sonnet → opus → final gate, in this order, until one round
//! approves all three (seed 001, Automated Review Loop). A needs_changes at
//! any stage ends the round: the worker fixes, the loop count grows, and the
//! next round restarts from the first reviewer, so the approvals that pass a
//! gate are all of the same version of the work.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::files::ReviewStatus;

/// Plan review (plan_reviewing) or code review (implementing_loop).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GateKind {
    Plan,
    Code,
}

impl GateKind {
    /// The agent that reviews at the sonnet and opus stages.
    pub fn reviewer(self) -> &'static str {
        match self {
            GateKind::Plan => "plan-reviewer",
            GateKind::Code => "code-reviewer",
        }
    }

    /// The worker that fixes what reviewers find.
    pub fn worker(self) -> &'static str {
        match self {
            GateKind::Plan => "planner",
            GateKind::Code => "implementer",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    Sonnet,
    Opus,
    Final,
}

impl Stage {
    pub const ALL: [Stage; 3] = [Stage::Sonnet, Stage::Opus, Stage::Final];

    pub fn name(self) -> &'static str {
        match self {
            Stage::Sonnet => "sonnet",
            Stage::Opus => "opus",
            Stage::Final => "final",
        }
    }

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

impl fmt::Display for Stage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown review stage `{0}`; expected one of: sonnet, opus, final")]
pub struct UnknownStage(pub String);

impl FromStr for Stage {
    type Err = UnknownStage;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Stage::ALL.into_iter().find(|st| st.name() == s).ok_or_else(|| UnknownStage(s.to_owned()))
    }
}

/// The state of one gate, kept in the pipeline's state.json.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Gate {
    /// The current round, from 1.
    pub round: u32,
    /// Rounds that ended in needs_changes (the seed's LOOP_COUNT).
    pub loops: u32,
    /// This round's results, in stage order.
    #[serde(default)]
    pub results: Vec<StageResult>,
    #[serde(default)]
    pub passed: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StageResult {
    pub stage: Stage,
    pub status: ReviewStatus,
}

/// What the orchestrator does after a review was recorded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GateDecision {
    /// Approved: run this stage next.
    Next { stage: Stage },
    /// All three approved in one round.
    Passed,
    /// Resume the worker to fix the findings, then review from sonnet again.
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
}

impl Gate {
    pub fn new() -> Self {
        Gate { round: 1, loops: 0, results: Vec::new(), passed: false }
    }

    /// The stage to review next, or None when the gate has passed.
    pub fn expected(&self) -> Option<Stage> {
        if self.passed {
            return None;
        }
        match self.results.last() {
            None => Some(Stage::Sonnet),
            Some(r) => match r.status {
                ReviewStatus::Approved | ReviewStatus::Skipped => r.stage.next(),
                // Waiting for the user's answer: the same stage reviews again.
                ReviewStatus::NeedsClarification | ReviewStatus::NeedsChanges => Some(r.stage),
            },
        }
    }

    /// Records one review and says what happens next.
    pub fn record(&mut self, stage: Stage, status: ReviewStatus, loop_limit: u32) -> Result<GateDecision, GateError> {
        if status == ReviewStatus::Skipped && stage != Stage::Final {
            return Err(GateError::SkipNotFinal);
        }
        let expected = self.expected().ok_or(GateError::AlreadyPassed)?;
        if stage != expected {
            return Err(GateError::OutOfOrder { round: self.round.max(1), expected, got: stage });
        }
        if self.round == 0 {
            self.round = 1;
        }
        if let Some(last) = self.results.last()
            && last.stage == stage
        {
            self.results.pop();
        }
        match status {
            ReviewStatus::Approved | ReviewStatus::Skipped => {
                self.results.push(StageResult { stage, status });
                match stage.next() {
                    Some(next) => Ok(GateDecision::Next { stage: next }),
                    None => {
                        self.passed = true;
                        Ok(GateDecision::Passed)
                    }
                }
            }
            ReviewStatus::NeedsClarification => {
                self.results.push(StageResult { stage, status });
                Ok(GateDecision::Clarify)
            }
            ReviewStatus::NeedsChanges => {
                self.loops += 1;
                if self.loops >= loop_limit {
                    self.results.push(StageResult { stage, status });
                    return Ok(GateDecision::LimitReached);
                }
                self.round += 1;
                self.results.clear();
                Ok(GateDecision::Fix)
            }
        }
    }

    /// After the user chose to go on past the loop limit: a fresh count, a
    /// new round from the first reviewer.
    pub fn continue_after_limit(&mut self) {
        self.loops = 0;
        self.round += 1;
        self.results.clear();
    }

    /// Restart the current round from the first reviewer (after recovery).
    pub fn restart_round(&mut self) {
        if !self.passed {
            self.results.clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ReviewStatus::*;

    #[test]
    fn three_approvals_in_order_pass() {
        let mut g = Gate::new();
        assert_eq!(g.expected(), Some(Stage::Sonnet));
        assert_eq!(g.record(Stage::Sonnet, Approved, 10).unwrap(), GateDecision::Next { stage: Stage::Opus });
        assert_eq!(g.record(Stage::Opus, Approved, 10).unwrap(), GateDecision::Next { stage: Stage::Final });
        assert_eq!(g.record(Stage::Final, Approved, 10).unwrap(), GateDecision::Passed);
        assert!(g.passed);
        assert_eq!(g.expected(), None);
        assert_eq!(g.record(Stage::Sonnet, Approved, 10).unwrap_err(), GateError::AlreadyPassed);
    }

    #[test]
    fn order_is_enforced() {
        let mut g = Gate::new();
        let e = g.record(Stage::Opus, Approved, 10).unwrap_err();
        assert_eq!(e.to_string(), "round 1 expects the sonnet review next, not opus (order: sonnet → opus → final)");
    }

    #[test]
    fn needs_changes_restarts_from_the_first_reviewer_and_counts() {
        let mut g = Gate::new();
        g.record(Stage::Sonnet, Approved, 10).unwrap();
        g.record(Stage::Opus, Approved, 10).unwrap();
        assert_eq!(g.record(Stage::Final, NeedsChanges, 10).unwrap(), GateDecision::Fix);
        assert_eq!((g.round, g.loops), (2, 1));
        assert_eq!(g.expected(), Some(Stage::Sonnet));
        assert_eq!(g.record(Stage::Sonnet, NeedsChanges, 10).unwrap(), GateDecision::Fix);
        assert_eq!((g.round, g.loops), (3, 2));
    }

    #[test]
    fn the_limit_pauses() {
        let mut g = Gate::new();
        assert_eq!(g.record(Stage::Sonnet, NeedsChanges, 2).unwrap(), GateDecision::Fix);
        assert_eq!(g.record(Stage::Sonnet, NeedsChanges, 2).unwrap(), GateDecision::LimitReached);
        assert_eq!(g.loops, 2);
        g.continue_after_limit();
        assert_eq!((g.loops, g.expected()), (0, Some(Stage::Sonnet)));
    }

    #[test]
    fn clarification_repeats_the_stage() {
        let mut g = Gate::new();
        g.record(Stage::Sonnet, Approved, 10).unwrap();
        assert_eq!(g.record(Stage::Opus, NeedsClarification, 10).unwrap(), GateDecision::Clarify);
        assert_eq!(g.expected(), Some(Stage::Opus));
        assert_eq!(g.record(Stage::Opus, Approved, 10).unwrap(), GateDecision::Next { stage: Stage::Final });
        assert_eq!(g.results.len(), 2);
    }

    #[test]
    fn only_the_final_gate_may_be_skipped() {
        let mut g = Gate::new();
        assert_eq!(g.record(Stage::Sonnet, Skipped, 10).unwrap_err(), GateError::SkipNotFinal);
        g.record(Stage::Sonnet, Approved, 10).unwrap();
        g.record(Stage::Opus, Approved, 10).unwrap();
        assert_eq!(g.record(Stage::Final, Skipped, 10).unwrap(), GateDecision::Passed);
    }
}
